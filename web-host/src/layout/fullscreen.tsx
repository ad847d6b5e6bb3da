import { useEffect } from 'react';
import { useT } from '@atrium/sdk';
import { FullscreenExitIcon } from '../icons';

/** Full screen (spec 2.5): asked for by a `fullscreen` query parameter (any value but false or 0), the
 * side toolbar's button or the page's configuration; the sidebar, tab strip and margins are hidden. */
export function isFullscreenQuery(search: string): boolean {
  const params = new URLSearchParams(search);
  const value = params.get('fullscreen');
  return params.has('fullscreen') && value !== 'false' && value !== '0';
}

/** The query without its `fullscreen` parameter ('' when nothing is left). */
export function withoutFullscreen(search: string): string {
  const params = new URLSearchParams(search);
  params.delete('fullscreen');
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

function typingOrInDialog(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return true;
  return !!target.closest('[role="dialog"], .ant-modal-wrap, .ant-drawer');
}

/** Leaves full screen on Escape, unless the key belongs to a field or an open dialog. */
export function useEscapeLeavesFullscreen(active: boolean, exit: () => void): void {
  useEffect(() => {
    if (!active) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || typingOrInDialog(event.target)) return;
      exit();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [active, exit]);
}

/** The button that leaves full screen, floating in the top right corner. */
export function FullscreenExitButton({ onExit }: { onExit: () => void }) {
  const t = useT();
  const label = t('toolbar.exitFullscreen');
  return (
    <button type="button" className="at-fullscreen-exit" data-testid="fullscreen-exit" aria-label={label} title={label} onClick={onExit}>
      <FullscreenExitIcon aria-hidden />
    </button>
  );
}
