/**
 * The chart view editor: pick a dataset, drag its fields into the view's axes, choose the kind and style,
 * watch the live preview, save. Opened by the panel designer for a new view or an existing one.
 */
import { DndContext, KeyboardSensor, MouseSensor, TouchSensor, useSensor, useSensors, type DragEndEvent, type DragStartEvent } from '@dnd-kit/core';
import { Alert, App, Button, Drawer, Input, Select, Space, Tabs } from 'antd';
import { useEffect, useMemo, useState, type JSX } from 'react';
import type { ChartView } from '../../model/types';
import { dataApi } from '../data/api';
import { useDT } from '../data/i18n';
import type { Dataset } from '../data/types';
import { useIsPhone } from '../data/useIsPhone';
import { viewApi } from './api';
import { AxisChip } from './AxisChip';
import { zoneOfDropId, type DragData } from './dnd';
import { DropZone } from './DropZone';
import { FieldPalette } from './FieldPalette';
import { FilterChip } from './FilterChip';
import { KindPicker } from './KindPicker';
import {
  AXIS_ZONES, addField, brokenIds, canDrop, draftFromView, moveItem, paletteFields, removeItem, setKind, updateAxis, updateFilter,
  viewFromDraft, withoutBroken, zonesFor, type AxisZone, type ViewDraft, type Zone,
} from './model';
import { StylePanel } from './StylePanel';
import { ViewPreview } from './ViewPreview';

export interface ViewEditorProps {
  panelId: string;
  view?: ChartView | null;
  open: boolean;
  onSaved: (view: ChartView) => void;
  onClose: () => void;
}

export function ViewEditor({ panelId, view, open, onSaved, onClose }: ViewEditorProps): JSX.Element {
  const { t } = useDT();
  const phone = useIsPhone();
  // the view the drawer was opened with, kept while it closes (the page forgets it at once)
  const [shown, setShown] = useState(view);
  if (open && shown !== view) setShown(view);
  const current = open ? view : shown;
  const name = current?.title || current?.name || '';
  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={phone ? '100%' : 'calc(100vw - 80px)'}
      title={<span data-testid="view-editor-title">{current?.id ? (name ? t('view.editNamed', { name }) : t('view.editTitle')) : t('view.newTitle')}</span>}
      destroyOnHidden
      styles={{ body: { padding: phone ? 8 : 12, background: '#f5f7fa' } }}
      data-testid="view-editor"
    >
      {open && <EditorBody panelId={panelId} view={view} phone={phone} onSaved={onSaved} onClose={onClose} />}
    </Drawer>
  );
}

