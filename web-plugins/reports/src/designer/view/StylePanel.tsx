/** Style and result settings of the view, written to the customAttr / customStyle keys the viewer reads. */
import { Button, Collapse, ColorPicker, Form, Input, InputNumber, Radio, Select, Switch } from 'antd';
import type { JSX } from 'react';
import type { ThresholdRule } from '../../charts/common';
import { useDT } from '../data/i18n';
import { hasAxes, hasLegend, isPieKind, isSingleValueKind, isTableKind, isTextKind } from './kinds';
import { DEFAULT_PAGE_SIZE, type ViewDraft } from './model';
import {
  LABEL_POSITIONS, LEGEND_H, LEGEND_V, PIE_LABEL_POSITIONS, THRESHOLD_TYPES, getIn, newRule, setAttr, setColor, setCustomColors,
  setRules, setStyle, setTablePageSize, thresholdRules, updateRule, usesCustomColors, viewColors, type AxisKey, type ThresholdType,
} from './styleModel';

type Change = (next: ViewDraft) => void;
const ITEM = { style: { marginBottom: 8 } };

export function StylePanel({ draft, onChange }: { draft: ViewDraft; onChange: Change }) {
  const { t } = useDT();
  const type = draft.type;
  const table = isTableKind(type);
  const items = [
    !table && { key: 'colors', label: t('style.colors'), children: <ColorSettings draft={draft} onChange={onChange} /> },
    !table && !isTextKind(type) && { key: 'label', label: t('style.label'), children: <LabelSettings draft={draft} onChange={onChange} /> },
    hasLegend(type) && { key: 'legend', label: t('style.legend'), children: <LegendSettings draft={draft} onChange={onChange} /> },
    hasAxes(type) && { key: 'axes', label: t('style.axes'), children: <AxisSettings draft={draft} onChange={onChange} /> },
    { key: 'threshold', label: t('style.thresholds'), children: <ThresholdSettings draft={draft} onChange={onChange} /> },
    { key: 'result', label: t('style.result'), children: <ResultSettings draft={draft} onChange={onChange} /> },
  ].filter(Boolean) as { key: string; label: string; children: JSX.Element }[];
  return <Collapse size="small" items={items} defaultActiveKey={['colors']} data-testid="style-panel" />;
}

function ColorSettings({ draft, onChange }: { draft: ViewDraft; onChange: Change }) {
  const { t } = useDT();
  const custom = usesCustomColors(draft);
  return (
    <Form layout="vertical" size="small">
      <Form.Item {...ITEM}>
        <Radio.Group value={custom ? 'custom' : 'palette'} onChange={(e) => onChange(setCustomColors(draft, e.target.value === 'custom'))} data-testid="style-colors">
          <Radio value="palette">{t('style.palette')}</Radio>
          <Radio value="custom">{t('style.customColors')}</Radio>
        </Radio.Group>
      </Form.Item>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 4 }}>
        {viewColors(draft).map((c, i) => (
          <ColorPicker key={i} size="small" value={c} disabled={!custom} disabledAlpha onChangeComplete={(v) => onChange(setColor(draft, i, v.toHexString()))} data-testid={`style-color-${i}`} />
        ))}
      </div>
      {!isTableKind(draft.type) && (
        <Form.Item label={t('style.tooltip')} {...ITEM} style={{ marginTop: 8, marginBottom: 0 }}>
          <Switch size="small" checked={getIn(draft.attr, ['tooltip', 'show']) !== false} onChange={(on) => onChange(setAttr(draft, ['tooltip', 'show'], on))} data-testid="style-tooltip" />
        </Form.Item>
      )}
    </Form>
  );
}

