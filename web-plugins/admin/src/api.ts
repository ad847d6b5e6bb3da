import { request, session } from '@atrium/sdk';

const A = 'base/admin';
const C = 'admin';

export interface Page<T> { total: number; pageIndex: number; pageRows: number; list: T[] }
export interface Tenant { tenantId: number; tenantName: string; domain: string; parentTenantId: number | null; enabled: boolean }
export interface Profile {
  tenantId: number; companyName: string; approvalState: string; contact: string; contactPhone: string; contactEmail: string;
  tenantType: string; enterpriseCode: string; country: string; state: string; effectiveDate: string; expirationDate: string; size: number;
}
export interface Country { code: string; value: string; names: Record<string, string> }
export interface UserRow {
  userId: number; account: string; userFullName: string; mobile: string; email: string; tenantId: number; enabled: boolean;
  locked: boolean; isAdmin: number; isSuperAdmin: number;
}
export interface Membership { tenantId: number; tenantName: string; supervisor: boolean; enabled: boolean; roles: { roleId: number; roleName: string }[] }
export interface Role { roleId: number; roleCode: string; roleName: string; menuIds: string[] }
export interface Menu {
  menuId: string; menuCode: string; menuName: string; menuEnName: string | Record<string, string>; menuUrl: string; menuIconurl: string;
  parameter: string; isCache: number; isFetch: number; subscriptKey: string; userManualUrl: string; parentId: string | null; plugin: string;
}
export interface Resource { resourceId: string; menuId: string; resourceCode: string; resourceName: string }
export interface System { systemCode: string; systemName: string; systemEnName: string; iconUrl: string; requestUrl: string; useState: number }
export interface TenantSystem { systemCode: string; systemTitle: string | null; themeColor: string | null; systemLogo: string | null; iconUrl: string | null }
/** `essential`: the plugin cannot be switched off (the console's own, an essential one, or one an essential
 * plugin needs), and `lockedReason` says why, in the user's language. */
export interface PluginRow { name: string; version: string; status: string; error?: string; essential?: boolean; lockedReason?: string | null; enabled: boolean }
export interface AuditRow { auditId: string; at: string; tenantId: number | null; account: string; action: string; target: string; before: string; after: string }

export interface DictItem { diId: string; dicType: string; dicCode: string; names: Record<string, string>; sort: number; public: boolean }
export interface GreyRule { ruleId: string; userId: number | null; header: string; value: string }
export interface PasswordStrategy {
  minLength: number; maxLength: number; expireDays: number; warnDays: number; allowSymbols: boolean;
  /** the rule as the server checks it, and its words (answers only) */
  pattern?: string; pwdTips?: string;
}
export interface AuditConfig { id: string; serverName: string; tableName: string; tableAlias: string; enabled: boolean }
export interface LockoutRow { userId: number; account: string; userFullName: string; failedCount: number; lastFailedAt: string; locked: boolean; lockedUntil: string }
export interface FailureRow { failureId: string; at: string; account: string; mode: string; reason: string; ip: string; userAgent: string; lockedUntil: string }
export interface LoginType { type: string; domains?: string[]; name?: string; [key: string]: unknown }
export interface SigninConfig {
  allowRegister: boolean; registerApproval: boolean; qrcodeEnabled: boolean; passwordEnabled: boolean; phoneCodeEnabled: boolean; emailCodeEnabled: boolean;
}
export interface LdapServer {
  id?: string; domain: string; serverUrl: string; bindDn: string; bindPassword?: string; bindPasswordSet?: boolean; searchBase: string;
  userFilter: string; attributes?: Record<string, string>; startTls: boolean; timeout: number; enabled: boolean;
}
export interface LoginLogRow { logId: string; at: string; ip: string; userAgent: string; account: string; userFullName: string; failedCount: number; locked: boolean }

const post = <T = unknown>(path: string, data: unknown) => request<T>(path, { method: 'POST', data });

