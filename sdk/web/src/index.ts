/**
 * @atrium/sdk — the only surface the shell's plugins import: session, request client, i18n helpers,
 * permissions, other plugins' exposed modules, the event bus, the shell context and slots, and `definePlugin`.
 */
import SHARED_VERSIONS from './shared.json';

export { SDK_VERSION, isCompatibleSdk } from './version';
export { globalSingleton } from './global';
export { base64Utf8, base64Bytes, fromBase64Utf8 } from './base64';
export { basePath, appUrl, appPath, socketUrl } from './base';
export { getCookie, setCookie, removeCookie, local } from './storage';
export { EventBus, bus, type Handler } from './events';
export {
  session, useSession, DEFAULT_SYSTEM_CODE, PLATFORM_TENANT_ID, TOKEN_COOKIE, REFRESH_COOKIE,
  type Profile, type UserInfo, type SsoData, type SignInData, type SystemRef, type SessionSnapshot,
} from './session';
export {
  LOCALES, LANGUAGE_NAMES, DEFAULT_LOCALE, LANGUAGE_COOKIE, normalizeLocale, currentLocale, languageHeader, translate, useT,
  addBundle, localeText, recordMissingKey, type Locale,
} from './i18n';
export {
  request, upload, saveBlob, configureRequest, getRequestConfig, setPageContext, setServices, resolveUrl,
  buildHeaders, handleNotLoggedIn, resetNotLoggedIn, stockMessage, isOpenRoute, RequestError, OPEN_ROUTES,
  SUCCESS_CODES, NOT_LOGGED_IN, type Envelope, type RequestOptions, type PageContext, type RequestConfig, type Notify,
} from './request';
export { useImageSrc, isPlatformFile } from './image';
export { permissions, hasButton, useHasButton, type ButtonResource } from './permissions';
export {
  loadPluginModule, usePluginModule, PluginModule, moduleComponent, registerPluginModuleHost, PluginModuleError,
  type PluginModuleHost, type PluginModuleState, type PluginModuleProps, type PluginModuleErrorReason,
} from './pluginModules';
export { definePlugin, acceptPlugin, PLUGIN_TAG, type PluginDefinition, type TaggedPlugin, type PluginRouteProps } from './plugin';
export { SLOT_NAMES, type SlotName, type SlotComponents, type NavbarItemProps, type DrawerSlotProps, type HomeCardSlot } from './slots';
export { globalContext, ShellContext, useShell, type ShellApi, type MenuItem, type Manifest, type ManifestPlugin } from './context';
export { openTab, closeTab, closeOthers, closeAll, tabKey, setTabTitle, titleTab, HOME_PATH, TAB_TITLE_EVENT, type TabView, type TabTitle, type CloseResult } from './tabs';
export {
  runExportTask, downloadHref, EXPORT_WAITING, EXPORT_RUNNING, EXPORT_DONE, EXPORT_FAILED, EXPORT_EXPIRED,
  type ExportTaskOptions, type ExportRecord, type ExportRequester,
} from './exportTask';

/** The packages shared as singletons between the host and every plugin, with their version ranges.
 * The webpack helper (`@atrium/sdk/webpack`) builds every Module Federation config from this list. */
export const SHARED: Readonly<Record<string, string>> = SHARED_VERSIONS;
