"""SSO validator codes: a person whose identity is linked to no user proves an existing account's phone
or e-mail with a six-digit code before the identity is linked to it."""

from __future__ import annotations

import hmac
import re
import secrets
import string

from atrium.plugins.sso import flow
from atrium.plugins.sso.providers.base import ProviderError
from atrium.sdk.errors import BadRequest, TooManyRequests
from atrium.sdk.services import services

PHONE = re.compile(r"^(\+?86)?1[3-9]\d{9}$")
EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,190}\.[A-Za-z]{2,}$")
CODE_TTL = 300
RESEND_SECONDS = 60
MAX_TRIES = 5


def check_target(channel: str, target: str) -> str:
    target = target.strip()
    if channel == "sms":
        if not target:
            raise BadRequest("login.phone_empty")
        if not PHONE.match(target):
            raise BadRequest("login.phone_invalid")
    else:
        if not target:
            raise BadRequest("login.email_empty")
        if not EMAIL.match(target):
            raise BadRequest("login.email_invalid")
    return target


def send(ticket: str, channel: str, target: str) -> None:
    """Send a code when the phone or e-mail belongs to exactly one member of the ticket's tenant; the
    answer is the same either way, so it tells nobody whose address it is."""
    record = flow.peek_ticket(ticket)
    if record is None:
        raise ProviderError("ticket_invalid")
    target = check_target(channel, target)
    cache = services().cache
    if cache.get(f"sso:code-sent:{channel}:{target}"):
        raise TooManyRequests("login.code_too_soon")
    cache.set(f"sso:code-sent:{channel}:{target}", 1, ttl=RESEND_SECONDS)
    if len(services().directory.members_with_contact(int(record["tenant"]), channel, target)) != 1:
        return
    code = "".join(secrets.choice(string.digits) for _ in range(6))
    cache.set(f"sso:code:{ticket}:{channel}:{target}", code, ttl=CODE_TTL)
    services().identity.send_code(channel, target, code)


def check(ticket: str, channel: str, target: str, code: str) -> None:
    target = check_target(channel, target)
    if not code.strip():
        raise BadRequest("login.code_empty")
    cache = services().cache
    key = f"sso:code:{ticket}:{channel}:{target}"
    expected = cache.get(key)
    tries = cache.incr(f"sso:code-tries:{ticket}", ttl=CODE_TTL)
    if expected is None or tries > MAX_TRIES or not hmac.compare_digest(str(expected), code.strip()):
        raise BadRequest("login.code_invalid")
    cache.delete(key)
