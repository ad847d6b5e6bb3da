/** The date widget (spec 3.4, 5): a day or a range of exactly two days, picked (never typed), with
 * dynamic defaults (today, month start, this year, an offset...). */
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { PanelComponent } from '../model/types';
import { validDateRange } from '../model/filters';
import { useRT } from '../i18n';
import { usePanel, usePanelStore } from '../panel/store';
import { WidgetTitle } from './Widget';

const FORMAT = 'YYYY-MM-DD';

function pickerOf(type: string): 'date' | 'month' | 'year' {
  if (/year/.test(type)) return 'year';
  if (/month/.test(type)) return 'month';
  return 'date';
}

export function DateWidget({ component }: { component: PanelComponent }) {
  const { t } = useRT();
  const store = usePanelStore();
  const attrs = component.options?.attrs || {};
  const type = String(attrs.type || (component.serviceName === 'timeDateRangeWidget' ? 'daterange' : 'date'));
  const range = /range/.test(type);
  const picker = pickerOf(type);
  const value = usePanel((s) => s.values[component.id]);
  const set = (v: unknown) => store.setValue(component.id, v);
  const startOf = (d: Dayjs) => (picker === 'year' ? d.startOf('year') : picker === 'month' ? d.startOf('month') : d);
  const endOf = (d: Dayjs) => (picker === 'year' ? d.endOf('year') : picker === 'month' ? d.endOf('month') : d);
  return (
    <>
      <WidgetTitle text={attrs.title} />
      {range ? (
        <DatePicker.RangePicker
          data-testid="date-widget"
          size="small"
          picker={picker}
          inputReadOnly
          allowClear
          style={{ width: '100%' }}
          placeholder={[t('filter.start'), t('filter.end')]}
          value={validDateRange(value) ? [dayjs(value[0]), dayjs(value[1])] : null}
          onChange={(v) => set(v && v[0] && v[1] ? [startOf(v[0]).format(FORMAT), endOf(v[1]).format(FORMAT)] : [])}
        />
      ) : (
        <DatePicker
          data-testid="date-widget"
          size="small"
          picker={picker}
          inputReadOnly
          allowClear
          style={{ width: '100%' }}
          placeholder={t('filter.placeholder')}
          value={typeof value === 'string' && value ? dayjs(value) : null}
          onChange={(v) => set(v ? startOf(v).format(FORMAT) : null)}
        />
      )}
    </>
  );
}
