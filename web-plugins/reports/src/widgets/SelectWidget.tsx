/**
 * The select widget (spec 4): values from multFieldValues (linkMultFieldValues on a shared link); multiple
 * with a select-all box (checked, indeterminate or unchecked); single with radios that toggle off when
 * clicked again.
 */
import { Checkbox, Input, Radio, Select } from 'antd';
import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import { api } from '../api';
import { selectAllState, toggleRadio } from '../model/filters';
import type { PanelComponent } from '../model/types';
import { useRT } from '../i18n';
import { usePanel, usePanelStore } from '../panel/store';
import { WidgetTitle } from './Widget';

export function SelectWidget({ component }: { component: PanelComponent }) {
  const { t } = useRT();
  const store = usePanelStore();
  const attrs = component.options?.attrs || {};
  const multiple = !!attrs.multiple;
  const value = usePanel((s) => s.values[component.id]);
  const [options, setOptions] = useState<unknown[]>([]);
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');

  useEffect(() => {
    const ids = String(attrs.fieldId || '').split(',').map((s) => s.trim()).filter(Boolean);
    if (!ids.length) return undefined;
    let alive = true;
    api.fieldValues(ids, store.env.panelId, store.env.access).then((v) => alive && setOptions(Array.isArray(v) ? v : [])).catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [attrs.fieldId, store.env.panelId, store.env.access]);

  const chosen: unknown[] = multiple ? (Array.isArray(value) ? value : []) : value === null || value === undefined || value === '' ? [] : [value];
  const shown = useMemo(() => (search ? options.filter((o) => String(o).toLowerCase().includes(search.toLowerCase())) : options), [options, search]);
  const all = selectAllState(chosen.length, options.length);

  const set = (v: unknown) => store.setValue(component.id, v);
  // the popup replaces the select's own list, and with it the list's Escape handling
  const closeOnEscape = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key === 'Escape' && open) {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
    }
  };
  const popup = (
    <div className="rpt-select-popup" data-testid="select-popup" style={{ padding: 6, maxHeight: 280, display: 'flex', flexDirection: 'column' }} onMouseDown={(e) => e.preventDefault()} onKeyDown={closeOnEscape}>
      <Input size="small" allowClear placeholder={t('filter.search')} value={search} onChange={(e) => setSearch(e.target.value)} style={{ marginBottom: 6 }} />
      {multiple && (
        <Checkbox
          data-testid="select-all"
          checked={all === 'checked'}
          indeterminate={all === 'indeterminate'}
          onChange={(e) => set(e.target.checked ? [...options] : [])}
          style={{ padding: '2px 4px', borderBottom: '1px solid #f0f0f0' }}
        >
          {t('filter.selectAll')}
        </Checkbox>
      )}
      <div style={{ overflow: 'auto', flex: 1 }}>
        {shown.map((o) => {
          const key = String(o);
          const checked = chosen.some((c) => String(c) === key);
          return multiple ? (
            <div key={key} style={{ padding: '2px 4px' }}>
              <Checkbox checked={checked} onChange={(e) => set(e.target.checked ? [...chosen, o] : chosen.filter((c) => String(c) !== key))}>{key}</Checkbox>
            </div>
          ) : (
            <div key={key} style={{ padding: '2px 4px' }}>
              <Radio checked={checked} onClick={() => set(toggleRadio(value, o))}>{key}</Radio>
            </div>
          );
        })}
      </div>
    </div>
  );

  return (
    <>
      <WidgetTitle text={attrs.title} />
      <Select
        data-testid="select-widget"
        size="small"
        style={{ width: '100%' }}
        mode={multiple ? 'multiple' : undefined}
        maxTagCount="responsive"
        allowClear
        open={open}
        onOpenChange={setOpen}
        onKeyDown={closeOnEscape}
        placeholder={attrs.placeholder || t('filter.placeholder')}
        value={multiple ? chosen : chosen[0] ?? undefined}
        options={options.map((o) => ({ value: o as string, label: String(o) }))}
        onChange={(v) => set(multiple ? v || [] : v ?? null)}
        popupRender={() => popup}
      />
    </>
  );
}
