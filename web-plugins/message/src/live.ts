/**
 * The live push: one WebSocket per page to the kernel's `/ws`, subscribed to `systemNotify` for the
 * signed-in user and system. A push with code 800 reloads the unread list, except a logout action,
 * which signs the user out on this page too; the kernel's own `{code: -1, type: 'logout'}` (this
 * sign-in ended) sends the page to the sign-in page. Heartbeat: a ping every 30 s; a socket silent for
 * 100 s is closed and opened again. Lost connections reconnect with exponential backoff.
 */
import { appPath, appUrl, buildHeaders, bus, isOpenRoute, resolveUrl, session, socketUrl } from '@atrium/sdk';
import { inbox } from './store';

export const SUB_KEY = 'systemNotify';
const PING_EVERY = 30_000;
const SILENCE_LIMIT = 100_000;
const BACKOFF_FIRST = 1_000;
const BACKOFF_MAX = 30_000;
/** How long the page that signed out itself gets to reach the sign-in page before others follow. */
const SIGN_OUT_GRACE = 1_500;
/** Close codes after which reconnecting cannot help: signed out, origin refused, subscription refused. */
const FINAL_CODES = new Set([4001, 4003, 4403]);

export interface PushFrame {
  code: number;
  type?: string;
  subKey?: string;
  data?: { action?: string; msgInstanceId?: string; preview?: string; systemCode?: string; sendTime?: string };
}

class LiveConnection {
  private socket: WebSocket | null = null;
  private users = 0;
  private retry = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private lastSeen = 0;
  private key = '';
  private stopped = true;

  /** Starts (or keeps) the connection while at least one component uses it. */
  acquire(): () => void {
    this.users += 1;
    if (this.users === 1) this.start();
    return () => {
      this.users -= 1;
      if (this.users === 0) this.stop();
    };
  }

  private currentKey(): string {
    return `${session.getToken() || ''}|${session.profile.userId ?? ''}|${session.getSystemCode()}`;
  }

  private start(): void {
    this.stopped = false;
    this.retry = 0;
    this.open();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    const s = this.socket;
    this.socket = null;
    if (s && s.readyState <= 1) s.close(1000, 'page closed');
  }

  /** Opens anew when the token, user or system changed (tenant or system switch). */
  refresh(): void {
    if (this.stopped || this.currentKey() === this.key) return;
    this.stop();
    this.start();
  }

  private open(): void {
    const token = session.getToken();
    const userId = session.profile.userId;
    if (!token || userId === undefined || typeof WebSocket === 'undefined') return;
    this.key = this.currentKey();
    const socket = new WebSocket(socketUrl(`/ws?token=${encodeURIComponent(token)}`));
    this.socket = socket;
    socket.onopen = () => {
      this.retry = 0;
      this.lastSeen = Date.now();
      socket.send(JSON.stringify({ type: 'subscribe', subKey: SUB_KEY, userId, systemCode: session.getSystemCode() }));
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.heartbeat(socket), PING_EVERY);
      void inbox.reload(); // letters sent while the socket was down
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return; // a socket closed for an earlier sign-in
      this.lastSeen = Date.now();
      let frame: PushFrame;
      try {
        frame = JSON.parse(String(event.data));
      } catch {
        return;
      }
      this.handle(frame, token);
    };
    socket.onclose = (event) => {
      clearInterval(this.pingTimer);
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped || FINAL_CODES.has(event.code)) return;
      this.scheduleReconnect();
    };
  }

  private heartbeat(socket: WebSocket): void {
    if (socket.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.lastSeen > SILENCE_LIMIT) {
      socket.close(4008, 'heartbeat timeout');
      return;
    }
    socket.send(JSON.stringify({ type: 'ping' }));
  }

  private scheduleReconnect(): void {
    const delay = Math.min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** this.retry) * (0.75 + Math.random() * 0.5);
    this.retry += 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      if (!this.stopped) this.open();
    }, delay);
  }

  /** `token`: the sign-in the socket was opened for. */
  private handle(frame: PushFrame, token: string): void {
    if (frame.code === -1 && frame.type === 'logout') {
      sessionEnded(token);
      return;
    }
    if (frame.code !== 800 || frame.subKey !== SUB_KEY) return;
    if (frame.data?.action === 'logout') {
      void signOutHere();
      return;
    }
    void inbox.reload();
    bus.emit('message:received', frame.data);
  }
}

/** The server ended the sign-in `token` (signed out in another tab, password changed, account disabled).
 * The tab that signed out goes to the sign-in page by itself; any other page of the session follows it
 * there, unless someone has signed in again on this page meanwhile. */
function sessionEnded(token: string): void {
  live.stop();
  inbox.reset();
  window.setTimeout(() => {
    if (isOpenRoute(appPath(window.location.pathname))) return;
    const current = session.getToken();
    if (current && current !== token) return;
    bus.emit('watermark:clear');
    bus.emit('logout');
    session.clear();
    window.location.assign(appUrl('/login'));
  }, SIGN_OUT_GRACE);
}

/** A push asked every page of the user to sign out (a forced sign-out): end this page's session too. */
async function signOutHere(): Promise<void> {
  if (!session.getToken()) return;
  const url = resolveUrl('base/base-user/logout');
  try {
    // straight `fetch`: the tokens may already be revoked, and a -1 here must not start the expiry flow
    await fetch(appUrl(url), { headers: buildHeaders(url), credentials: 'same-origin' });
  } catch {
    /* signing out locally anyway */
  }
  live.stop();
  inbox.reset();
  bus.emit('watermark:clear');
  bus.emit('logout');
  session.clear();
  window.location.assign(appUrl('/login'));
}

export const live = new LiveConnection();
