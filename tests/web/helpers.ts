import './shims';
import { configureRequest, resetNotLoggedIn, session, setPageContext } from '../../sdk/web/src/index';
import { resetBrowser } from './shims';

export interface Call {
  url: string;
  init: RequestInit;
  headers: Record<string, string>;
  body: any;
}

export interface Harness {
  calls: Call[];
  notes: { type: string; text: string }[];
  navigations: string[];
  assigned: string[];
  timers: { fn: () => void; ms: number }[];
  location: { pathname: string; search: string; assign: (u: string) => void };
}

/** A fresh request client with a scripted fetch: `reply(url, init)` returns the Response. */
export function harness(reply: (call: Call) => Response | Promise<Response>): Harness {
  resetBrowser();
  resetNotLoggedIn();
  setPageContext({});
  const h: Harness = {
    calls: [],
    notes: [],
    navigations: [],
    assigned: [],
    timers: [],
    location: { pathname: '/system_manage/user', search: '?q=1', assign: (u) => h.assigned.push(u) },
  };
  configureRequest({
    fetch: (async (url: string, init: RequestInit = {}) => {
      const headers = init.headers as Record<string, string>;
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
      const call = { url: String(url), init, headers, body };
      h.calls.push(call);
      return reply(call);
    }) as typeof fetch,
    notify: (type, text) => h.notes.push({ type, text }),
    navigate: (p) => h.navigations.push(p),
    location: h.location,
    setTimeout: (fn, ms) => h.timers.push({ fn, ms }),
    extraHeaders: {},
  });
  void session;
  return h;
}

export function json(body: unknown, headers: Record<string, string> = {}, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}
