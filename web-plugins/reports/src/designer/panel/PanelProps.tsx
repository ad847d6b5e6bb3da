/** The panel's own settings (spec 3.1 panelStyle): design width, background colour or image, chart palette. */
import { Button, ColorPicker, Input, InputNumber, Segmented } from 'antd';
import { DEFAULT_COLORS } from '../../charts/common';
import { DEFAULT_PANEL_WIDTH } from '../../model/layout';
import type { PanelStyle } from '../../model/types';
import { Field, Section } from './Field';
import { useDsT } from './i18n';

export function PanelProps({ style, onChange }: { style: PanelStyle; onChange: (update: (s: PanelStyle) => PanelStyle, key?: string) => void }) {
  const { t } = useDsT();
  const panel = style.panel || {};
  const setPanel = (patch: Record<string, unknown>, key: string) => onChange((s) => ({ ...s, panel: { backgroundType: 'color', ...s.panel, ...patch } }), `panel:${key}`);
  const colors: string[] = Array.isArray(style.chart?.customAttr?.color?.colors) ? style.chart!.customAttr!.color.colors : [];
  const setColors = (next: string[] | null, key: string) =>
    onChange((s) => {
      const customAttr = { ...s.chart?.customAttr };
      if (next) customAttr.color = { ...customAttr.color, colors: next };
      else delete customAttr.color;
      return { ...s, chart: { ...s.chart, customAttr } };
    }, `panel:${key}`);
  return (
    <div data-testid="props-panel">
      <Section title={t('panel.settings')}>
        <Field label={t('panel.width')}>
          <InputNumber size="small" min={800} max={4000} step={100} value={style.width || DEFAULT_PANEL_WIDTH} onChange={(v) => onChange((s) => ({ ...s, width: v || DEFAULT_PANEL_WIDTH }), 'panel:width')} />
        </Field>
        <Field label={t('panel.background')}>
          <Segmented
            size="small"
            value={panel.backgroundType === 'image' ? 'image' : 'color'}
            options={[{ value: 'color', label: t('props.background.color') }, { value: 'image', label: t('props.background.image') }]}
            onChange={(v) => setPanel({ backgroundType: v }, 'type')}
            data-testid="panel-bg-type"
          />
        </Field>
        {panel.backgroundType === 'image' ? (
          <Field label={t('props.background.imageUrl')}>
            <Input size="small" value={panel.imageUrl || ''} placeholder="https://" onChange={(e) => setPanel({ imageUrl: e.target.value }, 'image')} />
          </Field>
        ) : (
          <Field label={t('props.background.color')}>
            <ColorPicker size="small" data-testid="panel-bg-color" value={panel.color || '#f5f6f7'} onChange={(c) => setPanel({ color: c.toHexString() }, 'color')} showText />
          </Field>
        )}
      </Section>
      <Section title={t('panel.palette')} testId="panel-palette">
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 6, marginBottom: 8 }}>
          {(colors.length ? colors : DEFAULT_COLORS).map((c, i) => (
            <ColorPicker key={i} size="small" value={c} onChange={(v) => setColors((colors.length ? colors : [...DEFAULT_COLORS]).map((x, j) => (j === i ? v.toHexString() : x)), `color${i}`)} />
          ))}
        </div>
        <Button size="small" disabled={!colors.length} onClick={() => setColors(null, 'reset')}>{t('panel.paletteReset')}</Button>
      </Section>
    </div>
  );
}
