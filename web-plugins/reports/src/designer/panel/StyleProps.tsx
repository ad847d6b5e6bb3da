/** Style and common background of any component (spec 3.2: style, commonBackground). */
import { ColorPicker, Input, InputNumber, Segmented, Slider, Switch } from 'antd';
import type { CommonBackground, PanelComponent } from '../../model/types';
import { Field, Section } from './Field';
import { useDsT } from './i18n';

export type ComponentChange = (update: (c: PanelComponent) => PanelComponent, key?: string) => void;

const hex = (c: { toHexString: () => string }) => c.toHexString();

export function TextStyleProps({ component, onChange }: { component: PanelComponent; onChange: ComponentChange }) {
  const { t } = useDsT();
  const s = component.style;
  const set = (patch: Record<string, unknown>, key: string) => onChange((c) => ({ ...c, style: { ...c.style, ...patch } }), `${c0(component)}:style.${key}`);
  return (
    <Section title={t('props.textStyle')} testId="props-text-style">
      <Field label={t('props.fontSize')}>
        <InputNumber size="small" min={8} max={120} value={Number(s.fontSize) || 14} onChange={(v) => set({ fontSize: v ?? 14 }, 'fontSize')} data-testid="prop-font-size" />
      </Field>
      <Field label={t('props.color')}>
        <ColorPicker size="small" value={String(s.color || '#1f2329')} onChange={(c) => set({ color: hex(c) }, 'color')} />
      </Field>
      <Field label={t('props.alignment')}>
        <Segmented
          size="small"
          value={String(s.textAlign || 'left')}
          options={['left', 'center', 'right'].map((v) => ({ value: v, label: t(`props.align.${v}`) }))}
          onChange={(v) => set({ textAlign: v }, 'textAlign')}
        />
      </Field>
      <Field label={t('props.bold')}>
        <Switch size="small" checked={String(s.fontWeight) === 'bold' || Number(s.fontWeight) >= 600} onChange={(on) => set({ fontWeight: on ? 'bold' : 'normal' }, 'fontWeight')} />
      </Field>
    </Section>
  );
}

const c0 = (c: PanelComponent) => c.id;

export function BackgroundProps({ component, onChange }: { component: PanelComponent; onChange: ComponentChange }) {
  const { t } = useDsT();
  const bg: CommonBackground = component.commonBackground || {};
  const set = (patch: Partial<CommonBackground>, key: string) =>
    onChange((c) => ({ ...c, commonBackground: { backgroundType: 'color', color: '#ffffff', alpha: 100, innerPadding: 0, borderRadius: 0, backgroundColorSelect: true, ...c.commonBackground, ...patch } }), `${component.id}:bg.${key}`);
  return (
    <Section title={t('props.backgroundTitle')} testId="props-background">
      <Field label={t('props.background.enable')}>
        <Switch size="small" checked={!!bg.enable} onChange={(on) => set({ enable: on }, 'enable')} data-testid="prop-bg-enable" />
      </Field>
      {bg.enable && (
        <>
          <Field label={t('props.background.type')}>
            <Segmented
              size="small"
              value={bg.backgroundType === 'outerImage' ? 'outerImage' : 'color'}
              options={[{ value: 'color', label: t('props.background.color') }, { value: 'outerImage', label: t('props.background.image') }]}
              onChange={(v) => set({ backgroundType: String(v) }, 'type')}
            />
          </Field>
          {bg.backgroundType === 'outerImage' ? (
            <Field label={t('props.background.imageUrl')}>
              <Input size="small" value={bg.outerImage || ''} placeholder="https://" onChange={(e) => set({ outerImage: e.target.value }, 'image')} />
            </Field>
          ) : (
            <>
              <Field label={t('props.background.color')}>
                <ColorPicker size="small" value={bg.color || '#ffffff'} onChange={(c) => set({ color: hex(c) }, 'color')} data-testid="prop-bg-color" />
              </Field>
              <Field label={t('props.background.alpha')}>
                <Slider min={0} max={100} value={bg.alpha ?? 100} onChange={(v) => set({ alpha: v }, 'alpha')} />
              </Field>
            </>
          )}
          <Field label={t('props.background.padding')}>
            <InputNumber size="small" min={0} max={100} value={bg.innerPadding ?? 0} onChange={(v) => set({ innerPadding: v ?? 0 }, 'padding')} />
          </Field>
          <Field label={t('props.background.radius')}>
            <InputNumber size="small" min={0} max={100} value={bg.borderRadius ?? 0} onChange={(v) => set({ borderRadius: v ?? 0 }, 'radius')} />
          </Field>
        </>
      )}
    </Section>
  );
}

export function PlacementProps({ component, onChange }: { component: PanelComponent; onChange: ComponentChange }) {
  const { t } = useDsT();
  const s = component.style;
  return (
    <Section title={t('props.placementTitle')}>
      <div data-testid="prop-placement" style={{ fontSize: 12, color: '#6b7489', marginBottom: 8 }}>
        {t('props.placement.box', { left: Math.round(Number(s.left) || 0), top: Math.round(Number(s.top) || 0), width: Math.round(Number(s.width) || 0), height: Math.round(Number(s.height) || 0) })}
      </div>
      <Field label={t('props.rotate')}>
        <InputNumber size="small" min={-180} max={180} value={Number(s.rotate) || 0} onChange={(v) => onChange((c) => ({ ...c, style: { ...c.style, rotate: v ?? 0 } }), `${component.id}:rotate`)} />
      </Field>
    </Section>
  );
}
