"""The browser's tracking records (spec reports.md 3.9) turned into rows of the raw table.

A batch is validated whole, natively by pydantic, straight into column names: strings are stripped and
numbers accepted for them, each string must fit its column and each number 0 to 2,147,483,647. What the
README promises to forgive (a string over its column's size, a number out of range or with a fraction,
a null or an empty number) is then repaired in the few records that need it and the batch validated once
more, so well-formed batches, nearly all of them, pay for one native pass and a merge per record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError
from typing_extensions import TypedDict

from atrium.plugins.tracking.models import APP_LOAD, BUTTON_CLICK, PAGE_VISIT
from atrium.plugins.tracking.service import STR_COLUMNS, parse_time
from atrium.plugins.tracking.settings import tracking_settings
from atrium.sdk.errors import BadRequest

INT_MAX = 2_147_483_647
TRACK_TYPES = {"page": PAGE_VISIT, "button": BUTTON_CLICK}
STRINGS = {
    "trackType": "track_type",
    "systemCode": "system_code",
    "systemName": "system_name",
    "microAppCode": "app_code",
    "microAppName": "app_name",
    "version": "version",
    "browserName": "browser_name",
    "browserVersion": "browser_version",
    "osName": "os_name",
    "menuId": "menu_id",
    "routeName": "route_name",
    "routeCode": "route_code",
    "routePath": "route_path",
    "buttonName": "button_name",
    "buttonCode": "button_code",
}
"""Wire name -> column."""
NUMBERS = {
    "loadTime": "load_time",
    "screenWidth": "screen_width",
    "screenHeight": "screen_height",
    "pageStayTime": "page_stay_time",
    "pageRenderTime": "page_render_time",
}
BLANK: dict[str, Any] = {**dict.fromkeys(STRINGS.values(), ""), **dict.fromkeys(NUMBERS.values(), 0)}
CLAMPED = ("greater_than_equal", "less_than_equal", "int_from_float")
"""Pydantic's errors for a number the README says is clamped (a fraction is cut)."""

if TYPE_CHECKING:
    # the keys are computed from the column maps, which a type checker cannot follow: to it a record is
    # what the adapter returns, a plain dict
    TrackRecord = dict[str, Any]
else:
    TrackRecord = TypedDict(
        "TrackRecord",
        {
            "eventType": int | None,
            "type": int | None,
            "timestamp": int | float | str | None,
            **{
                column: Annotated[
                    str, StringConstraints(max_length=STR_COLUMNS[column]), Field(validation_alias=wire)
                ]
                for wire, column in STRINGS.items()
            },
            **{
                column: Annotated[int, Field(ge=0, le=INT_MAX, validation_alias=wire)]
                for wire, column in NUMBERS.items()
            },
        },
        total=False,
    )
    TrackRecord.__pydantic_config__ = ConfigDict(
        str_strip_whitespace=True, coerce_numbers_to_str=True, extra="ignore"
    )
RECORDS: TypeAdapter[list[dict[str, Any]]] = TypeAdapter(list[TrackRecord])


def rows_of(
    raw: list[Any] | dict[str, Any], default_type: int, allowed: tuple[int, ...]
) -> list[dict[str, Any]]:
    """Rows for the raw table (without the session's stamp), or the whole batch refused with a message
    naming the record."""
    batch = raw if isinstance(raw, list) else [raw]
    limit = tracking_settings().max_batch
    if len(batch) > limit:
        raise BadRequest("tracking:batch_too_long", count=len(batch), max=limit)
    rows = []
    for index, rec in enumerate(_validated(batch)):
        kind = rec.pop("eventType", None)
        alias = rec.pop("type", None)
        stamp = rec.pop("timestamp", None)
        if kind is None:
            kind = alias if alias is not None else TRACK_TYPES.get(rec.get("track_type", ""), default_type)
        if kind not in allowed:
            raise BadRequest(
                "tracking:type_unknown", index=index, type=kind, allowed=", ".join(str(t) for t in allowed)
            )
        row = {**BLANK, **rec}
        missing = _missing(kind, row)
        if missing:
            raise BadRequest("tracking:field_missing", index=index, field=missing)
        if kind == BUTTON_CLICK and not row["track_type"]:
            row["track_type"] = "button"
        row["client_at"] = parse_time(stamp)
        row["event_type"] = kind
        rows.append(row)
    return rows


def _validated(batch: list[Any]) -> list[dict[str, Any]]:
    try:
        return RECORDS.validate_python(batch)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
    repaired = list(batch)
    for err in errors:
        if not _repair(repaired, err):
            raise _invalid(err)
    try:
        return RECORDS.validate_python(repaired)
    except ValidationError as exc:
        raise _invalid(exc.errors(include_url=False)[0]) from exc


def _repair(batch: list[Any], err: Any) -> bool:
    """Mend what the README forgives in the record an error points at; False when it is not that."""
    loc = err.get("loc", ())
    if len(loc) < 2 or not isinstance(batch[loc[0]], dict):
        return False
    index, wire = loc[0], loc[1]
    value = err.get("input")
    kind = err.get("type", "")
    if wire in STRINGS and kind == "string_too_long":
        fixed: Any = str(value).strip()[: STR_COLUMNS[STRINGS[wire]]]
    elif wire in NUMBERS and kind in CLAMPED:
        try:
            fixed = max(0, min(INT_MAX, int(float(value))))
        except (TypeError, ValueError, OverflowError):
            return False
    elif (wire in STRINGS or wire in NUMBERS) and (value is None or value == ""):
        fixed = None
    else:
        return False
    record = batch[index] = dict(batch[index])
    if fixed is None:
        record.pop(wire, None)
    else:
        record[wire] = fixed
    return True


def _invalid(err: Any) -> BadRequest:
    loc = err.get("loc", ())
    return BadRequest(
        "tracking:record_invalid", index=loc[0] if loc else 0, field=str(loc[1]) if len(loc) > 1 else "-"
    )


def _missing(kind: int, row: dict[str, Any]) -> str:
    if kind == APP_LOAD and not (row["app_code"] or row["app_name"]):
        return "microAppCode"
    if kind in (PAGE_VISIT, BUTTON_CLICK) and not row["route_path"]:
        return "routePath"
    if kind == BUTTON_CLICK and not (row["button_name"] or row["button_code"]):
        return "buttonName"
    return ""
