"""An installable plugin that adds one sign-in provider through the ``atrium_sso_providers`` hook."""
