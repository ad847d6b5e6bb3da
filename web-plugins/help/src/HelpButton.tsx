import { useEffect, useState } from 'react';
import { Tooltip } from 'antd';
import { bus, request, useT, type NavbarItemProps } from '@atrium/sdk';

/** Asks the shell to open its help drawer (the page's document and the assistant). */
export const OPEN_HELP = 'help:open';

function isOn(value: unknown, fallback: boolean): boolean {
  if (value === null || value === undefined || value === '') return fallback;
  return value === true || value === 1 || String(value).toLowerCase() === 'true' || String(value) === '1';
}

let shown: Promise<boolean> | null = null;

/** Whether this button belongs in the navbar: with the help feature on (`SHOW_HELPCENTER`, shown unless
 * switched off) and the chat feature off. With both on the shell draws a help button of its own (spec 2.5),
 * and the navbar never shows two. Asked once per session. */
function wanted(): Promise<boolean> {
  shown ??= Promise.all([
    request<unknown>('base/server-config/get-value-by-key', { params: { configKey: 'SHOW_HELPCENTER' }, silent: true }).then(
      (v) => isOn(v, true),
      () => true,
    ),
    request<unknown>('base/aigc/enable', { method: 'POST', data: {}, silent: true }).then(
      (v) => isOn(v, false),
      () => false,
    ),
  ]).then(([help, chat]) => help && !chat);
  return shown;
}

/** Forgets the answer (a new session may see other features). */
export function resetHelpButton(): void {
  shown = null;
}

function QuestionIcon() {
  return (
    <span role="img" aria-hidden="true" className="anticon">
      <svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" focusable="false">
        <path d="M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM9.5 9.5a2.5 2.5 0 1 1 3.4 2.3c-.6.3-.9.8-.9 1.5v.4M12 17h.01" />
      </svg>
    </span>
  );
}

/** The navbar's help button (slot `navbarItem`), on every page: opens the help drawer with the page's
 * document, or the note that it has none, and the assistant. */
export function HelpButton({ compact }: NavbarItemProps) {
  const t = useT('help');
  const [show, setShow] = useState(false);
  useEffect(() => {
    let alive = true;
    void wanted().then((yes) => alive && setShow(yes));
    return () => {
      alive = false;
    };
  }, []);
  if (!show) return null;
  const label = t('web.helpButton');
  return (
    <Tooltip title={label} placement={compact ? 'left' : 'bottom'}>
      <button type="button" className="at-nav-item" data-testid="help-navbar" aria-label={label} onClick={() => bus.emit(OPEN_HELP)}>
        <QuestionIcon />
      </button>
    </Tooltip>
  );
}
