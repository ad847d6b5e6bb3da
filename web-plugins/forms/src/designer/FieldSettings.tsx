/** One field's settings under the canvas: naming, the value's rules, the choices and when it shows, and the
 * label per language. */
import { Button, Card, Checkbox, Col, Input, InputNumber, Row, Select, Space, Tag } from 'antd';
import { DEFAULT_KINDS, DICT_KINDS, type FieldDraft, LOCALES } from '../design';
import type { Translate } from './announcements';
import type { CanvasField } from './model';

/** Each language by its own name (the same in every language). */
export const LANGUAGE_NAMES: Record<string, string> = { 'zh-cn': '简体中文', 'zh-tw': '繁體中文', 'en-us': 'English', 'vi-vn': 'Tiếng Việt', 'hu-hu': 'Magyar' };

const GROUP = { marginBottom: 8 };
const ACCENT = 'var(--ant-color-primary, #1677ff)';

export interface FieldSettingsProps {
  field: CanvasField;
  index: number;
  /** the form's other fields, for the visibility rule */
  others: FieldDraft[];
  dictTypes: string[];
  selected: boolean;
  t: Translate;
  onChange: (patch: Partial<FieldDraft>) => void;
  onRemove: () => void;
}

export function FieldSettings({ field: f, index: i, others, dictTypes, selected, t, onChange: set, onRemove }: FieldSettingsProps) {
  const setLabel = (locale: string, text: string) => set({ labels: { ...f.labels, [locale]: text } });
  return (
    <Card id={`design-field-${f.uid}`} size="small" style={{ marginBottom: 8, borderColor: selected ? ACCENT : undefined }} data-testid={`design-field-${i}`}
      title={<Space><Tag>{t(`web.kinds.${f.kind}`)}</Tag>{f.key}</Space>}
      extra={<Button size="small" danger onClick={onRemove} data-testid={`delete-${i}`}>{t('web.delete')}</Button>}>
      <Row gutter={[8, 8]} style={GROUP}>
        <Col xs={24} sm={12} lg={6}><Input addonBefore={t('web.key')} value={f.key} onChange={(e) => set({ key: e.target.value })} data-testid={`key-${i}`} /></Col>
        <Col xs={24} sm={12} lg={6}><Input addonBefore={t('web.label')} value={f.label} onChange={(e) => set({ label: e.target.value })} data-testid={`label-${i}`} /></Col>
        <Col xs={24} sm={12} lg={6}><Input addonBefore={t('web.help')} value={f.help} onChange={(e) => set({ help: e.target.value })} /></Col>
        <Col xs={24} sm={12} lg={6}><Checkbox checked={f.required} onChange={(e) => set({ required: e.target.checked })} data-testid={`required-${i}`}>{t('web.required')}</Checkbox></Col>
      </Row>
      <Row gutter={[8, 8]} style={GROUP}>
        <Col xs={24} sm={12} lg={6}><InputNumber style={{ width: '100%' }} addonBefore={t('web.min')} value={f.min ?? null} onChange={(v) => set({ min: v as number | null })} data-testid={`min-${i}`} /></Col>
        <Col xs={24} sm={12} lg={6}><InputNumber style={{ width: '100%' }} addonBefore={t('web.max')} value={f.max ?? null} onChange={(v) => set({ max: v as number | null })} data-testid={`max-${i}`} /></Col>
        <Col xs={24} sm={12} lg={6}><Input addonBefore={t('web.pattern')} value={f.pattern} onChange={(e) => set({ pattern: e.target.value })} /></Col>
        {DEFAULT_KINDS.has(f.kind) && (
          <Col xs={24} sm={12} lg={6}><Input addonBefore={t('web.default')} value={f.defaultValue} onChange={(e) => set({ defaultValue: e.target.value })} data-testid={`default-${i}`} /></Col>
        )}
      </Row>
      <Row gutter={[8, 8]} style={GROUP}>
        <Col xs={24} sm={12} lg={6}><Input addonBefore={t(f.kind === 'table' ? 'web.columnsOfTable' : 'web.options')} value={f.options} disabled={Boolean(f.dict)} onChange={(e) => set({ options: e.target.value })} data-testid={`options-${i}`} /></Col>
        <Col xs={24} sm={12} lg={6}>
          {DICT_KINDS.has(f.kind) && (
            <Select style={{ width: '100%' }} allowClear showSearch placeholder={t('web.dict')} value={f.dict || undefined} onChange={(v) => set({ dict: v || '' })}
              options={dictTypes.map((d) => ({ value: d, label: d }))} data-testid={`dict-${i}`} />
          )}
        </Col>
        <Col xs={24} sm={12} lg={6}><Select style={{ width: '100%' }} allowClear placeholder={t('web.visibleIf')} value={f.visibleField || undefined} onChange={(v) => set({ visibleField: v || '' })} options={others.map((o) => ({ value: o.key, label: o.label }))} /></Col>
        <Col xs={24} sm={12} lg={6}><Input addonBefore="=" value={f.visibleValue} onChange={(e) => set({ visibleValue: e.target.value })} /></Col>
      </Row>
      <Row gutter={[8, 8]}>
        {LOCALES.map((loc) => (
          <Col key={loc} xs={24} sm={12} lg={8}>
            <Input addonBefore={`${t('web.label')} · ${LANGUAGE_NAMES[loc]}`} value={f.labels[loc] || ''} onChange={(e) => setLabel(loc, e.target.value)} data-testid={`label-${i}-${loc}`} />
          </Col>
        ))}
      </Row>
    </Card>
  );
}
