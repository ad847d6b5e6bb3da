import type { ComponentType } from 'react';
import type { SlotComponents } from './slots';
import { isCompatibleSdk, SDK_VERSION } from './version';

export const PLUGIN_TAG = '@atrium/plugin';
const TAG_SYMBOL = Symbol.for('atrium.plugin');

export interface PluginRouteProps {
  /** The prefix the page was opened under (e.g. `/system_manage`). */
  prefix: string;
}

export interface PluginDefinition {
  /** Same name as the Python plugin and the manifest entry. */
  name: string;
  /** The page component mounted in a tab for routes under the plugin's prefixes; it may use
   * react-router `<Routes>` (paths are absolute: the host owns the only router). */
  App?: ComponentType<PluginRouteProps>;
  /** Or a route table: absolute path patterns to components. */
  routes?: { path: string; Component: ComponentType<PluginRouteProps> }[];
  /** Shell slots this plugin fills. */
  slots?: SlotComponents;
  /** Translation bundles: `{ 'zh-cn': { ns: {...} } }`, added to the host's i18next instance. */
  i18n?: Record<string, Record<string, Record<string, unknown>>>;
  /** Called once after the module is accepted. */
  setup?: () => void | Promise<void>;
}

export interface TaggedPlugin extends PluginDefinition {
  $$tag: typeof PLUGIN_TAG;
  sdkVersion: string;
}

/** Declares a plugin's federated module (exposed as `./App`). The host checks the tag and the SDK
 * version before mounting it. */
export function definePlugin(definition: PluginDefinition): TaggedPlugin {
  if (!definition || !definition.name) throw new Error('definePlugin: a plugin needs a name');
  const tagged: TaggedPlugin = { ...definition, $$tag: PLUGIN_TAG, sdkVersion: SDK_VERSION };
  Object.defineProperty(tagged, TAG_SYMBOL, { value: true });
  return tagged;
}

/** Unwraps a loaded module (default export or the module itself) and checks it. Returns the plugin
 * or throws an Error whose message says what is wrong. */
export function acceptPlugin(module: unknown, hostVersion: string = SDK_VERSION): TaggedPlugin {
  const candidate = (module as { default?: unknown })?.default ?? module;
  const plugin = candidate as TaggedPlugin | undefined;
  if (!plugin || typeof plugin !== 'object' || plugin.$$tag !== PLUGIN_TAG) {
    throw new Error('The module is not an Atrium plugin (it must export definePlugin({...}))');
  }
  if (!isCompatibleSdk(plugin.sdkVersion, hostVersion)) {
    throw new Error(`The plugin was built for SDK ${plugin.sdkVersion || '?'}; this shell runs SDK ${hostVersion}`);
  }
  return plugin;
}
