import { useEffect, useRef, useState } from 'react';
import { Result } from 'antd';
import { session, useT } from '@atrium/sdk';
import { fillFrameUrl } from '../menus';
import { useStore } from '../store';

/** An external-address menu in a frame: placeholders filled, system code posted after load,
 * height = main area - 20. */
export function ThirdView({ menuId }: { menuId: string }) {
  const t = useT();
  const index = useStore((s) => s.index);
  const user = useStore((s) => s.user);
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(600);
  const menu = index?.byId.get(menuId);

  useEffect(() => {
    const measure = () => {
      const main = document.getElementById('at-main-area');
      if (main) setHeight(Math.max(200, main.clientHeight - 20));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, []);

  // a menu the user's menus do not hold: the page is not allowed; one without an address: nowhere to go
  if (!menu) return <div data-testid="page-not-allowed"><Result status="403" title={t('error.pageNotAllowed')} /></div>;
  if (!menu.frameUrl) return <Result status="warning" title={t('error.noJump')} />;
  const src = fillFrameUrl(menu.frameUrl, { token: session.getToken(), menuId, systemCode: session.getSystemCode(), user: user as Record<string, unknown> });
  return (
    <iframe
      ref={frame}
      title={menu.menuName}
      src={src}
      style={{ width: '100%', height, border: 0, borderRadius: 10, background: 'var(--at-panel)' }}
      onLoad={() => frame.current?.contentWindow?.postMessage({ systemCode: session.getSystemCode() }, '*')}
      data-testid="third-view"
    />
  );
}
