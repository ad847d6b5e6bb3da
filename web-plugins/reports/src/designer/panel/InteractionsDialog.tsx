/**
 * A view's interactions: which views a click filters (linkage, with field mapping, views inside tabs
 * included), where a click jumps (another panel with field-to-target-field mapping, or an address that may
 * carry the clicked values as parameters; same or new window), and the drill path set in the view editor.
 */
import { App, Button, Checkbox, Empty, Input, Modal, Segmented, Select, Spin, Tabs, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { designerApi, type JumpSetItem } from './api';
import { useDatasetFields, viewLabel, type PanelView } from './datasets';
import type { LinkageTarget, PanelListItem } from './types';
import { Icon } from './icons';
import { useDsT } from './i18n';

export interface InteractionsProps {
  panelId: string;
  view: PanelView;
  /** The views placed on the panel (tabs included), the source excluded by the dialog. */
  views: PanelView[];
  onClose: () => void;
}

/** The source's dimensions: what a click on it carries. */
export const sourceFields = (v: PanelView) => [...(v.xaxis || []), ...(v.xaxisExt || []), ...(v.drillFields || [])].filter((a, i, all) => a.id !== 'count' && all.findIndex((b) => b.id === a.id) === i);

function LinkageTab({ panelId, view, views, targets, setTargets }: InteractionsProps & { targets: LinkageTarget[]; setTargets: (t: LinkageTarget[]) => void }) {
  const { t } = useDsT();
  const others = views.filter((v) => v.id !== view.id);
  const fields = useDatasetFields([view.tableId || '', ...others.map((v) => v.tableId || '')]);
  const srcFields = fields[view.tableId || ''] || [];
  void panelId;
  if (!others.length) return <Empty description={t('linkage.noTargets')} />;
  const targetOf = (id: string) => targets.find((x) => x.targetViewId === id);
  const put = (next: LinkageTarget) => setTargets([...targets.filter((x) => x.targetViewId !== next.targetViewId), next]);
  return (
    <div data-testid="linkage-tab">
      {others.map((target) => {
        const cur = targetOf(target.id) || { targetViewId: target.id, linkageFields: [], active: false };
        const sameDataset = target.tableId && target.tableId === view.tableId;
        const tgtFields = fields[target.tableId || ''] || [];
        return (
          <div key={target.id} style={{ border: '1px solid #eef0f4', borderRadius: 6, padding: 8, marginBottom: 8 }}>
            <Checkbox
              data-testid={`linkage-target-${target.id}`}
              checked={cur.active}
              onChange={(e) => put({ ...cur, active: e.target.checked, linkageFields: cur.linkageFields.length || !sameDataset ? cur.linkageFields : [] })}
            >
              {viewLabel(target)}
            </Checkbox>
            {cur.active && (
              <div style={{ marginTop: 6 }}>
                {sameDataset && !cur.linkageFields.length && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('linkage.sameDataset')}</Typography.Text>}
                {cur.linkageFields.map((m, i) => (
                  <div key={i} style={{ display: 'flex', gap: 6, marginTop: 4 }}>
                    <Select size="small" style={{ flex: 1 }} value={m.sourceField || undefined} placeholder={t('linkage.sourceField')} options={srcFields.map((f) => ({ value: f.id, label: f.name }))}
                      onChange={(v) => put({ ...cur, linkageFields: cur.linkageFields.map((x, j) => (j === i ? { ...x, sourceField: v } : x)) })} data-testid={`linkage-source-${target.id}-${i}`} />
                    <span>→</span>
                    <Select size="small" style={{ flex: 1 }} value={m.targetField || undefined} placeholder={t('linkage.targetField')} options={tgtFields.map((f) => ({ value: f.id, label: f.name }))}
                      onChange={(v) => put({ ...cur, linkageFields: cur.linkageFields.map((x, j) => (j === i ? { ...x, targetField: v } : x)) })} data-testid={`linkage-target-field-${target.id}-${i}`} />
                    <Button size="small" type="text" aria-label={t('common.remove')} icon={<Icon name="close" size={12} />} onClick={() => put({ ...cur, linkageFields: cur.linkageFields.filter((_, j) => j !== i) })} />
                  </div>
                ))}
                <Button size="small" type="link" data-testid={`linkage-add-field-${target.id}`} onClick={() => put({ ...cur, linkageFields: [...cur.linkageFields, { sourceField: '', targetField: '' }] })}>{t('linkage.addField')}</Button>
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}

function JumpTab({ view, jumps, setJumps, panelId }: { view: PanelView; jumps: JumpSetItem[]; setJumps: (j: JumpSetItem[]) => void; panelId: string }) {
  const { t } = useDsT();
  const [panels, setPanels] = useState<PanelListItem[]>([]);
  const [targetViews, setTargetViews] = useState<Record<string, PanelView[]>>({});
  useEffect(() => {
    designerApi.panels().then((l) => setPanels((l || []).filter((p) => p.id !== panelId))).catch(() => undefined);
  }, [panelId]);
  // the views of each target panel, asked once
  const asked = useRef(new Set<string>());
  const targetPanels = Array.from(new Set(jumps.map((j) => j.targetPanelId).filter(Boolean))).join(',');
  useEffect(() => {
    for (const id of targetPanels.split(',')) {
      if (!id || asked.current.has(id)) continue;
      asked.current.add(id);
      designerApi.views(id).then((v) => setTargetViews((m) => ({ ...m, [id]: v as PanelView[] }))).catch(() => setTargetViews((m) => ({ ...m, [id]: [] })));
    }
  }, [targetPanels]);
  const allTargetViews = Object.values(targetViews).flat();
  const targetFields = useDatasetFields(allTargetViews.map((v) => v.tableId || ''));
  const fields = sourceFields(view);
  if (!fields.length) return <Empty description={t('jump.noFields')} />;
  const jumpOf = (fieldId: string): JumpSetItem =>
    jumps.find((j) => j.sourceFieldId === fieldId) || { sourceFieldId: fieldId, linkType: 'inner', jumpType: '_blank', targetPanelId: null, content: '', attachParams: false, checked: false, targetViewInfoList: [] };
  const put = (next: JumpSetItem) => setJumps([...jumps.filter((j) => j.sourceFieldId !== next.sourceFieldId), next]);
  return (
    <div data-testid="jump-tab">
      {fields.map((f) => {
        const j = jumpOf(f.id);
        const tViews = j.targetPanelId ? targetViews[j.targetPanelId] || [] : [];
        return (
          <div key={f.id} style={{ border: '1px solid #eef0f4', borderRadius: 6, padding: 8, marginBottom: 8 }}>
            <Checkbox data-testid={`jump-field-${f.id}`} checked={j.checked} onChange={(e) => put({ ...j, checked: e.target.checked })}>{f.name || f.id}</Checkbox>
            {j.checked && (
              <div style={{ display: 'flex', flexDirection: 'column', gap: 6, marginTop: 6 }}>
                <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
                  <Segmented size="small" data-testid={`jump-type-${f.id}`} value={j.linkType} options={[{ value: 'inner', label: t('jump.inner') }, { value: 'other', label: t('jump.other') }]} onChange={(v) => put({ ...j, linkType: v as JumpSetItem['linkType'] })} />
                  <Segmented size="small" data-testid={`jump-mode-${f.id}`} value={j.jumpType} options={[{ value: '_blank', label: t('jump._blank') }, { value: '_self', label: t('jump._self') }]} onChange={(v) => put({ ...j, jumpType: v as JumpSetItem['jumpType'] })} />
                </div>
                {j.linkType === 'inner' ? (
                  <>
                    <Select size="small" data-testid={`jump-panel-${f.id}`} placeholder={t('jump.targetPanel')} value={j.targetPanelId || undefined} options={panels.map((p) => ({ value: p.id, label: p.name }))} onChange={(v) => put({ ...j, targetPanelId: v, targetViewInfoList: [] })} showSearch optionFilterProp="label" />
                    {j.targetPanelId && (
                      <>
                        {j.targetViewInfoList.map((m, i) => {
                          const tv = tViews.find((v) => v.id === m.targetViewId);
                          return (
                            <div key={i} style={{ display: 'flex', gap: 6 }}>
                              <Select size="small" style={{ flex: 1 }} placeholder={t('jump.targetView')} value={m.targetViewId || undefined} options={tViews.map((v) => ({ value: v.id, label: viewLabel(v) }))}
                                onChange={(v) => put({ ...j, targetViewInfoList: j.targetViewInfoList.map((x, k) => (k === i ? { targetViewId: v, targetFieldId: '' } : x)) })} data-testid={`jump-target-view-${f.id}-${i}`} />
                              <Select size="small" style={{ flex: 1 }} placeholder={t('jump.targetField')} value={m.targetFieldId || undefined} options={(targetFields[tv?.tableId || ''] || []).map((x) => ({ value: x.id, label: x.name }))}
                                onChange={(v) => put({ ...j, targetViewInfoList: j.targetViewInfoList.map((x, k) => (k === i ? { ...x, targetFieldId: v } : x)) })} data-testid={`jump-target-field-${f.id}-${i}`} />
                              <Button size="small" type="text" aria-label={t('common.remove')} icon={<Icon name="close" size={12} />} onClick={() => put({ ...j, targetViewInfoList: j.targetViewInfoList.filter((_, k) => k !== i) })} />
                            </div>
                          );
                        })}
                        <Button size="small" type="link" data-testid={`jump-add-target-${f.id}`} onClick={() => put({ ...j, targetViewInfoList: [...j.targetViewInfoList, { targetViewId: '', targetFieldId: '' }] })}>{t('jump.addTarget')}</Button>
                      </>
                    )}
                  </>
                ) : (
                  <>
                    <Input size="small" data-testid={`jump-url-${f.id}`} placeholder="https://" value={j.content} onChange={(e) => put({ ...j, content: e.target.value })} />
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('jump.paramsHint')}</Typography.Text>
                    <Checkbox checked={j.attachParams} onChange={(e) => put({ ...j, attachParams: e.target.checked })}>{t('jump.attachParams')}</Checkbox>
                  </>
                )}
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}

export function InteractionsDialog(props: InteractionsProps) {
  const { t } = useDsT();
  const { message } = App.useApp();
  const { panelId, view } = props;
  const [targets, setTargets] = useState<LinkageTarget[] | null>(null);
  const [jumps, setJumps] = useState<JumpSetItem[] | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    designerApi.linkageGather(panelId, view.id).then((l) => setTargets(l || [])).catch(() => setTargets([]));
    designerApi.jumps(panelId).then((j) => {
      const mine = Object.values(j?.baseJumpInfoMap || {}).filter((x) => x.sourceViewId === view.id);
      setJumps(mine.map((x) => ({ sourceFieldId: x.sourceFieldId, linkType: x.linkType, jumpType: x.jumpType || '_blank', targetPanelId: x.targetPanelId || null, content: x.content || '', attachParams: !!x.attachParams, checked: x.checked !== false, targetViewInfoList: x.targetViewInfoList || [] })));
    }).catch(() => setJumps([]));
  }, [panelId, view.id]);
  const drill = useMemo(() => (view.drillFields || []).map((f) => f.name || f.id), [view.drillFields]);
  const save = async () => {
    if (!targets || !jumps) return;
    const bad = jumps.find((j) => j.checked && j.linkType === 'other' && !/^https?:\/\//i.test(j.content));
    if (bad) return void message.warning(t('jump.badUrl'));
    setBusy(true);
    try {
      await designerApi.saveLinkage(panelId, view.id, targets.map((x) => ({ ...x, linkageFields: x.linkageFields.filter((m) => m.sourceField && m.targetField) })));
      await designerApi.saveJumps(panelId, view.id, jumps.map((j) => ({ ...j, targetViewInfoList: j.targetViewInfoList.filter((m) => m.targetViewId && m.targetFieldId) })));
      message.success(t('interactions.saved'));
      props.onClose();
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={t('interactions.title', { name: viewLabel(view) })} width={720} onCancel={props.onClose} onOk={() => void save()} okText={t('common.save')} cancelText={t('common.cancel')} confirmLoading={busy} okButtonProps={{ 'data-testid': 'interactions-save' }}>
      {!targets || !jumps ? <Spin /> : (
        <Tabs
          data-testid="interactions-dialog"
          items={[
            { key: 'linkage', label: <span data-testid="interactions-tab-linkage">{t('interactions.linkage')}</span>, children: <LinkageTab {...props} targets={targets} setTargets={setTargets} /> },
            { key: 'jump', label: <span data-testid="interactions-tab-jump">{t('interactions.jump')}</span>, children: <JumpTab view={view} jumps={jumps} setJumps={setJumps} panelId={panelId} /> },
            {
              key: 'drill',
              label: <span data-testid="interactions-tab-drill">{t('interactions.drill')}</span>,
              children: drill.length ? <div data-testid="drill-path">{drill.join(' → ')}</div> : <Empty description={t('interactions.noDrill')} />,
            },
          ]}
        />
      )}
    </Modal>
  );
}
