/** One field's settings under the canvas, only those its kind has: naming, the value's rules (a number's
 * range, a text's length and pattern), the choices as a list, the default, when it shows, and its label in
 * each language (one input per language). */
import type { ReactNode } from 'react';
import { Button, Card, Checkbox, Col, Input, InputNumber, Row, Select, Space, Tag, Typography } from 'antd';
import { DICT_KINDS, type FieldDraft, hasSetting, LOCALES, optionValues } from '../design';
import { NO_DATA } from '../schemaInfo';
import { numberText, typedNumber } from '../numberText';
import type { Translate } from './announcements';
import { type CanvasField, fieldName } from './model';
import { OptionList } from './OptionList';

/** Each language by its own name (the same in every language). */
export const LANGUAGE_NAMES: Record<string, string> = { 'zh-cn': '简体中文', 'zh-tw': '繁體中文', 'en-us': 'English', 'vi-vn': 'Tiếng Việt', 'hu-hu': 'Magyar' };

/** The language whose label is the field's own (the schema's `title`), shown where a language has none. */
const FIRST_LOCALE = LOCALES[0];

const GROUP = { marginBottom: 8 };
const WIDE = { width: '100%' };
const ACCENT = 'var(--ant-color-primary, #1677ff)';

export interface FieldSettingsProps {
  field: CanvasField;
  index: number;
  /** the form's other fields, for the visibility rule */
  others: FieldDraft[];
  dictTypes: string[];
  selected: boolean;
  t: Translate;
  locale: string;
  onChange: (patch: Partial<FieldDraft>) => void;
  onRemove: () => void;
}

function Cell({ children }: { children: ReactNode }) {
  return <Col xs={24} sm={12} lg={6}>{children}</Col>;
}

/** The default value's input, as the kind takes it: a choice among the options, checked or not, a number, a
 * text or a date. */
function DefaultInput({ field: f, index: i, t, onChange: set }: { field: CanvasField; index: number; t: Translate; onChange: (patch: Partial<FieldDraft>) => void }) {
  const options = optionValues(f.options).map((o) => ({ value: o, label: o }));
  const common = { style: WIDE, allowClear: true, placeholder: t('web.default'), 'data-testid': `default-${i}` };
  if ((f.kind === 'select' || f.kind === 'radio') && !f.dict) {
    const chosen = typeof f.defaultValue === 'string' && f.defaultValue ? f.defaultValue : undefined;
    return <Select {...common} value={chosen} options={options} onChange={(v?: string) => set({ defaultValue: v ?? '' })} />;
  }
  if (f.kind === 'checkbox' && options.length) {
    const chosen = optionValues(f.defaultValue);
    return <Select {...common} mode="multiple" value={chosen} options={options} onChange={(v: string[]) => set({ defaultValue: v })} />;
  }
  if (f.kind === 'checkbox') {
    const chosen = typeof f.defaultValue === 'string' && f.defaultValue ? f.defaultValue : undefined;
    return <Select {...common} value={chosen} options={[{ value: 'true', label: t('web.checked') }, { value: 'false', label: t('web.unchecked') }]} onChange={(v?: string) => set({ defaultValue: v ?? '' })} />;
  }
  const text = Array.isArray(f.defaultValue) ? f.defaultValue.join(',') : f.defaultValue;
  if (f.kind === 'number') {
    return (
      <Input addonBefore={t('web.default')} inputMode="decimal" value={numberText(text)} data-testid={`default-${i}`}
        onChange={(e) => { const taken = typedNumber(e.target.value); if (taken !== null) set({ defaultValue: taken }); }} />
    );
  }
  return <Input addonBefore={t('web.default')} value={text} placeholder={f.kind === 'date' ? 'YYYY-MM-DD' : undefined} onChange={(e) => set({ defaultValue: e.target.value })} data-testid={`default-${i}`} />;
}

/** The default once the options change: a choice no longer offered is dropped (the server refuses a default
 * that does not fit its field). */
function keptDefault(f: FieldDraft, options: string[]): FieldDraft['defaultValue'] {
  const offered = new Set(optionValues(options));
  if (f.kind === 'checkbox' && Array.isArray(f.defaultValue)) return f.defaultValue.filter((v) => offered.has(v));
  if ((f.kind === 'select' || f.kind === 'radio') && typeof f.defaultValue === 'string' && f.defaultValue && !offered.has(f.defaultValue)) return '';
  return f.defaultValue;
}

/** The value the rule's field must have: one of its options when it has them, else as typed. */
function VisibleValue({ field: f, others, t, onChange: set }: { field: FieldDraft; others: FieldDraft[]; t: Translate; onChange: (patch: Partial<FieldDraft>) => void }) {
  const other = others.find((o) => o.key === f.visibleField);
  const choices = other && !other.dict && ['select', 'radio', 'checkbox'].includes(other.kind) ? optionValues(other.options) : [];
  if (choices.length) {
    return (
      <Select style={WIDE} placeholder={t('web.visibleValue')} value={f.visibleValue || undefined} onChange={(v: string) => set({ visibleValue: v })}
        options={choices.map((c) => ({ value: c, label: c }))} />
    );
  }
  return <Input addonBefore="=" placeholder={t('web.visibleValue')} value={f.visibleValue} disabled={!f.visibleField} onChange={(e) => set({ visibleValue: e.target.value })} />;
}

