"""The console's own routes (`/api/admin`): audit trail, failed sign-ins, tenant profiles, country list.

A new tenant comes with its profile and systems in one transaction. Tenants, users, roles, menus, systems,
settings and sign-in options are the sibling modules' routes (`/api/base/admin`), served by the kernel's
administration service, whose writes reach the audit trail through ``admin.audit`` events.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints, field_validator, model_validator

from atrium.plugins.admin import service
from atrium.plugins.admin.countries import DIAL_CODES, countries
from atrium.sdk.context import current_user
from atrium.sdk.errors import BadRequest, Forbidden
from atrium.sdk.routing import Router
from atrium.sdk.services import services

router = Router("/api/admin")

PHONE = r"^\+?[0-9][0-9 -]{4,30}$"
EMAIL = r"^[^@\s]+@[^@\s]+\.[^@\s]+$"
Text = Annotated[str, StringConstraints(strip_whitespace=True, max_length=64)]


def audit_tenant(requested: int | None) -> int | None:
    """Super administrators read every tenant's records (or one); supervisors only their own tenant's."""
    su = current_user()
    if su.is_super_admin:
        return requested
    if requested is not None and requested != su.tenant_id:
        raise Forbidden()
    return su.tenant_id


class AuditQuery(BaseModel):
    tenantId: int | None = None
    keyword: str = Field(default="", max_length=64)
    action: str = Field(default="", max_length=64)
    #: the person who acted
    userId: int | None = None
    #: local dates, both included
    dateFrom: date | None = None
    dateTo: date | None = None
    #: minutes from the reader's local time to UTC (a browser's `getTimezoneOffset()`)
    tzOffset: int = Field(default=0, ge=-16 * 60, le=16 * 60)
    pageIndex: int = Field(default=1, ge=1, le=100_000)
    pageRows: int = Field(default=20, ge=1, le=100)

    def to_filter(self) -> service.AuditFilter:
        return service.AuditFilter(
            tenant_id=audit_tenant(self.tenantId),
            keyword=self.keyword,
            action=self.action,
            user_id=self.userId,
            date_from=self.dateFrom,
            date_to=self.dateTo,
            tz_offset=self.tzOffset,
        )


@router.get("/audit", permission="admin", query=AuditQuery)
def audit(query: AuditQuery) -> dict[str, Any]:
    """One page of the audit trail (newest first), searched by account, action, object id or name, and
    filtered by action, person and dates. Each record comes with its words in the request's language: who
    (`who`, `userFullName`), what (`actionText`), which object (`targetTypeText`, `targetLabel`), a sentence
    (`summary`) and the changed fields (`changes`: field, label, before, after; `changesText`)."""
    return service.audit_page(query.to_filter(), query.pageIndex, query.pageRows)


@router.get("/audit/export", permission="admin", query=AuditQuery)
def audit_export(query: AuditQuery) -> dict[str, str]:
    """The matching audit records as CSV (`fileName`, `content`), in words in the request's language."""
    return {"fileName": "audit.csv", "content": service.audit_csv(query.to_filter())}


class AuditScope(BaseModel):
    tenantId: int | None = None


@router.get("/audit/actions", permission="admin", query=AuditScope)
def audit_actions(query: AuditScope) -> list[dict[str, str]]:
    """The action codes with their words (`action`, `text`), for the action filter."""
    return service.audit_actions(audit_tenant(query.tenantId))


@router.get("/audit/people", permission="admin", query=AuditScope)
def audit_people(query: AuditScope) -> list[dict[str, Any]]:
    """The people the trail names (`userId`, `account`, `userFullName`, `label`), for the person filter."""
    return service.audit_people(audit_tenant(query.tenantId))


class FailureQuery(BaseModel):
    tenantId: int | None = None
    keyword: str = Field(default="", max_length=64)
    pageIndex: int = Field(default=1, ge=1, le=100_000)
    pageRows: int = Field(default=20, ge=1, le=100)


@router.get("/signin-failures", permission="admin", query=FailureQuery)
def signin_failures(query: FailureQuery) -> dict[str, Any]:
    """One page of failed sign-ins (newest first) with the lockouts they started, searched by account, IP,
    mode or reason. Super administrators see every tenant's (and unknown accounts'); supervisors their own."""
    tid = audit_tenant(query.tenantId)
    return service.failures_page(tid, query.keyword, query.pageIndex, query.pageRows)


@router.get("/countries", permission="admin")
def country_list() -> list[dict[str, Any]]:
    """The country dial codes with their names in the five languages."""
    return countries()


