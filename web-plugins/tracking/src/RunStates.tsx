import { Card, Col, Row, Statistic, Typography } from 'antd';
import { useT } from '@atrium/sdk';

/** `processes`: the process plugin's own card counts process instances; `jobs`: background jobs here;
 * `none`: the caller may not see the tenant's jobs (and they are not counted per person), so no card. */
export type RunStates =
  | { counts: 'processes' }
  | { counts: 'none'; scope: 'mine' }
  | { counts: 'jobs'; scope?: 'platform' | 'tenant'; running: number; failed: number; normal: number };

/** Running, failed and normal background jobs (imports, exports) for a tenant without the process plugin. */
export function BackgroundJobsCard({ states }: { states: Extract<RunStates, { counts: 'jobs' }> }) {
  const t = useT('tracking');
  return (
    <Card variant="borderless" title={t('web.jobsTitle')} data-testid="tracking-background-jobs">
      <Row gutter={8}>
        <Col span={8} data-testid="tracking-jobs-running"><Statistic title={t('web.jobsRunning')} value={states.running} /></Col>
        <Col span={8} data-testid="tracking-jobs-failed">
          <Statistic title={t('web.jobsFailed')} value={states.failed} valueStyle={{ color: states.failed ? '#cf1322' : undefined }} />
        </Col>
        <Col span={8} data-testid="tracking-jobs-normal"><Statistic title={t('web.jobsNormal')} value={states.normal} /></Col>
      </Row>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('web.jobsNote')}</Typography.Text>
    </Card>
  );
}
