"""Forms, versions, publishing and submissions: the logic behind the API, the import target and the hooks."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

import orjson
from sqlalchemy import Select, String, Table, and_, delete, exists, false, func, insert, or_, select
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import aliased

from atrium.plugins.forms import dictionaries, pgasync
from atrium.plugins.forms import schema as fs
from atrium.plugins.forms.models import DRAFT, SUBMITTED, Form, FormVersion, Submission, SubmissionValue
from atrium.sdk import Conflict, Forbidden, NotFound, SessionUser, current_context
from atrium.sdk.accounts import GrantIn, MenuIn, SystemQuery, TenantIdQuery, TenantQuery
from atrium.sdk.context import current_tenant, current_user
from atrium.sdk.db import session, utcnow
from atrium.sdk.services import services

#: the people picker answers at most this many members
PEOPLE_MAX = 50


def _tenant_in_scope() -> int:
    """The tenant in scope, signed-in user or not: the process engine stores a step's form with no user
    (`atrium_process_form_submit` inside a `tenant_scope`), so the write paths cannot use `current_tenant()`.
    """
    tid = current_context().tenant_id
    if tid is None:
        raise Forbidden()
    return tid


def form_name(form: Form, locale: str | None = None) -> str:
    loc = locale or current_context().locale
    names = form.name or {}
    return names.get(loc) or names.get("zh-cn") or names.get("en-us") or next(iter(names.values()), form.code)


def form_out(form: Form) -> dict[str, Any]:
    return {
        "formId": str(form.id),
        "code": form.code,
        "name": form.name,
        "title": form_name(form),
        "description": form.description,
        "latestVersion": form.latest_version,
        "publishedVersion": form.published_version,
        "allowEdit": form.allow_edit,
        "updatedAt": form.updated_at.isoformat(timespec="seconds"),
    }


# -- forms and versions ----------------------------------------------------------------------------------


def get_form(ref: str | int) -> Form:
    """A form of the current tenant by id or code; another tenant's answers as not found."""
    text = str(ref).strip()
    q = select(Form).where(Form.id == int(text)) if text.isdigit() else select(Form).where(Form.code == text)
    form = session().execute(q).scalar_one_or_none()
    if form is None:
        raise NotFound("forms:form.not_found", form=text[:64])
    return form


def get_version(form: Form, version: int | None) -> FormVersion:
    number = version or form.latest_version
    row = (
        session()
        .execute(select(FormVersion).where(FormVersion.form_id == form.id, FormVersion.version == number))
        .scalar_one_or_none()
    )
    if row is None:
        raise NotFound("forms:version.not_found", version=number)
    return row


@dataclass
class Design:
    code: str
    name: dict[str, str]
    schema: dict[str, Any]
    ui_schema: dict[str, Any]
    layouts: dict[str, Any]
    description: str = ""
    allow_edit: bool = False


def save_design(design: Design, form_id: int | None = None) -> dict[str, Any]:
    """Save a new version of a form (a new form without ``form_id``); the schema is checked first."""
    fs.check_design(design.schema)
    db = session()
    clash = db.execute(select(Form.id).where(Form.code == design.code)).scalar_one_or_none()
    if form_id is None:
        if clash is not None:
            raise Conflict("forms:form.code_exists", formCode=design.code)
        form = Form(code=design.code, name=design.name, created_by=current_user().user_id)
        db.add(form)
        db.flush()
    else:
        form = get_form(form_id)
        if clash is not None and clash != form.id:
            raise Conflict("forms:form.code_exists", formCode=design.code)
    form.code = design.code
    form.name = design.name
    form.description = design.description
    form.allow_edit = design.allow_edit
    form.latest_version += 1
    db.add(
        FormVersion(
            form_id=form.id,
            version=form.latest_version,
            schema=design.schema,
            ui_schema=design.ui_schema,
            layouts=design.layouts,
            created_by=current_user().user_id,
        )
    )
    db.flush()
    return {**form_out(form), "version": form.latest_version}


