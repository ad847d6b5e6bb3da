import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { acceptPlugin, addBundle, appUrl, type Manifest, type ManifestPlugin, type TaggedPlugin } from '@atrium/sdk';

/** The micro-application mount prefixes (spec 2.4): which application a path belongs to, so a prefix
 * with no enabled plugin can say what is missing. */
export const APP_PREFIXES: { app: string; prefixes: string[] }[] = [
  { app: 'portal', prefixes: ['/portal', '/knowledge-details'] },
  { app: 'base', prefixes: ['/rent-mannage', '/system_manage', '/platform', '/content-management', '/thesaurus-management', '/code-review', '/college'] },
  { app: 'schedule', prefixes: ['/schedule'] },
  { app: 'process', prefixes: ['/process_manage'] },
  { app: 'dynamic-form', prefixes: ['/form-design', '/dynamic-form'] },
  { app: 'message', prefixes: ['/message-management', '/letters'] },
  { app: 'service', prefixes: ['/service-management'] },
  { app: 'api-market', prefixes: ['/api-market'] },
  { app: 'api', prefixes: ['/api-center', '/connect-management'] },
  { app: 'third', prefixes: ['/third-party'] },
  { app: 'file-center', prefixes: ['/fileCenter'] },
  { app: 'data-model', prefixes: ['/data-model'] },
  { app: 'datax', prefixes: ['/actuator-management'] },
  { app: 'dynamic-report', prefixes: ['/dynamic-report'] },
  { app: 'model-application', prefixes: ['/model-application'] },
  { app: 'integration', prefixes: ['/integration'] },
  { app: 'rule-center', prefixes: ['/rule-center'] },
  { app: 'diff-analyzer', prefixes: ['/diff-analyzer'] },
  { app: 'index', prefixes: ['/index-management'] },
  { app: 'form-preview', prefixes: ['/form-preview'] },
];

function matches(pathname: string, prefix: string): boolean {
  const p = prefix.replace(/\/+$/, '');
  return pathname === p || pathname.startsWith(`${p}/`);
}

/** The enabled plugin whose prefix (the longest that matches) covers the path. */
export function pluginForPath(manifest: Manifest | null, pathname: string): { plugin: ManifestPlugin; prefix: string } | undefined {
  let found: { plugin: ManifestPlugin; prefix: string } | undefined;
  for (const plugin of manifest?.plugins || []) {
    for (const prefix of plugin.prefixes || []) {
      if (matches(pathname, prefix) && (!found || prefix.length > found.prefix.length)) found = { plugin, prefix };
    }
  }
  return found;
}

/** The application (spec 2.4) a path belongs to, when it is one of the known prefixes. */
export function appForPath(pathname: string): string | undefined {
  for (const entry of APP_PREFIXES) if (entry.prefixes.some((p) => matches(pathname, p))) return entry.app;
  return undefined;
}

export function remoteEntryUrl(plugin: ManifestPlugin): string {
  const url = appUrl(plugin.remoteUrl || `/plugins/${plugin.name}/`);
  return url.endsWith('.js') ? url : `${url.replace(/\/?$/, '/')}remoteEntry.js`;
}

function remoteOf(plugin: ManifestPlugin) {
  return { name: plugin.remoteName, entry: remoteEntryUrl(plugin) };
}

/** Registers every manifest plugin's remote at run time (downloads nothing). */
export function registerManifest(manifest: Manifest): void {
  const remotes = (manifest.plugins || []).filter((p) => p.remoteName).map(remoteOf);
  if (remotes.length) registerRemotes(remotes, { force: true });
}

/** Registers remotes known without a manifest (open pages before sign-in); one already registered is kept. */
export function registerKnownRemotes(remotes: { name: string; entry: string }[]): void {
  try {
    registerRemotes(remotes.map((r) => ({ ...r, entry: appUrl(r.entry) })));
  } catch {
    /* registration errors surface on the first load */
  }
}

const modules = new Map<string, Promise<unknown>>();
const accepted = new Map<string, Promise<TaggedPlugin>>();

function exposeName(module: string): string {
  return module.replace(/^\.\//, '');
}

/** A remote's load for usage tracking, also when its entry came from the browser's memory cache, which
 * reports no resource timing (the tracker records each remote once per page). */
function recordLoad(code: string, loadTime: number): void {
  void import(/* webpackChunkName: "tracking" */ '@atrium/sdk/tracking').then(({ tracking }) => tracking.appLoaded(code, loadTime));
}

/** Loads one exposed module of a plugin (cached; a failure is forgotten so a retry loads again). */
export function loadExposed(plugin: ManifestPlugin, module = './App'): Promise<unknown> {
  const key = `${plugin.remoteName}/${exposeName(module)}`;
  let promise = modules.get(key);
  if (!promise) {
    const started = performance.now();
    promise = loadRemote(key).then((mod) => {
      if (mod === undefined || mod === null) throw new Error(`${key} could not be loaded`);
      recordLoad(plugin.name, performance.now() - started);
      return mod;
    });
    promise.catch(() => {
      modules.delete(key);
      accepted.delete(key);
    });
    modules.set(key, promise);
  }
  return promise;
}

/** Loads a plugin's `./App`, checks the definePlugin tag and SDK version, adds its translations. */
export function loadPlugin(plugin: ManifestPlugin, module = './App'): Promise<TaggedPlugin> {
  const key = `${plugin.remoteName}/${exposeName(module)}`;
  let promise = accepted.get(key);
  if (!promise) {
    promise = loadExposed(plugin, module).then(async (mod) => {
      const tagged = acceptPlugin(mod);
      for (const [locale, namespaces] of Object.entries(tagged.i18n || {})) {
        for (const [ns, resources] of Object.entries(namespaces)) addBundle(locale, ns, resources);
      }
      await tagged.setup?.();
      return tagged;
    });
    promise.catch(() => accepted.delete(key));
    accepted.set(key, promise);
  }
  return promise;
}

/** Forgets a failed remote and registers it again, so the next load fetches its entry anew. */
export function resetPlugin(plugin: ManifestPlugin): void {
  for (const key of Array.from(modules.keys())) if (key.startsWith(`${plugin.remoteName}/`)) modules.delete(key);
  for (const key of Array.from(accepted.keys())) if (key.startsWith(`${plugin.remoteName}/`)) accepted.delete(key);
  try {
    registerRemotes([remoteOf(plugin)], { force: true });
  } catch {
    /* registration errors surface on the next load */
  }
}
