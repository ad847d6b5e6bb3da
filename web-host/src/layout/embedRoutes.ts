/**
 * Embedding contract (spec 2.5: "an embedding host can push a static route into the tab strip").
 *
 * A page that embeds the shell (or opened it) sends it a message:
 *
 *     shellWindow.postMessage(
 *       { type: 'atrium:open-route', path: '/system_manage/user', title: 'Users', enTitle: 'Users', query: { id: 7 } },
 *       shellOrigin,
 *     );
 *
 * - `type`: always `atrium:open-route`.
 * - `path`: an address inside the shell, starting with a single `/` (its own `?query` allowed). Anything
 *   else is ignored: full or protocol-relative URLs (`https://…`, `//host`), `javascript:` and other
 *   schemes, backslashes, control characters, addresses longer than 2,048 characters.
 * - `title`, `enTitle` (optional, up to 100 characters): the tab's title (Chinese and other languages) when
 *   no menu holds the path; a menu's own name wins. The title is remembered for the browser tab's session,
 *   so the tab keeps it after a reload.
 * - `query` (optional): an object of text, number or true/false values added to the path's query.
 *
 * The shell opens the address as if the user had (a new tab, or the existing one for the same path) and
 * answers nothing. Messages are accepted only from the shell's own origin and from the origins listed in
 * `window.ATRIUM_CONFIG.embedOrigins` (a list, or one comma-separated text, of `scheme://host[:port]`;
 * wildcards are not accepted); every other message is ignored. A cross-site page can frame the shell only
 * where the server's `frame-ancestors` allows it.
 */
import { useEffect } from 'react';
import type { NavigateFunction } from 'react-router';
import { configuredEmbedOrigins } from '../config';
import { rememberRoute } from './routeMemory';

export const OPEN_ROUTE_MESSAGE = 'atrium:open-route';
const MAX_PATH = 2048;
const MAX_TITLE = 100;

export interface OpenRouteRequest {
  /** Path and query, inside the shell. */
  fullPath: string;
  pathname: string;
  title?: string;
  enTitle?: string;
}

/** The shell's origin and the configured ones, as origins; wildcards and unparsable entries dropped. */
export function allowedOrigins(own: string, configured: readonly string[]): Set<string> {
  const origins = new Set<string>([own]);
  for (const entry of configured) {
    if (entry.includes('*')) continue;
    try {
      const url = new URL(entry);
      if (url.protocol === 'http:' || url.protocol === 'https:') origins.add(url.origin);
    } catch {
      /* not an origin */
    }
  }
  return origins;
}

function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed && trimmed.length <= MAX_TITLE ? trimmed : undefined;
}

/** The internal address a path names, or undefined for anything that leaves the shell. */
export function internalPath(path: unknown, origin: string): URL | undefined {
  if (typeof path !== 'string' || !path || path.length > MAX_PATH) return undefined;
  // eslint-disable-next-line no-control-regex
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\') || /[\u0000-\u001f\u007f]/.test(path)) return undefined;
  try {
    const url = new URL(path, origin);
    return url.origin === new URL(origin).origin ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The request a message makes, or undefined when it is not a valid open-route message. */
export function parseOpenRoute(data: unknown, origin: string): OpenRouteRequest | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const message = data as Record<string, unknown>;
  if (message.type !== OPEN_ROUTE_MESSAGE) return undefined;
  const url = internalPath(message.path, origin);
  if (!url) return undefined;
  const query = message.query;
  if (query !== undefined && query !== null) {
    if (typeof query !== 'object' || Array.isArray(query)) return undefined;
    for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
      if (!['string', 'number', 'boolean'].includes(typeof value)) return undefined;
      url.searchParams.set(key, String(value));
    }
  }
  return { fullPath: url.pathname + url.search, pathname: url.pathname, title: text(message.title), enTitle: text(message.enTitle) };
}

/** The request of a message event from an allowed origin, else undefined. */
export function acceptOpenRoute(event: Pick<MessageEvent, 'data' | 'origin'>, own: string, configured: readonly string[]): OpenRouteRequest | undefined {
  if (!allowedOrigins(own, configured).has(event.origin)) return undefined;
  return parseOpenRoute(event.data, own);
}

/** Opens the routes that allowed embedding pages push. */
export function useEmbedRoutes(navigate: NavigateFunction): void {
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const request = acceptOpenRoute(event, window.location.origin, configuredEmbedOrigins());
      if (!request) return;
      if (request.title) rememberRoute(request.pathname, { title: request.title, enTitle: request.enTitle });
      navigate(request.fullPath);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [navigate]);
}
