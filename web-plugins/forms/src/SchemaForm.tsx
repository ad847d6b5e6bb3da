/**
 * Renders a form's JSON Schema with antd and checks it in the browser with rules taken from the same
 * schema (required, conditional required, length, range, pattern, choices, item counts); the server checks
 * again with a JSON Schema validator and its field messages are shown on the fields.
 */
import { useEffect, useMemo } from 'react';
import dayjs from 'dayjs';
import {
  Button, Checkbox, Col, DatePicker, Divider, Form, Input, InputNumber, Radio, Row, Select, Space, Typography, Upload,
  type FormInstance,
} from 'antd';
import { upload, useT } from '@atrium/sdk';
import { fieldLabel, type Json } from './api';

const NO_DATA = new Set(['section', 'divider']);

export function kindOf(prop: Json): string {
  if (prop['x-kind']) return prop['x-kind'];
  if (prop.type === 'number' || prop.type === 'integer') return 'number';
  if (prop.type === 'boolean') return 'checkbox';
  if (prop.format === 'date') return 'date';
  if (prop.enum) return 'select';
  return 'text';
}

function visible(prop: Json, values: Json): boolean {
  const rule = prop['x-visibleIf'];
  if (!rule || !rule.field) return true;
  const other = values?.[rule.field];
  return Array.isArray(other) ? other.includes(rule.value) : other === rule.value;
}

/** Fields required only when another has a value (`allOf` if/then on a const). */
function conditionalRequired(schema: Json, values: Json): Set<string> {
  const out = new Set<string>();
  for (const rule of schema.allOf || []) {
    const cond = rule?.if?.properties || {};
    const ok = Object.entries(cond).every(([k, v]: [string, any]) => v && 'const' in v && values?.[k] === v.const);
    if (ok) for (const k of rule?.then?.required || []) out.add(k);
  }
  return out;
}

export function options(prop: Json, locale: string) {
  const values: any[] = prop.enum || prop.items?.enum || [];
  const names = prop['x-enumNames']?.[locale] || prop['x-enumNames']?.['zh-cn'] || prop['x-enumNames']?.['en-us'] || [];
  return values.map((v, i) => ({ value: v, label: String(names[i] ?? v) }));
}

/** Form values (dates as dayjs) to the JSON the schema describes. */
export function toData(schema: Json, values: Json): Json {
  const out: Json = {};
  for (const [key, prop] of Object.entries<Json>(schema.properties || {})) {
    const kind = kindOf(prop);
    let v = values?.[key];
    if (NO_DATA.has(kind) || v === undefined || v === null || v === '') continue;
    if (kind === 'date' && dayjs.isDayjs(v)) v = v.format('YYYY-MM-DD');
    if (kind === 'daterange' && Array.isArray(v)) v = v.map((d: any) => (dayjs.isDayjs(d) ? d.format('YYYY-MM-DD') : d));
    if ((kind === 'user' || kind === 'member') && typeof v === 'string') v = { name: v };
    if (kind === 'file' || kind === 'image') v = (v as any[]).map((f) => f.response || f).map((f: any) => ({ fileId: f.fileId, name: f.name, size: f.size, url: f.url }));
    if (kind === 'table' && Array.isArray(v)) v = v.filter(Boolean);
    out[key] = v;
  }
  return out;
}

/** Stored JSON back to form values (dates as dayjs). */
export function toValues(schema: Json, data: Json): Json {
  const out: Json = {};
  for (const [key, prop] of Object.entries<Json>(schema.properties || {})) {
    const kind = kindOf(prop);
    let v = data?.[key] ?? prop.default;
    if (v === undefined) continue;
    if (kind === 'date' && typeof v === 'string') v = dayjs(v);
    if (kind === 'daterange' && Array.isArray(v)) v = v.map((d) => dayjs(d));
    if ((kind === 'user' || kind === 'member') && v && typeof v === 'object') v = v.name;
    out[key] = v;
  }
  return out;
}

function rulesFor(prop: Json, required: boolean, label: string, t: (k: string, o?: any) => string): any[] {
  const rules: any[] = [];
  if (required) rules.push({ required: true, message: t('web.v.required', { field: label }) });
  if (prop.minLength !== undefined) rules.push({ min: prop.minLength, type: 'string', message: t('web.v.minLength', { field: label, limit: prop.minLength }) });
  if (prop.maxLength !== undefined) rules.push({ max: prop.maxLength, type: 'string', message: t('web.v.maxLength', { field: label, limit: prop.maxLength }) });
  if (prop.pattern) rules.push({ pattern: new RegExp(prop.pattern), message: t('web.v.pattern', { field: label }) });
  if (prop.minimum !== undefined) rules.push({ type: 'number', min: prop.minimum, message: t('web.v.minimum', { field: label, limit: prop.minimum }) });
  if (prop.maximum !== undefined) rules.push({ type: 'number', max: prop.maximum, message: t('web.v.maximum', { field: label, limit: prop.maximum }) });
  return rules;
}

