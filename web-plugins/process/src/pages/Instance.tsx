import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button, Card, Col, Descriptions, Row, Space, Tag, Timeline, Typography } from 'antd';
import { useT } from '@atrium/sdk';
import { processApi, when, type HistoryRow, type InstanceDetail } from '../api';
import { loadBpmnStyles } from './bpmnStyles';
import { keepFitted } from './canvasFit';

/** One history step: when, what, on which node, the comment; and under it who did it (the engine's own steps
 * are the system's). */
function HistoryItem({ h }: { h: HistoryRow }) {
  const t = useT('process');
  return (
    <div data-testid="process-history-entry" data-action={h.action}>
      <div>{`${when(h.at)} ${t(`web.a_${h.action}`)} ${h.name}${h.comment ? ` — ${h.comment}` : ''}`}</div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="process-history-actor">
        {`${t('web.actor')}: ${h.userName || (h.userId != null ? `#${h.userId}` : t('web.system'))}`}
      </Typography.Text>
    </div>
  );
}

/** `/process_manage/instance/:id`: an instance's history drawn on its diagram (done nodes green, open ones blue). */
export function InstancePage() {
  const t = useT('process');
  const navigate = useNavigate();
  const id = useLocation().pathname.split('/').filter(Boolean)[2] || '';
  const ref = useRef<HTMLDivElement>(null);
  const [d, setD] = useState<InstanceDetail | null>(null);
  useEffect(() => { processApi.instance(id).then(setD, () => setD(null)); }, [id]);
  useEffect(() => {
    if (!d || !ref.current) return undefined;
    let viewer: any = null;
    let fitted: ReturnType<typeof keepFitted> | null = null;
    let cancelled = false;
    (async () => {
      loadBpmnStyles();
      const { default: Viewer } = await import(/* webpackChunkName: "bpmn-viewer" */ 'bpmn-js/lib/NavigatedViewer');
      if (cancelled || !ref.current) return;
      viewer = new Viewer({ container: ref.current }) as any;
      await viewer.importXML(d.xml);
      if (cancelled || !ref.current) return;
      fitted = keepFitted(viewer.get('canvas'), viewer.get('eventBus'), ref.current);
      const registry = viewer.get('elementRegistry');
      const mark = (nodeId: string, color: string) => {
        const gfx = registry.getGraphics(nodeId);
        const shape = gfx?.querySelector('.djs-visual > :first-child') as SVGElement | null;
        if (shape) { shape.style.stroke = color; shape.style.strokeWidth = '3px'; }
      };
      d.doneNodes.forEach((n) => mark(n, '#52c41a'));
      d.activeNodes.forEach((n) => mark(n, '#1677ff'));
    })().catch(() => undefined);
    return () => { cancelled = true; fitted?.stop(); viewer?.destroy(); };
  }, [d]);
  if (!d) return null;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space><Button onClick={() => navigate('/process_manage?tab=mine')}>{t('web.back')}</Button></Space>
      <Descriptions size="small" bordered column={3} items={[
        { key: 'n', label: t('web.name'), children: `${d.modelName} #${d.processId}` },
        { key: 's', label: t('web.status'), children: <Tag bordered={false} data-testid="process-instance-status">{t(`web.st_${d.status}`)}</Tag> },
        { key: 'c', label: t('web.createdAt'), children: when(d.createdAt) },
      ]} />
      <Row gutter={12}>
        <Col span={16}><div ref={ref} data-testid="process-instance-canvas" style={{ height: 420, border: '1px solid rgba(128,128,128,.3)', background: '#fff' }} /></Col>
        <Col span={8}>
          <Card size="small" title={t('web.history')}>
            <Timeline data-testid="process-history" items={d.history.map((h, i) => ({ key: i, children: <HistoryItem h={h} /> }))} />
          </Card>
        </Col>
      </Row>
    </Space>
  );
}