@dataclass(frozen=True)
class MenuWish:
    """Where the author wants the published form's menu: a system, a parent menu (none: top level), a name
    (empty: the form's names)."""

    system_code: str
    parent_id: int | None = None
    name: str = ""


def publish(form_ref: str | int, version: int | None, menu: MenuWish | None = None) -> dict[str, Any]:
    """Publish a version; with `menu` (tenant administrators only) the form also gets a menu of its own,
    granted to every role of the tenant. One transaction: a refused menu undoes the publish too."""
    if menu is not None:
        _require_menu_admin()
    form = get_form(form_ref)
    row = get_version(form, version)
    form.published_version = row.version
    session().flush()
    from atrium.plugins.forms import transfer_hookup

    transfer_hookup.register_form(form, row)
    out = form_out(form)
    if menu is not None:
        out["menu"] = form_menu(form, row, menu)
    return out


# -- a published form's menu -----------------------------------------------------------------------------


#: a form's menu goes after its siblings (menus list no sort order to count from)
MENU_SORT = 1000


def _require_menu_admin() -> None:
    if not current_user().is_admin:
        raise Forbidden("forms:menu.admin_only")


def menu_code(form: Form) -> str:
    """The code of a form's menu: menus are shared by the tenants, so the tenant is part of it."""
    return f"form-{_tenant_in_scope()}-{form.code}"[:128]


def _offered_systems() -> list[dict[str, Any]]:
    """The systems offered to the current tenant, with their names."""
    admin = services().administration
    offered = {s["systemCode"] for s in admin.tenants.systems(TenantIdQuery(tenantId=_tenant_in_scope()))}
    return [s for s in admin.systems.all() if s["systemCode"] in offered]


def _menu_title(m: dict[str, Any]) -> str:
    """A menu's name in the caller's language (`menuEnName`: one text, or one per locale)."""
    loc = current_context().locale
    en = m.get("menuEnName")
    if loc == "zh-cn" or not en:
        return str(m["menuName"])
    if isinstance(en, dict):
        return str(en.get(loc) or en.get("en-us") or m["menuName"])
    return str(en)


def _system_title(s: dict[str, Any]) -> str:
    loc = current_context().locale
    return str(s["systemName"] if loc == "zh-cn" or not s.get("systemEnName") else s["systemEnName"])


