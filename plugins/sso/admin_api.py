"""Administration of the current tenant's providers and linked identities."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, SecretStr, field_validator
from sqlalchemy import delete, select

from atrium.plugins.sso import service
from atrium.plugins.sso.models import SsoConfig, SsoIdentity
from atrium.sdk import audit
from atrium.sdk.context import current_tenant
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest, Conflict, NotFound
from atrium.sdk.routing import Router
from atrium.sdk.services import services
from atrium.sdk.types import PLUGIN_ID

router = Router("/api/third/admin")


def _offered(tenant_id: int) -> dict[str, service.Registered]:
    return {
        kind: reg
        for kind, reg in service.registry().items()
        if reg.plugin == service.PLUGIN or services().is_enabled(tenant_id, reg.plugin)
    }


@router.get("/providers", permission="admin")
def providers() -> list[dict[str, Any]]:
    """Provider kinds this tenant can configure, with the JSON schema of their settings."""
    return [
        {
            "kind": kind,
            "label": reg.provider.label,
            "plugin": reg.plugin,
            "modes": list(reg.provider.modes),
            "schema": reg.provider.settings_model.model_json_schema(),
        }
        for kind, reg in _offered(current_tenant()).items()
    ]


def _config_out(cfg: SsoConfig) -> dict[str, Any]:
    reg = service.registry().get(cfg.kind)
    settings = service.masked_settings(reg.provider.settings_model, cfg.settings or {}) if reg else {}
    return {
        "id": str(cfg.id),
        "code": cfg.code,
        "kind": cfg.kind,
        "name": cfg.name,
        "enabled": cfg.enabled,
        "sort": cfg.sort,
        "onUnknown": cfg.on_unknown,
        "redirectUri": cfg.redirect_uri,
        "settings": settings,
        "installed": reg is not None,
    }


@router.get("/configs", permission="admin")
def list_configs() -> list[dict[str, Any]]:
    """The tenant's provider configurations (secrets masked)."""
    rows = session().execute(select(SsoConfig).order_by(SsoConfig.sort, SsoConfig.id)).scalars().all()
    return [_config_out(r) for r in rows]


class ConfigIn(BaseModel):
    code: str = Field(min_length=1, max_length=64)
    kind: str = Field(min_length=1, max_length=64)
    name: str = Field(min_length=1, max_length=64)
    enabled: bool = True
    sort: int = Field(default=0, ge=0, le=9999)
    onUnknown: Literal["refuse", "create", "verify"] = "refuse"
    redirectUri: str = Field(default="", max_length=512)
    settings: dict[str, Any] = Field(default_factory=dict)

    @field_validator("code")
    @classmethod
    def _code(cls, v: str) -> str:
        if not PLUGIN_ID.match(v):
            raise ValueError("use lower-case letters, digits and single dashes")
        return v

    @field_validator("redirectUri")
    @classmethod
    def _uri(cls, v: str) -> str:
        if v and not v.startswith(("https://", "http://")):
            raise ValueError("must be an http(s) address")
        return v


@router.post("/configs/save", permission="admin", body=ConfigIn)
def save_config(body: ConfigIn) -> dict[str, Any]:
    """Add or update a provider configuration; its settings are validated by the provider's model."""
    reg = _offered(current_tenant()).get(body.kind)
    if reg is None:
        raise BadRequest("sso:provider_unknown", provider=body.kind)
    db = session()
    row = db.execute(select(SsoConfig).where(SsoConfig.code == body.code)).scalar()
    if row is not None and row.kind != body.kind:
        raise Conflict("sso:code_taken", provider=body.code)
    before = None if row is None else _snapshot(row)
    merged = service.merge_secrets(reg.provider.settings_model, body.settings, row.settings if row else {})
    model = reg.provider.settings_model.model_validate(merged)
    if row is None:
        row = SsoConfig(code=body.code, kind=body.kind)
        db.add(row)
    row.name = body.name.strip()
    row.enabled = body.enabled
    row.sort = body.sort
    row.on_unknown = body.onUnknown
    row.redirect_uri = body.redirectUri
    row.settings = service.stored_settings(model)
    db.flush()
    old, new = _without_secrets(row.kind, before, _snapshot(row))
    entry: dict[str, Any] = {"target_type": "sso_provider", "target_id": row.code, "target_name": row.name}
    if before is None:
        audit.record("sso.config.create", after=new, **entry)
    else:
        audit.record("sso.config.update", before=old, after=new, **entry)
    return _config_out(row)


def _snapshot(row: SsoConfig) -> dict[str, Any]:
    return {
        "code": row.code,
        "kind": row.kind,
        "name": row.name,
        "enabled": row.enabled,
        "sort": row.sort,
        "onUnknown": row.on_unknown,
        "redirectUri": row.redirect_uri,
        "settings": dict(row.settings or {}),
    }


