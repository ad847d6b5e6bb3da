/** The right panel: the selected component's settings, or the panel's when nothing is selected. */
import { Button, Input, Typography } from 'antd';
import type { ReactNode } from 'react';
import type { PanelComponent, PanelStyle } from '../../model/types';
import { paletteTypeOf, type PaletteType } from './components';
import { ButtonProps, ClockProps, PictureProps, TabsProps, TextProps, VideoProps, widgetsOf } from './ContentProps';
import { viewLabel, type PanelView } from './datasets';
import { Field, Section } from './Field';
import { PanelProps } from './PanelProps';
import { BackgroundProps, PlacementProps, TextStyleProps, type ComponentChange } from './StyleProps';
import { WidgetProps } from './WidgetProps';
import { useDsT } from './i18n';

export interface PropertyPanelProps {
  selected: PanelComponent | null;
  components: PanelComponent[];
  style: PanelStyle;
  views: PanelView[];
  onComponent: ComponentChange;
  onStyle: (update: (s: PanelStyle) => PanelStyle, key?: string) => void;
  onAddToPane: (tabsId: string, tabName: string, type: PaletteType, viewId?: string) => void;
  onEditView: (view: PanelView) => void;
  onInteractions: (view: PanelView) => void;
  /** More of the panel's settings, below its style (shown when nothing is selected). */
  panelSettings?: ReactNode;
}

function ViewProps({ component, views, onEditView, onInteractions }: { component: PanelComponent; views: PanelView[]; onEditView: (v: PanelView) => void; onInteractions: (v: PanelView) => void }) {
  const { t } = useDsT();
  const view = views.find((v) => v.id === String(component.propValue?.viewId));
  if (!view) return <Typography.Text type="warning">{t('view.missing')}</Typography.Text>;
  return (
    <Section title={t('view.chart')} testId="props-view">
      <div style={{ marginBottom: 8 }}>{viewLabel(view)} <Typography.Text type="secondary">({view.type})</Typography.Text></div>
      <div style={{ display: 'flex', gap: 6, flexWrap: 'wrap' }}>
        <Button size="small" data-testid="view-edit" onClick={() => onEditView(view)}>{t('view.edit')}</Button>
        <Button size="small" data-testid="view-interactions" onClick={() => onInteractions(view)}>{t('view.interactions')}</Button>
      </div>
    </Section>
  );
}

export function PropertyPanel(props: PropertyPanelProps) {
  const { t } = useDsT();
  const c = props.selected;
  if (!c) return (
    <>
      <PanelProps style={props.style} onChange={props.onStyle} />
      {props.panelSettings}
    </>
  );
  const type = paletteTypeOf(c);
  const onChange = props.onComponent;
  const hasTitle = type && ['select', 'date', 'number-range', 'input'].includes(type);
  return (
    <div data-testid="props-component" data-component-id={c.id}>
      <Typography.Title level={5} style={{ marginTop: 0 }}>{type ? t(`palette.${type}`) : c.type}</Typography.Title>
      {hasTitle && (
        <Field label={t('props.title')}>
          <Input size="small" data-testid="prop-title" value={c.options?.attrs?.title || ''} onChange={(e) => onChange((x) => ({ ...x, options: { ...x.options, attrs: { ...x.options?.attrs, title: e.target.value } } }), `${c.id}:title`)} />
        </Field>
      )}
      {type === 'view' && <ViewProps component={c} views={props.views} onEditView={props.onEditView} onInteractions={props.onInteractions} />}
      {hasTitle && <WidgetProps component={c} views={props.views} onChange={onChange} />}
      {(type === 'search' || type === 'reset' || type === 'export') && <ButtonProps component={c} kind={type} views={props.views} widgets={widgetsOf(props.components)} onChange={onChange} />}
      {type === 'v-text' && <TextProps component={c} onChange={onChange} />}
      {(type === 'v-text' || type === 'clock') && <TextStyleProps component={c} onChange={onChange} />}
      {type === 'picture' && <PictureProps component={c} onChange={onChange} />}
      {type === 'video' && <VideoProps component={c} onChange={onChange} />}
      {type === 'clock' && <ClockProps component={c} onChange={onChange} />}
      {type === 'de-tabs' && <TabsProps component={c} views={props.views} onChange={onChange} onAddToPane={(tab, pt, viewId) => props.onAddToPane(c.id, tab, pt, viewId)} />}
      <BackgroundProps component={c} onChange={onChange} />
      <PlacementProps component={c} onChange={onChange} />
    </div>
  );
}
