"""Domain-account sign-in against a tenant's LDAP or Active Directory server (ldap3).

The service account finds the entry with the configured filter (the typed account escaped, so it
cannot change the filter), then the entry's own DN is bound with the typed password. An empty
password is refused before any bind (an LDAP bind without a password is an anonymous bind that
succeeds). The first sign-in creates the user, or links the tenant's member with the same account."""

from __future__ import annotations

import base64
import hashlib
import secrets
import ssl
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cryptography.fernet import Fernet, InvalidToken
from sqlalchemy import select

from atrium.kernel import accounts
from atrium.kernel.identity.models import LdapConfig, LdapLink
from atrium.kernel.identity.service import LoginResult, complete_login
from atrium.kernel.models import Membership, Tenant, User
from atrium.sdk.context import unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import AtriumError, BadRequest, LoginFailed, TooManyRequests

with warnings.catch_warnings():  # ldap3 2.9 imports names pyasn1 has since renamed (a DeprecationWarning)
    warnings.simplefilter("ignore", DeprecationWarning)
    from ldap3 import NONE, SUBTREE, Connection, Server, Tls
    from ldap3.core.exceptions import LDAPException
    from ldap3.utils.conv import escape_filter_chars

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

DEFAULT_ATTRIBUTES = {"account": "uid", "name": "cn", "email": "mail", "phone": "telephoneNumber"}
FAILURES_BEFORE_PAUSE = 10
FAILURE_WINDOW = 900


class DirectoryUnavailable(AtriumError):
    code = 1006
    key = "signin.ldap_unreachable"


def _box(kernel: Kernel) -> Fernet:
    digest = hashlib.sha256(f"ldap-bind-password:{kernel.settings.secret_key}".encode()).digest()
    return Fernet(base64.urlsafe_b64encode(digest))


def seal(kernel: Kernel, password: str) -> str:
    return _box(kernel).encrypt(password.encode()).decode() if password else ""


def unseal(kernel: Kernel, sealed: str) -> str:
    if not sealed:
        return ""
    try:
        return _box(kernel).decrypt(sealed.encode()).decode()
    except InvalidToken as exc:  # the secret key changed since the password was saved
        raise DirectoryUnavailable("signin.ldap_config_invalid") from exc


def attributes_of(cfg: LdapConfig) -> dict[str, str]:
    return {**DEFAULT_ATTRIBUTES, **{k: v for k, v in (cfg.attributes or {}).items() if v}}


def user_filter(cfg: LdapConfig, account: str) -> str:
    return cfg.user_filter.replace("{account}", escape_filter_chars(account))


@dataclass
class Entry:
    dn: str
    values: dict[str, str]


def _open(kernel: Kernel, cfg: LdapConfig, dn: str, password: str) -> Connection | None:
    """A bound connection, or None when the server refuses the credentials."""
    ldaps = cfg.server_url.lower().startswith("ldaps://")
    tls = Tls(validate=ssl.CERT_REQUIRED) if ldaps or cfg.start_tls else None
    server = Server(cfg.server_url, use_ssl=ldaps, tls=tls, get_info=NONE, connect_timeout=cfg.timeout)
    conn = Connection(
        server,
        user=dn or None,
        password=password or None,
        receive_timeout=cfg.timeout,
        auto_referrals=False,
        raise_exceptions=False,
    )
    conn.open()
    if cfg.start_tls and not conn.start_tls():
        conn.unbind()
        raise DirectoryUnavailable("signin.ldap_unreachable")
    if not conn.bind():
        conn.unbind()
        return None
    return conn


def find_entry(kernel: Kernel, cfg: LdapConfig, account: str) -> Entry | None:
    """The one entry the filter finds for `account` (None for none or several)."""
    attrs = attributes_of(cfg)
    try:
        svc = _open(kernel, cfg, cfg.bind_dn, unseal(kernel, cfg.bind_password))
        if svc is None:
            raise DirectoryUnavailable("signin.ldap_service_bind")
        try:
            svc.search(
                cfg.search_base,
                user_filter(cfg, account),
                SUBTREE,
                attributes=sorted(set(attrs.values())),
                size_limit=2,
                time_limit=cfg.timeout,
            )
            found = [e for e in svc.response or [] if e.get("type") == "searchResEntry"]
        finally:
            svc.unbind()
    except LDAPException as exc:
        raise DirectoryUnavailable("signin.ldap_unreachable") from exc
    if len(found) != 1:
        return None
    raw: dict[str, Any] = found[0].get("attributes") or {}
    values: dict[str, str] = {}
    for field, name in attrs.items():
        value = raw.get(name)
        if isinstance(value, list):
            value = value[0] if value else ""
        values[field] = str(value or "")
    return Entry(str(found[0]["dn"]), values)


