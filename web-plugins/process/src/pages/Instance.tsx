import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button, Card, Col, Descriptions, Row, Space, Tag, Timeline } from 'antd';
import { useT } from '@atrium/sdk';
import { processApi, when, type InstanceDetail } from '../api';
import { loadBpmnStyles } from './bpmnStyles';

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
    (async () => {
      loadBpmnStyles();
      const { default: Viewer } = await import(/* webpackChunkName: "bpmn-viewer" */ 'bpmn-js/lib/NavigatedViewer');
      if (!ref.current) return;
      viewer = new Viewer({ container: ref.current }) as any;
      await viewer.importXML(d.xml);
      const canvas = viewer.get('canvas');
      canvas.zoom('fit-viewport');
      const registry = viewer.get('elementRegistry');
      const mark = (nodeId: string, color: string) => {
        const gfx = registry.getGraphics(nodeId);
        const shape = gfx?.querySelector('.djs-visual > :first-child') as SVGElement | null;
        if (shape) { shape.style.stroke = color; shape.style.strokeWidth = '3px'; }
      };
      d.doneNodes.forEach((n) => mark(n, '#52c41a'));
      d.activeNodes.forEach((n) => mark(n, '#1677ff'));
    })().catch(() => undefined);
    return () => viewer?.destroy();
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
        <Col span={16}><div ref={ref} style={{ height: 420, border: '1px solid rgba(128,128,128,.3)', background: '#fff' }} /></Col>
        <Col span={8}>
          <Card size="small" title={t('web.history')}>
            <Timeline items={d.history.map((h) => ({ children: `${when(h.at)} ${t(`web.a_${h.action}`)} ${h.name}${h.comment ? ` — ${h.comment}` : ''}` }))} />
          </Card>
        </Col>
      </Row>
    </Space>
  );
}
