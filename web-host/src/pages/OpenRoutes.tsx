import { useEffect } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { Button, Result, Spin, Typography } from 'antd';
import { session, useT } from '@atrium/sdk';
import { linkOutdated } from '../links';

/** Open routes (spec 2.1) that take a token handed over by another system or a single sign-on
 * provider; without one they explain the link is invalid. */
export function OpenRoute() {
  const t = useT();
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  // a hand-over link carries its time limit in `expires`: past it, the token is not taken
  const outdated = linkOutdated(query.get('expires'));
  const token = outdated ? null : query.get('token') || query.get('authorization');
  useEffect(() => {
    if (!token) return;
    session.setTokens(token, query.get('refreshToken') || query.get('refresh-authorization'));
    const redirect = query.get('redirect');
    navigate(redirect && redirect.startsWith('/') ? redirect : '/home', { replace: true });
  }, [token, query, navigate]);
  if (token) return <div className="at-center" style={{ height: '100vh' }}><Spin size="large" /></div>;
  return (
    <div className="at-center" style={{ height: '100vh' }}>
      <Result
        status="warning"
        title={t(outdated ? 'error.linkOutdated' : 'error.linkInvalid')}
        subTitle={location.pathname}
        extra={<Button type="primary" onClick={() => navigate('/login')}>{t('login.submit')}</Button>}
      />
    </div>
  );
}

/** /platform-protocol: the user agreement or the privacy policy. */
export function Protocol() {
  const t = useT();
  const [query] = useSearchParams();
  const privacy = query.get('type') === 'privacy';
  const title = privacy ? t('login.privacy') : t('login.agreement');
  return (
    <div style={{ maxWidth: 820, margin: '0 auto', padding: '48px 24px' }}>
      <Typography.Title level={2}>{title}</Typography.Title>
      <Typography.Paragraph>{privacy ? t('protocol.privacyText') : t('protocol.agreementText')}</Typography.Paragraph>
    </div>
  );
}
