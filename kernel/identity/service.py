"""Sign-in: password, phone and e-mail codes, captcha, lockout, and what a successful login answers."""

from __future__ import annotations

import base64
import re
import secrets
import string
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any, cast

import structlog
from captcha.image import ImageCaptcha
from sqlalchemy import Table, bindparam, insert, select

from atrium.kernel.identity import modes
from atrium.kernel.identity.passwords import hash_password, needs_rehash, verify_password
from atrium.kernel.identity.sessions import TokenPair, issue_tokens, lifetimes
from atrium.kernel.models import DEFAULT_SYSTEM, LoginLog, Membership, Tenant, User
from atrium.sdk.context import current_context, unscoped
from atrium.sdk.db import session, utcnow
from atrium.sdk.errors import BadRequest, CaptchaRequired, CodeInvalid, LoginFailed, TooManyRequests

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

log = structlog.get_logger("atrium.identity")
PHONE = re.compile(r"^(\+?86)?1[3-9]\d{9}$")
EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,190}\.[A-Za-z]{2,}$")
CAPTCHA_TTL = 300
CODE_TTL = 300
CODE_RESEND = 60
FAILURE_WINDOW = timedelta(hours=12)
LOCK_STEPS_MIN = (1, 2, 4, 8, 15)


def normalise_phone(phone: str) -> str:
    """A mainland number as its 11 digits, however the country code was written (+86, 86 or none)."""
    phone = phone.strip()
    return phone[-11:] if PHONE.match(phone) else phone


@dataclass
class LoginResult:
    pair: TokenPair
    user: User
    tenant: Tenant
    is_supervisor: bool
    system_code: str
    lifetimes: dict[str, int]

    def answer(self) -> dict[str, Any]:
        return {
            "authorization": self.pair.access,
            "refresh-authorization": self.pair.refresh,
            **self.lifetimes,
            "isSuperAdmin": 1 if self.user.is_super_admin else 0,
            "isAdmin": 2 if self.is_supervisor else 0,
            "userId": self.user.id,
            "tenantId": self.tenant.id,
            "tenantName": self.tenant.name,
            "userFullName": self.user.full_name,
            "lang": self.user.lang,
            "systemCode": self.system_code,
        }


def new_captcha(kernel: Kernel) -> dict[str, str]:
    code = "".join(secrets.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(4))
    cid = secrets.token_urlsafe(12)
    kernel.cache.set(f"captcha:{cid}", code, ttl=CAPTCHA_TTL)
    png = ImageCaptcha(width=120, height=40, font_sizes=(28, 30, 32)).generate(code, format="png").getvalue()
    return {"captchaId": cid, "image": "data:image/png;base64," + base64.b64encode(png).decode()}


def check_captcha(kernel: Kernel, cid: str | None, code: str | None) -> None:
    if not cid or not code:
        raise CaptchaRequired()
    expected = kernel.cache.pop(f"captcha:{cid}")
    if expected is None or expected.upper() != code.strip().upper():
        raise CaptchaRequired("login.captcha_wrong")


def send_code(kernel: Kernel, channel: str, target: str) -> None:
    """Send a six-digit code by SMS or e-mail; the dev sender writes it to the log and the outbox."""
    if kernel.cache.get(f"code-sent:{channel}:{target}"):
        raise TooManyRequests("login.code_too_soon")
    with unscoped():
        column = User.mobile if channel == "sms" else User.email
        exists = session().execute(select(User.id).where(column == target, User.enabled.is_(True))).first()
    kernel.cache.set(f"code-sent:{channel}:{target}", 1, ttl=CODE_RESEND)
    if exists is None:
        return  # same answer whether or not the number or address belongs to someone
    code = "".join(secrets.choice(string.digits) for _ in range(6))
    kernel.cache.set(f"code:{channel}:{target}", code, ttl=CODE_TTL)
    kernel.cache.delete(f"code-tries:{channel}:{target}")  # a new code gets its own five tries
    kernel.codes.send(channel, target, code)


def check_code(kernel: Kernel, channel: str, target: str, code: str) -> None:
    key = f"code:{channel}:{target}"
    expected = kernel.cache.get(key)
    tries = kernel.cache.incr(f"code-tries:{channel}:{target}", ttl=CODE_TTL)
    if expected is None or tries > 5 or not secrets.compare_digest(str(expected), code.strip()):
        if tries >= 5:
            kernel.cache.delete(key)  # five wrong tries spend the code
        raise CodeInvalid()
    kernel.cache.delete(key)
    kernel.cache.delete(f"code-tries:{channel}:{target}")


def _record_failure(kernel: Kernel, user: User | None) -> None:
    if user is None:
        return
    now = utcnow()
    if user.last_failed_at and now - user.last_failed_at > FAILURE_WINDOW:
        user.failed_count = 0
        user.lock_level = 0
    user.failed_count += 1
    user.last_failed_at = now
    if user.failed_count >= kernel.settings.login_max_failures:
        minutes = LOCK_STEPS_MIN[min(user.lock_level, len(LOCK_STEPS_MIN) - 1)]
        user.locked_until = now + timedelta(minutes=minutes)
        user.lock_level += 1


def report_failure(kernel: Kernel, account: str, user: User | None, mode: str, reason: str) -> None:
    """Tells the plugins of a refused sign-in (`login.failed`), in the sign-in's own transaction: the
    administration console keeps the failed sign-ins and lockouts from these."""
    locked = user.locked_until if user is not None and _locked(user) else None
    kernel.emit(
        "login.failed",
        tenant_id=user.default_tenant_id if user is not None else None,
        user_id=user.id if user is not None else None,
        account=account[:128],
        mode=mode,
        reason=reason,
        lockedUntil=locked.isoformat() if locked else None,
    )


