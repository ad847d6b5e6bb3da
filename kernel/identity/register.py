"""Self-registration and password reset by phone or e-mail code.

Both answer the same for known and unknown phones and addresses: a code is only ever delivered to its
owner, and the form is refused with the same message for a wrong, expired, spent or never-sent code."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from atrium.kernel import accounts, profiles
from atrium.kernel.identity import codes
from atrium.kernel.identity.dialcodes import foreign_number_message
from atrium.kernel.identity.models import SigninConfig
from atrium.kernel.identity.password_rule import rule_of
from atrium.kernel.identity.passwords import hash_password
from atrium.kernel.identity.service import EMAIL, PHONE, normalise_phone
from atrium.kernel.identity.sessions import revoke_user
from atrium.kernel.models import Membership, Tenant, User
from atrium.sdk.audit import record as audit_record
from atrium.sdk.context import unscoped
from atrium.sdk.db import session, utcnow
from atrium.sdk.errors import BadRequest, CodeInvalid, Conflict, Forbidden

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

ACCOUNT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{1,63}$")


def tenant_for(tenant_id: int | None, domain_name: str) -> Tenant | None:
    with unscoped():
        if tenant_id is not None:
            return session().get(Tenant, tenant_id)
        if domain_name:
            return session().execute(select(Tenant).where(Tenant.domain == domain_name)).scalar()
    return None


def config_of(tenant_id: int | None) -> SigninConfig:
    row = None
    if tenant_id is not None:
        with unscoped():
            row = session().get(SigninConfig, tenant_id)
    return row or _default(tenant_id)


def _default(tenant_id: int | None) -> SigninConfig:
    """The options of a tenant that never changed them: no self-registration, every mode offered."""
    return SigninConfig(
        tenant_id=tenant_id,
        allow_register=False,
        register_approval=False,
        qrcode_enabled=True,
        password_enabled=True,
        phone_code_enabled=True,
        email_code_enabled=True,
    )


def save_config(tenant_id: int, **values: bool) -> SigninConfig:
    db = session()
    with unscoped():
        row = db.get(SigninConfig, tenant_id)
        if row is None:
            row = _default(tenant_id)
            db.add(row)
        for key, value in values.items():
            setattr(row, key, value)
        db.flush()
    return row


def contact(channel: str, phone: str, email: str) -> tuple[str, str]:
    """The code channel and its target, checked: ("sms", 11 digits) or ("email", address)."""
    if channel == "phone":
        if not phone.strip():
            raise BadRequest("login.phone_empty")
        if not PHONE.match(phone.strip()):
            raise BadRequest(foreign_number_message(phone) or "login.phone_invalid")
        return "sms", normalise_phone(phone)
    if not email.strip():
        raise BadRequest("login.email_empty")
    if not EMAIL.match(email.strip()):
        raise BadRequest("login.email_invalid")
    return "email", email.strip()


def check_password(password: str, confirm: str, tenant_id: int | None) -> None:
    """The tenant's password rule (6 to 12 letters or digits by default); the two entries must match."""
    if not password:
        raise BadRequest("login.password_empty")
    rule_of(tenant_id).check(password)
    if not confirm:
        raise BadRequest("password.confirm_required")
    if confirm != password:
        raise BadRequest("password.not_match")


def _owners(channel: str, target: str) -> list[User]:
    column = User.mobile if channel == "sms" else User.email
    with unscoped():
        rows = session().execute(select(User).where(column == target, User.enabled.is_(True))).scalars()
        return list(rows)


def send_register_code(kernel: Kernel, channel: str, target: str) -> None:
    codes.send(kernel, "register", channel, target, deliver=True)


def send_reset_code(kernel: Kernel, channel: str, target: str) -> None:
    codes.send(kernel, "reset", channel, target, deliver=bool(_owners(channel, target)))


@dataclass
class Registration:
    account: str
    full_name: str
    channel: str
    target: str
    code: str
    password: str
    confirm: str
    agree: bool


