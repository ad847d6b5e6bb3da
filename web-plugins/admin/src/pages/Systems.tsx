import { useCallback, useEffect, useState } from 'react';
import { App as AntApp, Button, Form, Input, Modal, Popconfirm, Space, Switch, Table, Tag } from 'antd';
import { useT } from '@atrium/sdk';
import { api, type System } from '../api';
import { AdminOnly, pager, rowProps } from '../common';

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
  const shown = rows.filter((s) => !keyword || `${s.systemCode} ${s.systemName}`.toLowerCase().includes(keyword.toLowerCase()));
  const open = (s: System | 'new') => { form.resetFields(); form.setFieldsValue(s === 'new' ? { useState: true } : { ...s, useState: s.useState === 1 }); setEditing(s); };
  return (
    <AdminOnly superOnly>
      <Space style={{ marginBottom: 12 }}>
        <Input.Search allowClear placeholder={t('web.search')} onSearch={(v) => { setKeyword(v); setPage(1); }} style={{ width: 240 }} />
        <Button type="primary" onClick={() => open('new')}>{t('web.new')}</Button>
      </Space>
      <Table<System> rowKey="systemCode" size="small" dataSource={shown} onRow={rowProps} pagination={pager(shown.length, page, setPage)}
        columns={[
          { title: t('web.systemCode'), dataIndex: 'systemCode' },
          { title: t('web.systemName'), dataIndex: 'systemName' },
          { title: 'EN', dataIndex: 'systemEnName' },
          { title: t('web.iconUrl'), dataIndex: 'iconUrl' },
          { title: t('web.requestUrl'), dataIndex: 'requestUrl' },
          { title: t('web.useState'), dataIndex: 'useState', render: (v: number) => <Tag color={v === 1 ? 'green' : 'default'}>{t(v === 1 ? 'web.yes' : 'web.no')}</Tag> },
          {
            title: t('web.actions'), key: 'a', render: (_, s) => (
              <Space size={0}>
                <Button size="small" type="link" onClick={() => open(s)}>{t('web.edit')}</Button>
                <Popconfirm title={t('web.confirmDelete')} onConfirm={() => api.deleteSystem(s.systemCode).then(() => { message.success(t('web.deleted')); return reload(); }, () => undefined)}><Button size="small" type="link" danger data-testid={`system-delete-${s.systemCode}`}>{t('web.delete')}</Button></Popconfirm>
              </Space>
            ),
          },
        ]} />
      <Modal open={editing !== null} title={t(editing === 'new' ? 'web.new' : 'web.edit')} onCancel={() => setEditing(null)} destroyOnHidden
        onOk={async () => { const v = await form.validateFields(); await api.saveSystem({ ...v, useState: v.useState ? 1 : 0 }); setEditing(null); message.success(t('web.saved')); reload(); }}>
        <Form form={form} layout="vertical">
          <Form.Item name="systemCode" label={t('web.systemCode')} rules={[{ required: true, pattern: /^[A-Za-z0-9_-]{1,64}$/, message: t('web.codeRule') }]}><Input disabled={editing !== 'new'} /></Form.Item>
          <Form.Item name="systemName" label={t('web.systemName')} rules={[{ required: true, whitespace: true, max: 64, message: t('web.required') }]}><Input /></Form.Item>
          <Form.Item name="systemEnName" label="EN / JSON"><Input maxLength={255} placeholder='{"en-us": "...", "hu-hu": "..."}' /></Form.Item>
          <Form.Item name="iconUrl" label={t('web.iconUrl')}><Input maxLength={512} /></Form.Item>
          <Form.Item name="requestUrl" label={t('web.requestUrl')}><Input maxLength={512} /></Form.Item>
          <Form.Item name="useState" label={t('web.useState')} valuePropName="checked"><Switch /></Form.Item>
        </Form>
      </Modal>
    </AdminOnly>
  );
}
