"""The Atrium kernel: app assembly, identity, tenants, menus and the services plugins share."""
