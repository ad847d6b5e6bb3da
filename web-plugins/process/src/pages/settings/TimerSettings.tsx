import { useState } from 'react';
import { Form, Input, Select } from 'antd';
import { useT } from '@atrium/sdk';
import { TIMER_KINDS, timerDefinitions, timerValue, type TimerKind } from '../nodeModel';
import { writeTimer, type Editing } from './editing';

/** A timer event: it waits for one duration (`PT5M`) or until one date. */
export function TimerSettings({ editing }: { editing: Editing }) {
  const t = useT('process');
  const [definition] = timerDefinitions(editing.element.businessObject);
  const current = definition ? timerValue(definition) : null;
  const [kind, setKind] = useState<TimerKind>(current?.kind || 'timeDuration');
  const [text, setText] = useState(current?.text || '');
  return (
    <>
      <Form.Item label={t('web.timerKind')}>
        <Select value={kind} data-testid="prop-timer-kind" options={TIMER_KINDS.map((k) => ({ value: k, label: t(`web.${k}`) }))}
          onChange={(k: TimerKind) => { setKind(k); writeTimer(editing, k, text); }} />
      </Form.Item>
      <Form.Item label={t('web.timerValue')} extra={t('web.timerHint')}>
        <Input value={text} onChange={(ev) => setText(ev.target.value)} onBlur={() => writeTimer(editing, kind, text.trim())}
          placeholder={kind === 'timeDuration' ? 'PT5M' : '2026-05-01T09:00'} data-testid="prop-timer-value" />
      </Form.Item>
    </>
  );
}
