import type { ReactNode } from 'react';
import { Alert, Button, Flex, Result, Typography } from 'antd';
import { useSession, useT } from '@atrium/sdk';
import { formatDate } from './format';

export function isSuperAdmin(profile: { isSuperAdmin?: unknown }): boolean {
  return Number(profile.isSuperAdmin) === 1 || profile.isSuperAdmin === true;
}

/** The page's heading: title, when it was last loaded, the automatic refresh and a refresh button. */
export function PageHead({ title, updatedAt, loading, onRefresh, error }: {
  title: string; updatedAt?: Date; loading: boolean; onRefresh: () => void; error: string;
}) {
  const t = useT('ops');
  return (
    <>
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 12 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>{title}</Typography.Title>
        <Flex align="center" gap={8} wrap>
          <Typography.Text type="secondary" data-testid="ops-updated">
            {updatedAt ? t('web.updatedAt', { time: formatDate(updatedAt.toISOString(), t.locale, false) }) : t('web.autoRefresh')}
          </Typography.Text>
          <Button size="small" onClick={onRefresh} loading={loading} data-testid="ops-refresh">{t('web.refresh')}</Button>
        </Flex>
      </Flex>
      {error && <Alert type="error" showIcon style={{ marginBottom: 12 }} title={t('web.loadFailed', { error })} />}
    </>
  );
}

/** Platform administrators only; others see why. */
export function SuperAdminOnly({ children }: { children: ReactNode }) {
  const t = useT('ops');
  const { profile } = useSession();
  if (!isSuperAdmin(profile)) return <Result status="403" title="403" subTitle={t('web.forbidden')} />;
  return <>{children}</>;
}
