import { useCallback, useEffect, useState } from 'react';
import { App as AntApp, Button, Form, Input, Modal, Popconfirm, Space, Switch, Table, Tag, Typography } from 'antd';
import { LANGUAGE_NAMES, localeText, useT, type Locale } from '@atrium/sdk';
import { api, type System } from '../api';
import { AdminOnly, pager, rowProps } from '../common';

/** Locales besides Simplified Chinese (`systemName`): their names are kept as JSON in `systemEnName`. */
const OTHER_LOCALES = ['en-us', 'zh-tw', 'vi-vn', 'hu-hu'];
const EN_NAME_LIMIT = 255;

function namesOf(systemEnName: string): Record<string, string> {
  if (!systemEnName) return {};
  try {
    const parsed: unknown = JSON.parse(systemEnName);
    if (parsed && typeof parsed === 'object') return parsed as Record<string, string>;
  } catch {
    /* plain English text */
  }
  return { 'en-us': systemEnName };
}

function enNameOf(names: Record<string, string | undefined> | undefined): string {
  const kept = Object.entries(names || {}).filter(([, v]) => v && v.trim()).map(([k, v]) => [k, (v as string).trim()]);
  return kept.length ? JSON.stringify(Object.fromEntries(kept)) : '';
}

export function Systems() {
  const t = useT('admin');
  const { message } = AntApp.useApp();
  const [rows, setRows] = useState<System[]>([]);
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<System | 'new' | null>(null);
  const [form] = Form.useForm();
  const reload = useCallback(() => api.systems().then(setRows), []);
  useEffect(() => { reload().catch(() => undefined); }, [reload]);
  const shown = rows.filter((s) => !keyword || `${s.systemCode} ${s.systemName} ${s.systemEnName}`.toLowerCase().includes(keyword.toLowerCase()));
  const open = (s: System | 'new') => {
    form.resetFields();
    form.setFieldsValue(s === 'new' ? { useState: true, names: {} } : { ...s, names: namesOf(s.systemEnName), useState: s.useState === 1 });
    setEditing(s);
  };
  const save = async () => {
    const v = await form.validateFields();
    const { names, ...fields } = v;
    await api.saveSystem({ ...fields, systemEnName: enNameOf(names), useState: v.useState ? 1 : 0 });
    setEditing(null);
    message.success(t('web.saved'));
    reload();
  };
  const enNameFits = () => ({
    validator: () => (enNameOf(form.getFieldValue('names')).length <= EN_NAME_LIMIT ? Promise.resolve() : Promise.reject(new Error(t('web.namesTooLong', { limit: EN_NAME_LIMIT })))),
  });
  return (
    <AdminOnly superOnly>
      <Space style={{ marginBottom: 12 }}>
        <Input.Search allowClear placeholder={t('web.search')} onSearch={(v) => { setKeyword(v); setPage(1); }} style={{ width: 240 }} data-testid="system-search" />
        <Button type="primary" onClick={() => open('new')} data-testid="system-new">{t('web.new')}</Button>
      </Space>
      <Table<System> rowKey="systemCode" size="small" dataSource={shown} onRow={rowProps} pagination={pager(shown.length, page, setPage)}
        columns={[
          { title: t('web.systemCode'), dataIndex: 'systemCode', render: (code: string) => <Typography.Text code>{code}</Typography.Text> },
          { title: t('web.systemName'), dataIndex: 'systemName' },
          {
            title: t('web.systemNames'), key: 'names', render: (_, s) => (
              <Space size={[0, 4]} wrap>{Object.entries(namesOf(s.systemEnName)).map(([loc, name]) => <Tag key={loc}>{LANGUAGE_NAMES[loc as Locale] ?? loc}: {name}</Tag>)}</Space>
            ),
          },
          { title: t('web.iconUrl'), dataIndex: 'iconUrl' },
          { title: t('web.requestUrl'), dataIndex: 'requestUrl' },
          { title: t('web.useState'), dataIndex: 'useState', render: (v: number) => <Tag color={v === 1 ? 'green' : 'default'}>{t(v === 1 ? 'web.yes' : 'web.no')}</Tag> },
          {
            title: t('web.actions'), key: 'a', render: (_, s) => (
              <Space size={0}>
                <Button size="small" type="link" onClick={() => open(s)} data-testid={`system-edit-${s.systemCode}`}>{t('web.edit')}</Button>
                <Popconfirm title={t('web.confirmDelete')} onConfirm={() => api.deleteSystem(s.systemCode).then(() => { message.success(t('web.deleted')); return reload(); }, () => undefined)}><Button size="small" type="link" danger data-testid={`system-delete-${s.systemCode}`}>{t('web.delete')}</Button></Popconfirm>
              </Space>
            ),
          },
        ]} />
      <Modal open={editing !== null} title={editing === 'new' || editing === null ? t('web.new') : localeText(editing.systemName, editing.systemEnName)}
        onCancel={() => setEditing(null)} destroyOnHidden onOk={save}>
        <Form form={form} layout="vertical">
          <Form.Item name="systemCode" label={t('web.systemCode')} rules={[{ required: true, pattern: /^[A-Za-z0-9_-]{1,64}$/, message: t('web.codeRule') }]}><Input disabled={editing !== 'new'} /></Form.Item>
          <Form.Item name="systemName" label={t('web.systemName')} rules={[{ required: true, whitespace: true, max: 64, message: t('web.required') }]}><Input /></Form.Item>
          {OTHER_LOCALES.map((loc) => (
            <Form.Item key={loc} name={['names', loc]} label={t('web.menuEnName', { locale: LANGUAGE_NAMES[loc as Locale] })} rules={[enNameFits]} dependencies={OTHER_LOCALES.map((x) => ['names', x])}>
              <Input maxLength={64} />
            </Form.Item>
          ))}
          <Form.Item name="iconUrl" label={t('web.iconUrl')}><Input maxLength={512} /></Form.Item>
          <Form.Item name="requestUrl" label={t('web.requestUrl')}><Input maxLength={512} /></Form.Item>
          <Form.Item name="useState" label={t('web.useState')} valuePropName="checked"><Switch /></Form.Item>
        </Form>
      </Modal>
    </AdminOnly>
  );
}
