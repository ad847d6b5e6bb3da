/** The shared link page (spec 2.2, 4, 5), pure: the state from a validation, the password rule. */
import type { LinkValidation } from './types';

export const LINK_STATE = { error: 0, password: 1, view: 2, expired: 3 } as const;
export type LinkState = (typeof LINK_STATE)[keyof typeof LINK_STATE];

export interface LinkOutcome {
  state: LinkState;
  /** For the error state: which subtitle. */
  reason?: 'invalid' | 'noPermission' | 'locked';
}

/**
 * Spec 4: no permission, not valid or no resource gives the error state; otherwise expired; otherwise the
 * report when no password is needed or it was passed; otherwise the password prompt.
 */
export function linkState(v: LinkValidation | null | undefined): LinkOutcome {
  if (!v) return { state: LINK_STATE.error, reason: 'invalid' };
  if (!v.hasPermission) return { state: LINK_STATE.error, reason: v.valid === false ? 'invalid' : 'noPermission' };
  if (!v.valid || !v.resourceId) return { state: LINK_STATE.error, reason: 'invalid' };
  if (v.expire) return { state: LINK_STATE.expired };
  if (v.locked) return { state: LINK_STATE.error, reason: 'locked' };
  if (!v.enablePwd || v.passPwd) return { state: LINK_STATE.view };
  return { state: LINK_STATE.password };
}

/** Spec 5: required, exactly four digits. */
export function checkPassword(value: string): 'required' | 'format' | null {
  if (!value) return 'required';
  if (!/^\d{4}$/.test(value)) return 'format';
  return null;
}

export const PASSWORD_MAX_LENGTH = 4;

/** The link id: the last non-empty path segment of the address (spec 2.1), or `?link=` / `?id=`. */
export function linkIdFrom(pathname: string, search = ''): string {
  const q = new URLSearchParams(search);
  const fromQuery = q.get('link') || q.get('linkId') || q.get('id');
  if (fromQuery) return fromQuery;
  const parts = pathname.split('/').filter(Boolean);
  const last = parts[parts.length - 1] || '';
  return last === 'preview' || last === 'link' ? '' : decodeURIComponent(last);
}
