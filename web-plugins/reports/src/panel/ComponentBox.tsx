import { memo, type CSSProperties, type ReactNode } from 'react';
import { commonBackground, scaleBox, type Box } from '../model/layout';
import type { PanelComponent } from '../model/types';
import { ViewCard } from './ViewCard';
import { Widget } from '../widgets/Widget';
import { RichText, Picture, Video, Clock, Rect } from './statics';
// in the panel's chunk: a Suspense boundary here would hold back the views on the first tab
import TabsBox from './TabsBox';

/** The body of a component by its type (spec 2.3). */
export function ComponentBody({ component, box }: { component: PanelComponent; box: Box }) {
  const c = component;
  const type = c.type || '';
  if (type === 'view') return <ViewCard component={c} height={box.height} />;
  if (type === 'custom' || type === 'custom-button') return <Widget component={c} />;
  if (type === 'de-tabs') return <TabsBox component={c} box={box} />;
  if (type === 'v-text') return <RichText component={c} />;
  if (type === 'picture' || c.component === 'Picture') return <Picture component={c} />;
  if (type === 'video' || c.component === 'de-video') return <Video component={c} />;
  if (/show-date|clock|date-time/.test(type)) return <Clock component={c} />;
  if (/rect/.test(type)) return <Rect component={c} />;
  return null;
}

function hyperlinked(c: PanelComponent, body: ReactNode): ReactNode {
  const h = c.hyperlinks;
  if (!h?.enable || !h.content) return body;
  const url = String(h.content);
  if (!/^(https?:\/\/|\/)/i.test(url)) return body;
  const target = h.openMode === '_self' ? '_self' : '_blank';
  return (
    <a href={url} target={target} rel="noopener noreferrer" className="rpt-hyperlink" style={{ display: 'block', width: '100%', height: '100%', color: 'inherit' }}>
      {body}
    </a>
  );
}

/** A component at its scaled place, with its common background and hyperlink. */
function PlacedComponent({ component, scale, box: given }: { component: PanelComponent; scale: number; box?: Box }) {
  const box = given || scaleBox(component.style, scale);
  const bg = commonBackground(component.commonBackground, scale);
  const rotate = Number(component.style?.rotate) || 0;
  const style: CSSProperties = {
    position: 'absolute',
    left: box.left,
    top: box.top,
    width: box.width,
    height: box.height,
    transform: rotate ? `rotate(${rotate}deg)` : undefined,
    ...(bg.outer as CSSProperties),
  };
  const inner: CSSProperties = { width: '100%', height: '100%', boxSizing: 'border-box', ...(bg.inner as CSSProperties) };
  const innerBox: Box = { ...box, width: box.width - 2 * (Number(String(bg.inner.padding || '0').replace('px', '')) || 0), height: box.height - 2 * (Number(String(bg.inner.padding || '0').replace('px', '')) || 0) };
  return (
    <div className="rpt-component" data-type={component.type} data-component={component.component || ''} data-id={component.id} style={style}>
      <div style={inner}>{hyperlinked(component, <ComponentBody component={component} box={innerBox} />)}</div>
    </div>
  );
}

/** Drawn again only when its component, scale or box changes: not for every change of the panel around it. */
export const ComponentBox = memo(PlacedComponent, (a, b) => a.component === b.component && a.scale === b.scale && sameBox(a.box, b.box));

function sameBox(a: Box | undefined, b: Box | undefined): boolean {
  return a === b || (!!a && !!b && a.left === b.left && a.top === b.top && a.width === b.width && a.height === b.height);
}
