import { request, session } from '@atrium/sdk';

/** A letter in the user's inbox (spec 3): messageContent is HTML sanitised by the server. */
export interface Message {
  msgInstanceId: string;
  messageContent: string;
  sendTime: string;
  readStatus: 0 | 1;
  systemCode: string;
}

export interface Page<T> {
  list: T[];
  total: number;
  pageIndex: number;
  pageRows: number;
  hasMore?: boolean;
}

/** Page size of the inbox (spec 9). */
export const PAGE_ROWS = 10;
/** The most letters one read, unread or delete call takes (the server's `service.MAX_IDS`). */
export const MAX_IDS = 500;
const INBOX = 'message/iotBaseMessageLogController';

export function currentSystems(): string[] {
  return [session.getSystemCode()];
}

export function findMessages(pageIndex: number, readStatus?: 0 | 1, silent = false): Promise<Page<Message>> {
  const params: Record<string, unknown> = { systemCodes: currentSystems() };
  if (readStatus !== undefined) params.readStatus = readStatus;
  return request<Page<Message>>(`${INBOX}/message-find`, {
    method: 'POST', data: { pageIndex, pageRows: PAGE_ROWS, params }, silent,
  });
}

export function unreadTotal(): Promise<number> {
  return request<number>(`${INBOX}/unread-message-total`, { method: 'POST', data: { systemCodes: currentSystems() }, silent: true });
}

export function markRead(ids: string[], read: boolean): Promise<{ count: number }> {
  return request(`${INBOX}/${read ? 'read' : 'unread'}`, { method: 'POST', data: { systemCodes: currentSystems(), msgInstanceIds: ids } });
}

export function markAllRead(): Promise<{ count: number }> {
  return request(`${INBOX}/read-all`, { method: 'POST', data: { systemCodes: currentSystems() } });
}

export function deleteMessages(ids: string[]): Promise<{ count: number }> {
  return request(`${INBOX}/message-delete`, { method: 'POST', data: { systemCodes: currentSystems(), msgInstanceIds: ids } });
}

export interface Audience {
  users: { userId: string; account: string; userFullName: string }[];
  roles: { roleId: string; roleName: string }[];
  systems: { systemCode: string; systemName: string; systemEnName?: string }[];
}

export interface SentLetter {
  letterId: string;
  messageContent: string;
  systemCode: string;
  sendTime: string;
  sender: string;
  toTenant: boolean;
  toUsers: string[];
  toRoles: string[];
  recipients: number;
  readCount: number;
}

export function audience(): Promise<Audience> {
  return request<Audience>('message/admin/audience');
}

export function sentLetters(pageIndex: number, pageRows = PAGE_ROWS): Promise<Page<SentLetter>> {
  return request<Page<SentLetter>>('message/admin/letters', { method: 'POST', data: { pageIndex, pageRows } });
}

export interface SendBody {
  content: string;
  toUsers: string[];
  toRoles: string[];
  toTenant: boolean;
  systemCode: string;
}

export function sendLetter(body: SendBody): Promise<{ letterId: string; recipients: number; systemCode: string }> {
  return request('message/admin/send', { method: 'POST', data: body });
}