function LabelSettings({ draft, onChange }: { draft: ViewDraft; onChange: Change }) {
  const { t } = useDT();
  const pie = isPieKind(draft.type);
  // pies show their labels unless told not to; other kinds hide them unless told to
  const show = pie || isSingleValueKind(draft.type) ? getIn(draft.attr, ['label', 'show']) !== false : !!getIn(draft.attr, ['label', 'show']);
  const positions = pie ? PIE_LABEL_POSITIONS : LABEL_POSITIONS;
  return (
    <Form layout="vertical" size="small">
      <Form.Item label={t('style.labelShow')} {...ITEM}>
        <Switch size="small" checked={show} onChange={(on) => onChange(setAttr(draft, ['label', 'show'], on))} data-testid="style-label-show" />
      </Form.Item>
      <Form.Item label={t('style.labelPosition')} {...ITEM}>
        <Select
          disabled={!show}
          value={(getIn(draft.attr, ['label', 'position']) as string) || positions[0]}
          onChange={(v) => onChange(setAttr(draft, ['label', 'position'], v))}
          options={positions.map((p) => ({ value: p, label: t(`style.positions.${p}`) }))}
          data-testid="style-label-position"
        />
      </Form.Item>
    </Form>
  );
}

function LegendSettings({ draft, onChange }: { draft: ViewDraft; onChange: Change }) {
  const { t } = useDT();
  const show = getIn(draft.style, ['legend', 'show']) !== false;
  return (
    <Form layout="vertical" size="small">
      <Form.Item label={t('style.legendShow')} {...ITEM}>
        <Switch size="small" checked={show} onChange={(on) => onChange(setStyle(draft, ['legend', 'show'], on))} data-testid="style-legend-show" />
      </Form.Item>
      <div style={{ display: 'flex', gap: 8 }}>
        <Form.Item label={t('style.horizontal')} {...ITEM} style={{ flex: 1, marginBottom: 8 }}>
          <Select disabled={!show} value={(getIn(draft.style, ['legend', 'hPosition']) as string) || 'center'} onChange={(v) => onChange(setStyle(draft, ['legend', 'hPosition'], v))} options={LEGEND_H.map((p) => ({ value: p, label: t(`style.positions.${p}`) }))} data-testid="style-legend-h" />
        </Form.Item>
        <Form.Item label={t('style.vertical')} {...ITEM} style={{ flex: 1, marginBottom: 8 }}>
          <Select disabled={!show} value={(getIn(draft.style, ['legend', 'vPosition']) as string) || 'bottom'} onChange={(v) => onChange(setStyle(draft, ['legend', 'vPosition'], v))} options={LEGEND_V.map((p) => ({ value: p, label: t(`style.positions.${p}`) }))} data-testid="style-legend-v" />
        </Form.Item>
      </div>
      <Form.Item label={t('style.orient')} {...ITEM}>
        <Radio.Group disabled={!show} value={(getIn(draft.style, ['legend', 'orient']) as string) || 'horizontal'} onChange={(e) => onChange(setStyle(draft, ['legend', 'orient'], e.target.value))}>
          <Radio value="horizontal">{t('style.orientH')}</Radio>
          <Radio value="vertical">{t('style.orientV')}</Radio>
        </Radio.Group>
      </Form.Item>
    </Form>
  );
}

function AxisSettings({ draft, onChange }: { draft: ViewDraft; onChange: Change }) {
  const { t } = useDT();
  const axes: AxisKey[] = draft.type === 'chart-mix' || draft.type === 'bar-contrast' ? ['xAxis', 'yAxis', 'yAxisExt'] : ['xAxis', 'yAxis'];
  return (
    <Form layout="vertical" size="small">
      {axes.map((axis) => (
        <div key={axis} style={{ display: 'flex', gap: 8 }}>
          <Form.Item label={t(`style.axisName.${axis}`)} {...ITEM} style={{ flex: 1, marginBottom: 8 }}>
            <Input value={(getIn(draft.style, [axis, 'name']) as string) || ''} maxLength={50} onChange={(e) => onChange(setStyle(draft, [axis, 'name'], e.target.value || undefined))} data-testid={`style-${axis}-name`} />
          </Form.Item>
          <Form.Item label={t('style.rotate')} {...ITEM} style={{ width: 90, marginBottom: 8 }}>
            <InputNumber min={-90} max={90} step={15} precision={0} style={{ width: '100%' }} value={Number(getIn(draft.style, [axis, 'axisLabel', 'rotate']) ?? 0)} onChange={(v) => onChange(setStyle(draft, [axis, 'axisLabel', 'rotate'], v ?? 0))} data-testid={`style-${axis}-rotate`} />
          </Form.Item>
        </div>
      ))}
    </Form>
  );
}

