"""Verification codes for registering and resetting a password: six digits, single use, five minutes,
five tries, a minute between two sends to the same target, and send limits per target and per address."""

from __future__ import annotations

import secrets
import string
from typing import TYPE_CHECKING

from atrium.sdk.context import current_context
from atrium.sdk.errors import CodeInvalid, TooManyRequests

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

CODE_TTL = 300
RESEND_SECONDS = 60
TRIES = 5
PER_TARGET_PER_DAY = 10
PER_IP_PER_HOUR = 30
DAY = 24 * 3600
HOUR = 3600


def _key(purpose: str, channel: str, target: str) -> str:
    return f"{purpose}:{channel}:{target.lower()}"


def send(kernel: Kernel, purpose: str, channel: str, target: str, deliver: bool) -> None:
    """Send a code to `target` unless a limit is reached. `deliver` False sends nothing but answers the
    same and counts the same, so a caller cannot tell whether the target belongs to someone."""
    key = _key(purpose, channel, target)
    if kernel.cache.get(f"code-sent:{key}"):
        raise TooManyRequests("login.code_too_soon")
    ip = current_context().client_ip or "-"
    if kernel.cache.incr(f"code-ip:{purpose}:{ip}", ttl=HOUR) > PER_IP_PER_HOUR:
        raise TooManyRequests("signin.code_limit")
    if kernel.cache.incr(f"code-day:{key}", ttl=DAY) > PER_TARGET_PER_DAY:
        raise TooManyRequests("signin.code_limit")
    kernel.cache.set(f"code-sent:{key}", 1, ttl=RESEND_SECONDS)
    if not deliver:
        return
    code = "".join(secrets.choice(string.digits) for _ in range(6))
    kernel.cache.set(f"code:{key}", code, ttl=CODE_TTL)
    kernel.cache.delete(f"code-tries:{key}")
    kernel.codes.send(channel, target, code)


def check(kernel: Kernel, purpose: str, channel: str, target: str, code: str, spend: bool = True) -> None:
    """Raise `CodeInvalid` unless `code` is the live code of `target` for `purpose`; a right code is spent
    unless `spend` is False (the caller spends it once the rest of the form is accepted)."""
    key = _key(purpose, channel, target)
    expected = kernel.cache.get(f"code:{key}")
    tries = kernel.cache.incr(f"code-tries:{key}", ttl=CODE_TTL)
    if expected is None or tries > TRIES or not secrets.compare_digest(str(expected), code.strip()):
        if tries >= TRIES:
            kernel.cache.delete(f"code:{key}")
        raise CodeInvalid()
    if spend:
        spend_code(kernel, purpose, channel, target)


def spend_code(kernel: Kernel, purpose: str, channel: str, target: str) -> None:
    """Spend a checked code; of two requests racing with the same code only one gets through."""
    key = _key(purpose, channel, target)
    kernel.cache.delete(f"code-tries:{key}")
    if kernel.cache.pop(f"code:{key}") is None:
        raise CodeInvalid()
