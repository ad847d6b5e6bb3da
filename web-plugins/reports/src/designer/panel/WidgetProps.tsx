/**
 * A filter widget's binding and defaults (spec 3.2, 3.4; read by src/model/filters.ts): the views it filters
 * (attrs.filterIds), one field of each of their datasets (attrs.fieldId, comma-separated), and its default.
 */
import { InputNumber, Select, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { widgetKind } from '../../model/filters';
import type { PanelComponent, WidgetAttrs } from '../../model/types';
import type { DatasetField } from '../data/types';
import { designerApi } from './api';
import { useDatasetFields, viewLabel, type PanelView } from './datasets';
import { Field, Section } from './Field';
import type { ComponentChange } from './StyleProps';
import { useDsT } from './i18n';

const SINGLE_KEYS = ['today', 'yesterday', 'monthStart', 'yearStart', 'custom'];
const RANGE_KEYS = ['thisWeek', 'lastWeek', 'thisMonth', 'lastMonth', 'thisQuarter', 'lastQuarter', 'thisYear', 'lastYear', 'customRange'];

function fitsKind(kind: string, f: DatasetField): boolean {
  if (kind === 'date') return f.type === 'time';
  if (kind === 'number-range') return f.type === 'integer' || f.type === 'float';
  return true;
}

export function WidgetProps({ component, views, onChange }: { component: PanelComponent; views: PanelView[]; onChange: ComponentChange }) {
  const { t } = useDsT();
  const kind = widgetKind(component);
  const attrs: WidgetAttrs = component.options?.attrs || {};
  const setAttrs = (patch: Partial<WidgetAttrs>, key: string) =>
    onChange((c) => ({ ...c, options: { ...c.options, attrs: { ...c.options?.attrs, ...patch } } }), `${component.id}:attrs.${key}`);
  const setValue = (value: unknown) => onChange((c) => ({ ...c, options: { ...c.options, value } }), `${component.id}:value`);
  const chosenViews = (attrs.filterIds || []).filter((id) => views.some((v) => v.id === id));
  const datasetIds = Array.from(new Set(chosenViews.map((id) => views.find((v) => v.id === id)?.tableId || '').filter(Boolean)));
  const fields = useDatasetFields(datasetIds);
  const fieldIds = String(attrs.fieldId || '').split(',').filter(Boolean);
  const fieldOf = (datasetId: string) => fieldIds.find((id) => (fields[datasetId] || []).some((f) => f.id === id));
  const setField = (datasetId: string, fieldId: string | undefined) => {
    const others = fieldIds.filter((id) => !(fields[datasetId] || []).some((f) => f.id === id));
    setAttrs({ fieldId: [...others, ...(fieldId ? [fieldId] : [])].join(',') }, 'fieldId');
  };
  const setViews = (ids: string[]) => {
    const keep = new Set(ids.map((id) => views.find((v) => v.id === id)?.tableId).filter(Boolean));
    const kept = fieldIds.filter((fid) => Array.from(keep).some((ds) => (fields[ds as string] || []).some((f) => f.id === fid)));
    setAttrs({ filterIds: ids, fieldId: kept.join(',') }, 'filterIds');
  };
  const range = /range/.test(String(attrs.type || ''));
  const def = attrs.default || {};
  const setDefault = (patch: Partial<NonNullable<WidgetAttrs['default']>>) => setAttrs({ default: { ...def, ...patch } }, 'default');

  return (
    <Section title={t('widget.binding')} testId="props-widget">
      <Field label={t('widget.views')}>
        <Select
          size="small"
          mode="multiple"
          data-testid="widget-views"
          value={chosenViews}
          placeholder={t('widget.viewsPlaceholder')}
          options={views.map((v) => ({ value: v.id, label: viewLabel(v) }))}
          onChange={setViews}
        />
      </Field>
      {datasetIds.map((ds) => (
        <Field key={ds} label={t('widget.field', { views: chosenViews.filter((id) => views.find((v) => v.id === id)?.tableId === ds).map((id) => viewLabel(views.find((v) => v.id === id)!)).join(', ') })}>
          <Select
            size="small"
            allowClear
            data-testid={`widget-field-${ds}`}
            value={fieldOf(ds)}
            placeholder={t('widget.fieldPlaceholder')}
            options={(fields[ds] || []).filter((f) => fitsKind(kind, f)).map((f) => ({ value: f.id, label: f.name }))}
            onChange={(v) => setField(ds, v)}
          />
        </Field>
      ))}
      {kind === 'select' && <SelectDefaults component={component} fieldIds={fieldIds} onMultiple={(m) => setAttrs({ multiple: m }, 'multiple')} onValue={setValue} />}
      {kind === 'number-range' && (
        <Field label={t('widget.defaultRange')}>
          <div style={{ display: 'flex', gap: 6 }}>
            {[0, 1].map((i) => {
              const v = Array.isArray(component.options?.value) ? (component.options!.value as (number | null)[]) : [null, null];
              return (
                <InputNumber key={i} size="small" precision={0} style={{ flex: 1 }} placeholder={t(i ? 'widget.max' : 'widget.min')} value={v[i] ?? null}
                  onChange={(n) => setValue(i ? [v[0] ?? null, n ?? null] : [n ?? null, v[1] ?? null])} />
              );
            })}
          </div>
        </Field>
      )}
      {kind === 'date' && (
        <>
          <Field label={t('widget.dateKind')}>
            <Select
              size="small"
              data-testid="widget-date-type"
              value={range ? 'daterange' : 'date'}
              options={[{ value: 'date', label: t('widget.dateType.date') }, { value: 'daterange', label: t('widget.dateType.daterange') }]}
              onChange={(v) => onChange((c) => ({ ...c, serviceName: v === 'daterange' ? 'timeDateRangeWidget' : 'timeDateWidget', options: { ...c.options, value: v === 'daterange' ? [] : null, attrs: { ...c.options?.attrs, type: v, default: { ...def, dkey: v === 'daterange' ? 'thisMonth' : 'today' } } } }))}
            />
          </Field>
          <Field label={t('widget.dynamicDefault')}>
            <Switch size="small" data-testid="widget-dynamic" checked={!!def.isDynamic} onChange={(on) => setDefault({ isDynamic: on })} />
          </Field>
          {def.isDynamic && (
            <>
              <Field label={t('widget.dynamicKey')}>
                <Select
                  size="small"
                  data-testid="widget-dynamic-key"
                  value={String(def.dkey ?? (range ? 'thisMonth' : 'today'))}
                  options={(range ? RANGE_KEYS : SINGLE_KEYS).map((k) => ({ value: k, label: t(`dynamic.${k}`) }))}
                  onChange={(v) => setDefault({ dkey: v })}
                />
              </Field>
              {(def.dkey === 'custom' || def.dkey === 'customRange') && (
                <div style={{ display: 'flex', gap: 6, marginBottom: 10 }}>
                  <InputNumber size="small" min={0} max={1000} value={Number(def.dynamicPrefix ?? 1)} onChange={(n) => setDefault({ dynamicPrefix: n ?? 0 })} style={{ width: 70 }} />
                  <Select size="small" style={{ flex: 1 }} value={def.dynamicInfill || 'day'} options={['day', 'week', 'month', 'year'].map((u) => ({ value: u, label: t(`dynamic.unit.${u}`) }))} onChange={(v) => setDefault({ dynamicInfill: v })} />
                  <Select size="small" style={{ flex: 1 }} value={def.dynamicSuffix || 'before'} options={['before', 'after'].map((u) => ({ value: u, label: t(`dynamic.${u}`) }))} onChange={(v) => setDefault({ dynamicSuffix: v })} />
                </div>
              )}
            </>
          )}
        </>
      )}
      <Field label={t('widget.autoTrigger')}>
        <Switch size="small" checked={attrs.autoTrigger === true} onChange={(on) => setAttrs({ autoTrigger: on }, 'autoTrigger')} />
      </Field>
    </Section>
  );
}

function SelectDefaults({ component, fieldIds, onMultiple, onValue }: { component: PanelComponent; fieldIds: string[]; onMultiple: (m: boolean) => void; onValue: (v: unknown) => void }) {
  const { t } = useDsT();
  const multiple = !!component.options?.attrs?.multiple;
  const [values, setValues] = useState<unknown[]>([]);
  const key = fieldIds.join(',');
  useEffect(() => {
    if (!key) return setValues([]);
    let alive = true;
    designerApi.fieldValues(key.split(',')).then((v) => alive && setValues(Array.isArray(v) ? v : [])).catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [key]);
  const v = component.options?.value;
  const chosen = Array.isArray(v) ? v : v === null || v === undefined || v === '' ? [] : [v];
  return (
    <>
      <Field label={t('widget.multiple')}>
        <Switch size="small" data-testid="widget-multiple" checked={multiple} onChange={(m) => onMultiple(m)} />
      </Field>
      <Field label={t('widget.defaultValue')}>
        <Select
          size="small"
          allowClear
          mode={multiple ? 'multiple' : undefined}
          data-testid="widget-default"
          value={multiple ? chosen : chosen[0]}
          options={values.map((o) => ({ value: o as string, label: String(o) }))}
          onChange={(next) => onValue(multiple ? next || [] : next ?? null)}
        />
      </Field>
    </>
  );
}
