import { local } from '@atrium/sdk';

/** The incompatible-browser tip (spec 8): Chrome or Firefox recommended; shown once per browser (the key
 * stays in local storage), never in a work-chat app's browser (WeCom, DingTalk, Feishu or Lark). */
export const BROWSER_TIP_KEY = 'atrium.browserTip';

export function isWorkChatAgent(userAgent: string): boolean {
  return /wxwork|dingtalk|feishu|lark/i.test(userAgent);
}

export function isRecommendedBrowser(userAgent: string): boolean {
  return /Chrome|Chromium|Firefox|Edg\//.test(userAgent);
}

/** Whether the tip is due: an unrecommended browser, outside work chats, not told before. */
export function browserTipDue(userAgent: string): boolean {
  if (isWorkChatAgent(userAgent) || isRecommendedBrowser(userAgent)) return false;
  return !local.get<boolean>(BROWSER_TIP_KEY, false);
}

/** Remembers that the tip was shown. */
export function browserTipShown(): void {
  local.set(BROWSER_TIP_KEY, true);
}
