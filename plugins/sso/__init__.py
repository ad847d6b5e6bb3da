"""Single sign-on: OpenID Connect, OAuth2, a cloud identity provider, DingTalk and WeCom, and providers
other plugins add through the ``atrium_sso_providers`` hook."""
