/**
 * The administration console's federated module (`./App`): tenants at /rent-mannage, plugins per tenant at
 * /platform, and users, roles and grants, menus, systems and the audit log under /system_manage (other plugins'
 * settings pages, such as /system_manage/watermark, keep their own longer prefixes).
 */
import { definePlugin } from '@atrium/sdk';
import { Audit } from './pages/Audit';
import { Menus } from './pages/Menus';
import { Plugins } from './pages/Plugins';
import { Roles } from './pages/Roles';
import { Settings } from './pages/Settings';
import { Systems } from './pages/Systems';
import { Tenants } from './pages/Tenants';
import { Users } from './pages/Users';

export default definePlugin({
  name: 'admin',
  routes: [
    { path: '/rent-mannage/*', Component: Tenants },
    { path: '/platform/*', Component: Plugins },
    { path: '/system_manage/roles/*', Component: Roles },
    { path: '/system_manage/menus/*', Component: Menus },
    { path: '/system_manage/systems/*', Component: Systems },
    { path: '/system_manage/audit/*', Component: Audit },
    { path: '/system_manage/settings/*', Component: Settings },
    { path: '/system_manage/*', Component: Users },
  ],
});
