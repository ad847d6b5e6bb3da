"""Filter conditions: operators, value checks (spec section 5) and dynamic dates (spec 3.4).

A condition's values are converted here into Python values of the field's type; the query builder only
ever binds them as parameters. Bad input raises `BadRequest` with a translated message.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from atrium.plugins.reports.engine.fields import FieldInfo
from atrium.plugins.reports.settings import report_settings
from atrium.sdk.errors import BadRequest

OPERATORS = ("between", "in", "eq", "like", "ge", "le")
INT_MIN, INT_MAX = -2147483648, 2147483647
MAX_VALUES = 1000
MAX_TEXT = 1000
SINGLE_KEYS = ("today", "yesterday", "monthStart", "yearStart", "custom")
RANGE_KEYS = (
    "thisWeek",
    "lastWeek",
    "thisMonth",
    "lastMonth",
    "thisQuarter",
    "lastQuarter",
    "thisYear",
    "lastYear",
    "customRange",
)
NUMERIC_DKEYS = {0: "today", 1: "yesterday", 2: "monthStart", 3: "custom"}
INFILLS = ("day", "week", "month", "year")


@dataclass(frozen=True)
class TimeValue:
    """A moment from a filter; `whole_day` when only a date was given (it then covers that day)."""

    at: datetime
    whole_day: bool

    @property
    def day_end(self) -> datetime:
        return self.at + timedelta(days=1)


@dataclass(frozen=True)
class Condition:
    field: FieldInfo
    operator: str
    values: tuple[Any, ...]


# ---------------------------------------------------------------------------
# dynamic dates
# ---------------------------------------------------------------------------


def today() -> date:
    tz = report_settings().timezone
    if tz:
        try:
            return datetime.now(ZoneInfo(tz)).date()
        except ZoneInfoNotFoundError:
            pass
    return datetime.now().date()


def add_months(d: date, months: int) -> date:
    """`d` moved by whole months; the day is clamped to the target month's length (Jan 31 + 1 = Feb 28/29)."""
    m = d.month - 1 + months
    y, m = d.year + m // 12, m % 12 + 1
    last = (date(y + (m == 12), m % 12 + 1, 1) - timedelta(days=1)).day
    return date(y, m, min(d.day, last))


def shift(d: date, amount: int, unit: str) -> date:
    if unit == "day":
        return d + timedelta(days=amount)
    if unit == "week":
        return d + timedelta(weeks=amount)
    if unit == "month":
        return add_months(d, amount)
    return add_months(d, 12 * amount)


