"""The message service's HTTP API (`/api/message`): the inbox calls of the shell and the admin screen's."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, Field, StringConstraints, model_validator

from atrium.plugins.message import service, unread
from atrium.sdk.context import current_user
from atrium.sdk.flight import Flight
from atrium.sdk.routing import Router
from atrium.sdk.services import services

router = Router("/api/message")
INBOX = "/iotBaseMessageLogController"

SystemCode = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64)]
Id = Annotated[int, Field(ge=1, le=2**63 - 1)]


def _listify(value: Any) -> Any:
    """`"a,b"` or `"a"` as a list; None as an empty list."""
    if value is None:
        return []
    if isinstance(value, str):
        return [v for v in (p.strip() for p in value.split(",")) if v]
    return value


SystemCodes = Annotated[list[SystemCode], BeforeValidator(_listify), Field(max_length=20)]
Ids = Annotated[list[Id], BeforeValidator(_listify), Field(max_length=service.MAX_IDS)]
RecipientIds = Annotated[list[Id], BeforeValidator(_listify), Field(max_length=service.MAX_RECIPIENT_IDS)]


class MessageFindParams(BaseModel):
    systemCodes: SystemCodes = Field(default_factory=list)
    readStatus: int | None = Field(default=None, ge=0, le=1, description="0 unread, 1 read, absent: all")


class MessageFindIn(BaseModel):
    pageIndex: int = Field(default=1, ge=1, le=1_000_000)
    pageRows: int = Field(default=10, ge=1, le=100)
    params: MessageFindParams = Field(default_factory=MessageFindParams)

    @model_validator(mode="before")
    @classmethod
    def _unwrap(cls, data: Any) -> Any:
        # `{"params": {"pageIndex": .., "params": {..}}}`: the whole body wrapped once more
        if isinstance(data, dict) and set(data) == {"params"} and isinstance(data["params"], dict):
            inner = data["params"]
            if {"pageIndex", "pageRows", "params"} & set(inner):
                return inner
        return data


class MessageOut(BaseModel):
    msgInstanceId: str
    messageContent: str
    sendTime: str
    readStatus: int
    systemCode: str


class MessagePageOut(BaseModel):
    list: list[MessageOut]
    total: int
    pageIndex: int
    pageRows: int
    hasMore: bool


class MessageSystemsIn(BaseModel):
    systemCodes: SystemCodes = Field(default_factory=list)


class MessageIdsIn(BaseModel):
    systemCodes: SystemCodes = Field(default_factory=list)
    msgInstanceIds: Ids = Field(default_factory=list)


class MessageCountOut(BaseModel):
    count: int


@router.post(f"{INBOX}/message-find", body=MessageFindIn, response=MessagePageOut)
def message_find(body: MessageFindIn) -> dict[str, Any]:
    """A page of the signed-in user's letters (readStatus 0 unread, 1 read, absent all), newest first."""
    return service.find(body.params.systemCodes, body.params.readStatus, body.pageIndex, body.pageRows)


_loading_counts: Flight[dict[str, int]] = Flight()
"""The bell of every open page asks at once when a count is missing (after a change, or expiry): one load."""


def _load_counts(tenant_id: int, user_id: int) -> dict[str, int]:
    with services().db():
        return unread.counts(tenant_id, user_id)


@router.post(f"{INBOX}/unread-message-total", body=MessageSystemsIn, response=int)
async def unread_message_total(body: MessageSystemsIn) -> int:
    """How many of the user's letters in the systems (all when none are given) are unread."""
    su = current_user()
    key = (su.tenant_id, su.user_id)
    counts = unread.cache.get(key)
    if counts is None:
        # keyed by the epoch too: a request after a letter was read never joins a load begun before it
        counts = await _loading_counts.in_thread((*key, unread.cache.epoch), _load_counts, *key)
    return unread.total(counts, body.systemCodes)


@router.post(f"{INBOX}/read", body=MessageIdsIn, response=MessageCountOut)
def read(body: MessageIdsIn) -> dict[str, int]:
    """Mark letters read (all of them or none: an unknown id changes nothing)."""
    return {"count": service.set_read(body.msgInstanceIds, body.systemCodes, read=True)}


@router.post(f"{INBOX}/unread", body=MessageIdsIn, response=MessageCountOut)
def mark_unread(body: MessageIdsIn) -> dict[str, int]:
    """Mark letters unread again."""
    return {"count": service.set_read(body.msgInstanceIds, body.systemCodes, read=False)}


@router.post(f"{INBOX}/read-all", body=MessageSystemsIn, response=MessageCountOut)
def read_all(body: MessageSystemsIn) -> dict[str, int]:
    """Mark every unread letter in the systems (all when none are given) read."""
    return {"count": service.read_all(body.systemCodes)}


@router.post(f"{INBOX}/message-delete", body=MessageIdsIn, response=MessageCountOut)
def message_delete(body: MessageIdsIn) -> dict[str, int]:
    """Delete letters from the user's inbox (all of them or none)."""
    return {"count": service.remove(body.msgInstanceIds, body.systemCodes)}


# -- administration ------------------------------------------------------------
#: the button that sends letters (administrators hold every button): the send screen's three routes need it
SEND = "message:send"


class MessageSendIn(BaseModel):
    content: str = Field(description="HTML; at most 20,000 characters, no scripts")
    toUsers: RecipientIds = Field(default_factory=list)
    toRoles: RecipientIds = Field(default_factory=list)
    toTenant: bool = False
    systemCode: Annotated[str, StringConstraints(strip_whitespace=True, max_length=64)] = ""


class MessageSentOut(BaseModel):
    letterId: str
    recipients: int
    systemCode: str


class MessageLettersIn(BaseModel):
    pageIndex: int = Field(default=1, ge=1, le=1_000_000)
    pageRows: int = Field(default=10, ge=1, le=100)


@router.post("/admin/send", grant=SEND, body=MessageSendIn, response=MessageSentOut)
def send(body: MessageSendIn) -> dict[str, Any]:
    """Send a system letter to users, roles or the whole tenant (holders of `message:send`)."""
    sent = service.send_message(
        content=body.content,
        to_users=body.toUsers,
        to_roles=body.toRoles,
        to_tenant=body.toTenant,
        system_code=body.systemCode or None,
    )
    return {"letterId": str(sent.letter_id), "recipients": sent.recipients, "systemCode": sent.system_code}


@router.post("/admin/letters", grant=SEND, body=MessageLettersIn)
def letters(body: MessageLettersIn) -> dict[str, Any]:
    """Letters sent in the tenant, newest first, with read counts (holders of `message:send`)."""
    return service.sent_letters(body.pageIndex, body.pageRows)


@router.get("/admin/audience", grant=SEND)
def audience() -> dict[str, Any]:
    """Users, roles and systems a letter can be addressed to (holders of `message:send`)."""
    return service.audience_options()
