import { useEffect, useState } from 'react';
import { App, Modal, Radio, Space, Spin } from 'antd';
import { localeText, request, useT } from '@atrium/sdk';
import { store, useStore } from '../store';

interface SystemItem {
  systemCode: string;
  systemName: string;
  systemEnName?: string;
  useState?: number | string;
}

/** Default system: the system the user lands in after signing in. */
export function DefaultSystemDialog() {
  const t = useT();
  const { message } = App.useApp();
  const open = useStore((s) => s.defaultSystemOpen);
  const [systems, setSystems] = useState<SystemItem[] | null>(null);
  const [value, setValue] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (!open) return;
    setSystems(null);
    Promise.all([
      request<SystemItem[]>('base/base-tenant-system/find-user-system', { method: 'POST', data: {} }).catch(() => []),
      request<any>('base/base-system/default-system', { silent: true }).catch(() => undefined),
    ]).then(([list, current]) => {
      setSystems(Array.isArray(list) ? list : []);
      const code = typeof current === 'string' ? current : current?.systemCode || store.get().user?.defaultSystemCode;
      setValue(code || undefined);
    });
  }, [open]);
  const save = async () => {
    if (!value) {
      message.warning(t('defaultSystem.choose'));
      return;
    }
    setSaving(true);
    try {
      await request('base/base-system/default-system', { params: { systemCode: value } });
      message.success(t('defaultSystem.saved'));
      store.set({ defaultSystemOpen: false });
    } catch {
      /* shown by the request client */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open={open} title={t('user.defaultSystem')} onOk={save} confirmLoading={saving} okText={t('common.save')} cancelText={t('common.cancel')} onCancel={() => store.set({ defaultSystemOpen: false })}>
      {systems === null ? (
        <Spin />
      ) : (
        <Radio.Group value={value} onChange={(e) => setValue(e.target.value)}>
          <Space direction="vertical">
            {systems.map((s) => (
              <Radio key={s.systemCode} value={s.systemCode} disabled={String(s.useState ?? '1') !== '1'}>
                {localeText(s.systemName, s.systemEnName, t.locale)}
              </Radio>
            ))}
          </Space>
        </Radio.Group>
      )}
    </Modal>
  );
}