export const isSuperAdmin = () => Number(session.profile.isSuperAdmin) === 1 || session.profile.isSuperAdmin === true;
export const isAdmin = () => isSuperAdmin() || Number(session.profile.isAdmin) === 2 || session.profile.isAdmin === true;

export const api = {
  tenants: () => request<Tenant[]>(`${A}/tenants`),
  createTenant: (b: Record<string, unknown>) => post<{ tenantId: number; systems: string[] }>(`${C}/tenants`, b),
  deleteTenant: (tenantId: number) => post(`${A}/tenants/delete`, { tenantId }),
  tenantState: (tenantId: number, enabled: boolean) => post(`${A}/tenants/state`, { tenantId, enabled }),
  tenantSystems: (tenantId: number) => request<TenantSystem[]>(`${A}/tenants/systems`, { params: { tenantId } }),
  offerSystem: (b: Record<string, unknown>) => post(`${A}/tenants/systems`, b),
  profiles: () => request<Profile[]>(`${C}/tenant-profiles`),
  checkProfile: (b: Partial<Profile>) => post(`${C}/tenant-profiles/check`, b),
  saveProfile: (b: Partial<Profile>) => post<Profile>(`${C}/tenant-profiles`, b),
  approval: (tenantId: number, approvalState: string) => post(`${C}/tenant-profiles/approval`, { tenantId, approvalState }),
  countries: () => request<Country[]>(`${C}/countries`),
  users: (params: { tenantId?: number; keyword: string; pageIndex: number; pageRows: number }) => request<Page<UserRow>>(`${A}/users/page`, { params }),
  userDetail: (userId: number, tenantId?: number) => request<UserRow & { memberships: Membership[] }>(`${A}/users/detail`, { params: { userId, tenantId } }),
  createUser: (b: Record<string, unknown>) => post<{ userId: number }>(`${A}/users`, b),
  updateUser: (b: Record<string, unknown>) => post(`${A}/users/update`, b),
  userState: (userId: number, enabled: boolean, tenantId?: number) => post(`${A}/users/state`, { userId, enabled, tenantId }),
  resetPassword: (userId: number, password: string, tenantId?: number) => post(`${A}/users/password`, { userId, password, tenantId }),
  unlock: (userId: number, tenantId?: number) => post(`${A}/users/unlock`, { userId, tenantId }),
  setMembership: (userId: number, tenantId: number, supervisor: boolean) => post(`${A}/users/memberships`, { userId, tenantId, supervisor }),
  removeMembership: (userId: number, tenantId: number) => post(`${A}/users/memberships/remove`, { userId, tenantId }),
  assignRole: (userId: number, roleId: number, tenantId?: number) => post(`${A}/users/roles`, { userId, roleId, tenantId }),
  removeRole: (userId: number, roleId: number, tenantId?: number) => post(`${A}/users/roles/remove`, { userId, roleId, tenantId }),
  permissions: (userId: number, tenantId?: number, systemCode?: string) =>
    request<{ menus: { menuId: string; menuName: string }[]; resources: Resource[]; all: boolean }>(`${A}/users/permissions`, { params: { userId, tenantId, systemCode } }),
  roles: (tenantId?: number) => request<Role[]>(`${A}/roles`, { params: { tenantId } }),
  createRole: (b: Record<string, unknown>) => post<{ roleId: number }>(`${A}/roles`, b),
  deleteRole: (roleId: number, tenantId?: number) => post(`${A}/roles/delete`, { roleId, tenantId }),
  grantMenus: (roleId: number, menuIds: number[], tenantId?: number) => post(`${A}/roles/menus`, { roleId, menuIds, tenantId }),
  roleResources: (roleId: number, tenantId?: number) => request<string[]>(`${A}/roles/resources`, { params: { roleId, tenantId } }),
  grantResources: (roleId: number, resourceIds: number[], tenantId?: number) => post(`${A}/roles/resources`, { roleId, resourceIds, tenantId }),
  menus: (systemCode: string) => request<Menu[]>(`${A}/menus`, { params: { systemCode } }),
  saveMenu: (b: Record<string, unknown>) => post<{ menuId: string }>(`${A}/menus`, b),
  deleteMenu: (menuId: number) => post(`${A}/menus/delete`, { menuId }),
  moveMenu: (menuId: number, parentId: number | null, sort: number) => post(`${A}/menus/move`, { menuId, parentId, sort }),
  resources: (systemCode: string) => request<Resource[]>(`${A}/resources`, { params: { systemCode } }),
  saveResource: (b: Record<string, unknown>) => post(`${A}/resources`, b),
  systems: () => request<System[]>(`${A}/systems`),
  saveSystem: (b: Partial<System>) => post(`${A}/systems`, b),
  deleteSystem: (systemCode: string) => post(`${A}/systems/delete`, { systemCode }),
  plugins: (tenantId?: number) => request<PluginRow[]>(`${A}/plugins`, { params: { tenantId } }),
  pluginState: (plugin: string, enabled: boolean, tenantId?: number) => post(`${A}/plugins/state`, { plugin, enabled, tenantId }),
  dictionaries: (dicType: string) => request<{ types: string[]; items: DictItem[] }>(`${A}/dictionaries`, { params: { dicType } }),
  saveDictionary: (b: Partial<DictItem>) => post(`${A}/dictionaries`, b),
  deleteDictionary: (diId: string) => post(`${A}/dictionaries/delete`, { diId: Number(diId) }),
  serverConfig: () => request<{ configKey: string; value: string; default: string }[]>(`${A}/server-config`),
  saveServerConfig: (configKey: string, value: string) => post(`${A}/server-config`, { configKey, value }),
  greyRules: (tenantId?: number) => request<GreyRule[]>(`${A}/grey-rules`, { params: { tenantId } }),
  addGreyRule: (b: Record<string, unknown>) => post(`${A}/grey-rules`, b),
  deleteGreyRule: (ruleId: string, tenantId?: number) => post(`${A}/grey-rules/delete`, { ruleId: Number(ruleId), tenantId }),
  passwordStrategy: (tenantId?: number) => request<PasswordStrategy>(`${A}/password-strategy`, { params: { tenantId } }),
  savePasswordStrategy: (b: PasswordStrategy & { tenantId?: number }) => post(`${A}/password-strategy`, b),
  auditConfig: () => request<AuditConfig[]>('base/audit-config/list'),
  saveAuditConfig: (b: Omit<AuditConfig, 'id'>) => post('base/audit-config/save', b),
  loginLog: (params: Record<string, unknown>) => request<Page<LoginLogRow>>(`${A}/login-log`, { params }),
  lockouts: (params: Record<string, unknown>) => request<Page<LockoutRow>>(`${A}/lockouts`, { params }),
  failures: (params: Record<string, unknown>) => request<Page<FailureRow>>(`${C}/signin-failures`, { params }),
  signinModes: (tenantId?: number) => request<{ tenantId: number; domain: string; loginTypes: LoginType[] }>(`${A}/signin-modes`, { params: { tenantId } }),
  signinConfig: (tenantId?: number) => request<SigninConfig>('base/admin/signin-config', { params: { tenantId } }),
  saveSigninConfig: (b: Partial<SigninConfig>, tenantId?: number) => post<SigninConfig>('base/admin/signin-config', { ...b, tenantId }),
  ldapList: (tenantId?: number) => request<LdapServer[]>('base/admin/ldap', { params: { tenantId } }),
  ldapSave: (b: LdapServer, tenantId?: number) => post<LdapServer>('base/admin/ldap/save', { ...b, tenantId }),
  ldapDelete: (id: string, tenantId?: number) => request(`base/admin/ldap/delete`, { method: 'POST', params: { id, tenantId } }),
  ldapTest: (id: string, tenantId?: number) => request<Record<string, unknown>>(`base/admin/ldap/test`, { method: 'POST', params: { id, tenantId } }),
  audit: (params: Record<string, unknown>) => request<Page<AuditRow>>(`${C}/audit`, { params }),
  auditExport: (params: Record<string, unknown>) => request<{ fileName: string; content: string }>(`${C}/audit/export`, { params }),
};