def register(kernel: Kernel, tenant: Tenant | None, form: Registration) -> dict[str, Any]:
    if not form.agree:
        raise BadRequest("signin.agree_required")
    account = form.account.strip()
    if not account:
        raise BadRequest("login.account_empty")
    if not ACCOUNT.match(account):
        raise BadRequest("signin.account_invalid")
    if not form.full_name.strip():
        raise BadRequest("signin.name_empty")
    if not form.code.strip():
        raise BadRequest("login.code_empty")
    check_password(form.password, form.confirm, tenant.id if tenant else None)
    if tenant is None or not tenant.enabled or not config_of(tenant.id).allow_register:
        raise Forbidden("signin.register_closed")
    codes.check(kernel, "register", form.channel, form.target, form.code, spend=False)
    db = session()
    with unscoped():
        if db.execute(select(User.id).where(User.account == account)).first() is not None:
            raise Conflict("signin.account_taken")
    if _owners(form.channel, form.target):
        raise Conflict("signin.phone_taken" if form.channel == "sms" else "signin.email_taken")
    codes.spend_code(kernel, "register", form.channel, form.target)
    user = accounts.create_user(
        account,
        form.password,
        form.full_name.strip(),
        tenant.id,
        mobile=form.target if form.channel == "sms" else "",
        email=form.target if form.channel == "email" else "",
    )
    user.pwd_changed_at = utcnow()
    pending = config_of(tenant.id).register_approval
    if pending:
        with unscoped():
            member = db.execute(
                select(Membership).where(Membership.user_id == user.id, Membership.tenant_id == tenant.id)
            ).scalar_one()
            member.enabled = False
    db.flush()
    kernel.emit("user_registered", tenant_id=tenant.id, user_id=user.id, pending=pending)
    return {"userId": str(user.id), "account": account, "approval": "pending" if pending else "none"}


def pending_registrations(tenant_id: int) -> list[dict[str, Any]]:
    with unscoped():
        rows = session().execute(
            select(User)
            .join(Membership, Membership.user_id == User.id)
            .where(Membership.tenant_id == tenant_id, Membership.enabled.is_(False))
            .order_by(User.id)
        )
        return [
            {
                "userId": str(u.id),
                "account": u.account,
                "userFullName": u.full_name,
                "mobile": u.mobile,
                "email": u.email,
                "createdAt": u.created_at.isoformat(),
            }
            for u in rows.scalars()
        ]


def decide_registration(tenant_id: int, user_id: int, approve: bool) -> None:
    db = session()
    with unscoped():
        member = db.execute(
            select(Membership).where(
                Membership.user_id == user_id,
                Membership.tenant_id == tenant_id,
                Membership.enabled.is_(False),
            )
        ).scalar()
        if member is None:
            raise BadRequest("signin.registration_unknown")
        if approve:
            member.enabled = True
        else:
            db.delete(member)
            user = db.get(User, user_id)
            others = db.execute(select(Membership.id).where(Membership.user_id == user_id)).first()
            if user is not None and others is None:
                db.delete(user)
        db.flush()


def reset_password(
    kernel: Kernel,
    channel: str,
    target: str,
    code: str,
    password: str,
    confirm: str,
    account: str = "",
    tenant: Tenant | None = None,
) -> None:
    """`tenant`: the one whose sign-in page the reset comes from; its password rule applies."""
    if not code.strip():
        raise BadRequest("login.code_empty")
    check_password(password, confirm, tenant.id if tenant else None)
    codes.check(kernel, "reset", channel, target, code, spend=False)
    owners = _owners(channel, target)
    if account.strip():
        owners = [u for u in owners if u.account == account.strip()]
    if len(owners) > 1:
        raise BadRequest("signin.reset_account_needed")
    if not owners:
        raise CodeInvalid()
    codes.spend_code(kernel, "reset", channel, target)
    user = owners[0]
    user.password_hash = hash_password(password)
    user.pwd_changed_at = utcnow()
    user.must_change_pwd = False
    user.failed_count = 0
    user.lock_level = 0
    user.locked_until = None
    kernel.cache.delete(f"login-fail:{user.account.lower()}")
    revoke_user(session(), kernel, user.id, "password reset")
    profiles.invalidate_user(kernel, user.id)
    audit_record(
        "user.password.forgot",
        target_type="user",
        target_id=user.id,
        target_name=f"{user.full_name} ({user.account})" if user.full_name else user.account,
        after={"password": "reset", "by": channel},
        tenant_id=user.default_tenant_id,
        user_id=user.id,
        account=user.account,
    )
