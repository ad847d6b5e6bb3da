import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, App, Button, Space, Spin } from 'antd';
import { useT } from '@atrium/sdk';
import { formsApi, type SubmissionDetail, type SubmissionRow } from '../api';
import { withDictionaries } from '../schemaInfo';
import { SchemaForm, type SchemaFormHandle } from '../SchemaForm';

/**
 * A submission opened for editing against the schema version it was made on (loaded with the form renderer,
 * only when an edit starts). A draft is kept as a draft or submitted; a submitted one stays submitted and is
 * checked again (the server checks the same, and decides who may edit: see `submission/update`).
 */
export function EditSubmission({ submissionId, onSaved }: { submissionId: string; onSaved: (row: SubmissionRow) => void }) {
  const t = useT('forms');
  const { message } = App.useApp();
  const form = useRef<SchemaFormHandle>(null);
  const [detail, setDetail] = useState<SubmissionDetail | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setDetail(null);
    formsApi.submission(submissionId).then(setDetail, (e) => setError(e.message));
  }, [submissionId]);
  const schema = useMemo(() => (detail ? withDictionaries(detail.schema, detail.dictionaries, t.locale) : null), [detail, t.locale]);
  const initial = useMemo(() => (detail ? { ...detail.data } : undefined), [detail]);
  if (error) return <Alert type="error" title={error} />;
  if (!detail || !schema) return <Spin />;
  const send = async (draft: boolean) => {
    const filled = form.current;
    if (!filled || (!draft && !filled.validate())) return;
    setBusy(true);
    try {
      const saved = await formsApi.update(detail.submissionId, filled.data(), draft);
      message.success(t(draft ? 'web.draftSaved' : 'web.saved'));
      onSaved(saved);
    } catch (e: any) {
      if (!filled.showServerErrors(e)) message.error(e.message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div data-testid="submission-edit">
      <SchemaForm ref={form} schema={schema} initial={initial} columns={detail.layout?.columns || 1} />
      <Space>
        <Button type="primary" loading={busy} onClick={() => send(false)} data-testid="edit-save">
          {t(detail.status === 'draft' ? 'web.submit' : 'web.save')}
        </Button>
        {detail.status === 'draft' && <Button loading={busy} onClick={() => send(true)} data-testid="edit-save-draft">{t('web.saveDraft')}</Button>}
      </Space>
    </div>
  );
}

export default EditSubmission;
