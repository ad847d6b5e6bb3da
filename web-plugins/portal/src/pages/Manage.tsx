import { useCallback, useEffect, useState } from 'react';
import { App, Button, Card, Form, Input, Modal, Popconfirm, Select, Space, Switch, Table, Tag } from 'antd';
import { useT } from '@atrium/sdk';
import { api, CATEGORIES, type Article, type Page } from '../api';
import { CoverUpload } from '../editor/CoverUpload';
import { RichText } from '../editor/RichText';

interface FormValues {
  category: string;
  title: string;
  summary?: string;
  coverUrl?: string;
  content?: string;
  pinned?: boolean;
  public?: boolean;
  publishStart?: string;
  publishEnd?: string;
}

const toLocalInput = (iso: string | null) => (iso ? iso.slice(0, 16) : '');

/** Content management (`/content-management`): write, preview, publish and unpublish articles. */
export function Manage() {
  const t = useT('portal');
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const [query, setQuery] = useState({ keyword: '', category: '', status: '', pageIndex: 1 });
  const [data, setData] = useState<Page<Article>>({ list: [], total: 0, pageIndex: 1, pageRows: 10 });
  const [loading, setLoading] = useState(false);
  const [editing, setEditing] = useState<Article | 'new' | null>(null);
  const [preview, setPreview] = useState<string | null>(null);

  const reload = useCallback(() => {
    setLoading(true);
    api.manageList({ ...query, pageRows: 10 }).then(setData).catch(() => undefined).finally(() => setLoading(false));
  }, [query]);
  useEffect(reload, [reload]);

  const openEditor = async (a: Article | 'new') => {
    form.resetFields();
    if (a !== 'new') {
      const full = await api.get(a.id);
      form.setFieldsValue({ ...full, publishStart: toLocalInput(full.publishStart), publishEnd: toLocalInput(full.publishEnd) });
    } else {
      form.setFieldsValue({ category: 'news', pinned: false, public: false });
    }
    setEditing(a);
  };

  const save = async () => {
    const v = await form.validateFields();
    const body = { ...v, id: editing && editing !== 'new' ? editing.id : undefined, publishStart: v.publishStart || null, publishEnd: v.publishEnd || null };
    await api.save(body);
    message.success(t('web.saved'));
    setEditing(null);
    reload();
  };

  const act = async (fn: () => Promise<unknown>, done: string) => {
    await fn();
    message.success(done);
    reload();
  };

  return (
    <Card variant="borderless" title={t('web.manage')} data-testid="content-management"
      extra={<Button type="primary" onClick={() => void openEditor('new')} data-testid="article-new">{t('web.new')}</Button>}>
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search allowClear placeholder={t('web.search')} onSearch={(v) => setQuery({ ...query, keyword: v.trim(), pageIndex: 1 })} style={{ width: 220 }} />
        <Select style={{ width: 160 }} aria-label={t('web.category')} value={query.category} onChange={(v) => setQuery({ ...query, category: v, pageIndex: 1 })}
          options={[{ value: '', label: t('web.category') }, ...CATEGORIES.map((c) => ({ value: c, label: t(`web.categories.${c}`) }))]} />
        <Select style={{ width: 140 }} aria-label={t('web.status')} value={query.status} onChange={(v) => setQuery({ ...query, status: v, pageIndex: 1 })}
          options={[{ value: '', label: t('web.status') }, { value: 'draft', label: t('web.statuses.draft') }, { value: 'published', label: t('web.statuses.published') }]} />
      </Space>
      <Table<Article>
        rowKey="id" loading={loading} dataSource={data.list} size="middle"
        pagination={{ current: query.pageIndex, total: data.total, pageSize: 10, showSizeChanger: false, onChange: (p) => setQuery({ ...query, pageIndex: p }) }}
        columns={[
          { title: t('web.title'), dataIndex: 'title', render: (v: string, a) => <>{a.pinned && <Tag color="red" bordered={false}>{t('web.pinned')}</Tag>}{v}</> },
          { title: t('web.category'), dataIndex: 'category', width: 130, render: (c: string) => t(`web.categories.${c}`) },
          { title: t('web.status'), dataIndex: 'status', width: 110, render: (s: string) => <Tag color={s === 'published' ? 'green' : 'default'}>{t(`web.statuses.${s}`)}</Tag> },
          { title: t('web.updatedAt'), dataIndex: 'updatedAt', width: 170, render: (v: string | null) => (v || '').replace('T', ' ') },
          {
            title: t('web.actions'), key: 'actions', width: 260,
            render: (_: unknown, a) => (
              <Space size="small">
                <Button size="small" type="link" onClick={() => void openEditor(a)}>{t('web.edit')}</Button>
                {a.status === 'published'
                  ? <Button size="small" type="link" onClick={() => void act(() => api.unpublish(a.id), t('web.unpublished'))} data-testid={`unpublish-${a.id}`}>{t('web.unpublish')}</Button>
                  : <Button size="small" type="link" onClick={() => void act(() => api.publish(a.id), t('web.published'))} data-testid={`publish-${a.id}`} data-track="publish-article">{t('web.publish')}</Button>}
                <Popconfirm title={t('web.confirmDelete')} onConfirm={() => void act(() => api.remove(a.id), t('web.deleted'))}>
                  <Button size="small" type="link" danger>{t('web.delete')}</Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Modal open={editing !== null} width={760} destroyOnHidden title={editing === 'new' ? t('web.new') : t('web.edit')} onCancel={() => setEditing(null)}
        footer={[
          <Button key="preview" onClick={() => void api.preview(form.getFieldValue('content') || '').then((r) => setPreview(r.content))} data-testid="article-preview">{t('web.preview')}</Button>,
          <Button key="cancel" onClick={() => setEditing(null)}>{t('web.cancel')}</Button>,
          <Button key="save" type="primary" onClick={() => void save()} data-testid="article-save">{t('web.save')}</Button>,
        ]}>
        <Form form={form} layout="vertical">
          <Space.Compact block>
            <Form.Item name="category" label={t('web.category')} rules={[{ required: true }]} style={{ width: 200, marginRight: 12 }}>
              <Select options={CATEGORIES.map((c) => ({ value: c, label: t(`web.categories.${c}`) }))} data-testid="article-category" />
            </Form.Item>
            <Form.Item name="title" label={t('web.title')} rules={[{ required: true, whitespace: true, max: 200 }]} style={{ flex: 1 }}>
              <Input maxLength={200} data-testid="article-title-input" />
            </Form.Item>
          </Space.Compact>
          <Form.Item name="summary" label={t('web.summary')} rules={[{ max: 500 }]}><Input maxLength={500} /></Form.Item>
          <Form.Item name="coverUrl" label={t('web.cover')}><CoverUpload /></Form.Item>
          <Form.Item name="content" label={t('web.content')}><RichText /></Form.Item>
          <Space wrap size="large">
            <Form.Item name="publishStart" label={`${t('web.window')} ↦`}><Input type="datetime-local" /></Form.Item>
            <Form.Item name="publishEnd" label="↤"><Input type="datetime-local" /></Form.Item>
            <Form.Item name="pinned" label={t('web.pinned')} valuePropName="checked"><Switch /></Form.Item>
            <Form.Item name="public" label={t('web.public')} valuePropName="checked"><Switch /></Form.Item>
          </Space>
        </Form>
      </Modal>
      <Modal open={preview !== null} title={t('web.preview')} footer={null} onCancel={() => setPreview(null)} width={760}>
        <div className="at-article" data-testid="article-preview-content" dangerouslySetInnerHTML={{ __html: preview || '' }} />
      </Modal>
    </Card>
  );
}