function ThresholdSettings({ draft, onChange }: { draft: ViewDraft; onChange: Change }) {
  const { t } = useDT();
  const rules = thresholdRules(draft);
  const value = (r: ThresholdRule, i: number) => Number(Array.isArray(r.values) ? r.values[i] ?? 0 : 0);
  const setValue = (index: number, r: ThresholdRule, i: number, v: number | null) => {
    const values = [...(Array.isArray(r.values) ? r.values : [])];
    values[i] = v ?? 0;
    onChange(updateRule(draft, index, { values }));
  };
  return (
    <div data-testid="style-thresholds">
      {rules.map((r, index) => (
        <div key={index} style={{ display: 'flex', flexWrap: 'wrap', gap: 4, alignItems: 'center', marginBottom: 6 }} data-testid={`threshold-${index}`}>
          <Select<ThresholdType> size="small" style={{ width: 104 }} value={r.type as ThresholdType} onChange={(type) => onChange(updateRule(draft, index, { type }))} options={THRESHOLD_TYPES.map((v) => ({ value: v, label: t(`style.thresholdTypes.${v}`) }))} />
          <InputNumber size="small" style={{ width: 80 }} value={value(r, 0)} onChange={(v) => setValue(index, r, 0, v)} aria-label={t('style.value')} />
          {r.type === 'between' && <InputNumber size="small" style={{ width: 80 }} value={value(r, 1)} onChange={(v) => setValue(index, r, 1, v)} aria-label={t('style.value')} />}
          <ColorPicker size="small" value={r.color} disabledAlpha onChangeComplete={(c) => onChange(updateRule(draft, index, { color: c.toHexString() }))} />
          <Button size="small" type="text" danger aria-label={t('view.remove')} onClick={() => onChange(setRules(draft, rules.filter((_, i) => i !== index)))}>
            ×
          </Button>
        </div>
      ))}
      <Button size="small" type="dashed" block onClick={() => onChange(setRules(draft, [...rules, newRule()]))} data-testid="threshold-add">
        {t('style.addThreshold')}
      </Button>
    </div>
  );
}

function ResultSettings({ draft, onChange }: { draft: ViewDraft; onChange: Change }) {
  const { t } = useDT();
  return (
    <Form layout="vertical" size="small">
      <Form.Item label={t('style.resultMode')} {...ITEM}>
        <Radio.Group value={draft.resultMode} onChange={(e) => onChange({ ...draft, resultMode: e.target.value })} data-testid="style-result-mode">
          <Radio value="all">{t('style.resultAll')}</Radio>
          <Radio value="custom">{t('style.resultCustom')}</Radio>
        </Radio.Group>
      </Form.Item>
      {draft.resultMode === 'custom' && (
        <Form.Item label={t('style.resultCount')} {...ITEM}>
          <InputNumber min={1} max={100000} precision={0} value={draft.resultCount} onChange={(v) => onChange({ ...draft, resultCount: v ?? 1000 })} data-testid="style-result-count" />
        </Form.Item>
      )}
      {isTableKind(draft.type) && (
        <Form.Item label={t('style.pageSize')} {...ITEM}>
          <InputNumber min={1} max={1000} precision={0} value={Number(getIn(draft.attr, ['size', 'tablePageSize']) ?? draft.pageSize ?? DEFAULT_PAGE_SIZE)} onChange={(v) => onChange(setTablePageSize(draft, v ?? DEFAULT_PAGE_SIZE))} data-testid="style-page-size" />
        </Form.Item>
      )}
    </Form>
  );
}
