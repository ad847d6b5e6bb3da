/** The panel's proxy user: viewers see its data, options and exports in that user's data scope. A tenant
 * administrator may name any member; other managers only themselves. */
import { Alert, App, Button, Descriptions, Modal, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useIsPhone } from '../data/useIsPhone';
import { designerApi } from './api';
import { useDsT } from './i18n';
import { SubjectSelect } from './SubjectSelect';
import type { ProxyUser } from './useProxyUser';

export interface ProxyDialogProps {
  panelId: string;
  open: boolean;
  proxy: ProxyUser;
  onClose: () => void;
}

export function ProxyDialog({ panelId, open, proxy, onClose }: ProxyDialogProps) {
  const { t } = useDsT();
  const { message } = App.useApp();
  const phone = useIsPhone();
  const [choice, setChoice] = useState<{ id: number | null; label: string }>({ id: null, label: '' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setChoice({ id: proxy.id ?? null, label: proxy.label || '' });
    setError(null);
  }, [open, proxy.id, proxy.label]);

  const save = async (userId: number | null, label: string) => {
    setBusy(true);
    setError(null);
    try {
      const answer = await designerApi.setProxy(panelId, userId);
      proxy.saved(answer?.proxy ?? null, label);
      message.success(userId == null ? t('proxy.cleared') : t('proxy.saved', { name: label }));
      onClose();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const picker = proxy.isAdmin ? (
    <SubjectSelect type="user" allowClear value={choice.id} valueLabel={choice.label} placeholder={t('proxy.search')} testId="proxy-user" onChange={(id, label) => setChoice({ id, label })} />
  ) : (
    <Select<number>
      allowClear
      data-testid="proxy-user"
      style={{ width: '100%' }}
      placeholder={t('proxy.pickSelf')}
      value={choice.id ?? undefined}
      options={[...(choice.id != null && choice.id !== proxy.me.id ? [{ value: choice.id, label: choice.label }] : []), { value: proxy.me.id, label: proxy.me.label || t('proxy.myself') }]}
      onChange={(id) => setChoice(id == null ? { id: null, label: '' } : { id, label: id === proxy.me.id ? proxy.me.label : choice.label })}
    />
  );

  return (
    <Modal
      open={open}
      title={t('proxy.title')}
      onCancel={onClose}
      width={phone ? '100%' : 520}
      style={phone ? { top: 8, maxWidth: 'calc(100vw - 16px)' } : undefined}
      destroyOnHidden
      footer={[
        proxy.id != null && (
          <Button key="clear" danger disabled={busy} data-testid="proxy-clear" onClick={() => void save(null, '')} style={{ float: 'left' }}>
            {t('proxy.clear')}
          </Button>
        ),
        <Button key="cancel" onClick={onClose}>{t('common.cancel')}</Button>,
        <Button key="save" type="primary" loading={busy} disabled={choice.id === (proxy.id ?? null)} data-testid="proxy-save" onClick={() => void save(choice.id, choice.label)}>
          {t('common.save')}
        </Button>,
      ]}
    >
      <div data-testid="proxy-dialog">
        <Typography.Paragraph type="secondary">{t('proxy.intro')}</Typography.Paragraph>
        <Descriptions size="small" column={1} style={{ marginBottom: 16 }} items={[{ key: 'current', label: t('proxy.current'), children: <span data-testid="proxy-current">{proxy.label || t('proxy.none')}</span> }]} />
        <Typography.Text strong style={{ display: 'block', marginBottom: 6 }}>{t('proxy.pick')}</Typography.Text>
        {picker}
        {!proxy.isAdmin && <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 6, marginBottom: 0 }}>{t('proxy.selfOnly')}</Typography.Paragraph>}
        {error && <Alert type="error" showIcon message={t('proxy.refused')} description={error} style={{ marginTop: 12 }} data-testid="proxy-error" />}
      </div>
    </Modal>
  );
}
