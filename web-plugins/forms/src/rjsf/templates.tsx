/**
 * How react-jsonschema-form lays a form out here: each field an antd Form.Item (label, required mark, help
 * text, its messages), the top level in the layout's columns with hidden fields left out, sub-table rows side
 * by side with a remove button, and no submit button (the page has its own).
 */
import { Button, Col, Form, Row } from 'antd';
import type {
  ArrayFieldItemTemplateProps,
  ArrayFieldTemplateProps,
  FieldTemplateProps,
  ObjectFieldTemplateProps,
  SubmitButtonProps,
} from '@rjsf/utils';
import type { Json } from '../api';
import { FULL_WIDTH, kindOf, NO_DATA, visible } from '../schemaInfo';

/** What the page hands the templates through rjsf's `formContext`. */
export interface FormContext {
  /** the layout's columns (1 to 4) */
  columns: number;
  t: (key: string, options?: Record<string, unknown>) => string;
}

const ROW_STYLE = { display: 'flex', flexWrap: 'wrap' as const, gap: 8, alignItems: 'flex-start' };

function isTableRow(path: (string | number)[]): boolean {
  return path.length === 2 && typeof path[1] === 'number';
}

export function FieldTemplate({ id, children, fieldPathId, label, required, rawDescription, rawErrors, hidden, schema }: FieldTemplateProps) {
  const path = fieldPathId.path;
  if (hidden) return <div style={{ display: 'none' }}>{children}</div>;
  if (path.length === 0 || isTableRow(path) || NO_DATA.has(kindOf(schema))) return children;
  const errors = (rawErrors || []).filter(Boolean);
  return (
    <Form.Item
      label={label}
      required={required}
      htmlFor={id}
      extra={rawDescription || undefined}
      validateStatus={errors.length ? 'error' : undefined}
      help={errors.length ? errors.join(' ') : undefined}
      data-testid={path.length === 1 ? `field-${path[0]}` : undefined}
    >
      {children}
    </Form.Item>
  );
}

/** The top level in columns (wide kinds across the row), fields hidden by their rule left out; a sub-table
 * row's cells side by side. */
export function ObjectFieldTemplate({ properties, fieldPathId, schema, formData, registry }: ObjectFieldTemplateProps) {
  const props: Record<string, Json> = (schema.properties || {}) as Record<string, Json>;
  if (fieldPathId.path.length > 0) {
    return <div style={ROW_STYLE}>{properties.map((p) => <div key={p.name}>{p.content}</div>)}</div>;
  }
  const { columns } = registry.formContext as FormContext;
  const span = Math.max(1, Math.floor(24 / Math.max(1, Math.min(4, columns || 1))));
  return (
    <Row gutter={16}>
      {properties
        .filter((p) => !p.hidden && visible(props[p.name] || {}, formData as Json))
        .map((p) => (
          <Col key={p.name} xs={24} md={FULL_WIDTH.has(kindOf(props[p.name] || {})) ? 24 : span}>
            {p.content}
          </Col>
        ))}
    </Row>
  );
}

/** A sub-table: its rows and an "add row" button. */
export function ArrayFieldTemplate({ items, canAdd, onAddClick, disabled, readonly, fieldPathId, registry }: ArrayFieldTemplateProps) {
  const { t } = registry.formContext as FormContext;
  return (
    <div data-testid={`table-${fieldPathId.path.join('.')}`}>
      {items}
      {canAdd && !disabled && !readonly && (
        <Button type="dashed" onClick={onAddClick}>{t('web.addRow')}</Button>
      )}
    </div>
  );
}

export function ArrayFieldItemTemplate({ children, buttonsProps, disabled, readonly, registry }: ArrayFieldItemTemplateProps) {
  const { t } = registry.formContext as FormContext;
  return (
    <div style={{ ...ROW_STYLE, alignItems: 'center' }}>
      {children}
      {buttonsProps.hasRemove && !disabled && !readonly && (
        <Button onClick={buttonsProps.onRemoveItem}>{t('web.removeRow')}</Button>
      )}
    </div>
  );
}

export function NoSubmitButton(_props: SubmitButtonProps) {
  return null;
}