class ProfileIn(BaseModel):
    tenantId: int = Field(ge=1, le=2**53)
    companyName: str
    contact: Text = ""
    contactPhone: str = ""
    contactEmail: str = ""
    tenantType: Text = ""
    enterpriseCode: Annotated[
        str, StringConstraints(strip_whitespace=True, max_length=64, pattern=r"^[A-Za-z0-9-]*$")
    ] = ""
    country: str = ""
    state: Text = ""
    effectiveDate: date | None = None
    expirationDate: date | None = None
    size: int = Field(default=0, ge=0, le=10_000_000)

    @field_validator("companyName", mode="before")
    @classmethod
    def _company(cls, v: Any) -> Any:
        if not isinstance(v, str) or not 1 <= len(v.strip()) <= 16:
            raise BadRequest("tenant.name_length")
        return v.strip()

    @field_validator("contactPhone", mode="before")
    @classmethod
    def _phone(cls, v: Any) -> Any:
        import re

        if isinstance(v, str) and v.strip() and not re.match(PHONE, v.strip()):
            raise BadRequest("admin:phone_invalid")
        return v.strip() if isinstance(v, str) else v

    @field_validator("contactEmail", mode="before")
    @classmethod
    def _email(cls, v: Any) -> Any:
        import re

        if isinstance(v, str) and v.strip() and (len(v.strip()) > 128 or not re.match(EMAIL, v.strip())):
            raise BadRequest("admin:email_invalid")
        return v.strip() if isinstance(v, str) else v

    @field_validator("country")
    @classmethod
    def _country(cls, v: str) -> str:
        if v and v not in DIAL_CODES:
            raise BadRequest("admin:country_invalid")
        return v

    @model_validator(mode="after")
    def _dates(self) -> ProfileIn:
        if self.effectiveDate is None:
            raise BadRequest("admin:effective_required")
        if self.expirationDate is None:
            raise BadRequest("admin:expiration_required")
        if self.expirationDate <= self.effectiveDate:
            raise BadRequest("admin:expiration_after")
        return self


@router.get("/tenant-profiles", permission="super-admin")
def tenant_profiles() -> list[dict[str, Any]]:
    """Every tenant's company and contact details, approval state and validity."""
    return service.profiles()


@router.post("/tenant-profiles", permission="super-admin", body=ProfileIn)
def save_tenant_profile(body: ProfileIn) -> dict[str, Any]:
    """Create or update a tenant's profile (validated as the spec says)."""
    return service.save_profile(body.tenantId, body.model_dump(exclude={"tenantId"}))


@router.post("/tenant-profiles/check", permission="super-admin", body=ProfileIn)
def check_tenant_profile(body: ProfileIn) -> None:
    """Check a profile without saving it (the tenant form checks before it creates the tenant)."""


class SystemOfferIn(BaseModel):
    systemCode: str = Field(min_length=1, max_length=64)
    systemTitle: str | None = Field(default=None, max_length=128)
    themeColor: str | None = Field(default=None, pattern=r"^(#[0-9A-Fa-f]{6})?$")
    systemLogo: str | None = Field(default=None, max_length=512)
    iconUrl: str | None = Field(default=None, max_length=512)


class NewTenantIn(ProfileIn):
    tenantName: str
    domain: str = Field(default="", max_length=128)
    parentTenantId: int | None = None
    systems: list[SystemOfferIn] = Field(default_factory=list, max_length=100)

    @field_validator("tenantName", mode="before")
    @classmethod
    def _name(cls, v: Any) -> Any:
        if not isinstance(v, str) or not 1 <= len(v.strip()) <= 16:
            raise BadRequest("tenant.name_length")
        return v.strip()


@router.post("/tenants", permission="super-admin", body=NewTenantIn)
def create_tenant(body: NewTenantIn) -> dict[str, Any]:
    """Create a tenant with its profile and the systems offered to it (with their branding), all in the
    request's one transaction: when any part fails (an unknown system, a taken id) nothing is written."""
    created = services().identity.create_tenant(
        {
            "tenantId": body.tenantId,
            "tenantName": body.tenantName,
            "domain": body.domain,
            "parentTenantId": body.parentTenantId,
            "systems": [s.model_dump() for s in body.systems],
        }
    )
    profile = service.save_profile(body.tenantId, body.model_dump(include=set(service.PROFILE_FIELDS)))
    return {**created, "profile": profile}


class ApprovalIn(BaseModel):
    tenantId: int
    approvalState: Literal["pending", "approved", "rejected"]


@router.post("/tenant-profiles/approval", permission="super-admin", body=ApprovalIn)
def set_approval(body: ApprovalIn) -> dict[str, Any]:
    """Approve or reject a tenant."""
    return service.set_approval(body.tenantId, body.approvalState)
