"""Forms, versions, publishing and submissions: the logic behind the API, the import target and the hooks."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import String, and_, delete, exists, false, func, insert, or_, select
from sqlalchemy.orm import aliased

from atrium.plugins.forms import schema as fs
from atrium.plugins.forms.models import DRAFT, SUBMITTED, Form, FormVersion, Submission, SubmissionValue
from atrium.sdk import Conflict, Forbidden, NotFound, SessionUser, current_context
from atrium.sdk.db import session, utcnow

LIST_MAX = 200


def _user() -> SessionUser:
    return current_context().require_user()


def _tenant() -> int:
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
        form = Form(code=design.code, name=design.name, created_by=_user().user_id)
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
            created_by=_user().user_id,
        )
    )
    db.flush()
    return {**form_out(form), "version": form.latest_version}


def publish(form_ref: str | int, version: int | None) -> dict[str, Any]:
    form = get_form(form_ref)
    row = get_version(form, version)
    form.published_version = row.version
    session().flush()
    from atrium.plugins.forms import transfer_hookup

    transfer_hookup.register_form(form, row)
    return form_out(form)


def unpublish(form_ref: str | int) -> dict[str, Any]:
    form = get_form(form_ref)
    form.published_version = None
    session().flush()
    return form_out(form)


def delete_form(form_ref: str | int) -> None:
    form = get_form(form_ref)
    db = session()
    tid = _tenant()
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
    }


def published(form_ref: str | int, layout: str = "") -> tuple[Form, FormVersion]:
    form = get_form(form_ref)
    if form.published_version is None:
        raise NotFound("forms:form.not_published", form=form.code)
    return form, get_version(form, form.published_version)


def render(form_ref: str | int, layout: str = "") -> dict[str, Any]:
    form, row = published(form_ref)
    return {**form_out(form), **version_out(row, layout)}


def count_forms() -> dict[str, int]:
    db = session()
    total = db.execute(select(func.count()).select_from(Form)).scalar_one()
    live = db.execute(
        select(func.count()).select_from(Form).where(Form.published_version.is_not(None))
    ).scalar_one()
    subs = db.execute(
        select(func.count()).select_from(Submission).where(Submission.status == SUBMITTED)
    ).scalar_one()
    return {"forms": int(total), "published": int(live), "submissions": int(subs)}


# -- submissions -----------------------------------------------------------------------------------------


def _index_rows(tenant_id: int, form_id: int, sub_id: int, data: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for key, value in data.items():
        text = fs.index_text(value)
        if text is not None:
            rows.append(
                {
                    "tenant_id": tenant_id,
                    "form_id": form_id,
                    "submission_id": sub_id,
                    "field": key,
                    "value": text,
                }
            )
    return rows


SUBMISSIONS = Submission.__table__
VALUES = SubmissionValue.__table__
#: kinds without index rows: files, pictures and sub-table rows are not searched; numbers are filtered on
#: the stored JSON (a number field is rarely a filter, and an index row for each one doubles the writes)
NOT_INDEXED = frozenset({"file", "image", "table", "number"})


_INSERT_ONE = insert(SUBMISSIONS).returning(SUBMISSIONS.c.id)
_INSERT_MANY = insert(SUBMISSIONS).returning(SUBMISSIONS.c.id, sort_by_parameter_order=True)
_INSERT_VALUES = insert(VALUES)


def _write_index(rows: list[dict[str, Any]]) -> None:
    """Index rows in one executemany (Core: no unit of work for rows nobody loads as objects)."""
    if rows:
        session().connection().execute(_INSERT_VALUES, rows)


def _indexed(schema: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    props = schema.get("properties", {})
    return {k: v for k, v in data.items() if (props.get(k) or {}).get("x-kind") not in NOT_INDEXED}


def _insert(
    form: Form,
    row: FormVersion,
    datas: list[dict[str, Any]],
    status: str,
    user_id: int | None,
    user_name: str,
) -> list[Submission]:
    """Insert submissions and their index rows with two Core statements; answers detached objects."""
    tid = _tenant()
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
    conn = session().connection()
    if len(values) == 1:
        ids = [conn.execute(_INSERT_ONE, values[0]).scalar_one()]
    else:
        ids = list(conn.execute(_INSERT_MANY, values).scalars())
    index: list[dict[str, Any]] = []
    subs = []
    for sub_id, vals in zip(ids, values, strict=True):
        index += _index_rows(tid, form.id, sub_id, _indexed(row.schema, vals["data"]))
        subs.append(Submission(id=sub_id, **vals))
    _write_index(index)
    return subs


def store(
    form: Form,
    row: FormVersion,
    data: Any,
    draft: bool,
    user: SessionUser | None,
    created_by: int | None = None,
) -> Submission:
    """Validate (a draft only against the size and upload rules) and store a new submission."""
    cleaned = fs.clean(row.schema, data)
    if not draft:
        fs.check(fs.validators.get(row.id, row.schema), row.schema, cleaned)
    uid = user.user_id if user else created_by
    name = user.full_name if user else ""
    return _insert(form, row, [cleaned], DRAFT if draft else SUBMITTED, uid, name)[0]


def submit(form_ref: str | int, data: Any, draft: bool) -> dict[str, Any]:
    form, row = published(form_ref)
    sub = store(form, row, data, draft, _user())
    return submission_out(sub, form)


def _may_see(sub: Submission, user: SessionUser) -> bool:
    return user.is_admin or sub.created_by == user.user_id


def get_submission(sub_id: int) -> Submission:
    sub = session().get(Submission, sub_id)
    if sub is None or sub.tenant_id != current_context().tenant_id or not _may_see(sub, _user()):
        raise NotFound("forms:submission.not_found", id=sub_id)
    return sub


def update_submission(sub_id: int, data: Any, draft: bool) -> dict[str, Any]:
    """Edit a submission against its own schema version: admins always, the author a draft, or a
    submitted one when the form allows editing."""
    sub = get_submission(sub_id)
    user = _user()
    form = get_form(sub.form_id)
    if not (user.is_admin or sub.status == DRAFT or form.allow_edit):
        raise Forbidden("forms:submission.edit_denied")
    if sub.status == SUBMITTED and draft:
        draft = False
    row = get_version(form, sub.version)
    cleaned = fs.clean(row.schema, data)
    if not draft:
        fs.check(fs.validators.get(row.id, row.schema), row.schema, cleaned)
    sub.data = cleaned
    sub.status = DRAFT if draft else SUBMITTED
    db = session()
    db.execute(
        delete(SubmissionValue).where(
            SubmissionValue.tenant_id == sub.tenant_id, SubmissionValue.submission_id == sub.id
        )
    )
    _write_index(_index_rows(sub.tenant_id, form.id, sub.id, _indexed(row.schema, cleaned)))
    db.flush()
    return submission_out(sub, form)


def delete_submissions(ids: list[int]) -> int:
    user = _user()
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


def submission_out(sub: Submission, form: Form | None = None) -> dict[str, Any]:
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
    return {**submission_out(sub, form), "schema": row.schema, "uiSchema": row.ui_schema}


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


def _select(form: Form, q: ListQuery, user: SessionUser | None) -> tuple[Any, Any]:
    """The matching submissions and the column to page them by: each field filter is a join on the
    lookup index (tenant, form, field, value, submission), so the newest page is read from the index."""
    tid = _tenant()
    stmt = select(Submission).where(Submission.tenant_id == tid, Submission.form_id == form.id)
    order: Any = None
    kinds = _kinds(form)
    for key, value in (q.filters or {}).items():
        if value == "" or value is None:
            continue
        if kinds.get(key) in NOT_INDEXED:
            stmt = stmt.where(_json_equals(key, kinds[key], str(value)))
            continue
        v = aliased(SubmissionValue)
        stmt = stmt.join(
            v,
            and_(
                v.submission_id == Submission.id,
                v.tenant_id == tid,
                v.form_id == form.id,
                v.field == key,
                v.value == str(value)[:200],
            ),
        )
        if order is None:
            order = v.submission_id
    if q.keyword:
        w = aliased(SubmissionValue)
        stmt = stmt.where(
            exists().where(
                w.submission_id == Submission.id,
                w.tenant_id == tid,
                w.form_id == form.id,
                w.value.like(f"%{q.keyword}%"),
            )
        )
    if q.status:
        stmt = stmt.where(Submission.status == q.status)
    if user is not None and (q.mine or not user.is_admin):
        stmt = stmt.where(Submission.created_by == user.user_id)
    return stmt, Submission.id if order is None else order


def list_submissions(form_ref: str | int, q: ListQuery, page: int, size: int) -> dict[str, Any]:
    """A page of submissions; filtered, the total comes with the page (one query), else from the index."""
    form = get_form(form_ref)
    stmt, order = _select(form, q, _user())
    db = session()
    paged = stmt.order_by(order.desc()).offset((page - 1) * size).limit(size)
    if any(v not in ("", None) for v in (q.filters or {}).values()):
        found = db.execute(paged.add_columns(func.count().over().label("total"))).all()
        subs = [r[0] for r in found]
        total = int(found[0][1]) if found else None
    else:
        subs = list(db.execute(paged).scalars())
        total = None
    if total is None:
        total = _count(stmt)
    return {
        "list": [submission_out(s, form) for s in subs],
        "total": total,
        "pageNum": page,
        "pageSize": size,
    }


def _count(stmt: Any) -> int:
    return int(
        session()
        .execute(select(func.count()).select_from(stmt.with_only_columns(Submission.id).subquery()))
        .scalar_one()
    )


def iter_submissions(
    form: Form, q: ListQuery, user: SessionUser | None, batch: int = 1000
) -> Iterator[Submission]:
    """Every matching submission, oldest first, in batches (exports)."""
    last = 0
    base, _ = _select(form, q, user)
    while True:
        rows = list(
            session().execute(base.where(Submission.id > last).order_by(Submission.id).limit(batch)).scalars()
        )
        yield from rows
        if len(rows) < batch:
            return
        last = rows[-1].id


def count_submissions(form: Form, q: ListQuery, user: SessionUser | None) -> int:
    return _count(_select(form, q, user)[0])


def bulk_store(form: Form, row: FormVersion, rows: list[dict[str, Any]], user: SessionUser | None) -> int:
    """Store rows already cleaned and validated (import): one insert for submissions, one for the index."""
    if not rows:
        return 0
    subs = _insert(form, row, rows, SUBMITTED, user.user_id if user else None, user.full_name if user else "")
    return len(subs)
