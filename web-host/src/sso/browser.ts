/** Work-chat browsers: the DingTalk and WeCom apps' built-in browsers (no compatibility warning there). */
export type WorkChat = 'dingtalk' | 'wecom';

export function workChatKind(userAgent: string = typeof navigator !== 'undefined' ? navigator.userAgent : ''): WorkChat | null {
  const ua = userAgent.toLowerCase();
  if (ua.includes('dingtalk') || ua.includes('aliapp(dingtalk')) return 'dingtalk';
  if (ua.includes('wxwork')) return 'wecom';
  return null;
}

export function isWorkChatBrowser(userAgent?: string): boolean {
  return workChatKind(userAgent) !== null;
}