function EditorBody({ panelId, view, phone, onSaved, onClose }: Omit<ViewEditorProps, 'open'> & { phone: boolean }) {
  const { t } = useDT();
  const { message } = App.useApp();
  const [draft, setDraft] = useState<ViewDraft>(() => draftFromView(view, panelId));
  const [datasets, setDatasets] = useState<Dataset[]>([]);
  const [dragging, setDragging] = useState<DragData | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    dataApi.datasets().then((list) => setDatasets(list || [])).catch(() => undefined);
  }, []);

  const dataset = datasets.find((d) => d.id === draft.tableId);
  const fields = useMemo(() => paletteFields(dataset?.fields, t('view.recordCount')), [dataset, t]);
  const fieldById = useMemo(() => new Map(fields.map((f) => [f.id, f])), [fields]);
  // until the datasets are known nothing is broken
  const broken = useMemo(() => (dataset ? brokenIds(draft, fields) : new Set<string>()), [dataset, draft, fields]);
  const previewDraft = useMemo(() => withoutBroken(draft, broken), [draft, broken]);

  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 4 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 150, tolerance: 6 } }),
    useSensor(KeyboardSensor),
  );

  const accepts = (zone: Zone): boolean | null => {
    if (!dragging) return null;
    if (dragging.kind === 'field') return canDrop(draft, zone, dragging.field);
    return zone !== 'customFilter';
  };

  const onDragEnd = (e: DragEndEvent) => {
    setDragging(null);
    const zone = zoneOfDropId(e.over?.id);
    const data = e.active.data.current as DragData | undefined;
    if (!zone || !data) return;
    if (data.kind === 'field') setDraft((d) => addField(d, zone, data.field));
    else if (zone !== 'customFilter') {
      const item = draft[data.zone][data.index];
      setDraft((d) => moveItem(d, data.zone, data.index, zone as AxisZone, d[zone as AxisZone].length, item ? fieldById.get(item.id) : undefined));
    }
  };

  const pickDataset = (tableId: string) => {
    // a new dataset: fields of the old one no longer apply
    setDraft((d) => {
      const cleared: ViewDraft = { ...d, tableId, customFilter: [] };
      for (const zone of AXIS_ZONES) cleared[zone] = [];
      return cleared;
    });
  };

  const save = async () => {
    if (!draft.tableId) {
      message.warning(t('view.pickDataset'));
      return;
    }
    if (!(draft.title.trim() || draft.name.trim())) {
      message.warning(t('view.titleRequired'));
      return;
    }
    setSaving(true);
    try {
      const saved = await viewApi.save(viewFromDraft(draft));
      message.success(t('common.saved'));
      onSaved(saved);
    } catch {
      // the request client shows the server's message
    } finally {
      setSaving(false);
    }
  };

  const visible = zonesFor(draft.type).filter((z) => z !== 'customFilter');
  // items in zones the kind does not read stay visible so they can be removed
  const zones: Zone[] = [...AXIS_ZONES.filter((z) => visible.includes(z) || draft[z].length > 0), 'customFilter'];

  const zonePanel = (
    <div data-testid="zones">
      {zones.map((zone) => (
        <DropZone key={zone} zone={zone} accepts={accepts(zone)} empty={zone === 'customFilter' ? !draft.customFilter.length : !draft[zone].length}>
          {zone === 'customFilter'
            ? draft.customFilter.map((f, i) => (
                <FilterChip key={`${f.fieldId}-${i}`} index={i} filter={f} field={fieldById.get(f.fieldId)} onChange={(p) => setDraft((d) => updateFilter(d, i, p))} onRemove={() => setDraft((d) => removeItem(d, 'customFilter', i))} />
              ))
            : draft[zone].map((a, i) => (
                <AxisChip
                  key={`${a.id}-${i}`}
                  zone={zone}
                  index={i}
                  axis={a}
                  field={!dataset ? { id: a.id, name: a.name || a.id, dataeaseName: a.id, type: 'text', role: 'dimension' } : fieldById.get(a.id)}
                  onChange={(p) => setDraft((d) => updateAxis(d, zone, i, p))}
                  onRemove={() => setDraft((d) => removeItem(d, zone, i))}
                />
              ))}
        </DropZone>
      ))}
    </div>
  );

  const left = (
    <div style={{ background: '#fff', borderRadius: 6, padding: 8, overflow: 'auto', maxHeight: phone ? 280 : undefined }}>
      <Select
        style={{ width: '100%', marginBottom: 8 }}
        value={draft.tableId}
        onChange={pickDataset}
        placeholder={t('view.dataset')}
        showSearch
        optionFilterProp="label"
        options={datasets.map((d) => ({ value: d.id, label: d.name }))}
        data-testid="view-dataset"
      />
      <FieldPalette fields={dataset ? fields : []} />
    </div>
  );

  const settings = (
    <div style={{ background: '#fff', borderRadius: 6, padding: 8, overflow: 'auto' }}>
      <Tabs
        size="small"
        items={[
          { key: 'data', label: <span data-testid="tab-view-data">{t('view.data')}</span>, children: zonePanel },
          { key: 'kind', label: <span data-testid="tab-view-kind">{t('view.kind')}</span>, children: <KindPicker type={draft.type} render={draft.render} onChange={(type, render) => setDraft((d) => setKind(d, type, render))} /> },
          { key: 'style', label: <span data-testid="tab-view-style">{t('view.style')}</span>, children: <StylePanel draft={draft} onChange={setDraft} /> },
        ]}
      />
    </div>
  );

  return (
    <DndContext sensors={sensors} onDragStart={(e: DragStartEvent) => setDragging((e.active.data.current as DragData) || null)} onDragCancel={() => setDragging(null)} onDragEnd={onDragEnd}>
      <div style={{ display: 'flex', flexDirection: 'column', gap: 8, height: phone ? undefined : '100%' }}>
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center' }}>
          <Input value={draft.title} onChange={(e) => setDraft((d) => ({ ...d, title: e.target.value, name: e.target.value }))} placeholder={t('view.title')} maxLength={100} style={{ flex: '1 1 240px', maxWidth: 420 }} data-testid="view-title" />
          <Space style={{ marginLeft: 'auto' }}>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="primary" loading={saving} onClick={() => void save()} data-testid="view-save">
              {t('common.save')}
            </Button>
          </Space>
        </div>
        {broken.size > 0 && <Alert type="warning" showIcon message={t('view.brokenWarning', { count: broken.size })} data-testid="view-broken" />}
        {phone ? (
          <>
            <ViewPreview draft={previewDraft} height={300} />
            {left}
            {settings}
          </>
        ) : (
          <div style={{ display: 'grid', gridTemplateColumns: '220px 360px minmax(0, 1fr)', gap: 8, flex: 1, minHeight: 0 }}>
            {left}
            {settings}
            <ViewPreview draft={previewDraft} height={Math.max(360, window.innerHeight - 170)} />
          </div>
        )}
      </div>
    </DndContext>
  );
}
