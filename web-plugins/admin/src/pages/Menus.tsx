import { useCallback, useEffect, useMemo, useState } from 'react';
import { App as AntApp, Button, Card, Form, Input, InputNumber, Popconfirm, Select, Space, Switch, Table, Tree, Typography } from 'antd';
import type { TreeProps } from 'antd';
import { LANGUAGE_NAMES, useT, type Locale } from '@atrium/sdk';
import { api, type Menu, type Resource, type System } from '../api';
import { AdminOnly, rowProps } from '../common';
import { MenuIconField } from './MenuIconField';
import { buildTree } from './tree';

const OTHER_LOCALES = ['en-us', 'zh-tw', 'vi-vn', 'hu-hu'];

function parseParameter(text: string): { menu_type?: string; diy_code?: string; layout_code?: string } {
  try { return text ? JSON.parse(text) : {}; } catch { return {}; }
}

export function Menus() {
  const t = useT('admin');
  const { message } = AntApp.useApp();
  const [systems, setSystems] = useState<System[]>([]);
  const [systemCode, setSystemCode] = useState('iotAutho');
  const [menus, setMenus] = useState<Menu[]>([]);
  const [resources, setResources] = useState<Resource[]>([]);
  const [current, setCurrent] = useState<Menu | 'new' | null>(null);
  const [parentId, setParentId] = useState<string | null>(null);
  const [form] = Form.useForm();
  const [resForm] = Form.useForm();

  const reload = useCallback(() => Promise.all([api.menus(systemCode).then(setMenus), api.resources(systemCode).then(setResources)]), [systemCode]);
  useEffect(() => { api.systems().then(setSystems); }, []);
  useEffect(() => { reload(); setCurrent(null); }, [reload]);
  const tree = useMemo(() => buildTree(menus, t.locale), [menus, t.locale]);

  const edit = (m: Menu | 'new', parent: string | null = null) => {
    form.resetFields();
    if (m !== 'new') {
      const en = typeof m.menuEnName === 'object' && m.menuEnName ? m.menuEnName : { 'en-us': (m.menuEnName as string) || '' };
      form.setFieldsValue({ ...m, isCache: !!m.isCache, isFetch: !!m.isFetch, en, param: parseParameter(m.parameter) });
      setParentId(m.parentId);
    } else {
      form.setFieldsValue({ isCache: true, isFetch: false, en: {}, param: {} });
      setParentId(parent);
    }
    setCurrent(m);
  };

  const save = async () => {
    const v = await form.validateFields();
    const param = Object.fromEntries(Object.entries(v.param || {}).filter(([, x]) => x));
    const en = Object.fromEntries(Object.entries(v.en || {}).filter(([, x]) => x));
    await api.saveMenu({
      systemCode, menuCode: v.menuCode, menuName: v.menuName, menuEnName: en, menuUrl: v.menuUrl || '', parentId: parentId ? Number(parentId) : null,
      parameter: Object.keys(param).length ? JSON.stringify(param) : '', sort: v.sort || 0, menuIconurl: v.menuIconurl || '', isCache: v.isCache,
      isFetch: v.isFetch, subscriptKey: v.subscriptKey || '', userManualUrl: v.userManualUrl || '',
    });
    message.success(t('web.saved'));
    await reload();
  };

  const onDrop: TreeProps['onDrop'] = async (info) => {
    const dragged = Number(String(info.dragNode.key).slice(2));
    const target = String(info.node.key).slice(2);
    const targetMenu = menus.find((m) => m.menuId === target);
    let parent: number | null;
    let sort: number;
    if (!info.dropToGap) {
      parent = Number(target);
      sort = 0;
    } else {
      parent = targetMenu?.parentId ? Number(targetMenu.parentId) : null;
      const siblings = menus.filter((m) => (m.parentId ? Number(m.parentId) : null) === parent && Number(m.menuId) !== dragged);
      const at = siblings.findIndex((m) => m.menuId === target);
      sort = info.dropPosition < 0 ? Math.max(at, 0) : at + 1;
    }
    await api.moveMenu(dragged, parent, sort);
    await reload();
  };

  const menuResources = current && current !== 'new' ? resources.filter((r) => r.menuId === current.menuId) : [];

  return (
    <AdminOnly superOnly>
      <Space style={{ marginBottom: 12 }}>
        <Select value={systemCode} onChange={setSystemCode} aria-label={t('web.system')} style={{ width: 220 }} options={systems.map((s) => ({ value: s.systemCode, label: s.systemName }))} />
        <Button type="primary" onClick={() => edit('new')} data-testid="menu-new">{t('web.new')}</Button>
        <Typography.Text type="secondary">{t('web.dragHint')}</Typography.Text>
      </Space>
      <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
        <Card size="small" style={{ width: 360 }}>
          <Tree draggable blockNode defaultExpandAll treeData={tree} onDrop={onDrop} data-testid="menu-tree"
            selectedKeys={current && current !== 'new' ? [`m:${current.menuId}`] : []}
            onSelect={(_, e) => { const node = e.node as unknown as { menu?: Menu }; if (node.menu) edit(node.menu); }} />
        </Card>
        {current && (
          <Card size="small" style={{ flex: 1 }} title={current === 'new' ? t('web.new') : current.menuName}
            extra={<Space>{current !== 'new' && <Button size="small" onClick={() => edit('new', current.menuId)}>{t('web.newChild')}</Button>}
              {current !== 'new' && (
                <Popconfirm title={t('web.confirmDeleteMenu')} onConfirm={() => api.deleteMenu(Number(current.menuId)).then(async () => { message.success(t('web.deleted')); setCurrent(null); await reload(); }, () => undefined)}>
                  <Button size="small" danger data-testid="menu-delete">{t('web.delete')}</Button>
                </Popconfirm>
              )}<Button type="primary" size="small" onClick={save} data-testid="menu-save">{t('web.save')}</Button></Space>}>
            <Form form={form} layout="vertical" style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', columnGap: 16 }}>
              <Form.Item name="menuCode" label={t('web.menuCode')} rules={[{ required: true, whitespace: true, max: 128, message: t('web.required') }]}><Input disabled={current !== 'new'} /></Form.Item>
              <Form.Item name="menuName" label={t('web.menuName')} rules={[{ required: true, whitespace: true, max: 128, message: t('web.required') }]}><Input /></Form.Item>
              {OTHER_LOCALES.map((loc) => (
                <Form.Item key={loc} name={['en', loc]} label={t('web.menuEnName', { locale: LANGUAGE_NAMES[loc as Locale] })}><Input maxLength={128} /></Form.Item>
              ))}
              <Form.Item name="menuUrl" label={t('web.menuUrl')} extra="https://host/page?token={token}&menuId={menuId}&systemCode={systemCode}"><Input maxLength={512} /></Form.Item>
              <Form.Item name="menuIconurl" label={t('web.icon')}><MenuIconField /></Form.Item>
              <Form.Item name={['param', 'menu_type']} label="menu_type"><Select allowClear options={[{ value: 'DYNAMIC_FORM', label: 'DYNAMIC_FORM' }]} /></Form.Item>
              <Form.Item name={['param', 'diy_code']} label="diy_code"><Input maxLength={128} /></Form.Item>
              <Form.Item name={['param', 'layout_code']} label="layout_code"><Input maxLength={128} /></Form.Item>
              <Form.Item name="sort" label="Sort"><InputNumber min={0} /></Form.Item>
              <Form.Item name="isCache" label={t('web.isCache')} valuePropName="checked"><Switch /></Form.Item>
              <Form.Item name="isFetch" label={t('web.isFetch')} valuePropName="checked"><Switch /></Form.Item>
              <Form.Item name="subscriptKey" label={t('web.subscriptKey')}><Input maxLength={64} /></Form.Item>
              <Form.Item name="userManualUrl" label={t('web.userManualUrl')}><Input maxLength={512} /></Form.Item>
            </Form>
            {current !== 'new' && (
              <>
                <h4>{t('web.resources')}</h4>
                <Table<Resource> size="small" rowKey="resourceId" dataSource={menuResources} pagination={false} onRow={rowProps}
                  columns={[{ title: t('web.resourceCode'), dataIndex: 'resourceCode' }, { title: t('web.resourceName'), dataIndex: 'resourceName' }]} />
                <Form form={resForm} layout="inline" style={{ marginTop: 8 }}
                  onFinish={async (v) => { await api.saveResource({ ...v, menuId: Number(current.menuId) }); resForm.resetFields(); reload(); }}>
                  <Form.Item name="resourceCode" rules={[{ required: true, pattern: /^[A-Za-z0-9_:.-]{1,128}$/, message: t('web.codeRule') }]}><Input placeholder={t('web.resourceCode')} data-testid="resource-code" /></Form.Item>
                  <Form.Item name="resourceName" rules={[{ required: true, whitespace: true, message: t('web.required') }]}><Input placeholder={t('web.resourceName')} data-testid="resource-name" /></Form.Item>
                  <Button htmlType="submit" data-testid="resource-add">{t('web.new')}</Button>
                </Form>
              </>
            )}
          </Card>
        )}
      </div>
    </AdminOnly>
  );
}