def _menu_tree(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    nodes: dict[str, dict[str, Any]] = {
        m["menuId"]: {"value": m["menuId"], "title": _menu_title(m), "children": []} for m in items
    }
    roots: list[dict[str, Any]] = []
    for m in items:
        parent = nodes.get(m["parentId"]) if m["parentId"] else None
        (parent["children"] if parent is not None else roots).append(nodes[m["menuId"]])
    return roots


def menu_options() -> dict[str, Any]:
    """For the publish dialog: the tenant's systems, each with its menus as a tree (the parents to choose)."""
    _require_menu_admin()
    menus = services().administration.menus
    return {
        "systems": [
            {
                "systemCode": s["systemCode"],
                "systemName": _system_title(s),
                "menus": _menu_tree(menus.all(SystemQuery(systemCode=s["systemCode"]))),
            }
            for s in _offered_systems()
        ]
    }


def form_menu(form: Form, row: FormVersion, wish: MenuWish) -> dict[str, Any]:
    """Save the form's menu (one per form: found again by its code) and grant it to the tenant's roles."""
    admin = services().administration
    systems = {s["systemCode"]: s for s in _offered_systems()}
    if wish.system_code not in systems:
        raise NotFound("forms:menu.system_not_found", system=wish.system_code[:64])
    code = menu_code(form)
    for other in systems:
        if other != wish.system_code and any(
            m["menuCode"] == code for m in admin.menus.all(SystemQuery(systemCode=other))
        ):
            raise Conflict("forms:menu.in_other_system", system=other)
    existing = admin.menus.all(SystemQuery(systemCode=wish.system_code))
    by_id = {int(m["menuId"]): m for m in existing}
    if wish.parent_id is not None and wish.parent_id not in by_id:
        raise NotFound("forms:menu.parent_not_found")
    names = {k: v for k, v in (form.name or {}).items() if v}
    name = wish.name.strip() or names.get("zh-cn") or form_name(form) or form.code
    layouts = sorted(row.layouts or {})
    parameter = {
        "menu_type": "DYNAMIC_FORM",
        "diy_code": form.code,
        "layout_code": layouts[0] if layouts else "",
    }
    saved = admin.menus.save(
        MenuIn(
            systemCode=wish.system_code,
            menuCode=code,
            menuName=name[:128],
            menuEnName={} if wish.name.strip() else {k: v for k, v in names.items() if k != "zh-cn"},
            menuUrl="dynamic-form/render",
            parentId=wish.parent_id,
            parameter=orjson.dumps(parameter).decode(),
            sort=MENU_SORT,
            menuIconurl="FormOutlined",
            isCache=False,
        )
    )
    menu_id = int(saved["menuId"])
    for role in admin.roles.all(TenantQuery()):
        held = [int(m) for m in role["menuIds"]]
        if menu_id not in held:
            admin.roles.grant_menus(GrantIn(roleId=int(role["roleId"]), menuIds=[*held, menu_id]))
    parent = by_id.get(wish.parent_id) if wish.parent_id is not None else None
    return {
        "menuId": str(menu_id),
        "menuCode": code,
        "menuName": wish.name.strip() or form_name(form),
        "systemCode": wish.system_code,
        "systemName": _system_title(systems[wish.system_code]),
        "parentId": None if parent is None else parent["menuId"],
        "parentName": None if parent is None else _menu_title(parent),
    }


def unpublish(form_ref: str | int) -> dict[str, Any]:
    form = get_form(form_ref)
    form.published_version = None
    session().flush()
    return form_out(form)


def delete_form(form_ref: str | int) -> None:
    form = get_form(form_ref)
    db = session()
    tid = current_tenant()
    db.execute(
        delete(SubmissionValue).where(SubmissionValue.tenant_id == tid, SubmissionValue.form_id == form.id)
    )
    db.execute(delete(Submission).where(Submission.form_id == form.id))
    db.execute(delete(FormVersion).where(FormVersion.form_id == form.id))
    db.delete(form)
    db.flush()


def list_forms(keyword: str, page: int, size: int, published_only: bool = False) -> dict[str, Any]:
    q = select(Form)
    if keyword:
        like = f"%{keyword}%"
        q = q.where(or_(Form.code.like(like), func.lower(func.cast(Form.name, String())).like(like.lower())))
    if published_only:
        q = q.where(Form.published_version.is_not(None))
    total = session().execute(select(func.count()).select_from(q.subquery())).scalar_one()
    rows = session().execute(q.order_by(Form.id.desc()).offset((page - 1) * size).limit(size)).scalars()
    return {"list": [form_out(f) for f in rows], "total": total, "pageNum": page, "pageSize": size}


def design_detail(form_ref: str | int, version: int | None) -> dict[str, Any]:
    form = get_form(form_ref)
    row = get_version(form, version)
    versions = (
        session()
        .execute(
            select(FormVersion.version, FormVersion.created_at)
            .where(FormVersion.form_id == form.id)
            .order_by(FormVersion.version.desc())
        )
        .all()
    )
    return {
        **form_out(form),
        **version_out(row),
        "versions": [{"version": v, "createdAt": at.isoformat(timespec="seconds")} for v, at in versions],
    }


def version_out(row: FormVersion, layout: str = "") -> dict[str, Any]:
    layouts = row.layouts or {}
    return {
        "version": row.version,
        "schema": row.schema,
        "uiSchema": row.ui_schema,
        "layouts": layouts,
        "layout": layouts.get(layout) if layout else None,
        "dictionaries": dictionaries_of(row.schema),
    }


def version_key(row: FormVersion) -> tuple[int, datetime]:
    """What names a saved version for the validator cache (see `schema._Validators`)."""
    return (row.id, row.created_at)


def dictionaries_of(schema: dict[str, Any]) -> dict[str, list[dict[str, str]]]:
    """The items of the dictionaries the form's choice fields take (``x-dict``), in the request's language."""
    types = fs.dict_fields(schema).values()
    return dictionaries.items(types) if types else {}


def _references(schema: dict[str, Any], data: dict[str, Any]) -> list[dict[str, str]]:
    """The checks against the platform (dictionary items, tenant members), run before anything is written;
    picked people get the directory's names."""
    if not fs.dict_fields(schema) and not fs.person_fields(schema):
        return []
    tid = _tenant_in_scope()
    found: dict[str, set[str]] = {}

    def codes(dic_type: str) -> set[str]:
        if dic_type not in found:
            found[dic_type] = dictionaries.codes(dic_type)
        return found[dic_type]

    def members(ids: list[int]) -> dict[int, str]:
        people = services().directory.members(tid, user_ids=ids)
        return {p.user_id: p.full_name or p.account for p in people}

    return fs.reference_errors(schema, data, codes, members)


def people(keyword: str, limit: int = 20) -> list[dict[str, Any]]:
    """The current tenant's members for the user and member pickers, searched by name, account, staff number
    or department."""
    tid = current_tenant()
    word = keyword.strip().lower()
    out = []
    for p in services().directory.members(tid):
        if word and not any(
            word in (v or "").lower() for v in (p.full_name, p.account, p.staff_no, p.department)
        ):
            continue
        out.append(
            {
                "id": p.user_id,
                "name": p.full_name or p.account,
                "account": p.account,
                "department": p.department,
            }
        )
        if len(out) >= min(limit, PEOPLE_MAX):
            break
    return out


def published(form_ref: str | int, layout: str = "") -> tuple[Form, FormVersion]:
    form = get_form(form_ref)
    if form.published_version is None:
        raise NotFound("forms:form.not_published", form=form.code)
    return form, get_version(form, form.published_version)


#: the layout a form is drawn in when its link names none (or one it does not have): the columns its author
#: set in the designer
DEFAULT_LAYOUT = "L1"


def drawn_layout(row: FormVersion, layout: str = "") -> Any:
    """The layout a version is drawn in: the one named, else the form's own (`DEFAULT_LAYOUT`)."""
    layouts = row.layouts or {}
    return layouts.get(layout) or layouts.get(DEFAULT_LAYOUT)


def render(form_ref: str | int, layout: str = "") -> dict[str, Any]:
    form, row = published(form_ref)
    return {**form_out(form), **version_out(row, layout), "layout": drawn_layout(row, layout)}


def count_forms(user_id: int | None = None) -> dict[str, int | str]:
    """The home card's figures: with no `user_id` the tenant's forms, published forms and submitted
    submissions (``"scope": "tenant"``); with one, what that member sees (``"scope": "mine"``): the
    published forms (the ones she can open) and her own submitted submissions."""
    db = session()
    live = db.execute(
        select(func.count()).select_from(Form).where(Form.published_version.is_not(None))
    ).scalar_one()
    submitted = select(func.count()).select_from(Submission).where(Submission.status == SUBMITTED)
    if user_id is not None:
        subs = db.execute(submitted.where(Submission.created_by == user_id)).scalar_one()
        return {"scope": "mine", "forms": int(live), "published": int(live), "submissions": int(subs)}
    total = db.execute(select(func.count()).select_from(Form)).scalar_one()
    subs = db.execute(submitted).scalar_one()
    return {"scope": "tenant", "forms": int(total), "published": int(live), "submissions": int(subs)}


# -- submissions -----------------------------------------------------------------------------------------


SUBMISSIONS = cast(Table, Submission.__table__)
VALUES = cast(Table, SubmissionValue.__table__)
#: kinds without index rows: files, pictures and sub-table rows are not searched; numbers are filtered on
#: the stored JSON (a number field is rarely a filter, and an index row for each one doubles the writes)
NOT_INDEXED = frozenset({"file", "image", "table", "number"})
#: a list counts its matches up to this many; past it the total says "at least"
COUNT_CAP = 10_000

_INSERT_MANY = insert(SUBMISSIONS).returning(SUBMISSIONS.c.id, sort_by_parameter_order=True)
_COLUMNS = (
    "tenant_id",
    "form_id",
    "version",
    "data",
    "status",
    "created_by",
    "created_by_name",
    "created_at",
    "updated_at",
)
_VALUE_COLUMNS = ("tenant_id", "form_id", "submission_id", "field", "value")


@dataclass(frozen=True, slots=True)
class Stored:
    """A submission just written (what the caller answers with; no ORM object is built for it)."""

    id: int
    form_id: int
    version: int
    data: dict[str, Any]
    status: str
    created_by: int | None
    created_by_name: str
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class _Writes:
    """The submit path's statements for one database, at the driver level. On PostgreSQL one submission is
    one call of `form_submission_insert` (migration 0004), which writes its index rows too; on SQLite it is
    an insert and one executemany for the index rows."""

    postgres: bool
    one: str
    values: str
    stamp: Callable[[datetime], Any]
    #: PostgreSQL's call with `$n` placeholders, for `pgasync`
    call: bytes = b""


_CALL = "SELECT form_submission_insert({}, {}, {}, {}::json, {}, {}, {}, {}, {}::json)"


@functools.cache
def _writes(dialect: Dialect) -> _Writes:
    postgres = dialect.name == "postgresql"
    mark = "?" if dialect.paramstyle == "qmark" else "%s"
    vcols = ", ".join(_VALUE_COLUMNS)
    process = SUBMISSIONS.c.created_at.type.bind_processor(dialect)
    stamp = process or (lambda v: v)
    if postgres:
        values = (
            f"INSERT INTO {VALUES.name} ({vcols}) "
            "SELECT * FROM unnest(%s::bigint[], %s::bigint[], %s::bigint[], %s::varchar[], %s::varchar[])"
        )
        call = _CALL.format(*(f"${i}" for i in range(1, 10))).encode()
        return _Writes(True, _CALL.format(*["%s"] * 9), values, stamp, call)
    cols = ", ".join(_COLUMNS)
    one = f"INSERT INTO {SUBMISSIONS.name} ({cols}) VALUES ({', '.join([mark] * len(_COLUMNS))}) RETURNING id"
    values = f"INSERT INTO {VALUES.name} ({vcols}) VALUES ({', '.join([mark] * len(_VALUE_COLUMNS))})"
    return _Writes(False, one, values, stamp)


def _driver() -> tuple[Any, _Writes]:
    """The driver connection under the session's own (inside its transaction) and the statements for it."""
    conn = session().connection()
    raw = conn.connection.dbapi_connection
    if raw is None:
        raise RuntimeError("the session's connection is closed")
    return raw, _writes(conn.dialect)


def _write_index(rows: list[tuple[int, int, int, str, str]]) -> None:
    """Index rows in one statement (PostgreSQL: arrays; SQLite: one executemany)."""
    if not rows:
        return
    raw, w = _driver()
    cur = raw.cursor()
    if w.postgres:
        cur.execute(w.values, tuple(list(col) for col in zip(*rows, strict=True)))
    else:
        cur.executemany(w.values, rows)


def _index_rows(
    schema: dict[str, Any], tenant_id: int, form_id: int, sub_id: int, data: dict[str, Any]
) -> list[tuple[int, int, int, str, str]]:
    return [(tenant_id, form_id, sub_id, key, text) for key, text in _index_texts(schema, data)]


def _index_texts(schema: dict[str, Any], data: dict[str, Any]) -> Iterator[tuple[str, str]]:
    props = schema.get("properties", {})
    for key, value in data.items():
        if (props.get(key) or {}).get("x-kind") in NOT_INDEXED:
            continue
        text = fs.index_text(value)
        if text is not None:
            yield key, text


def _insert_one(
    form: Form,
    row: FormVersion,
    data: dict[str, Any],
    status: str,
    user_id: int | None,
    user_name: str,
    check: Callable[[], None] | None = None,
) -> Stored:
    """Insert one submission with its index rows. `check` (the schema check) runs first on SQLite; on
    PostgreSQL it runs while the database writes, and a submission it refuses is removed before it raises."""
    tid = _tenant_in_scope()
    now = utcnow()
    raw, w = _driver()
    body = orjson.dumps(data).decode()
    if w.postgres:
        index = orjson.dumps(dict(_index_texts(row.schema, data))).decode()
        params = (tid, form.id, row.version, body, status, user_id, user_name, now, index)
        sent = pgasync.send(raw, w.call, params)
        if sent is None:
            if check:
                check()
            cur = raw.cursor()
            cur.execute(w.one, params)
            sub_id = int(cur.fetchone()[0])
        else:
            try:
                if check:
                    check()
            except Exception:
                _undo(sent)
                raise
            sub_id = int(sent.value())
    else:
        if check:
            check()
        stamp = w.stamp(now)
        cur = raw.cursor()
        cur.execute(w.one, (tid, form.id, row.version, body, status, user_id, user_name, stamp, stamp))
        sub_id = int(cur.fetchone()[0])
        _write_index(_index_rows(row.schema, tid, form.id, sub_id, data))
    return Stored(sub_id, form.id, row.version, data, status, user_id, user_name, now, now)


def _undo(sent: pgasync.Sent) -> None:
    """Removes a submission written while its check ran, once the check refused it (the database's own
    error, if it had one, gives way to the check's)."""
    try:
        sub_id = int(sent.value())
    except Exception:
        return
    tid = _tenant_in_scope()
    db = session()
    db.execute(
        delete(SubmissionValue).where(
            SubmissionValue.tenant_id == tid, SubmissionValue.submission_id == sub_id
        )
    )
    db.execute(delete(Submission).where(Submission.id == sub_id))


def _insert_many(
    form: Form,
    row: FormVersion,
    datas: list[dict[str, Any]],
    status: str,
    user_id: int | None,
    user_name: str,
) -> list[Stored]:
    """Insert submissions already checked: one insert for them all, one for their index rows."""
    tid = _tenant_in_scope()
    now = utcnow()
    values = [
        {
            "tenant_id": tid,
            "form_id": form.id,
            "version": row.version,
            "data": data,
            "status": status,
            "created_by": user_id,
            "created_by_name": user_name,
            "created_at": now,
            "updated_at": now,
        }
        for data in datas
    ]
    ids = list(session().connection().execute(_INSERT_MANY, values).scalars())
    index = []
    for sub_id, data in zip(ids, datas, strict=True):
        index += _index_rows(row.schema, tid, form.id, sub_id, data)
    _write_index(index)
    return [
        Stored(sub_id, form.id, row.version, data, status, user_id, user_name, now, now)
        for sub_id, data in zip(ids, datas, strict=True)
    ]


def store(
    form: Form,
    row: FormVersion,
    data: Any,
    draft: bool,
    user: SessionUser | None,
    created_by: int | None = None,
) -> Stored:
    """Validate (a draft only against the size and upload rules) and store a new submission."""
    cleaned = fs.clean(row.schema, data)
    uid = user.user_id if user else created_by
    name = user.full_name if user else ""
    validator = fs.validators.get(version_key(row), row.schema)
    if draft:
        fs.check_draft(validator, row.schema, cleaned)
        return _insert_one(form, row, cleaned, DRAFT, uid, name)
    more = _references(row.schema, cleaned)
    return _insert_one(
        form, row, cleaned, SUBMITTED, uid, name, lambda: fs.check(validator, row.schema, cleaned, more)
    )


def submit(form_ref: str | int, data: Any, draft: bool) -> dict[str, Any]:
    form, row = published(form_ref)
    sub = store(form, row, data, draft, current_user())
    return submission_out(sub, form)


def _may_see(sub: Submission, user: SessionUser) -> bool:
    return user.is_admin or sub.created_by == user.user_id


def may_edit(sub: Submission | Stored, form: Form, user: SessionUser) -> bool:
    """Who may edit a submission they can see: administrators always, the author a draft, or a submitted one
    when the form allows editing."""
    return user.is_admin or sub.status == DRAFT or form.allow_edit


def get_submission(sub_id: int) -> Submission:
    sub = session().get(Submission, sub_id)
    if sub is None or sub.tenant_id != current_tenant() or not _may_see(sub, current_user()):
        raise NotFound("forms:submission.not_found", id=sub_id)
    return sub


def update_submission(sub_id: int, data: Any, draft: bool) -> dict[str, Any]:
    """Edit a submission against its own schema version: admins always, the author a draft, or a
    submitted one when the form allows editing."""
    sub = get_submission(sub_id)
    user = current_user()
    form = get_form(sub.form_id)
    if not may_edit(sub, form, user):
        raise Forbidden("forms:submission.edit_denied")
    if sub.status == SUBMITTED and draft:
        draft = False
    row = get_version(form, sub.version)
    cleaned = fs.clean(row.schema, data)
    validator = fs.validators.get(version_key(row), row.schema)
    if draft:
        fs.check_draft(validator, row.schema, cleaned)
    else:
        fs.check(validator, row.schema, cleaned, _references(row.schema, cleaned))
    sub.data = cleaned
    sub.status = DRAFT if draft else SUBMITTED
    db = session()
    db.execute(
        delete(SubmissionValue).where(
            SubmissionValue.tenant_id == sub.tenant_id, SubmissionValue.submission_id == sub.id
        )
    )
    _write_index(_index_rows(row.schema, sub.tenant_id, form.id, sub.id, cleaned))
    db.flush()
    return submission_out(sub, form)


def delete_submissions(ids: list[int]) -> int:
    user = current_user()
    db = session()
    count = 0
    for sub_id in ids:
        sub = get_submission(sub_id)
        if not (user.is_admin or sub.status == DRAFT):
            raise Forbidden("forms:submission.delete_denied")
        db.execute(
            delete(SubmissionValue).where(
                SubmissionValue.tenant_id == sub.tenant_id, SubmissionValue.submission_id == sub.id
            )
        )
        db.delete(sub)
        count += 1
    db.flush()
    return count


def submission_out(sub: Submission | Stored, form: Form | None = None) -> dict[str, Any]:
    return {
        "submissionId": str(sub.id),
        "formId": str(sub.form_id),
        "formCode": form.code if form else None,
        "version": sub.version,
        "status": sub.status,
        "data": sub.data,
        "createdBy": sub.created_by_name,
        "createdAt": sub.created_at.isoformat(timespec="seconds"),
        "updatedAt": sub.updated_at.isoformat(timespec="seconds"),
    }


def submission_detail(sub_id: int) -> dict[str, Any]:
    sub = get_submission(sub_id)
    form = get_form(sub.form_id)
    row = get_version(form, sub.version)
    return {
        **submission_out(sub, form),
        "schema": row.schema,
        "uiSchema": row.ui_schema,
        "layout": drawn_layout(row),
        "dictionaries": dictionaries_of(row.schema),
        "canEdit": may_edit(sub, form, current_user()),
    }


@dataclass
class ListQuery:
    keyword: str = ""
    filters: dict[str, str] | None = None
    status: str = ""
    mine: bool = False


def _kinds(form: Form) -> dict[str, str]:
    version = form.published_version or form.latest_version
    if not version:
        return {}
    props = get_version(form, version).schema.get("properties", {})
    return {k: str(p.get("x-kind") or "") for k, p in props.items() if isinstance(p, dict)}


def _json_equals(key: str, kind: str, value: str) -> Any:
    """A filter on a field without index rows, read from the stored JSON."""
    if kind == "number":
        try:
            return Submission.data[key].as_float() == float(value)
        except ValueError:
            return false()
    return Submission.data[key].as_string() == value


def _ids(form: Form, q: ListQuery, user: SessionUser | None) -> tuple[Select[Any], Any]:
    """The ids of the matching submissions and the column they are ordered by. With a field filter the
    query starts from the lookup index (tenant, form, field, value, submission) and reads the submission
    rows only for conditions the index cannot answer, so a page and its count come from the index."""
    tid = _tenant_in_scope()
    kinds = _kinds(form)
    indexed: list[tuple[str, str]] = []
    stored: list[tuple[str, str]] = []
    for key, value in (q.filters or {}).items():
        if value == "" or value is None:
            continue
        (stored if kinds.get(key) in NOT_INDEXED else indexed).append((key, str(value)))

    def lookup(v: Any, key: str, value: str) -> Any:
        return and_(v.tenant_id == tid, v.form_id == form.id, v.field == key, v.value == value[:200])

    own = user is not None and (q.mine or not user.is_admin)
    if indexed:
        first = aliased(SubmissionValue)
        sid: Any = first.submission_id
        stmt = select(sid).where(lookup(first, *indexed[0]))
        for key, value in indexed[1:]:
            other = aliased(SubmissionValue)
            stmt = stmt.join(other, and_(other.submission_id == sid, lookup(other, key, value)))
        if stored or q.status or own:
            stmt = stmt.join(Submission, Submission.id == sid)
    else:
        sid = Submission.id
        stmt = select(sid).where(Submission.tenant_id == tid, Submission.form_id == form.id)
    for key, value in stored:
        stmt = stmt.where(_json_equals(key, kinds[key], value))
    if q.status:
        stmt = stmt.where(Submission.status == q.status)
    if own and user is not None:
        stmt = stmt.where(Submission.created_by == user.user_id)
    if q.keyword:
        w = aliased(SubmissionValue)
        stmt = stmt.where(
            exists().where(
                w.submission_id == sid,
                w.tenant_id == tid,
                w.form_id == form.id,
                w.value.like(f"%{q.keyword}%"),
            )
        )
    return stmt, sid


def _rows(ids: list[int]) -> list[Submission]:
    """The submissions with these ids, in that order (only these rows' data is read and decoded)."""
    if not ids:
        return []
    found = {s.id: s for s in session().execute(select(Submission).where(Submission.id.in_(ids))).scalars()}
    return [found[i] for i in ids if i in found]


def list_submissions(form_ref: str | int, q: ListQuery, page: int, size: int) -> dict[str, Any]:
    """A page of submissions, newest first; the total is counted up to COUNT_CAP (``totalExact`` false
    past it) and not at all when the first page is not full."""
    form = get_form(form_ref)
    user = current_user()
    stmt, sid = _ids(form, q, user)
    offset = (page - 1) * size
    ids = list(session().execute(stmt.order_by(sid.desc()).offset(offset).limit(size)).scalars())
    total = len(ids) if page == 1 and len(ids) < size else _count(stmt, COUNT_CAP + 1)
    return {
        "list": [{**submission_out(s, form), "canEdit": may_edit(s, form, user)} for s in _rows(ids)],
        "total": min(total, COUNT_CAP),
        "totalExact": total <= COUNT_CAP,
        "pageNum": page,
        "pageSize": size,
    }


def _count(stmt: Select[Any], cap: int | None = None) -> int:
    inner = stmt if cap is None else stmt.limit(cap)
    return int(session().execute(select(func.count()).select_from(inner.subquery())).scalar_one())


def iter_submissions(
    form: Form, q: ListQuery, user: SessionUser | None, batch: int = 1000
) -> Iterator[Submission]:
    """Every matching submission, oldest first, in batches (exports)."""
    last = 0
    stmt, sid = _ids(form, q, user)
    while True:
        ids = list(session().execute(stmt.where(sid > last).order_by(sid).limit(batch)).scalars())
        yield from _rows(ids)
        if len(ids) < batch:
            return
        last = ids[-1]


def count_submissions(form: Form, q: ListQuery, user: SessionUser | None) -> int:
    return _count(_ids(form, q, user)[0])


def bulk_store(form: Form, row: FormVersion, rows: list[dict[str, Any]], user: SessionUser | None) -> int:
    """Store rows already cleaned and validated (import): one insert for submissions, one for the index."""
    if not rows:
        return 0
    subs = _insert_many(
        form, row, rows, SUBMITTED, user.user_id if user else None, user.full_name if user else ""
    )
    return len(subs)
