"""The transfer contracts: what a plugin offers the import wizard and the exports, without importing the
plugin that runs them (``transfer``).

A plugin answers the hooks ``atrium_import_targets``, ``atrium_export_sources`` and
``atrium_word_templates`` (see :mod:`atrium.sdk.hookspecs`) with these types::

    from atrium.sdk import hookimpl
    from atrium.sdk.transfer import ExportSource, ImportField, ImportTarget

    @hookimpl
    def atrium_import_targets():
        return [ImportTarget(
            code="assets", name={"zh-cn": "资产", "en-us": "Assets"}, model=Asset,
            fields=[ImportField("code", {"en-us": "Code"}, required=True, max_length=32),
                    ImportField("bought", {"en-us": "Bought on"}, type="date")],
            validate_row=lambda row: None if row["code"].isalnum() else "code must be letters and digits",
        )]

    @hookimpl
    def atrium_export_sources():
        return [ExportSource(url="api/dyreport/chart/view/exportData", name="Report data", rows=my_rows)]

The hooks are asked each time a target, source or template is looked up: answer a list kept by the plugin
(cheap), not one built from the database on every call. A later answer under the same code or url
replaces an earlier one. Without the transfer plugin nobody asks, and nothing else changes.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from sqlalchemy import Select, insert

from atrium.sdk.context import SessionUser, current_context
from atrium.sdk.db import TenantScoped, session

Label = str | Mapping[str, str]
FieldType = Literal["str", "int", "float", "date", "datetime", "bool"]
Row = Sequence[Any] | Mapping[str, Any]


def localise(label: Label, locale: str | None = None) -> str:
    """A label in the request's language: a dict of locales, or plain text."""
    if isinstance(label, str):
        return label
    loc = locale or current_context().locale
    return label.get(loc) or label.get("zh-cn") or label.get("en-us") or next(iter(label.values()), "")


# -- import ----------------------------------------------------------------------------------------------


@dataclass
class ImportField:
    """A column an import target accepts."""

    key: str
    label: Label
    type: FieldType = "str"
    required: bool = False
    max_length: int | None = None
    min_value: float | None = None
    max_value: float | None = None
    choices: Sequence[str] | None = None
    #: other header titles that match this field automatically
    aliases: Sequence[str] = ()


@dataclass
class ImportTarget:
    """Where imported rows go.

    ``write`` receives a list of converted, validated rows (dicts keyed by field) and must add them in the
    current database session (the tenant is already in scope). Without ``write``, rows are bulk-inserted into
    ``model`` (its ``tenant_id`` is stamped). ``validate_row`` answers an error text for a bad row, or None.
    """

    code: str
    name: Label
    fields: list[ImportField]
    model: Any = None
    write: Callable[[list[dict[str, Any]]], None] | None = None
    validate_row: Callable[[dict[str, Any]], str | None] | None = None
    permission: Literal["user", "admin"] = "user"
    #: extra constant columns added to every row (e.g. a dataset id)
    defaults: Mapping[str, Any] = field(default_factory=dict)

    def field(self, key: str) -> ImportField | None:
        return next((f for f in self.fields if f.key == key), None)

    def save(self, rows: list[dict[str, Any]]) -> None:
        if self.write is not None:
            self.write(rows)
            return
        if self.model is None:
            raise RuntimeError(f"import target {self.code!r} has neither write nor model")
        bulk_insert(self.model, rows, self.defaults)


_batch: contextvars.ContextVar[int | None] = contextvars.ContextVar("atrium_import_batch", default=None)


def current_batch_id() -> int | None:
    """The id of the import batch whose rows are being written (inside ``ImportTarget.write``)."""
    return _batch.get()


def bulk_insert(model: Any, rows: list[dict[str, Any]], defaults: Mapping[str, Any] | None = None) -> None:
    """One multi-row INSERT of ``rows`` into ``model``'s table, stamped with the current tenant."""
    if not rows:
        return
    extra = dict(defaults or {})
    if isinstance(model, type) and issubclass(model, TenantScoped):
        tenant = current_context().tenant_id
        if tenant is None:
            raise RuntimeError("bulk_insert into a tenant table needs a tenant in scope")
        extra["tenant_id"] = tenant
    if extra:
        rows = [{**r, **extra} for r in rows]
    session().execute(insert(model), rows)


# -- export ----------------------------------------------------------------------------------------------


@dataclass
class ExportColumn:
    key: str
    title: str
    width: float | None = None


@dataclass
class ExportRequest:
    """What an export source is asked for."""

    params: dict[str, Any]
    columns: list[ExportColumn]
    page_rows: int
    file_name: str
    user: SessionUser | None
    tenant_id: int


@dataclass
class ExportSource:
    """Rows for an export, streamed: never the whole result in memory.

    ``rows`` yields sequences in the column order, or mappings keyed by column key. ``count`` (optional)
    answers the number of rows, for the progress. ``columns`` (optional) answers the columns when the
    request does not list them.
    """

    url: str
    name: Label
    rows: Callable[[ExportRequest], Iterable[Row]]
    count: Callable[[ExportRequest], int] | None = None
    columns: Callable[[ExportRequest], list[ExportColumn]] | None = None
    permission: Literal["user", "admin"] = "user"

    @property
    def key(self) -> str:
        return normalise_url(self.url)


def paged(
    fetch_page: Callable[[ExportRequest, int, int], Sequence[Row]],
) -> Callable[[ExportRequest], Iterator[Row]]:
    """Turn ``fetch_page(request, page_index, page_rows)`` (1-based pages) into a row stream."""

    def rows(req: ExportRequest) -> Iterator[Row]:
        page = 1
        while True:
            batch = fetch_page(req, page, req.page_rows)
            yield from batch
            if len(batch) < req.page_rows:
                return
            page += 1

    return rows


def query_rows(
    make_select: Callable[[ExportRequest], Select[Any]], batch: int = 2000
) -> Callable[[ExportRequest], Iterator[Row]]:
    """Stream a SELECT's rows from the database in batches (server-side cursor where the driver has one)."""

    def rows(req: ExportRequest) -> Iterator[Row]:
        result = session().execute(make_select(req).execution_options(yield_per=batch))
        for part in result.partitions():
            yield from part

    return rows


def normalise_url(url: str) -> str:
    u = url.strip().split("?", 1)[0].lstrip("/")
    return u[4:] if u.startswith("api/") else u


# -- Word ------------------------------------------------------------------------------------------------


@dataclass
class WordTemplate:
    """A Word template: a .docx with docxtpl placeholders and the function that builds its data."""

    code: str
    path: Path
    context: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    file_name: Label = ""
