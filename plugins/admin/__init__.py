"""The administration console: tenants, users, roles, grants, menus, systems, plugins, audit trail."""
