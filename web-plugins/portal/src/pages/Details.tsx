import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button, Card, Empty, Skeleton, Space, Tag, Typography } from 'antd';
import { session, useT } from '@atrium/sdk';
import { api, type Article } from '../api';
import { useCoverSrc } from '../coverSrc';

/** An article (`/knowledge-details?id=`): its content is sanitised by the server before it is stored.
 * Without a session (an open route) the host shows this page alone and only public articles are read. */
export function Details() {
  const t = useT('portal');
  const navigate = useNavigate();
  const id = new URLSearchParams(useLocation().search).get('id') || '';
  const [article, setArticle] = useState<Article | null | undefined>(undefined);
  const cover = useCoverSrc(article?.coverUrl, article?.coverSrc);
  useEffect(() => {
    setArticle(undefined);
    if (!id) return setArticle(null);
    // signed out only public articles can be read; signed in, a public article of another tenant as well
    const read = session.isLoggedIn() ? api.detail(id).catch(() => api.publicDetail(id)) : api.publicDetail(id);
    read.then(setArticle).catch(() => setArticle(null));
  }, [id]);
  if (article === undefined) return <Card variant="borderless"><Skeleton active /></Card>;
  if (article === null) return <Card variant="borderless"><Empty description={t('web.notFound')} /><Button onClick={() => navigate('/portal')}>{t('web.back')}</Button></Card>;
  return (
    <Card variant="borderless" data-testid="article-detail">
      <Typography.Title level={3} data-testid="article-title">{article.title}</Typography.Title>
      <Space wrap style={{ marginBottom: 12 }}>
        <Tag>{t(`web.categories.${article.category}`)}</Tag>
        <Typography.Text type="secondary">{(article.publishedAt || '').replace('T', ' ').slice(0, 16)}</Typography.Text>
        <Typography.Text type="secondary">{article.authorName}</Typography.Text>
        <Typography.Text type="secondary" data-testid="article-views">{t('web.views', { count: article.views })}</Typography.Text>
      </Space>
      {cover && <img src={cover} alt="" data-testid="article-cover" style={{ maxWidth: '100%', borderRadius: 8, marginBottom: 12 }} />}
      {/* content was sanitised with nh3 on the server */}
      <div className="at-article" data-testid="article-content" dangerouslySetInnerHTML={{ __html: article.content || '' }} />
      <Button style={{ marginTop: 16 }} onClick={() => navigate(-1)}>{t('web.back')}</Button>
    </Card>
  );
}