def check_password(kernel: Kernel, cfg: LdapConfig, dn: str, password: str) -> bool:
    if not password:
        return False  # an empty password would be an anonymous bind
    try:
        conn = _open(kernel, cfg, dn, password)
    except LDAPException as exc:
        raise DirectoryUnavailable("signin.ldap_unreachable") from exc
    if conn is None:
        return False
    conn.unbind()
    return True


def test_connection(kernel: Kernel, cfg: LdapConfig) -> dict[str, Any]:
    """Bind with the service account and read the search base: what the configuration screen's test shows."""
    try:
        svc = _open(kernel, cfg, cfg.bind_dn, unseal(kernel, cfg.bind_password))
        if svc is None:
            raise DirectoryUnavailable("signin.ldap_service_bind")
        try:
            ok = svc.search(cfg.search_base, "(objectClass=*)", SUBTREE, attributes=[], size_limit=1000)
            count = len([e for e in svc.response or [] if e.get("type") == "searchResEntry"])
        finally:
            svc.unbind()
    except LDAPException as exc:
        raise DirectoryUnavailable("signin.ldap_unreachable") from exc
    if not ok and not count:
        raise DirectoryUnavailable("signin.ldap_base_missing")
    return {"ok": True, "entries": count}


def domains(tenant_id: int | None) -> list[str]:
    if tenant_id is None:
        return []
    with unscoped():
        rows = session().execute(
            select(LdapConfig.domain)
            .where(LdapConfig.tenant_id == tenant_id, LdapConfig.enabled.is_(True))
            .order_by(LdapConfig.domain)
        )
        return list(rows.scalars())


def _config(tenant: Tenant | None, domain: str) -> LdapConfig:
    cfg = None
    if tenant is not None:
        with unscoped():
            cfg = (
                session()
                .execute(
                    select(LdapConfig).where(
                        LdapConfig.tenant_id == tenant.id,
                        LdapConfig.domain == domain,
                        LdapConfig.enabled.is_(True),
                    )
                )
                .scalar()
            )
    if cfg is None:
        raise BadRequest("signin.ldap_unknown_domain")
    return cfg


def _free_account(wanted: str, domain: str) -> str:
    db = session()
    for candidate in (wanted, f"{wanted}@{domain}", f"{wanted}@{domain}-{secrets.token_hex(3)}"):
        candidate = candidate[:64]
        if db.execute(select(User.id).where(User.account == candidate)).first() is None:
            return candidate
    raise BadRequest("signin.account_taken")


def _user_for(cfg: LdapConfig, entry: Entry, typed: str) -> User:
    """The linked user; on the first sign-in the tenant's member with the same account, or a new user."""
    db = session()
    key = entry.dn.lower()[:255]
    with unscoped():
        link = db.execute(
            select(LdapLink).where(LdapLink.config_id == cfg.id, LdapLink.entry_key == key)
        ).scalar()
        user = db.get(User, link.user_id) if link else None
        if user is None:
            account = entry.values.get("account") or typed
            same = db.execute(
                select(User)
                .join(Membership, Membership.user_id == User.id)
                .where(User.account == account, Membership.tenant_id == cfg.tenant_id)
                .where(User.is_super_admin.is_(False))
            ).scalar()
            if same is not None:
                user = same
            else:
                phone = entry.values.get("phone", "")
                user = accounts.create_user(
                    _free_account(account, cfg.domain),
                    secrets.token_urlsafe(24)[:32],
                    (entry.values.get("name") or account)[:64],
                    cfg.tenant_id,
                    email=entry.values.get("email", "")[:128],
                    mobile=phone if len(phone) <= 32 else "",
                )
                user.password_hash = ""  # signs in through the directory only
            if link is None:
                db.add(LdapLink(tenant_id=cfg.tenant_id, config_id=cfg.id, entry_key=key, user_id=user.id))
            else:
                link.user_id = user.id
            db.flush()
        elif entry.values.get("name") and user.full_name != entry.values["name"][:64]:
            user.full_name = entry.values["name"][:64]
    return user


def login(kernel: Kernel, tenant: Tenant | None, domain: str, account: str, password: str) -> LoginResult:
    cfg = _config(tenant, domain)
    account = account.strip()
    fail_key = f"ldap-fail:{cfg.id}:{account.lower()}"
    if int(kernel.cache.get(fail_key) or 0) >= FAILURES_BEFORE_PAUSE:
        raise TooManyRequests("signin.ldap_paused")
    entry = find_entry(kernel, cfg, account)
    if entry is None or not check_password(kernel, cfg, entry.dn, password):
        kernel.cache.incr(fail_key, ttl=FAILURE_WINDOW)
        raise LoginFailed()
    kernel.cache.delete(fail_key)
    user = _user_for(cfg, entry, account)
    if not user.enabled:
        raise LoginFailed()
    return complete_login(kernel, user, cfg.tenant_id)