def _without_secrets(
    kind: str, before: dict[str, Any] | None, after: dict[str, Any] | None
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The provider's secret settings (whatever their names) as markers: set, changed or removed."""
    reg = service.registry().get(kind)
    fields = reg.provider.settings_model.model_fields if reg else {}
    secret = [name for name, field in fields.items() if field.annotation is SecretStr]
    old = None if before is None else {**before, "settings": dict(before["settings"])}
    new = None if after is None else {**after, "settings": dict(after["settings"])}
    for name in secret:
        b = old["settings"].get(name) if old else None
        a = new["settings"].get(name) if new else None
        mb, ma = audit.secret_markers(b, a)
        if old and name in old["settings"]:
            old["settings"][name] = mb
        if new and name in new["settings"]:
            new["settings"][name] = ma
    return old, new


class CodeIn(BaseModel):
    code: str = Field(min_length=1, max_length=64)


@router.post("/configs/delete", permission="admin", body=CodeIn)
def delete_config(body: CodeIn) -> None:
    """Remove a provider configuration and the identities linked through it."""
    db = session()
    row = db.execute(select(SsoConfig).where(SsoConfig.code == body.code)).scalar()
    if row is None:
        raise NotFound("sso:config_not_found")
    before, _ = _without_secrets(row.kind, _snapshot(row), None)
    db.execute(delete(SsoIdentity).where(SsoIdentity.provider == row.code))
    db.delete(row)
    audit.record(
        "sso.config.delete",
        target_type="sso_provider",
        target_id=row.code,
        target_name=row.name,
        before=before,
    )


class IdentityQuery(BaseModel):
    provider: str = Field(default="", max_length=64)


@router.get("/identities", permission="admin", query=IdentityQuery)
def identities(query: IdentityQuery) -> list[dict[str, Any]]:
    """Identities linked to users of the tenant."""
    q = select(SsoIdentity).order_by(SsoIdentity.id)
    if query.provider:
        q = q.where(SsoIdentity.provider == query.provider)
    rows = session().execute(q).scalars().all()
    people = services().directory.users(r.user_id for r in rows)
    users = {uid: {"account": p.account, "userFullName": p.full_name} for uid, p in people.items()}
    return [
        {
            "id": str(r.id),
            "provider": r.provider,
            "subject": r.subject,
            "userId": r.user_id,
            "displayName": r.display_name,
            "email": r.email,
            "createdOnSignIn": r.owns_user,
            "lastLoginAt": r.last_login_at,
            **users.get(r.user_id, {}),
        }
        for r in rows
    ]


class LinkIn(BaseModel):
    provider: str = Field(min_length=1, max_length=64)
    subject: str = Field(min_length=1, max_length=255)
    userId: int


@router.post("/identities/link", permission="admin", body=LinkIn)
def link(body: LinkIn) -> dict[str, str]:
    """Link a provider's subject to a user of the tenant."""
    tenant_id = current_tenant()
    db = session()
    if db.execute(select(SsoConfig.id).where(SsoConfig.code == body.provider)).first() is None:
        raise NotFound("sso:config_not_found")
    if not service.is_member(body.userId, tenant_id):
        raise NotFound("sso:user_not_found")
    subject = body.subject.strip()
    taken = db.execute(
        select(SsoIdentity).where(SsoIdentity.provider == body.provider, SsoIdentity.subject == subject)
    ).scalar()
    if taken is not None:
        raise Conflict("sso:identity_taken")
    row = SsoIdentity(provider=body.provider, subject=subject, user_id=body.userId)
    db.add(row)
    db.flush()
    audit.record(
        "sso.identity.link",
        target_type="user",
        target_id=body.userId,
        target_name=_person(body.userId),
        after={"provider": body.provider, "subject": subject},
    )
    return {"id": str(row.id)}


class IdIn(BaseModel):
    id: int


@router.post("/identities/unlink", permission="admin", body=IdIn)
def unlink(body: IdIn) -> None:
    """Remove a link; the person can no longer sign in through that provider."""
    db = session()
    row = db.get(SsoIdentity, body.id)
    if row is None or row.tenant_id != current_tenant():
        raise NotFound("sso:identity_not_found")
    db.delete(row)
    audit.record(
        "sso.identity.unlink",
        target_type="user",
        target_id=row.user_id,
        target_name=_person(row.user_id),
        before={"provider": row.provider, "subject": row.subject},
    )


def _person(user_id: int) -> str:
    person = services().directory.users([user_id]).get(user_id)
    if person is None:
        return ""
    return f"{person.full_name} ({person.account})" if person.full_name else person.account