def _quarter_start(d: date) -> date:
    return date(d.year, 3 * ((d.month - 1) // 3) + 1, 1)


def dynamic_dates(spec: dict[str, Any], base: date | None = None) -> list[date]:
    """Resolve a dynamic date setting to one day, or to a [first, last] range of days (both inclusive).

    `dkey`: today, yesterday, monthStart, yearStart, custom (dynamicPrefix N, dynamicInfill day | week |
    month | year, dynamicSuffix before | after), or a range: thisWeek, lastWeek (Monday to Sunday),
    thisMonth, lastMonth, thisQuarter, lastQuarter, thisYear, lastYear, customRange (from the custom
    offset to today). The reference product's numeric keys 0 to 3 mean today, yesterday, monthStart, custom.
    """
    d = base or today()
    key = spec.get("dkey", "today")
    if isinstance(key, int) and not isinstance(key, bool):
        key = NUMERIC_DKEYS.get(key, "")
    if key not in SINGLE_KEYS + RANGE_KEYS:
        raise BadRequest("reports:filter.dynamic_key", key=str(key)[:40])
    if key == "today":
        return [d]
    if key == "yesterday":
        return [d - timedelta(days=1)]
    if key == "monthStart":
        return [d.replace(day=1)]
    if key == "yearStart":
        return [date(d.year, 1, 1)]
    if key in ("custom", "customRange"):
        try:
            n = int(spec.get("dynamicPrefix", 1))
        except (TypeError, ValueError) as exc:
            raise BadRequest("reports:filter.dynamic_offset") from exc
        unit = spec.get("dynamicInfill", "day")
        suffix = spec.get("dynamicSuffix", "before")
        if unit not in INFILLS or suffix not in ("before", "after") or not 0 <= n <= 10_000:
            raise BadRequest("reports:filter.dynamic_offset")
        moved = shift(d, -n if suffix == "before" else n, unit)
        if key == "custom":
            return [moved]
        return sorted([moved, d])
    monday = d - timedelta(days=d.weekday())
    if key == "thisWeek":
        return [monday, monday + timedelta(days=6)]
    if key == "lastWeek":
        return [monday - timedelta(days=7), monday - timedelta(days=1)]
    if key == "thisMonth":
        first = d.replace(day=1)
        return [first, add_months(first, 1) - timedelta(days=1)]
    if key == "lastMonth":
        first = add_months(d.replace(day=1), -1)
        return [first, d.replace(day=1) - timedelta(days=1)]
    if key == "thisQuarter":
        first = _quarter_start(d)
        return [first, add_months(first, 3) - timedelta(days=1)]
    if key == "lastQuarter":
        first = add_months(_quarter_start(d), -3)
        return [first, _quarter_start(d) - timedelta(days=1)]
    if key == "thisYear":
        return [date(d.year, 1, 1), date(d.year, 12, 31)]
    return [date(d.year - 1, 1, 1), date(d.year - 1, 12, 31)]


# ---------------------------------------------------------------------------
# values
# ---------------------------------------------------------------------------


def _tz() -> Any:
    name = report_settings().timezone
    if name:
        try:
            return ZoneInfo(name)
        except ZoneInfoNotFoundError:
            return None
    return None


def parse_time(value: Any, field: FieldInfo) -> TimeValue:
    """Epoch milliseconds (as date pickers send) or an ISO date / date-time text."""
    if isinstance(value, bool):
        raise BadRequest("reports:filter.bad_date", field=field.name)
    if isinstance(value, date) and not isinstance(value, datetime):
        return TimeValue(datetime(value.year, value.month, value.day), True)
    if isinstance(value, datetime):
        return TimeValue(value.replace(tzinfo=None), False)
    if isinstance(value, int | float):
        if not math.isfinite(value) or abs(value) > 253_402_300_799_000:
            raise BadRequest("reports:filter.bad_date", field=field.name)
        tz = _tz()
        if tz is not None:
            at = datetime.fromtimestamp(value / 1000, UTC).astimezone(tz).replace(tzinfo=None)
        else:
            at = datetime.fromtimestamp(value / 1000)
        return TimeValue(at, at.time() == datetime.min.time())
    if isinstance(value, str):
        text = value.strip()
        if text.lstrip("-").isdigit() and len(text) > 8:
            return parse_time(int(text), field)
        try:
            if len(text) == 10:
                d = date.fromisoformat(text)
                return TimeValue(datetime(d.year, d.month, d.day), True)
            at = datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError as exc:
            raise BadRequest("reports:filter.bad_date", field=field.name) from exc
        if at.tzinfo is not None:
            at = at.astimezone(_tz()).replace(tzinfo=None)
        return TimeValue(at, False)
    raise BadRequest("reports:filter.bad_date", field=field.name)


def parse_number(value: Any, field: FieldInfo) -> int | float:
    """An integer for integer fields (mustInt) or a number, within the 32-bit bounds (outOfMin, outOfMax)."""
    if isinstance(value, bool) or value is None or isinstance(value, list | dict):
        raise BadRequest(
            "reports:filter.mustInt" if field.type == "integer" else "reports:filter.mustNumber",
            field=field.name,
        )
    number: int | float
    if isinstance(value, int):
        number = value
    else:
        try:
            number = float(str(value).strip()) if not isinstance(value, float) else value
        except ValueError as exc:
            raise BadRequest(
                "reports:filter.mustInt" if field.type == "integer" else "reports:filter.mustNumber",
                field=field.name,
            ) from exc
        if not math.isfinite(number):
            raise BadRequest("reports:filter.mustNumber", field=field.name)
        if field.type == "integer":
            if not float(number).is_integer() or (isinstance(value, str) and "." in value.strip()):
                raise BadRequest("reports:filter.mustInt", field=field.name)
            number = int(number)
    if number < INT_MIN:
        raise BadRequest("reports:filter.outOfMin", field=field.name, min=INT_MIN)
    if number > INT_MAX:
        raise BadRequest("reports:filter.outOfMax", field=field.name, max=INT_MAX)
    return number


def parse_text(value: Any, field: FieldInfo) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool | list | dict):
        raise BadRequest("reports:filter.bad_value", field=field.name)
    text = str(value)
    if "\x00" in text:
        raise BadRequest("reports:filter.bad_value", field=field.name)
    if len(text) > MAX_TEXT:
        raise BadRequest("reports:filter.too_long", field=field.name, max=MAX_TEXT)
    return text


def condition(
    field: FieldInfo, operator: str | None, values: Any, dynamic: dict[str, Any] | None = None
) -> Condition | None:
    """Check one filter and convert its values; None when it has no value (it then filters nothing)."""
    op = (operator or "eq").strip() if isinstance(operator, str | type(None)) else ""
    if op not in OPERATORS:
        raise BadRequest("reports:filter.operator", operator=str(operator)[:40])
    if dynamic:
        if field.type != "time":
            raise BadRequest("reports:filter.dynamic_not_time", field=field.name)
        days = dynamic_dates(dynamic)
        values = [d.isoformat() for d in days]
        if operator is None or op == "eq":
            op = "between" if len(days) == 2 else "eq"
    if values is None:
        return None
    if not isinstance(values, list | tuple):
        values = [values]
    if len(values) > MAX_VALUES:
        raise BadRequest("reports:filter.too_many", field=field.name, max=MAX_VALUES)
    if not values or all(v is None or v == "" for v in values):
        return None
    if op == "between" and len(values) != 2:
        raise BadRequest("reports:filter.between_two", field=field.name)
    if op in ("eq", "ge", "le", "like") and len(values) != 1:
        if op == "eq" and len(values) > 1:
            op = "in"
        else:
            raise BadRequest("reports:filter.one_value", field=field.name, operator=op)
    if op == "like" and field.type != "text":
        raise BadRequest("reports:filter.like_text", field=field.name)
    if field.type == "time":
        converted: list[Any] = [parse_time(v, field) for v in values]
        if op == "between" and converted[0].at > converted[1].at:
            raise BadRequest("reports:filter.range_order", field=field.name)
    elif field.is_number:
        converted = [None if v is None else parse_number(v, field) for v in values]
        if op == "between":
            if None in converted:
                raise BadRequest("reports:filter.between_two", field=field.name)
            if converted[0] > converted[1]:
                raise BadRequest("reports:filter.range_order", field=field.name)
        elif op in ("ge", "le") and converted[0] is None:
            return None
    else:
        converted = [parse_text(v, field) for v in values]
        if op in ("between", "ge", "le") and None in converted:
            raise BadRequest("reports:filter.bad_value", field=field.name)
    return Condition(field, op, tuple(converted))
