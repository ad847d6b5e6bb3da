/** The number range widget (spec 5): optional integer bounds within -2147483648..2147483647, checked on
 * blur and on change; only valid input sets the filter (ge, le or between). */
import { Input } from 'antd';
import { useState } from 'react';
import { checkBound, type BoundError } from '../model/filters';
import type { PanelComponent } from '../model/types';
import { useRT } from '../i18n';
import { usePanel, usePanelStore } from '../panel/store';
import { WidgetTitle } from './Widget';

export function NumberRangeWidget({ component }: { component: PanelComponent }) {
  const { t } = useRT();
  const store = usePanelStore();
  const value = usePanel((s) => s.values[component.id]) as [number | null, number | null] | undefined;
  const [text, setText] = useState<[string, string]>(() => [value?.[0] ?? '', value?.[1] ?? ''].map((v) => (v === null ? '' : String(v))) as [string, string]);
  const [errors, setErrors] = useState<[BoundError | undefined, BoundError | undefined]>([undefined, undefined]);

  // a reset elsewhere clears the inputs
  const applied = value ?? [null, null];
  const shownKey = `${applied[0]}|${applied[1]}`;
  const [lastKey, setLastKey] = useState(shownKey);
  if (shownKey !== lastKey) {
    setLastKey(shownKey);
    const a = checkBound(text[0]).value;
    const b = checkBound(text[1]).value;
    if (a !== applied[0] || b !== applied[1]) setText([applied[0] === null ? '' : String(applied[0]), applied[1] === null ? '' : String(applied[1])]);
  }

  const check = (next: [string, string]) => {
    const lo = checkBound(next[0]);
    const hi = checkBound(next[1]);
    setErrors([lo.error, hi.error]);
    if (!lo.error && !hi.error) {
      const v: [number | null, number | null] = [lo.value, hi.value];
      if (v[0] !== applied[0] || v[1] !== applied[1]) {
        setLastKey(`${v[0]}|${v[1]}`);
        store.setValue(component.id, v);
      }
    }
  };
  const change = (i: 0 | 1, s: string) => {
    const next: [string, string] = i === 0 ? [s, text[1]] : [text[0], s];
    setText(next);
    check(next);
  };
  const error = errors[0] || errors[1];
  return (
    <>
      <WidgetTitle text={component.options?.attrs?.title} />
      <div style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
        <Input size="small" data-testid="number-min" status={errors[0] ? 'error' : undefined} placeholder={t('filter.min')} value={text[0]} onChange={(e) => change(0, e.target.value)} onBlur={() => check(text)} />
        <span>~</span>
        <Input size="small" data-testid="number-max" status={errors[1] ? 'error' : undefined} placeholder={t('filter.max')} value={text[1]} onChange={(e) => change(1, e.target.value)} onBlur={() => check(text)} />
      </div>
      {error && <div className="rpt-widget-error" data-testid="number-error" style={{ color: '#d4380d', fontSize: 12, lineHeight: '16px' }}>{t(`filter.${error}`)}</div>}
    </>
  );
}
