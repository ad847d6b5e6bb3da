// Browser globals the SDK touches, for node: a cookie jar, local and session storage, window.location.
const jar = new Map<string, string>();
let baseHref: string | undefined;
/** The page's `<base href>` (the path prefix the platform is served under); undefined: no element. */
export function setBaseHref(href: string | undefined): void {
  baseHref = href;
}
const cookieDoc = {
  querySelector(selector: string) {
    return selector === 'base' && baseHref !== undefined ? { getAttribute: (name: string) => (name === 'href' ? baseHref : null) } : null;
  },
  get cookie(): string {
    return Array.from(jar.entries()).map(([k, v]) => `${k}=${v}`).join('; ');
  },
  set cookie(value: string) {
    const [pair, ...attrs] = value.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const v = pair.slice(eq + 1).trim();
    const expires = attrs.map((a) => a.trim()).find((a) => a.toLowerCase().startsWith('expires='));
    if (expires && new Date(expires.slice(8)).getTime() < Date.now()) jar.delete(name);
    else jar.set(name, v);
  },
};

class MemoryStorage {
  private data = new Map<string, string>();
  getItem(k: string) {
    return this.data.has(k) ? this.data.get(k)! : null;
  }
  setItem(k: string, v: string) {
    this.data.set(k, String(v));
  }
  removeItem(k: string) {
    this.data.delete(k);
  }
  clear() {
    this.data.clear();
  }
}

const g = globalThis as any;
g.document = cookieDoc;
g.localStorage = new MemoryStorage();
g.sessionStorage = new MemoryStorage();

export function resetBrowser(): void {
  jar.clear();
  g.localStorage.clear();
  g.sessionStorage.clear();
}
