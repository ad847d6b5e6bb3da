"""Local fake identity providers (OpenID Connect, OAuth2, DingTalk, WeCom) served on 127.0.0.1 for tests."""