def _locked(user: User) -> bool:
    if user.last_failed_at and utcnow() - user.last_failed_at > FAILURE_WINDOW:
        return False
    return bool(user.locked_until and user.locked_until > utcnow())


def password_login(
    kernel: Kernel, account: str, ciphertext: str, captcha_id: str | None, captcha_code: str | None
) -> LoginResult:
    account = account.strip()
    fail_key = f"login-fail:{account.lower()}"
    failures = int(kernel.cache.get(fail_key) or 0)
    if failures >= kernel.settings.captcha_after_failures:
        check_captcha(kernel, captcha_id, captcha_code)
    password = kernel.crypto.decrypt_password(ciphertext).strip()
    db = session()
    with unscoped():
        user = db.execute(select(User).where(User.account == account)).scalar()
    ok = verify_password(user.password_hash if user else "", password)
    if user is None or not ok or not user.enabled or _locked(user):
        locked_before = user is not None and _locked(user)
        _record_failure(kernel, user if (user and not ok) else None)
        reason = (
            "unknown" if user is None else "locked" if locked_before else "password" if not ok else "disabled"
        )
        report_failure(kernel, account, user, "account", reason)
        kernel.cache.set(
            fail_key, int(kernel.cache.get(fail_key) or 0) + 1, ttl=FAILURE_WINDOW.total_seconds()
        )
        db.commit()
        raise LoginFailed()
    if failures:
        kernel.cache.delete(fail_key)
    if needs_rehash(user.password_hash):
        user.password_hash = hash_password(password)
    return complete_login(kernel, user, mode="account")


def code_login(kernel: Kernel, channel: str, target: str, code: str) -> LoginResult:
    check_code(kernel, channel, target, code)
    with unscoped():
        column = User.mobile if channel == "sms" else User.email
        user = session().execute(select(User).where(column == target, User.enabled.is_(True))).scalar()
    if user is None:
        report_failure(kernel, target, None, "phone" if channel == "sms" else "email", "unknown")
        session().commit()
        raise LoginFailed()
    return complete_login(kernel, user, mode="phone" if channel == "sms" else "email")


#: a user's enabled memberships of enabled tenants, newest tenant first (built once: every sign-in asks)
MEMBERSHIPS = (
    select(Tenant, Membership)
    .join(Membership, Membership.tenant_id == Tenant.id)
    .where(Membership.user_id == bindparam("user_id"), Membership.enabled.is_(True), Tenant.enabled.is_(True))
    .order_by(Tenant.id.desc())
)


def pick_membership(user: User, tenant_id: int | None = None) -> tuple[Tenant, Membership]:
    db = session()
    with unscoped():
        rows = db.execute(MEMBERSHIPS, {"user_id": user.id}).all()
    if not rows:
        raise LoginFailed()
    wanted = tenant_id if tenant_id is not None else user.default_tenant_id
    for tenant, member in rows:
        if tenant.id == wanted:
            return tenant, member
    if tenant_id is not None:
        raise LoginFailed()
    tenant, member = rows[0]
    return tenant, member


def offered_systems(kernel: Kernel, tenant_id: int) -> set[str]:
    """The codes of the systems the tenant offers, as the directory keeps them."""
    return {s.code for s in kernel.directory.systems(tenant_id)}


#: the login log's row, written past the unit of work (every sign-in writes one); it names its tenant
_INSERT_LOGIN_LOG = insert(cast(Table, LoginLog.__table__))


def complete_login(
    kernel: Kernel,
    user: User,
    tenant_id: int | None = None,
    system_code: str | None = None,
    mode: str | None = None,
) -> LoginResult:
    """Issue the session; `mode` (account, phone or email) must be one the tenant signed in to offers."""
    db = session()
    tenant, member = pick_membership(user, tenant_id)
    if mode is not None:
        modes.require(tenant.id, mode)
    system = system_code or user.default_system_code or DEFAULT_SYSTEM
    if system != DEFAULT_SYSTEM and system not in offered_systems(kernel, tenant.id):
        system = DEFAULT_SYSTEM  # a system the tenant does not offer would leave the user with no menus
    if user.failed_count or user.lock_level or user.locked_until is not None:  # else nothing to flush
        user.failed_count = 0
        user.lock_level = 0
        user.locked_until = None
    pair = issue_tokens(db, kernel, user.id, tenant.id, system)
    ctx = current_context()
    db.connection().execute(
        _INSERT_LOGIN_LOG,
        {
            "tenant_id": tenant.id,
            "user_id": user.id,
            "at": utcnow(),
            "ip": ctx.client_ip,
            "user_agent": ctx.user_agent,
        },
    )
    kernel.emit("login", tenant_id=tenant.id, user_id=user.id, system_code=system, user_name=user.full_name)
    return LoginResult(pair, user, tenant, member.is_supervisor, system, lifetimes(kernel.settings))


def decode_magic(value: str) -> str:
    """The change-password fields arrive base64-encoded."""
    try:
        return base64.b64decode(value, validate=True).decode("utf-8")
    except (ValueError, UnicodeDecodeError) as exc:
        raise BadRequest("password.bad_encoding") from exc


class LogCodeSender:
    """Writes codes to the log and, in development, to an outbox the tests and the demo can read."""

    def __init__(self, keep: bool) -> None:
        self.keep = keep
        self.outbox: list[dict[str, str]] = []

    def send(self, channel: str, target: str, code: str) -> None:
        log.info("verification code", channel=channel, target=target, code=code if self.keep else "******")
        if self.keep:
            self.outbox.append({"channel": channel, "target": target, "code": code})
            del self.outbox[:-100]
