"""Errors a handler raises; the kernel maps each to the envelope in one place.

`key` names a message in the `server` i18n namespace (or a plugin's namespace as `ns:key`), so `msg` is
always in the request's language.
"""

from __future__ import annotations

from typing import Any


class AtriumError(Exception):
    code: int = 500
    key: str = "error.system"

    def __init__(
        self, key: str | None = None, /, *, code: int | None = None, data: Any = None, **params: Any
    ):
        self.key = key or type(self).key
        if code is not None:
            self.code = code
        self.params = params
        self.data = data
        super().__init__(self.key)


class NotLoggedIn(AtriumError):
    code = -1
    key = "error.not_logged_in"


class BadRequest(AtriumError):
    code = 400
    key = "error.bad_request"


class Forbidden(AtriumError):
    code = 403
    key = "error.forbidden"


class NotFound(AtriumError):
    code = 404
    key = "error.not_found"


class Conflict(AtriumError):
    code = 409
    key = "error.conflict"


class TooManyRequests(AtriumError):
    code = 429
    key = "error.too_many_requests"


class PluginDisabled(AtriumError):
    code = 460
    key = "error.plugin_disabled"


class LoginFailed(AtriumError):
    code = 1001
    key = "login.failed"


class CaptchaRequired(AtriumError):
    code = 1002
    key = "login.captcha_required"


class SystemForbidden(AtriumError):
    code = 1003
    key = "system.forbidden"


class SystemNotOpen(AtriumError):
    code = 1004
    key = "system.not_open"


class CodeInvalid(AtriumError):
    code = 1005
    key = "login.code_invalid"


class StorageUnavailable(AtriumError):
    """The object store (an S3-compatible bucket, or the local disk) could not be reached or refused
    the platform's credentials: the request may be sent again once it is back."""

    code = 503
    key = "files:storage.unavailable"
