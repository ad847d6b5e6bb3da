import { useEffect, useEffectEvent, useState } from 'react';
import { Button, Card, Empty, Input, List, Pagination, Popconfirm, Space, Spin, Typography } from 'antd';
import { useLocation, useSearchParams } from 'react-router';
import { appUrl, useSession, useT } from '@atrium/sdk';
import { deleteDoc, docDetail, listDocs, type HelpDoc } from '../api';
import { AdminButtons, DocEditor, EndpointEditor, isAdmin } from './Admin';

const PAGE_ROWS = 20;

function Detail({ id, onBack }: { id: string; onBack: () => void }) {
  const t = useT('help');
  const [doc, setDoc] = useState<HelpDoc | null>(null);
  const missing = useEffectEvent(() => onBack());
  useEffect(() => {
    docDetail(id).then(setDoc).catch(() => missing());
  }, [id]);
  if (!doc) return <Spin />;
  return (
    <Card
      title={doc.title}
      extra={<Button onClick={onBack} data-testid="help-back">{t('web.back')}</Button>}
      data-testid="help-detail"
    >
      <Typography.Paragraph type="secondary">{t('web.updated', { at: doc.updatedAt })}</Typography.Paragraph>
      {doc.manualUrl && (
        <Typography.Paragraph>
          <a href={doc.manualUrl} target="_blank" rel="noopener noreferrer">{t('web.manual')}</a>
        </Typography.Paragraph>
      )}
      <div className="at-help-content" dangerouslySetInnerHTML={{ __html: doc.content || '' }} />
    </Card>
  );
}

/** The help centre: every help document of the tenant in the user's language, searched by keyword. */
export function HelpCentre() {
  const t = useT('help');
  const [params, setParams] = useSearchParams();
  const here = appUrl(useLocation().pathname);
  const [keyword, setKeyword] = useState(params.get('keyword') || '');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ total: number; list: HelpDoc[] } | null>(null);
  const [version, setVersion] = useState(0);
  const [editing, setEditing] = useState<string | null>(null);
  const [endpointOpen, setEndpointOpen] = useState(false);
  const { profile } = useSession();
  const admin = isAdmin(profile);
  const open = params.get('doc');

  useEffect(() => {
    let alive = true;
    listDocs(keyword, page, PAGE_ROWS)
      .then((found) => alive && setData(found))
      .catch(() => alive && setData({ total: 0, list: [] }));
    return () => {
      alive = false;
    };
  }, [keyword, page, version]);

  if (open) return <Detail id={open} onBack={() => setParams({})} />;
  const closeEditor = (saved: boolean) => {
    setEditing(null);
    if (saved) setVersion((v) => v + 1);
  };
  const remove = async (id: string) => {
    await deleteDoc(id);
    setVersion((v) => v + 1);
  };
  return (
    <Card
      title={t('web.centre')}
      data-testid="help-centre"
      extra={admin ? <Space><AdminButtons onNew={() => setEditing('')} onEndpoint={() => setEndpointOpen(true)} /></Space> : undefined}
    >
      {editing !== null && <DocEditor id={editing || undefined} locale={t.locale} onClose={closeEditor} />}
      {endpointOpen && <EndpointEditor onClose={() => setEndpointOpen(false)} />}
      <Input.Search
        allowClear
        defaultValue={keyword}
        placeholder={t('web.search')}
        onSearch={(value) => {
          setPage(1);
          setKeyword(value.trim());
        }}
        data-testid="help-search"
        style={{ maxWidth: 480, marginBottom: 16 }}
      />
      {data === null ? (
        <Spin />
      ) : data.list.length === 0 ? (
        <Empty description={t('web.empty')} />
      ) : (
        <>
          <List
            dataSource={data.list}
            renderItem={(d) => (
              <List.Item
                key={d.id}
                data-testid="help-item"
                actions={admin ? [
                  <Button key="edit" type="link" size="small" onClick={() => setEditing(d.id)}>{t('web.edit')}</Button>,
                  <Popconfirm key="delete" title={t('web.deleteConfirm')} onConfirm={() => remove(d.id)} okText={t('web.delete')} cancelText={t('web.cancel')}>
                    <Button type="link" size="small" danger>{t('web.delete')}</Button>
                  </Popconfirm>,
                ] : undefined}
              >
                <List.Item.Meta
                  title={
                    <a
                      href={`${here}?doc=${encodeURIComponent(d.id)}`}
                      onClick={(e) => {
                        e.preventDefault();
                        setParams({ doc: d.id });
                      }}
                    >
                      {d.title}
                    </a>
                  }
                  description={<Typography.Paragraph ellipsis={{ rows: 2 }} style={{ margin: 0 }}>{d.summary}</Typography.Paragraph>}
                />
              </List.Item>
            )}
          />
          {data.total > PAGE_ROWS && (
            <Pagination current={page} pageSize={PAGE_ROWS} total={data.total} onChange={setPage} showSizeChanger={false} />
          )}
        </>
      )}
    </Card>
  );
}
