import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Badge, Card, Col, Empty, Input, List, Pagination, Row, Tag, Typography } from 'antd';
import { request, useT } from '@atrium/sdk';
import { api, type Article, type Category, type Page } from './api';

const TITLE_KEYS: Record<Category, string> = { announcement: 'web.announcements', hot: 'web.hot', featured: 'web.featured', news: 'web.news' };

function ArticleList({ items, onOpen, showViews }: { items: Article[]; onOpen: (a: Article) => void; showViews?: boolean }) {
  const t = useT('portal');
  if (!items.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('web.empty')} />;
  return (
    <List
      size="small"
      dataSource={items}
      renderItem={(a) => (
        <List.Item style={{ cursor: 'pointer' }} onClick={() => onOpen(a)} data-testid={`article-${a.id}`}
          extra={<Typography.Text type="secondary" style={{ fontSize: 12 }}>{showViews ? t('web.views', { count: a.views }) : (a.publishedAt || '').slice(0, 10)}</Typography.Text>}>
          <Typography.Text ellipsis style={{ maxWidth: '100%' }}>
            {a.pinned && <Tag color="red" bordered={false}>{t('web.pinned')}</Tag>}
            {a.title}
          </Typography.Text>
        </List.Item>
      )}
    />
  );
}

/** The company news list at /portal/news: paging and search. */
function NewsList({ onOpen }: { onOpen: (a: Article) => void }) {
  const t = useT('portal');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Page<Article> | null>(null);
  useEffect(() => {
    api.list({ category: 'news', keyword, pageIndex: page, pageRows: 10 }).then(setData).catch(() => setData({ list: [], total: 0, pageIndex: 1, pageRows: 10 }));
  }, [keyword, page]);
  return (
    <Card variant="borderless" title={t('web.news')} data-testid="portal-news-list"
      extra={<Input.Search allowClear placeholder={t('web.search')} onSearch={(v) => { setPage(1); setKeyword(v.trim()); }} style={{ width: 240 }} data-testid="news-search" />}>
      <ArticleList items={data?.list || []} onOpen={onOpen} />
      {!!data?.total && data.total > 10 && (
        <Pagination style={{ marginTop: 12, textAlign: 'right' }} current={page} total={data.total} pageSize={10} onChange={setPage} showSizeChanger={false} />
      )}
    </Card>
  );
}

/** The process panels: drawn by the process plugin when it is installed; otherwise an empty state. */
function ProcessPlaceholders() {
  const t = useT('portal');
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    request<{ plugins: { name: string }[] }>('/api/kernel/manifest', { silent: true })
      .then((m) => setMissing(!(m?.plugins || []).some((p) => p.name === 'process')))
      .catch(() => setMissing(true));
  }, []);
  if (!missing) return null;
  return (
    <>
      {(['upcoming', 'pending', 'process'] as const).map((k) => (
        <Col key={k} xs={24} md={8}>
          <Card variant="borderless" title={t(`web.${k}`)} data-testid={`portal-panel-${k}`}>
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('web.noProcess')} />
          </Card>
        </Col>
      ))}
    </>
  );
}

/** The portal's panels: announcements, hot topics, featured articles, company news (and the news list). */
export function Panels() {
  const t = useT('portal');
  const navigate = useNavigate();
  const location = useLocation();
  const [panels, setPanels] = useState<Record<Category, Article[]> | null>(null);
  useEffect(() => {
    api.panels().then(setPanels).catch(() => setPanels(null));
  }, []);
  const open = (a: Article) => navigate(`/knowledge-details?id=${a.id}`);
  if (location.pathname.startsWith('/portal/news')) return <NewsList onOpen={open} />;
  return (
    <Row gutter={[16, 16]} data-testid="portal-panels">
      <ProcessPlaceholders />
      {(['announcement', 'hot', 'featured', 'news'] as Category[]).map((c) => (
        <Col key={c} xs={24} md={12}>
          <Card variant="borderless" data-testid={`portal-panel-${c}`}
            title={<Badge color={c === 'announcement' ? 'red' : c === 'hot' ? 'orange' : c === 'featured' ? 'purple' : 'blue'} text={t(TITLE_KEYS[c])} />}
            extra={c === 'news' ? <Typography.Link onClick={() => navigate('/portal/news')} data-testid="news-more">{t('web.more')}</Typography.Link> : null}>
            <ArticleList items={panels?.[c] || []} onOpen={open} showViews={c === 'hot'} />
          </Card>
        </Col>
      ))}
    </Row>
  );
}
