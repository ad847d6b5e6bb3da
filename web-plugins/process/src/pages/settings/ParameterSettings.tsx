import { useState } from 'react';
import { Button, Checkbox, Flex, Form, Input, Switch } from 'antd';
import { useT } from '@atrium/sdk';
import { interval, parameters, type Interval, type Parameter } from '../nodeModel';
import { writeParameters, type Editing } from './editing';

/** A node's parameters (name, value, numeric or not) and its optional interval. */
export function ParameterSettings({ editing }: { editing: Editing }) {
  const t = useT('process');
  const bo = editing.element.businessObject;
  const [rows, setRows] = useState<Parameter[]>(() => parameters(bo));
  const [range, setRange] = useState<Interval | null>(() => interval(bo));
  const save = (next: Parameter[], nextRange: Interval | null) => { setRows(next); setRange(nextRange); writeParameters(editing, next, nextRange); };
  const edit = (i: number, change: Partial<Parameter>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));
  const commit = () => writeParameters(editing, rows, range);
  return (
    <>
      <Form.Item label={t('web.parameters')}>
        <Flex vertical gap={6} data-testid="prop-parameters">
          {rows.map((r, i) => (
            <Flex key={i} gap={6} wrap align="center" data-testid={`param-row-${i}`}>
              <Input value={r.name} placeholder={t('web.paramName')} aria-label={t('web.paramName')} style={{ flex: '1 1 90px', minWidth: 0 }}
                data-testid={`param-name-${i}`} onChange={(ev) => edit(i, { name: ev.target.value })} onBlur={commit} />
              <Input value={r.value} placeholder={t('web.paramValue')} aria-label={t('web.paramValue')} style={{ flex: '1 1 90px', minWidth: 0 }}
                data-testid={`param-value-${i}`} onChange={(ev) => edit(i, { value: ev.target.value })} onBlur={commit} />
              <Checkbox checked={r.numeric} data-testid={`param-numeric-${i}`}
                onChange={(ev) => save(rows.map((x, j) => (j === i ? { ...x, numeric: ev.target.checked } : x)), range)}>
                {t('web.paramNumeric')}
              </Checkbox>
              <Button size="small" type="text" danger data-testid={`param-remove-${i}`} onClick={() => save(rows.filter((_, j) => j !== i), range)}>
                {t('web.removeParameter')}
              </Button>
            </Flex>
          ))}
          <Button size="small" type="dashed" block data-testid="param-add" onClick={() => save([...rows, { name: '', value: '', numeric: false }], range)}>
            {t('web.addParameter')}
          </Button>
        </Flex>
      </Form.Item>
      <Form.Item label={t('web.interval')}>
        <Flex gap={6} wrap align="center">
          <Switch checked={!!range} size="small" data-testid="prop-range" onChange={(on) => save(rows, on ? { min: '', max: '' } : null)} />
          {range && (
            <>
              <Input value={range.min} placeholder={t('web.intervalMin')} aria-label={t('web.intervalMin')} style={{ flex: '1 1 80px', minWidth: 0 }}
                data-testid="prop-range-min" onChange={(ev) => setRange({ ...range, min: ev.target.value })} onBlur={commit} />
              <Input value={range.max} placeholder={t('web.intervalMax')} aria-label={t('web.intervalMax')} style={{ flex: '1 1 80px', minWidth: 0 }}
                data-testid="prop-range-max" onChange={(ev) => setRange({ ...range, max: ev.target.value })} onBlur={commit} />
            </>
          )}
        </Flex>
      </Form.Item>
    </>
  );
}
