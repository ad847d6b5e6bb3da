/**
 * Another plugin's exposed module, loaded through the host: a plugin never imports another plugin, so it
 * asks for `(pluginName, './Module')` and the host resolves it against the signed-in tenant's manifest.
 */
import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { globalSingleton } from './global';
import type { Manifest, ManifestPlugin } from './context';

/** What the host registers at start-up: the current manifest and its loader of a remote's module. */
export interface PluginModuleHost {
  manifest: () => Manifest | null;
  load: (plugin: ManifestPlugin, exposedModule: string) => Promise<unknown>;
}

export type PluginModuleErrorReason = 'no-host' | 'not-enabled' | 'not-exposed' | 'load-failed';

/** Why a plugin module could not be had; `reason` lets a caller fall back quietly when a plugin is off. */
export class PluginModuleError extends Error {
  readonly reason: PluginModuleErrorReason;
  readonly plugin: string;
  readonly exposedModule: string;

  constructor(reason: PluginModuleErrorReason, plugin: string, exposedModule: string, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'PluginModuleError';
    this.reason = reason;
    this.plugin = plugin;
    this.exposedModule = exposedModule;
  }
}

const hostSlot = globalSingleton<{ host?: PluginModuleHost }>('pluginModuleHost', () => ({}));

/** Called by the host once at start-up (`undefined` unregisters, for tests). */
export function registerPluginModuleHost(host: PluginModuleHost | undefined): void {
  hostSlot.host = host;
}

function normalizeModule(exposedModule: string): string {
  return `./${exposedModule.replace(/^\.\//, '')}`;
}

function exposes(plugin: ManifestPlugin, exposedModule: string): boolean {
  const declared = Array.isArray(plugin.exposes) ? plugin.exposes : Object.keys(plugin.exposes || {});
  return declared.some((m) => normalizeModule(m) === exposedModule);
}

/** Loads `exposedModule` (e.g. `./IconPicker`) of a plugin enabled for the current tenant. Rejects with a
 * `PluginModuleError` when the host has not registered, the plugin is not in the manifest, the module is not
 * one it exposes, or the remote fails to load. */
export async function loadPluginModule<T = unknown>(pluginName: string, exposedModule: string): Promise<T> {
  const module = normalizeModule(exposedModule);
  const host = hostSlot.host;
  if (!host) {
    throw new PluginModuleError('no-host', pluginName, module, `No host is running to load ${pluginName} ${module}`);
  }
  const plugin = host.manifest()?.plugins.find((p) => p.name === pluginName);
  if (!plugin) {
    throw new PluginModuleError('not-enabled', pluginName, module, `The plugin ${pluginName} is not enabled for this tenant`);
  }
  if (!exposes(plugin, module)) {
    throw new PluginModuleError('not-exposed', pluginName, module, `The plugin ${pluginName} does not expose ${module}`);
  }
  try {
    return (await host.load(plugin, module)) as T;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new PluginModuleError('load-failed', pluginName, module, `${pluginName} ${module} could not be loaded: ${why}`, err);
  }
}

export type PluginModuleState<T> =
  | { status: 'loading'; module?: undefined; error?: undefined }
  | { status: 'ready'; module: T; error?: undefined }
  | { status: 'failed'; module?: undefined; error: PluginModuleError };

function asModuleError(err: unknown, plugin: string, module: string): PluginModuleError {
  if (err instanceof PluginModuleError) return err;
  return new PluginModuleError('load-failed', plugin, normalizeModule(module), err instanceof Error ? err.message : String(err), err);
}

/** React form of `loadPluginModule`: loading, then the module or the error. */
export function usePluginModule<T = unknown>(pluginName: string, exposedModule: string): PluginModuleState<T> {
  const [state, setState] = useState<PluginModuleState<T>>({ status: 'loading' });
  useEffect(() => {
    let alive = true;
    setState({ status: 'loading' });
    loadPluginModule<T>(pluginName, exposedModule).then(
      (module) => alive && setState({ status: 'ready', module }),
      (err: unknown) => alive && setState({ status: 'failed', error: asModuleError(err, pluginName, exposedModule) }),
    );
    return () => {
      alive = false;
    };
  }, [pluginName, exposedModule]);
  return state;
}

/** The component a loaded module offers: its named export `exportName`, else its default export. */
export function moduleComponent<P>(module: unknown, exportName?: string): ComponentType<P> | undefined {
  const m = module as Record<string, unknown> | undefined;
  const candidate = exportName ? m?.[exportName] : (m?.default ?? module);
  return typeof candidate === 'function' ? (candidate as ComponentType<P>) : undefined;
}

export type PluginModuleProps<P> = P & {
  plugin: string;
  module: string;
  /** A named export to render instead of the default export. */
  exportName?: string;
  /** Shown while loading and whenever the module can't be had (plugin disabled, load failure). */
  fallback?: ReactNode;
};

/** Renders a component another plugin exposes, passing it the remaining props. */
export function PluginModule<P extends object>({ plugin, module, exportName, fallback = null, ...props }: PluginModuleProps<P>) {
  const state = usePluginModule(plugin, module);
  const Component = state.status === 'ready' ? moduleComponent<P>(state.module, exportName) : undefined;
  if (!Component) return <>{fallback}</>;
  return <Component {...(props as unknown as P)} />;
}
