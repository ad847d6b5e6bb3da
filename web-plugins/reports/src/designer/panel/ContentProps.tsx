/** What a component shows: text, picture, video address, clock formats, button labels and scope, tab panes. */
import { Button, Input, Select, Switch } from 'antd';
import { tabContent } from '../../model/layout';
import type { PanelComponent } from '../../model/types';
import { allComponents, newTab, PALETTE_GROUPS, type PaletteType } from './components';
import { viewLabel, type PanelView } from './datasets';
import { Field, Section } from './Field';
import { PictureUpload } from './PictureUpload';
import type { ComponentChange } from './StyleProps';
import { useDsT } from './i18n';

export function TextProps({ component, onChange }: { component: PanelComponent; onChange: ComponentChange }) {
  const { t } = useDsT();
  return (
    <Section title={t('props.content')}>
      <Field label={t('props.text')}>
        <Input.TextArea data-testid="prop-text" autoSize={{ minRows: 3, maxRows: 10 }} value={String(component.propValue ?? '')} onChange={(e) => onChange((c) => ({ ...c, propValue: e.target.value }), `${component.id}:text`)} />
      </Field>
    </Section>
  );
}

export function PictureProps({ component, onChange }: { component: PanelComponent; onChange: ComponentChange }) {
  const { t } = useDsT();
  const url = String(component.propValue?.url ?? component.propValue ?? '');
  return (
    <Section title={t('props.content')}>
      <Field label={t('picture.address')}>
        <Input size="small" data-testid="prop-picture-url" value={url} placeholder="https://" onChange={(e) => onChange((c) => ({ ...c, propValue: e.target.value }), `${component.id}:url`)} />
      </Field>
      <PictureUpload testId="prop-picture-upload" onUploaded={(u) => onChange((c) => ({ ...c, propValue: u }))} />
      <div style={{ fontSize: 12, color: '#8a93a6', marginTop: 4 }}>{t('picture.rules')}</div>
    </Section>
  );
}

export function VideoProps({ component, onChange }: { component: PanelComponent; onChange: ComponentChange }) {
  const { t } = useDsT();
  const web = component.videoLinks?.web || {};
  const set = (patch: Record<string, unknown>, key: string) =>
    onChange((c) => ({ ...c, videoLinks: { ...c.videoLinks, videoType: 'web', web: { ...c.videoLinks?.web, ...patch } } }), `${component.id}:video.${key}`);
  const valid = !web.src || /^(https?:\/\/|\/)/.test(String(web.src));
  return (
    <Section title={t('props.content')}>
      <Field label={t('video.url')}>
        <Input size="small" data-testid="prop-video-url" status={valid ? undefined : 'error'} value={String(web.src || '')} placeholder="https://" onChange={(e) => set({ src: e.target.value }, 'src')} />
        {!valid && <span style={{ color: '#d4380d' }}>{t('video.invalid')}</span>}
      </Field>
      <Field label={t('video.autoplay')}><Switch size="small" checked={!!web.autoplay} onChange={(on) => set({ autoplay: on, muted: on || web.muted }, 'autoplay')} /></Field>
      <Field label={t('video.loop')}><Switch size="small" checked={!!web.loop} onChange={(on) => set({ loop: on }, 'loop')} /></Field>
    </Section>
  );
}

const TIME_FORMATS = ['hh:mm:ss', 'hh:mm', 'HH:mm:ss', 'HH:mm', 'hh:mm:ss a'];
const DATE_FORMATS = ['yyyy-MM-dd', 'yyyy/MM/dd', 'dd/MM/yyyy', 'MM/dd/yyyy'];

export function ClockProps({ component, onChange }: { component: PanelComponent; onChange: ComponentChange }) {
  const { t } = useDsT();
  const f = component.formatInfo || {};
  const set = (patch: Record<string, unknown>) => onChange((c) => ({ ...c, formatInfo: { ...c.formatInfo, ...patch } }));
  return (
    <Section title={t('clock.formats')} testId="props-clock">
      <Field label={t('clock.time')}>
        <Select size="small" data-testid="prop-clock-time" value={f.timeFormat || 'hh:mm:ss'} options={TIME_FORMATS.map((v) => ({ value: v, label: v }))} onChange={(v) => set({ timeFormat: v })} />
      </Field>
      <Field label={t('clock.showDate')}><Switch size="small" data-testid="prop-clock-date" checked={!!f.showDate} onChange={(on) => set({ showDate: on })} /></Field>
      {f.showDate && (
        <Field label={t('clock.date')}>
          <Select size="small" value={f.dateFormat || 'yyyy-MM-dd'} options={DATE_FORMATS.map((v) => ({ value: v, label: v }))} onChange={(v) => set({ dateFormat: v })} />
        </Field>
      )}
      <Field label={t('clock.showWeek')}><Switch size="small" data-testid="prop-clock-week" checked={!!f.showWeek} onChange={(on) => set({ showWeek: on })} /></Field>
    </Section>
  );
}

