/** Publishing with an optional note: what viewers see becomes the draft as saved. */
import { Input, Modal } from 'antd';
import { useState } from 'react';
import { useDsT } from './i18n';

export function PublishDialog({ open, busy, unsaved, onPublish, onClose }: { open: boolean; busy: boolean; unsaved: boolean; onPublish: (note: string) => void; onClose: () => void }) {
  const { t } = useDsT();
  const [note, setNote] = useState('');
  return (
    <Modal
      open={open}
      title={t('publish.title')}
      okText={t('bar.publish')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      onOk={() => onPublish(note.trim())}
      onCancel={onClose}
      afterClose={() => setNote('')}
      okButtonProps={{ 'data-testid': 'publish-confirm' }}
    >
      <p>{t(unsaved ? 'publish.savesFirst' : 'publish.explain')}</p>
      <Input.TextArea data-testid="publish-note" maxLength={500} showCount autoSize={{ minRows: 2, maxRows: 6 }} placeholder={t('publish.note')} value={note} onChange={(e) => setNote(e.target.value)} />
    </Modal>
  );
}