function FileField({ value, onChange, image, disabled }: { value?: any[]; onChange?: (v: any[]) => void; image: boolean; disabled?: boolean }) {
  const t = useT('forms');
  return (
    <Upload
      disabled={disabled}
      listType={image ? 'picture' : 'text'}
      accept={image ? '.jpg,.jpeg,.png' : undefined}
      fileList={(value || []).map((f: any, i: number) => ({ uid: String(f.fileId || i), name: f.name, status: 'done', url: f.url, response: f }))}
      beforeUpload={(file) => {
        if (image && !/\.(jpe?g|png)$/i.test(file.name)) return Upload.LIST_IGNORE;
        if (image && file.size > 2 * 1024 * 1024) return Upload.LIST_IGNORE;
        return true;
      }}
      customRequest={async ({ file, onSuccess, onError }) => {
        try {
          const f = file as File;
          const res: any = await upload('file/iot-base-attachment/single/file-upload', f);
          const item = { fileId: String(res.fileId), name: f.name, size: f.size, url: res.filePath };
          onChange?.([...(value || []), item]);
          onSuccess?.(item);
        } catch (e) {
          onError?.(e as Error);
        }
      }}
      onRemove={(f) => onChange?.((value || []).filter((v: any) => String(v.fileId) !== f.uid))}
    >
      <Button disabled={disabled}>{t(image ? 'web.uploadImage' : 'web.uploadFile')}</Button>
    </Upload>
  );
}

function widget(kind: string, prop: Json, locale: string, disabled: boolean) {
  switch (kind) {
    case 'textarea':
      return <Input.TextArea rows={3} disabled={disabled} />;
    case 'number':
      return <InputNumber style={{ width: '100%' }} disabled={disabled} precision={prop.type === 'integer' ? 0 : undefined} />;
    case 'select':
      return <Select options={options(prop, locale)} allowClear disabled={disabled} mode={prop.type === 'array' ? 'multiple' : undefined} />;
    case 'radio':
      return <Radio.Group options={options(prop, locale)} disabled={disabled} />;
    case 'checkbox':
      return prop.type === 'array' ? <Checkbox.Group options={options(prop, locale)} disabled={disabled} /> : <Checkbox disabled={disabled} />;
    case 'date':
      return <DatePicker style={{ width: '100%' }} disabled={disabled} inputReadOnly />;
    case 'daterange':
      return <DatePicker.RangePicker style={{ width: '100%' }} disabled={disabled} inputReadOnly />;
    case 'file':
    case 'image':
      return <FileField image={kind === 'image'} disabled={disabled} />;
    default:
      return <Input disabled={disabled} />;
  }
}

function TableField({ name, prop, locale, disabled }: { name: string; prop: Json; locale: string; disabled: boolean }) {
  const t = useT('forms');
  const cols = Object.entries<Json>(prop.items?.properties || {});
  return (
    <Form.List name={name}>
      {(rows, { add, remove }) => (
        <div data-testid={`table-${name}`}>
          {rows.map((row) => (
            <Space key={row.key} align="baseline" wrap>
              {cols.map(([k, p]) => (
                <Form.Item key={k} name={[row.name, k]} label={fieldLabel(p, k, locale)} rules={rulesFor(p, false, fieldLabel(p, k, locale), t)}>
                  {widget(kindOf(p), p, locale, disabled)}
                </Form.Item>
              ))}
              {!disabled && <Button onClick={() => remove(row.name)}>{t('web.removeRow')}</Button>}
            </Space>
          ))}
          {!disabled && <Button type="dashed" onClick={() => add({})}>{t('web.addRow')}</Button>}
        </div>
      )}
    </Form.List>
  );
}

export interface SchemaFormProps {
  schema: Json;
  form: FormInstance;
  columns?: number;
  initial?: Json;
  disabled?: boolean;
}

export function SchemaForm({ schema, form, columns = 1, initial, disabled = false }: SchemaFormProps) {
  const t = useT('forms');
  const locale = t.locale;
  const values = Form.useWatch([], form) || {};
  const required = useMemo(() => new Set<string>(schema.required || []), [schema]);
  const extra = conditionalRequired(schema, values);
  useEffect(() => {
    form.setFieldsValue(toValues(schema, initial || {}));
  }, [schema, initial, form]);
  const span = Math.max(1, Math.floor(24 / Math.max(1, Math.min(4, columns))));
  return (
    <Form form={form} layout="vertical" disabled={disabled} data-testid="schema-form">
      <Row gutter={16}>
        {Object.entries<Json>(schema.properties || {}).map(([key, prop]) => {
          const kind = kindOf(prop);
          const label = fieldLabel(prop, key, locale);
          if (kind === 'section') return <Col span={24} key={key}><Typography.Title level={5}>{label}</Typography.Title></Col>;
          if (kind === 'divider') return <Col span={24} key={key}><Divider /></Col>;
          if (!visible(prop, values)) return null;
          const help = (prop['x-help'] || {})[locale] || prop.description;
          if (kind === 'table') {
            return (
              <Col span={24} key={key}>
                <Form.Item label={label} help={help}><TableField name={key} prop={prop} locale={locale} disabled={disabled} /></Form.Item>
              </Col>
            );
          }
          const isRequired = required.has(key) || extra.has(key);
          return (
            <Col xs={24} md={kind === 'textarea' ? 24 : span} key={key}>
              <Form.Item
                name={key}
                label={label}
                extra={help}
                valuePropName={kind === 'checkbox' && prop.type !== 'array' ? 'checked' : 'value'}
                rules={rulesFor(prop, isRequired, label, t)}
                data-testid={`field-${key}`}
              >
                {widget(kind, prop, locale, disabled)}
              </Form.Item>
            </Col>
          );
        })}
      </Row>
    </Form>
  );
}

/** Puts the server's field messages (`data.errors`) on the fields; answers whether any was placed. */
export function showServerErrors(form: FormInstance, error: any): boolean {
  const errors: { field: string; message: string }[] = error?.data?.errors || [];
  const placed = errors.filter((e) => e.field);
  form.setFields(placed.map((e) => ({ name: e.field, errors: [e.message] })));
  return placed.length > 0;
}
