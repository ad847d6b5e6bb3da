/** The file centre (/fileCenter): uploaded documents (file name, uploader, upload date, view picture,
 * delete with confirmation) and the tenant's custom icons. */
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { App as AntApp, Button, Card, Image, Input, Popconfirm, Space, Table, Tabs, Upload } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { appUrl, useT } from '@atrium/sdk';
import { deleteFile, downloadUrl, findFiles, uploadFile, type Attachment } from '../api';
import { BuiltinGlyph, IconLibrary, IconPicker, type IconChoice } from '../components/IconPicker';

const PAGE_SIZE = 20;

function Documents() {
  const t = useT('files');
  const { message } = AntApp.useApp();
  const [rows, setRows] = useState<Attachment[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [keyword, setKeyword] = useState('');
  const [loading, setLoading] = useState(false);
  const [preview, setPreview] = useState('');
  const navigate = useNavigate();

  const load = useCallback(async (pageNum: number, kw: string) => {
    setLoading(true);
    try {
      const data = await findFiles(pageNum, PAGE_SIZE, kw);
      setRows(data.list);
      setTotal(data.total);
      setPage(pageNum);
    } catch {
      /* shown by the request client */
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    void load(1, '');
  }, [load]);

  const remove = async (row: Attachment) => {
    try {
      await deleteFile(row.fileId);
      message.success(t('web.deleted'));
      void load(page, keyword);
    } catch {
      /* shown */
    }
  };
  const download = async (row: Attachment) => {
    try {
      window.open(appUrl(await downloadUrl(row.sourceFileName, row.filePath)), '_blank', 'noopener');
    } catch {
      /* shown */
    }
  };

  const columns: ColumnsType<Attachment> = [
    { title: t('web.doc.fileName'), dataIndex: 'sourceFileName', ellipsis: true },
    { title: t('web.doc.uploader'), dataIndex: 'creationName', width: 160 },
    { title: t('web.doc.uploadDate'), dataIndex: 'uploadDate', width: 180 },
    {
      title: t('web.doc.action'), key: 'action', width: 320,
      render: (_, row) => (
        <Space size={4}>
          {row.previewUrl && <Button type="link" size="small" onClick={() => setPreview(appUrl(row.previewUrl as string))} data-testid={`view-${row.fileId}`}>{t('web.doc.view')}</Button>}
          {row.editorKind && <Button type="link" size="small" onClick={() => navigate(`/fileCenter/editor?id=${row.fileId}&isEdit=1`)} data-testid={`edit-${row.fileId}`}>{t('web.editor.open')}</Button>}
          <Button type="link" size="small" onClick={() => download(row)}>{t('web.doc.download')}</Button>
          {row.canDelete && (
            <Popconfirm title={t('web.doc.confirmDelete')} okText={t('web.ok')} cancelText={t('web.cancel')} onConfirm={() => remove(row)}>
              <Button type="link" size="small" danger data-testid={`delete-${row.fileId}`}>{t('web.delete')}</Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <Space style={{ marginBottom: 12 }} wrap>
        <Input.Search allowClear placeholder={t('web.doc.search')} onSearch={(v) => { setKeyword(v); void load(1, v); }} style={{ width: 260 }} />
        <Upload showUploadList={false} customRequest={async ({ file, onSuccess, onError }) => {
          try {
            const up = await uploadFile(file as File);
            message.success(t('web.doc.uploaded'));
            onSuccess?.(up);
            void load(1, keyword);
          } catch (err) {
            onError?.(err as Error);
          }
        }}>
          <Button type="primary" data-testid="doc-upload">{t('web.doc.upload')}</Button>
        </Upload>
      </Space>
      <Table rowKey="fileId" size="middle" loading={loading} columns={columns} dataSource={rows}
        pagination={{ current: page, pageSize: PAGE_SIZE, total, showSizeChanger: false, onChange: (p) => load(p, keyword) }} />
      {preview && <Image style={{ display: 'none' }} src={preview} preview={{ visible: true, onVisibleChange: (v) => !v && setPreview('') }} />}
    </>
  );
}

/** The tenant's icons, and the picker dialog other modules open (to try it here). */
function Icons() {
  const t = useT('files');
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState<IconChoice | null>(null);
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Button onClick={() => setOpen(true)} data-testid="open-picker">{t('web.icon.pick')}</Button>
        {choice && (
          <span data-testid="picked-icon">
            {choice.builtin ? <BuiltinGlyph icon={choice.builtin} size={20} /> : <img src={choice.src && appUrl(choice.src)} alt="" width={20} height={20} />}
            {' '}{choice.name}
          </span>
        )}
      </Space>
      <IconLibrary />
      <IconPicker open={open} value={choice?.value} onCancel={() => setOpen(false)}
        onOk={(c) => {
          setChoice(c);
          setOpen(false);
        }} />
    </>
  );
}

export function FileCenter() {
  const t = useT('files');
  return (
    <div className="at-page" style={{ padding: 16 }}>
      <Card>
        <Tabs items={[
          { key: 'docs', label: t('web.doc.title'), children: <Documents /> },
          { key: 'icons', label: t('web.icon.title'), children: <Icons /> },
        ]} />
      </Card>
    </div>
  );
}
