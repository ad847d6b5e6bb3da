"""Messages without HTTP: send letters (the SDK-level service other plugins call), read the inbox,
mark read or unread, delete.

Other plugins send a letter either by calling :func:`send_message` directly::

    from atrium.plugins.message.service import send_message
    send_message(to_roles=[role_id], content="<p>The report is ready</p>", system_code="iotAutho")

or, without importing this plugin, by emitting the ``send_message`` event through the platform
(``services().emit("send_message", tenant_id=..., to_users=[...], content=...)``), which this plugin
handles through its ``atrium_event`` hook.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any, cast

from sqlalchemy import (
    BigInteger,
    DateTime,
    Insert,
    SmallInteger,
    String,
    Table,
    bindparam,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.dialects import postgresql
from sqlalchemy.sql.selectable import TableValuedAlias

from atrium.plugins.message import directory, push, unread
from atrium.plugins.message.content import PLAIN_LIMIT, check_and_clean, plain_text, sanitise
from atrium.plugins.message.models import READ, UNREAD, Inbox, Letter
from atrium.sdk.context import current_context, current_tenant, current_user, tenant_scope
from atrium.sdk.db import after_commit, session, utcnow
from atrium.sdk.errors import BadRequest, NotFound
from atrium.sdk.services import services

DEFAULT_SYSTEM = "iotAutho"
SYSTEM_CODE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
MAX_IDS = 500
MAX_RECIPIENT_IDS = 5000


@dataclass(frozen=True)
class SentLetter:
    letter_id: int
    recipients: int
    system_code: str


# -- helpers ------------------------------------------------------------------


def _tenant(tenant_id: int | None) -> int:
    """The tenant a letter is sent in: the one named, else the one in scope. Not `current_tenant()`: jobs and
    other plugins send with no signed-in user (inside a `tenant_scope`, or naming the tenant)."""
    tid = tenant_id if tenant_id is not None else current_context().tenant_id
    if tid is None:
        raise BadRequest("message:tenant_required")
    return tid


@contextmanager
def _db(tenant_id: int) -> Iterator[None]:
    """The tenant's scope, with the running session or a new one (jobs and other plugins' threads)."""
    with tenant_scope(tenant_id) as ctx:
        if ctx.db is not None:
            yield
        else:
            with services().db():
                yield


def iso(dt: datetime) -> str:
    """A stored (naive UTC) time as ISO 8601 with `Z`; the web shows it in local time."""
    return dt.replace(tzinfo=UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _system(tenant_id: int, system_code: str | None) -> str:
    code = (system_code or current_context().system_code or DEFAULT_SYSTEM).strip()
    if not SYSTEM_CODE.match(code) or code not in directory.system_codes(tenant_id):
        raise NotFound("message:system_not_found", systemCode=code[:64])
    return code


def _int_ids(values: Iterable[Any], not_found: str) -> list[int]:
    """Distinct integer ids; a value that is no id answers like an id that does not exist."""
    out = []
    for v in values:
        try:
            out.append(int(v))
        except (TypeError, ValueError) as exc:
            raise NotFound(not_found, id=str(v)[:32]) from exc
    return sorted(set(out))


def _recipients(tenant_id: int, to_users: list[int], to_roles: list[int], to_tenant: bool) -> set[int]:
    members = directory.all_members(tenant_id)
    found: set[int] = set(members) if to_tenant else set()
    if to_users:
        missing = [u for u in to_users if u not in members]
        if missing:
            raise NotFound("message:user_not_found", id=missing[0])
        found.update(to_users)
    if to_roles:
        known_roles = directory.roles(tenant_id, to_roles)
        missing = [r for r in to_roles if r not in known_roles]
        if missing:
            raise NotFound("message:role_not_found", id=missing[0])
        found |= directory.role_members(tenant_id, to_roles)
    return found


# -- sending ------------------------------------------------------------------


def send_message(
    *,
    content: str,
    to_users: Iterable[int] = (),
    to_roles: Iterable[int] = (),
    to_tenant: bool = False,
    system_code: str | None = None,
    tenant_id: int | None = None,
    sender_id: int | None = None,
    sent_at: datetime | None = None,
) -> SentLetter:
    """Send a system letter to users, roles and/or every member of a tenant.

    The content is checked (at most 20,000 characters, no scripts) and sanitised with nh3; users and
    roles must belong to the tenant (another tenant's ids answer like unknown ids). Nothing is stored
    when anything is wrong. Each recipient gets an inbox row; after the commit every recipient's
    browser is told through the WebSocket hub, and ``message_sent`` is emitted.

    :param content: the letter as HTML.
    :param to_users: user ids.
    :param to_roles: role ids of the tenant.
    :param to_tenant: every enabled member of the tenant.
    :param system_code: the system the letter belongs to (default: the request's, else ``iotAutho``).
    :param tenant_id: the tenant (default: the request's).
    :param sender_id: who sends it (default: the signed-in user; None for the system).
    :param sent_at: the send time (naive UTC; default now).
    :return: the letter id, how many users received it and its system.
    """
    tid = _tenant(tenant_id)
    users = _int_ids(to_users, "message:user_not_found")
    role_ids = _int_ids(to_roles, "message:role_not_found")
    if not (users or role_ids or to_tenant):
        raise BadRequest("message:no_recipients")
    clean = check_and_clean(content)
    if sender_id is None and current_context().user is not None:
        sender_id = current_user().user_id
    with _db(tid):
        code = _system(tid, system_code)
        recipients = sorted(_recipients(tid, users, role_ids, to_tenant))
        if not recipients:
            raise BadRequest("message:nobody")
        when = sent_at or utcnow()
        letter_id, rows = store_letter(
            code,
            clean,
            recipients,
            sender_id,
            when,
            {"users": users, "roles": role_ids, "tenant": bool(to_tenant)},
        )
        preview, sent = plain_text(clean, PLAIN_LIMIT), iso(when)
        frames = [
            (
                push.notify_key(tid, r.user_id, code),
                {
                    "action": "message",
                    "msgInstanceId": str(r.id),
                    "systemCode": code,
                    "sendTime": sent,
                    "preview": preview,
                },
            )
            for r in rows
        ]
        after_commit(lambda: unread.invalidate(tid, recipients))
        after_commit(lambda: push.send(frames))
        services().emit(
            "message_sent",
            tenant_id=tid,
            user_id=sender_id,
            letter_id=letter_id,
            system_code=code,
            recipients=recipients,
        )
        return SentLetter(letter_id, len(recipients), code)


@dataclass(frozen=True, slots=True)
class Delivered:
    """A recipient's inbox row as written: its id is the `msgInstanceId` a push carries."""

    id: int
    user_id: int


_INBOX = cast(Table, Inbox.__table__)
_LETTERS = cast(Table, Letter.__table__)
_INSERT_LETTER = insert(_LETTERS).returning(_LETTERS.c.id)


def store_letter(
    system_code: str,
    clean: str,
    recipients: list[int],
    sender_id: int | None,
    when: datetime,
    audience: dict[str, Any],
) -> tuple[int, list[Delivered]]:
    """Write a letter and its inbox rows in the current tenant, telling no one (demo data, imports); answers
    the letter's id and its inbox rows.

    `clean` must come from :func:`check_and_clean`; :func:`send_message` is what callers normally use.
    Both statements go past the ORM's unit of work (every process step sends a letter, and a letter to a
    whole tenant is thousands of inbox rows), on the session's connection and transaction; they name the
    tenant themselves.
    """
    tenant_id = _tenant(None)  # the tenant in scope, as the ORM would stamp the rows
    conn = session().connection()
    letter_id: int = conn.execute(
        _INSERT_LETTER,
        {
            "tenant_id": tenant_id,
            "system_code": system_code,
            "content": clean,
            "sender_id": sender_id,
            "audience": audience,
            "recipient_count": len(recipients),
            "sent_at": when,
        },
    ).scalar_one()
    if not recipients:
        return letter_id, []
    postgres = conn.dialect.name == "postgresql"
    written = conn.execute(
        _inbox_insert(postgres),
        {
            "tenant_id": tenant_id,
            "letter_id": letter_id,
            "ids": recipients if postgres else json.dumps(recipients),
            "system_code": system_code,
            "read_status": UNREAD,
            "sent_at": when,
        },
    )
    return letter_id, [Delivered(i, u) for i, u in written]


@cache
def _inbox_insert(postgres: bool) -> Insert:
    """The inbox rows of one letter in one statement built once: the recipients' ids go in as one bound value
    the database expands into rows (an array on PostgreSQL, a JSON array on SQLite), so a letter to a whole
    tenant costs one parameter, not one parameter set per row."""
    if postgres:
        ids = func.unnest(bindparam("ids", type_=postgresql.ARRAY(BigInteger)))
        rows: TableValuedAlias = ids.table_valued("value").render_derived()
    else:
        rows = func.json_each(bindparam("ids", type_=String)).table_valued("value")
    values = select(
        bindparam("tenant_id", type_=BigInteger),
        bindparam("letter_id", type_=BigInteger),
        rows.c.value,
        bindparam("system_code", type_=String),
        bindparam("read_status", type_=SmallInteger),
        bindparam("sent_at", type_=DateTime),
    )
    return (
        insert(_INBOX)
        .from_select(["tenant_id", "letter_id", "user_id", "system_code", "read_status", "sent_at"], values)
        .returning(_INBOX.c.id, _INBOX.c.user_id)
    )


def push_logout(tenant_id: int, user_id: int) -> None:
    """Tell every open page of the user in the tenant, on every device, to sign out (after the commit).

    For forced sign-outs decided elsewhere (an administrator ending a user's sessions, a single sign-out
    from an identity provider). An ordinary sign-out needs nothing: the kernel closes that session's
    sockets itself and the user's other sessions stay signed in.
    """
    with _db(tenant_id):
        frames = [
            (push.notify_key(tenant_id, user_id, code), {"action": "logout"})
            for code in directory.system_codes(tenant_id)
        ]
        after_commit(lambda: push.send(frames))


# -- the inbox ----------------------------------------------------------------


def _filters(user_id: int, system_codes: list[str], read_status: int | None) -> list[Any]:
    crit: list[Any] = [Inbox.user_id == user_id]
    if system_codes:
        crit.append(Inbox.system_code.in_(system_codes))
    if read_status is not None:
        crit.append(Inbox.read_status == read_status)
    return crit


def find(system_codes: list[str], read_status: int | None, page_index: int, page_rows: int) -> dict[str, Any]:
    """A page of the signed-in user's letters, newest first."""
    uid = current_user().user_id
    db = session()
    crit = _filters(uid, system_codes, read_status)
    total = db.execute(select(func.count()).select_from(Inbox).where(*crit)).scalar_one()
    rows = db.execute(
        select(Inbox, Letter.content)
        .join(Letter, Letter.id == Inbox.letter_id)
        .where(*crit)
        .order_by(Inbox.sent_at.desc(), Inbox.id.desc())
        .offset((page_index - 1) * page_rows)
        .limit(page_rows)
    ).all()
    items = [
        {
            "msgInstanceId": str(r.id),
            "messageContent": sanitise(content),
            "sendTime": iso(r.sent_at),
            "readStatus": r.read_status,
            "systemCode": r.system_code,
        }
        for r, content in rows
    ]
    return {
        "list": items,
        "total": int(total),
        "pageIndex": page_index,
        "pageRows": page_rows,
        "hasMore": page_index * page_rows < total,
    }


def _owned(ids: list[int], system_codes: list[str]) -> list[int]:
    """The ids, if every one is the signed-in user's (in the given systems); 404 otherwise."""
    if not ids:
        raise BadRequest("message:ids_required")
    if len(ids) > MAX_IDS:
        raise BadRequest("message:too_many_ids", max=MAX_IDS)
    uid = current_user().user_id
    crit = _filters(uid, system_codes, None)
    found = set(session().execute(select(Inbox.id).where(Inbox.id.in_(ids), *crit)).scalars())
    missing = [i for i in ids if i not in found]
    if missing:
        raise NotFound("message:not_found", id=missing[0])
    return ids


def _changed() -> None:
    su = current_user()  # the unread counts are keyed by the session's tenant, as the API reads them
    tid, uid = su.tenant_id, su.user_id
    after_commit(lambda: unread.invalidate(tid, [uid]))


def set_read(ids: Iterable[Any], system_codes: list[str], read: bool) -> int:
    """Mark the user's letters read or unread; all or nothing. Answers how many changed state."""
    wanted = _owned(_int_ids(ids, "message:not_found"), system_codes)
    uid = current_user().user_id
    target = READ if read else UNREAD
    result = session().execute(
        update(Inbox)
        .where(Inbox.id.in_(wanted), Inbox.user_id == uid, Inbox.read_status != target)
        .values(read_status=target, read_at=utcnow() if read else None)
        .execution_options(synchronize_session=False)
    )
    _changed()
    return int(result.rowcount or 0)  # type: ignore[attr-defined]


def read_all(system_codes: list[str]) -> int:
    """Mark every unread letter of the user (in the given systems) read."""
    uid = current_user().user_id
    result = session().execute(
        update(Inbox)
        .where(*_filters(uid, system_codes, UNREAD))
        .values(read_status=READ, read_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    _changed()
    return int(result.rowcount or 0)  # type: ignore[attr-defined]


def remove(ids: Iterable[Any], system_codes: list[str]) -> int:
    """Delete the user's copies of letters; all or nothing."""
    wanted = _owned(_int_ids(ids, "message:not_found"), system_codes)
    uid = current_user().user_id
    result = session().execute(
        delete(Inbox)
        .where(Inbox.id.in_(wanted), Inbox.user_id == uid)
        .execution_options(synchronize_session=False)
    )
    _changed()
    return int(result.rowcount or 0)  # type: ignore[attr-defined]


# -- administration -----------------------------------------------------------


def sent_letters(page_index: int, page_rows: int) -> dict[str, Any]:
    """Letters sent in the current tenant, newest first, with how many recipients have read them."""
    tid = current_tenant()
    db = session()
    total = db.execute(select(func.count()).select_from(Letter)).scalar_one()
    letters = (
        db.execute(
            select(Letter)
            .order_by(Letter.sent_at.desc(), Letter.id.desc())
            .offset((page_index - 1) * page_rows)
            .limit(page_rows)
        )
        .scalars()
        .all()
    )
    ids = [x.id for x in letters]
    reads = (
        dict(
            db.execute(
                select(Inbox.letter_id, func.count())
                .where(Inbox.letter_id.in_(ids), Inbox.read_status == READ)
                .group_by(Inbox.letter_id)
            ).all()
        )
        if ids
        else {}
    )
    people = {p.user_id: p for p in directory.members(tid)}
    role_names = directory.roles(tid)
    out = []
    for x in letters:
        aud = x.audience or {}
        sender = people.get(x.sender_id or -1)
        out.append(
            {
                "letterId": str(x.id),
                "messageContent": sanitise(x.content),
                "systemCode": x.system_code,
                "sendTime": iso(x.sent_at),
                "sender": sender.full_name if sender else "",
                "toTenant": bool(aud.get("tenant")),
                "toUsers": [people[u].full_name if u in people else str(u) for u in aud.get("users", [])],
                "toRoles": [role_names.get(r, str(r)) for r in aud.get("roles", [])],
                "recipients": x.recipient_count,
                "readCount": int(reads.get(x.id, 0)),
            }
        )
    return {"list": out, "total": int(total), "pageIndex": page_index, "pageRows": page_rows}


def audience_options() -> dict[str, Any]:
    """Who a letter can be addressed to in the current tenant, and the systems it can belong to."""
    tid = current_tenant()
    return {
        "users": [
            {"userId": str(p.user_id), "account": p.account, "userFullName": p.full_name}
            for p in directory.members(tid)
        ],
        "roles": [{"roleId": str(i), "roleName": n} for i, n in directory.roles(tid).items()],
        "systems": [
            {"systemCode": s.code, "systemName": s.name, "systemEnName": s.en_name}
            for s in directory.systems(tid)
        ],
    }
