/** Static components (spec 2.3): text, picture, video, the clock and the rectangle. */
import { useEffect, useMemo, useState, type CSSProperties } from 'react';
import { useImageSrc } from '@atrium/sdk';
import { CLOCK_INTERVAL, clockText } from '../model/layout';
import type { PanelComponent } from '../model/types';
import { useRT } from '../i18n';
import { sanitizeHtml } from './sanitize';

function textStyle(c: PanelComponent): CSSProperties {
  const s = c.style || ({} as PanelComponent['style']);
  return {
    color: s.color as string | undefined,
    fontSize: s.fontSize ? Number(s.fontSize) : undefined,
    fontWeight: s.fontWeight as CSSProperties['fontWeight'],
    letterSpacing: s.letterSpacing ? `${s.letterSpacing}px` : undefined,
    textAlign: (s.textAlign as CSSProperties['textAlign']) || undefined,
  };
}

export function RichText({ component }: { component: PanelComponent }) {
  const html = useMemo(() => sanitizeHtml(String(component.propValue ?? '')), [component.propValue]);
  const valign = component.style?.verticalAlign || 'middle';
  return (
    <div
      className="rpt-text"
      style={{ ...textStyle(component), width: '100%', height: '100%', overflow: 'hidden', display: 'flex', flexDirection: 'column', justifyContent: valign === 'top' ? 'flex-start' : valign === 'bottom' ? 'flex-end' : 'center' }}
    >
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </div>
  );
}

export function Picture({ component }: { component: PanelComponent }) {
  // an uploaded picture is a platform file, fetched with the session
  const src = useImageSrc(String(component.propValue?.url ?? component.propValue ?? '') || undefined);
  if (!src) return null;
  return <img className="rpt-picture" src={src} alt="" draggable={false} style={{ width: '100%', height: '100%', objectFit: 'fill', display: 'block' }} />;
}

export function Video({ component }: { component: PanelComponent }) {
  const links = component.videoLinks || {};
  const web = (links as any)[links.videoType || 'web'] || links.web || {};
  const src = String(web.src || component.propValue?.src || '');
  if (!src || !/^(https?:\/\/|\/|blob:)/.test(src)) return <div className="rpt-video" style={{ width: '100%', height: '100%', background: '#000' }} />;
  return (
    <video className="rpt-video" src={src} controls autoPlay={!!web.autoplay} loop={!!web.loop} muted={web.muted ?? !!web.autoplay} style={{ width: '100%', height: '100%', background: '#000' }} />
  );
}

/** The clock: refreshes every 500 ms (spec 9), with the stored time and date formats and the weekday. */
export function Clock({ component }: { component: PanelComponent }) {
  const { t } = useRT();
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const id = setInterval(() => setNow(new Date()), CLOCK_INTERVAL);
    return () => clearInterval(id);
  }, []);
  const text = clockText(now, component.formatInfo);
  const s = textStyle(component);
  return (
    <div className="rpt-clock" data-testid="report-clock" style={{ ...s, width: '100%', height: '100%', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', lineHeight: 1.3 }}>
      <div className="rpt-clock-time" style={{ fontSize: s.fontSize || 20, fontWeight: 600 }}>{text.time}</div>
      {(text.date || text.weekday !== undefined) && (
        <div className="rpt-clock-date" style={{ fontSize: 12, opacity: 0.8 }}>
          {text.date}
          {text.weekday !== undefined && ` ${t(`week.${text.weekday}`)}`}
        </div>
      )}
    </div>
  );
}

export function Rect({ component }: { component: PanelComponent }) {
  const s = component.style || ({} as PanelComponent['style']);
  return (
    <div
      className="rpt-rect"
      style={{
        width: '100%',
        height: '100%',
        boxSizing: 'border-box',
        borderWidth: Number(s.borderWidth ?? 1),
        borderStyle: (s.borderStyle as string) || 'solid',
        borderColor: (s.borderColor as string) || '#c9d1e0',
        borderRadius: Number(s.borderRadius ?? 0),
        backgroundColor: (s.backgroundColor as string) || 'transparent',
        opacity: s.opacity === undefined ? undefined : Number(s.opacity),
      }}
    />
  );
}
