import { useEffect, useEffectEvent, useState } from 'react';
import { App as AntApp, Button, Form, Input, InputNumber, Modal, Select, Switch } from 'antd';
import { LOCALES, useT } from '@atrium/sdk';
import { docDetail, getEndpoint, saveDoc, saveEndpoint, type DocInput, type Endpoint } from '../api';

export function isAdmin(profile: { isAdmin?: unknown; isSuperAdmin?: unknown }): boolean {
  return Number(profile.isAdmin) === 2 || profile.isAdmin === true || Number(profile.isSuperAdmin) === 1 || profile.isSuperAdmin === true;
}

/** The document editor (administrators): title, menu, locale, manual link and HTML content. */
export function DocEditor({ id, locale, onClose }: { id?: string; locale: string; onClose: (saved: boolean) => void }) {
  const t = useT('help');
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<DocInput>();
  const [saving, setSaving] = useState(false);

  // the form is filled when the dialog opens on a document (a new one starts in the page's locale)
  const fill = useEffectEvent((docId?: string) => {
    if (docId) docDetail(docId).then((d) => form.setFieldsValue({ ...d, content: d.content || '' })).catch(() => onClose(false));
    else form.setFieldsValue({ menuCode: '', locale, title: '', content: '', manualUrl: '', sort: 0 });
  });
  useEffect(() => fill(id), [id]);

  const submit = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await saveDoc({ ...values, id });
      message.success(t('web.saved'));
      onClose(true);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open title={id ? t('web.edit') : t('web.new')} onOk={submit} confirmLoading={saving} onCancel={() => onClose(false)} okText={t('web.save')} cancelText={t('web.cancel')} width={720} destroyOnHidden>
      <Form form={form} layout="vertical" data-testid="help-editor">
        <Form.Item name="title" label={t('web.docTitle')} rules={[{ required: true, max: 200 }]}>
          <Input />
        </Form.Item>
        <Form.Item name="menuCode" label={t('web.menuCode')} extra={t('web.menuCodeHint')} rules={[{ pattern: /^[A-Za-z0-9_.:/-]*$/, max: 64 }]}>
          <Input />
        </Form.Item>
        <Form.Item name="locale" label={t('web.locale')}>
          <Select options={LOCALES.map((l) => ({ value: l, label: l }))} />
        </Form.Item>
        <Form.Item name="manualUrl" label={t('web.manualUrl')} rules={[{ type: 'url' }]}>
          <Input placeholder="https://" />
        </Form.Item>
        <Form.Item name="sort" label={t('web.sort')}>
          <InputNumber min={0} max={10000} />
        </Form.Item>
        <Form.Item name="content" label={t('web.content')} extra={t('web.contentHint')}>
          <Input.TextArea autoSize={{ minRows: 8, maxRows: 20 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The language-model endpoint of the tenant (administrators); an empty key field keeps the stored key. */
export function EndpointEditor({ onClose }: { onClose: () => void }) {
  const t = useT('help');
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<Omit<Endpoint, 'hasKey' | 'enabled'> & { apiKey?: string; enabled: boolean }>();
  const [hasKey, setHasKey] = useState(false);
  const [saving, setSaving] = useState(false);

  const unavailable = useEffectEvent(() => onClose());
  useEffect(() => {
    getEndpoint()
      .then((e) => {
        setHasKey(e.hasKey);
        form.setFieldsValue({ ...e, enabled: !!e.enabled, apiKey: '' });
      })
      .catch(() => unavailable());
  }, [form]);

  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      await saveEndpoint({ baseUrl: v.baseUrl || '', model: v.model || '', timeoutSeconds: v.timeoutSeconds, enabled: v.enabled ? 1 : 0, apiKey: v.apiKey ? v.apiKey : null });
      message.success(t('web.saved'));
      onClose();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open title={t('web.endpoint')} onOk={submit} confirmLoading={saving} onCancel={onClose} okText={t('web.save')} cancelText={t('web.cancel')} destroyOnHidden>
      <Form form={form} layout="vertical" data-testid="help-endpoint">
        <Form.Item name="baseUrl" label={t('web.baseUrl')} extra={t('web.baseUrlHint')} rules={[{ type: 'url' }]}>
          <Input placeholder="https://api.example.com/v1" />
        </Form.Item>
        <Form.Item name="model" label={t('web.model')}>
          <Input />
        </Form.Item>
        <Form.Item name="apiKey" label={t('web.apiKey')} extra={hasKey ? t('web.apiKeyKept') : undefined}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="timeoutSeconds" label={t('web.timeoutSeconds')}>
          <InputNumber min={1} max={300} />
        </Form.Item>
        <Form.Item name="enabled" label={t('web.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function AdminButtons({ onNew, onEndpoint }: { onNew: () => void; onEndpoint: () => void }) {
  const t = useT('help');
  return (
    <>
      <Button type="primary" onClick={onNew} data-testid="help-new">{t('web.new')}</Button>
      <Button onClick={onEndpoint} data-testid="help-endpoint-button">{t('web.endpoint')}</Button>
    </>
  );
}