export function FieldSettings({ field: f, index: i, others, dictTypes, selected, t, locale, onChange: set, onRemove }: FieldSettingsProps) {
  const has = (setting: Parameters<typeof hasSetting>[1]) => hasSetting(f.kind, setting);
  const labelOf = (loc: string) => (loc === FIRST_LOCALE ? f.labels[loc] || f.label : f.labels[loc] || '');
  const setLabel = (loc: string, text: string) => {
    if (loc !== FIRST_LOCALE) {
      set({ labels: { ...f.labels, [loc]: text } });
      return;
    }
    // the first language's label is the field's own: kept once, as its title
    const { [loc]: _same, ...rest } = f.labels;
    set({ label: text, labels: rest });
  };
  const bounded = has('range') || has('length');
  const [minText, maxText] = has('length') ? ['web.minLength', 'web.maxLength'] : ['web.min', 'web.max'];
  const conditions = others.filter((o) => !NO_DATA.has(o.kind));
  const choices = has('options') || has('columns');
  return (
    <Card id={`design-field-${f.uid}`} size="small" style={{ marginBottom: 8, borderColor: selected ? ACCENT : undefined }} data-testid={`design-field-${i}`}
      title={<Space><Tag>{t(`web.kinds.${f.kind}`)}</Tag>{f.key}</Space>}
      extra={<Button size="small" danger onClick={onRemove} data-testid={`delete-${i}`}>{t('web.delete')}</Button>}>
      <Row gutter={[8, 8]} style={GROUP}>
        <Cell><Input addonBefore={t('web.key')} value={f.key} onChange={(e) => set({ key: e.target.value })} data-testid={`key-${i}`} /></Cell>
        {has('help') && <Cell><Input addonBefore={t('web.help')} value={f.help} onChange={(e) => set({ help: e.target.value })} data-testid={`help-${i}`} /></Cell>}
        {has('required') && <Cell><Checkbox checked={f.required} onChange={(e) => set({ required: e.target.checked })} data-testid={`required-${i}`}>{t('web.required')}</Checkbox></Cell>}
      </Row>
      {(bounded || has('pattern') || has('default')) && (
        <Row gutter={[8, 8]} style={GROUP}>
          {bounded && (
            <>
              <Cell><InputNumber style={WIDE} addonBefore={t(minText)} min={has('length') ? 0 : undefined} precision={has('length') ? 0 : undefined} value={f.min ?? null} onChange={(v) => set({ min: v as number | null })} data-testid={`min-${i}`} /></Cell>
              <Cell><InputNumber style={WIDE} addonBefore={t(maxText)} min={has('length') ? 0 : undefined} precision={has('length') ? 0 : undefined} value={f.max ?? null} onChange={(v) => set({ max: v as number | null })} data-testid={`max-${i}`} /></Cell>
            </>
          )}
          {has('pattern') && <Cell><Input addonBefore={t('web.pattern')} value={f.pattern} onChange={(e) => set({ pattern: e.target.value })} data-testid={`pattern-${i}`} /></Cell>}
          {has('default') && <Cell><DefaultInput field={f} index={i} t={t} onChange={set} /></Cell>}
        </Row>
      )}
      {choices && (
        <Row gutter={[8, 8]} style={GROUP}>
          <Col xs={24} lg={12}>
            <Typography.Text strong>{t(has('columns') ? 'web.columnsOfTable' : 'web.options')}</Typography.Text>
            <OptionList index={i} values={f.options} disabled={Boolean(f.dict)}
              placeholder={t(has('columns') ? 'web.newColumn' : 'web.newOption')} addText={t('web.addOption')} removeText={t('web.removeOption')}
              onChange={(options) => set({ options, defaultValue: keptDefault(f, options) })} />
          </Col>
          {has('dict') && DICT_KINDS.has(f.kind) && (
            <Col xs={24} lg={12}>
              <Typography.Text strong>{t('web.dict')}</Typography.Text>
              <Select style={WIDE} allowClear showSearch placeholder={t('web.dict')} value={f.dict || undefined} onChange={(v?: string) => set({ dict: v || '' })}
                options={dictTypes.map((d) => ({ value: d, label: d }))} data-testid={`dict-${i}`} />
            </Col>
          )}
        </Row>
      )}
      {has('visible') && (
        <Row gutter={[8, 8]} style={GROUP}>
          <Cell>
            <Select style={WIDE} allowClear placeholder={t('web.visibleIf')} value={f.visibleField || undefined} onChange={(v?: string) => set({ visibleField: v || '', visibleValue: '' })}
              options={conditions.map((o) => ({ value: o.key, label: fieldName(o, locale) }))} data-testid={`visible-${i}`} />
          </Cell>
          <Cell><VisibleValue field={f} others={conditions} t={t} onChange={set} /></Cell>
        </Row>
      )}
      {has('label') && (
        <Row gutter={[8, 8]}>
          {LOCALES.map((loc) => (
            <Col key={loc} xs={24} sm={12} lg={8}>
              <Input addonBefore={`${t('web.label')} · ${LANGUAGE_NAMES[loc]}`} value={labelOf(loc)} placeholder={loc === FIRST_LOCALE ? f.key : labelOf(FIRST_LOCALE)}
                onChange={(e) => setLabel(loc, e.target.value)} data-testid={loc === FIRST_LOCALE ? `label-${i}` : `label-${i}-${loc}`} />
            </Col>
          ))}
          <Col xs={24}><Typography.Text type="secondary">{t('web.labelFallback', { language: LANGUAGE_NAMES[FIRST_LOCALE] })}</Typography.Text></Col>
        </Row>
      )}
    </Card>
  );
}
