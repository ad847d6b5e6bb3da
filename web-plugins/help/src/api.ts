import { buildHeaders, request, resolveUrl, RequestError, stockMessage } from '@atrium/sdk';

/** A help document as `/api/help` answers it; `content` is HTML sanitised by the server. */
export interface HelpDoc {
  id: string;
  menuCode: string;
  locale: string;
  title: string;
  manualUrl: string;
  summary: string;
  sort: number;
  updatedAt: string;
  content?: string;
}

/** A cited passage of the knowledge chat. */
export interface Passage {
  index: number;
  docId: string;
  source: 'help' | 'portal';
  title: string;
  text: string;
  url: string;
  score: number;
}

export function listDocs(keyword: string, pageIndex = 1, pageRows = 20): Promise<{ total: number; list: HelpDoc[] }> {
  return request('help/doc/list', { params: { keyword, pageIndex, pageRows } });
}

export function docDetail(id: string): Promise<HelpDoc> {
  return request('help/doc/detail', { params: { id } });
}

export function docsForMenu(menuCode: string): Promise<HelpDoc[]> {
  return request('help/doc/for-menu', { params: { menuCode }, silent: true });
}

/** The spec's chat heartbeat: a stream silent this long is given up. */
export const HEARTBEAT_TIMEOUT = 100000;
export const MAX_PROMPT = 4000;

export interface ChatHandlers {
  onMeta: (meta: { session: string; mode: 'llm' | 'passages'; passages: Passage[] }) => void;
  onToken: (text: string) => void;
  onError: (message: string) => void;
}

/** Asks the knowledge chat and feeds its Server-Sent Events to the handlers; resolves when the stream
 * ends (done, an error, abort through `signal`, or silence beyond the heartbeat). */
export async function streamChat(
  params: { prompt: string; session: string; top?: number; access?: string; model?: string },
  handlers: ChatHandlers,
  signal: AbortSignal,
  timeoutText: string,
): Promise<void> {
  const path = 'aigc/knowledge/chat';
  const quiet = new AbortController();
  const stop = () => quiet.abort();
  signal.addEventListener('abort', stop);
  let timer = 0;
  const beat = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => {
      handlers.onError(timeoutText);
      stop();
    }, HEARTBEAT_TIMEOUT);
  };
  beat();
  try {
    const resp = await fetch(resolveUrl(path), {
      method: 'POST',
      headers: { ...buildHeaders(path), 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ top: 5, access: 'all', model: '', ...params }),
      signal: quiet.signal,
    });
    if (!(resp.headers.get('content-type') || '').includes('text/event-stream')) {
      const env = await resp.json().catch(() => null);
      throw new RequestError(env?.msg || stockMessage(500), env?.code ?? resp.status, resp.status);
    }
    const reader = resp.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      beat();
      buffer += value;
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let event = 'message';
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) event = line.slice(6).trim();
          else if (line.startsWith('data:')) data += line.slice(5).trim();
        }
        if (!data) continue;
        const payload = JSON.parse(data);
        if (event === 'meta') handlers.onMeta(payload);
        else if (event === 'token') handlers.onToken(payload.text);
        else if (event === 'error') handlers.onError(payload.msg);
      }
    }
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') return;
    throw err;
  } finally {
    window.clearTimeout(timer);
    signal.removeEventListener('abort', stop);
  }
}

export interface DocInput {
  id?: string;
  menuCode: string;
  locale: string;
  title: string;
  content: string;
  manualUrl: string;
  sort: number;
}

export function saveDoc(doc: DocInput): Promise<HelpDoc> {
  return request('help/admin/doc/save', { method: 'POST', data: { ...doc, id: doc.id ? Number(doc.id) : null } });
}

export function deleteDoc(id: string): Promise<void> {
  return request('help/admin/doc/delete', { method: 'POST', data: { id: Number(id) } });
}

/** The tenant's language-model endpoint; the key itself is never sent back. */
export interface Endpoint {
  baseUrl: string;
  model: string;
  hasKey: boolean;
  timeoutSeconds: number;
  enabled: number;
}

export function getEndpoint(): Promise<Endpoint> {
  return request('aigc/admin/endpoint');
}

export function saveEndpoint(body: Omit<Endpoint, 'hasKey'> & { apiKey?: string | null }): Promise<Endpoint> {
  return request('aigc/admin/endpoint/save', { method: 'POST', data: body });
}