export function ButtonProps({ component, kind, views, widgets, onChange }: { component: PanelComponent; kind: 'search' | 'reset' | 'export'; views: PanelView[]; widgets: PanelComponent[]; onChange: ComponentChange }) {
  const { t } = useDsT();
  const attrs = component.options?.attrs || {};
  const ids = Array.isArray(attrs.filterIds) ? attrs.filterIds : [];
  const setScope = (next: string[]) => onChange((c) => ({ ...c, options: { ...c.options, attrs: { ...c.options?.attrs, filterIds: next, customRange: kind !== 'export' && next.length > 0 } } }));
  return (
    <Section title={t('props.content')}>
      <Field label={t('button.label')}>
        <Input size="small" data-testid="prop-button-label" value={String(component.propValue ?? '')} onChange={(e) => onChange((c) => ({ ...c, propValue: e.target.value }), `${component.id}:label`)} />
      </Field>
      <Field label={t(kind === 'export' ? 'button.exportViews' : 'button.widgets')}>
        <Select
          size="small"
          mode="multiple"
          allowClear
          placeholder={t('button.all')}
          value={ids}
          options={kind === 'export' ? views.map((v) => ({ value: v.id, label: viewLabel(v) })) : widgets.map((w) => ({ value: w.id, label: w.options?.attrs?.title || w.id }))}
          onChange={setScope}
        />
      </Field>
    </Section>
  );
}

export interface TabsPropsProps {
  component: PanelComponent;
  views: PanelView[];
  onChange: ComponentChange;
  onAddToPane: (tabName: string, type: PaletteType, viewId?: string) => void;
}

const PANE_TYPES: PaletteType[] = [...PALETTE_GROUPS.media.filter((t) => t !== 'de-tabs'), ...PALETTE_GROUPS.filter, ...PALETTE_GROUPS.button];

export function TabsProps({ component, views, onChange, onAddToPane }: TabsPropsProps) {
  const { t } = useDsT();
  const tabs = component.options?.tabList || [];
  const setTabs = (tabList: typeof tabs, key?: string) => onChange((c) => ({ ...c, options: { ...c.options, tabList } }), key);
  return (
    <Section title={t('tabs.panes')} testId="props-tabs">
      {tabs.map((tab, i) => (
        <div key={tab.name} style={{ border: '1px solid #eef0f4', borderRadius: 6, padding: 8, marginBottom: 8 }}>
          <div style={{ display: 'flex', gap: 6, marginBottom: 6 }}>
            <Input size="small" data-testid={`tab-title-${i}`} value={tab.title} onChange={(e) => setTabs(tabs.map((x) => (x.name === tab.name ? { ...x, title: e.target.value } : x)), `${component.id}:tab.${tab.name}`)} />
            <Button size="small" danger disabled={tabs.length < 2} data-testid={`tab-remove-${i}`} onClick={() => setTabs(tabs.filter((x) => x.name !== tab.name))}>{t('tabs.remove')}</Button>
          </div>
          <div style={{ fontSize: 12, color: '#6b7489', marginBottom: 4 }}>{t('tabs.holds', { count: tabContent(tab.content).length })}</div>
          <Select
            size="small"
            style={{ width: '100%' }}
            data-testid={`tab-add-${i}`}
            placeholder={t('tabs.add')}
            value={null}
            options={[
              { label: t('palette.group.views'), options: views.map((v) => ({ value: `view:${v.id}`, label: viewLabel(v) })) },
              { label: t('palette.group.other'), options: PANE_TYPES.map((type) => ({ value: type, label: t(`palette.${type}`) })) },
            ]}
            onChange={(v: string) => (v.startsWith('view:') ? onAddToPane(tab.name, 'view', v.slice(5)) : onAddToPane(tab.name, v as PaletteType))}
          />
        </div>
      ))}
      <Button size="small" data-testid="tab-add-pane" onClick={() => setTabs([...tabs, newTab(t('tabs.defaultTitle', { n: tabs.length + 1 }))])}>{t('tabs.addPane')}</Button>
    </Section>
  );
}

export const widgetsOf = (list: PanelComponent[]) => allComponents(list).filter((c) => c.type === 'custom');
