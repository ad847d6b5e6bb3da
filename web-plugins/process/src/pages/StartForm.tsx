import { useEffect, useState } from 'react';
import { Alert, App, Collapse, DatePicker, Form, Input, InputNumber, Modal, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { RequestError, useHasButton, useT } from '@atrium/sdk';
import { parseVariables, processApi, type Json, type ModelInfo, type StartField } from '../api';

/** The longest text each kind of text field takes (the server's `startform.MAX_TEXT`). */
const MAX_TEXT: Record<string, number> = { string: 200, text: 2000 };

/** A field's label in the current language: its own translation, else the label the model gives. */
export function fieldLabel(f: StartField, locale: string): string {
  return f.labels?.[locale] || f.label || f.id;
}

function limit(v: number | null, fallback: string): string {
  return v === null || v === undefined ? fallback : String(v);
}

/** The rules the server applies to the field (plugins/process/engine/startform.py), with its messages. */
function rulesOf(f: StartField, label: string, t: (k: string, o?: any) => string): Rule[] {
  const rules: Rule[] = [];
  const text = f.type === 'string' || f.type === 'text';
  if (f.required) {
    // the type keeps async-validator from judging a number or a date as a string
    const type = f.type === 'number' ? 'number' : f.type === 'date' ? 'object' : 'string';
    rules.push({ required: true, type, whitespace: text, message: t('start.field_required', { field: label }) });
  }
  if (f.type === 'number') {
    rules.push({ type: 'number', message: t('start.field_number', { field: label }) });
    const range = t('start.field_range', { field: label, min: limit(f.min, '-∞'), max: limit(f.max, '∞') });
    rules.push({
      validator: async (_: unknown, v: unknown) => {
        if (typeof v !== 'number') return;
        if ((f.min !== null && v < f.min) || (f.max !== null && v > f.max)) throw new Error(range);
      },
    });
  } else if (f.type === 'date') {
    rules.push({
      validator: async (_: unknown, v: any) => {
        if (v && typeof v.isValid === 'function' && !v.isValid()) throw new Error(t('start.field_date', { field: label }));
      },
    });
  } else {
    rules.push({ max: MAX_TEXT[f.type] || 200, message: t('start.field_text', { field: label, limit: MAX_TEXT[f.type] || 200 }) });
  }
  return rules;
}

function control(f: StartField, t: (k: string) => string) {
  const testId = `process-start-field-${f.id}`;
  if (f.type === 'number') return <InputNumber style={{ width: '100%' }} data-testid={testId} />;
  if (f.type === 'date') return <DatePicker style={{ width: '100%' }} format="YYYY-MM-DD" placeholder={t('web.pickDate')} data-testid={testId} />;
  if (f.type === 'text') return <Input.TextArea rows={3} data-testid={testId} />;
  return <Input data-testid={testId} />;
}

/** The form's values as the server takes them: dates as YYYY-MM-DD, text trimmed, empty fields left out. */
function variablesOf(fields: StartField[], values: Record<string, any>): Json {
  const out: Json = {};
  for (const f of fields) {
    const v = values[f.id];
    if (v === undefined || v === null || v === '') continue;
    if (f.type === 'date') out[f.id] = v.format('YYYY-MM-DD');
    else if (typeof v === 'string') { if (v.trim()) out[f.id] = v.trim(); }
    else out[f.id] = v;
  }
  return out;
}

/** Start a deployed model: the start form its start event declares, checked before it is sent (the server
 * checks it again and its answers land on the fields). Designers may add variables as JSON. */
export function StartModal({ model, onClose }: { model: ModelInfo | null; onClose: () => void }) {
  const t = useT('process');
  const { message } = App.useApp();
  const canDesign = useHasButton('process:design');
  const [form] = Form.useForm();
  const [extra, setExtra] = useState('');
  const [busy, setBusy] = useState(false);
  const fields = model?.startFields || [];
  useEffect(() => { if (model) { form.resetFields(); setExtra(''); } }, [model, form]);

  const submit = async () => {
    if (!model) return;
    let values: Record<string, any>;
    try { values = await form.validateFields(); } catch { return; }
    const more = canDesign ? parseVariables(extra) : {};
    if (!more) { message.error(t('web.variablesInvalid')); return; }
    setBusy(true);
    try {
      await processApi.start(model.modelId, { ...more, ...variablesOf(fields, values) });
      message.success(t('web.started'));
      onClose();
    } catch (e) {
      const errors = e instanceof RequestError ? (e.data as { errors?: { field?: string; message: string }[] } | null)?.errors : null;
      const known = (errors || []).filter((x) => x.field && fields.some((f) => f.id === x.field));
      if (known.length) form.setFields(known.map((x) => ({ name: x.field as string, errors: [x.message] })));
      message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title={`${t('web.start')}: ${model?.name || ''}`} open={!!model} onCancel={onClose} onOk={submit} confirmLoading={busy}
      destroyOnHidden okButtonProps={{ 'data-testid': 'process-start-ok' } as any}>
      <Form form={form} layout="vertical" data-testid="process-start-form" preserve={false}>
        {fields.length === 0 && <Alert type="info" showIcon message={t('web.startNoFields')} style={{ marginBottom: 12 }} />}
        {fields.map((f) => {
          const label = fieldLabel(f, t.locale);
          return (
            <Form.Item key={f.id} name={f.id} label={label} required={f.required} rules={rulesOf(f, label, t)}
              validateFirst>
              {control(f, t)}
            </Form.Item>
          );
        })}
      </Form>
      {canDesign && (
        <Collapse size="small" ghost items={[{
          key: 'more', label: <Typography.Text type="secondary">{t('web.advanced')}</Typography.Text>,
          children: <Input.TextArea rows={3} value={extra} onChange={(e) => setExtra(e.target.value)} placeholder={t('web.variables')} data-testid="process-start-variables" />,
        }]} />
      )}
    </Modal>
  );
}
