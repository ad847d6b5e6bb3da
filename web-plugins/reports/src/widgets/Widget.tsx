/** Filter widgets and buttons (spec 2.3, 4, 5) by kind. */
import type { PanelComponent } from '../model/types';
import { widgetKind } from '../model/filters';
import { SelectWidget } from './SelectWidget';
import { NumberRangeWidget } from './NumberRangeWidget';
import { DateWidget } from './DateWidget';
import { TextWidget } from './TextWidget';
import { ButtonWidget } from './ButtonWidget';

export function WidgetTitle({ text }: { text?: string }) {
  if (!text) return null;
  return <div className="rpt-widget-title" style={{ fontSize: 12, color: '#6b7489', marginBottom: 2, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>{text}</div>;
}

export function Widget({ component }: { component: PanelComponent }) {
  const kind = widgetKind(component);
  const body = (() => {
    switch (kind) {
      case 'select': return <SelectWidget component={component} />;
      case 'number-range': return <NumberRangeWidget component={component} />;
      case 'date': return <DateWidget component={component} />;
      case 'text': return <TextWidget component={component} />;
      case 'search':
      case 'reset':
      case 'export':
        return <ButtonWidget component={component} kind={kind} />;
      default: return null;
    }
  })();
  return (
    // 'safe center': in a box too short for title and control, the title stays at the top (the rest is cut)
    <div className="rpt-widget" data-testid={`widget-${kind}`} data-widget-id={component.id} style={{ width: '100%', height: '100%', display: 'flex', flexDirection: 'column', justifyContent: 'safe center', padding: kind === 'search' || kind === 'reset' || kind === 'export' ? 0 : '0 4px', boxSizing: 'border-box' }}>
      {body}
    </div>
  );
}
