"""Turning cells into typed values for an import target, with a reason for every cell that does not fit."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any

from atrium.sdk.services import services

from ..registry import ImportField, ImportTarget, localise

EXCEL_EPOCH = datetime(1899, 12, 30)
TRUE = {"1", "true", "yes", "y", "是", "có", "igen", "t"}
FALSE = {"0", "false", "no", "n", "否", "không", "nem", "f"}
DATE_RE = re.compile(r"^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?$")
NORMALISE = re.compile(r"[\s*_\-:：()（）\[\]【】]+")


class CellError(Exception):
    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def norm_title(text: str) -> str:
    return NORMALISE.sub("", str(text)).lower()


def _text(v: Any) -> str:
    if isinstance(v, float):
        if v.is_integer() and abs(v) < 1e15:
            return str(int(v))
        return repr(v)
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, datetime):
        return v.isoformat(sep=" ")
    if isinstance(v, date):
        return v.isoformat()
    return str(v).strip()


def _to_int(v: Any) -> int:
    if isinstance(v, bool):
        raise CellError("transfer:cell.int")
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        if v.is_integer():
            return int(v)
        raise CellError("transfer:cell.int")
    try:
        return int(str(v).strip().replace(",", ""))
    except ValueError:
        raise CellError("transfer:cell.int") from None


def _to_float(v: Any) -> float:
    if isinstance(v, bool):
        raise CellError("transfer:cell.float")
    if isinstance(v, int | float):
        f = float(v)
    else:
        try:
            f = float(str(v).strip().replace(",", ""))
        except ValueError:
            raise CellError("transfer:cell.float") from None
    if math.isnan(f) or math.isinf(f):
        raise CellError("transfer:cell.float")
    return f


def _to_datetime(v: Any) -> datetime:
    if isinstance(v, datetime):
        return v
    if isinstance(v, date):
        return datetime(v.year, v.month, v.day)
    if isinstance(v, int | float) and not isinstance(v, bool):
        if 0 < v < 2958466:  # Excel serial dates up to 9999-12-31
            return EXCEL_EPOCH + timedelta(days=float(v))
        raise CellError("transfer:cell.date")
    text = str(v).strip()
    m = DATE_RE.match(text)
    try:
        if m:
            return datetime(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        return datetime.fromisoformat(text.replace("/", "-"))
    except ValueError:
        raise CellError("transfer:cell.date") from None


def _to_bool(v: Any) -> bool:
    if isinstance(v, bool):
        return v
    text = _text(v).lower()
    if text in TRUE:
        return True
    if text in FALSE:
        return False
    raise CellError("transfer:cell.bool")


def converter(f: ImportField) -> Callable[[Any], Any]:
    """A function from a cell to the field's value (None for an empty optional cell); raises CellError.

    Built once per field with only the checks the field needs: it runs for every cell of an import.
    """
    required, max_length, choices = f.required, f.max_length, f.choices
    low, high = f.min_value, f.max_value

    def empty() -> None:
        if required:
            raise CellError("transfer:cell.required")
        return None

    if f.type == "str":

        def convert_str(v: Any) -> Any:
            out = v.strip() if type(v) is str else ("" if v is None else _text(v))
            if not out:
                return empty()
            if max_length is not None and len(out) > max_length:
                raise CellError("transfer:cell.too_long", max=max_length)
            if choices is not None and out not in choices:
                raise CellError("transfer:cell.choice", choices=", ".join(choices))
            return out

        return convert_str

    parse: Callable[[Any], Any] = {
        "int": _to_int,
        "float": _to_float,
        "date": lambda v: _to_datetime(v).date(),
        "datetime": _to_datetime,
        "bool": _to_bool,
    }[f.type]
    bounded = f.type != "bool" and (low is not None or high is not None)

    def convert(v: Any) -> Any:
        if v is None or v == "" or (type(v) is str and not v.strip()):
            return empty()
        out = parse(v)
        if bounded:
            if low is not None and out < low:
                raise CellError("transfer:cell.min", min=_text(low))
            if high is not None and out > high:
                raise CellError("transfer:cell.max", max=_text(high))
        return out

    return convert


class RowConverter:
    """Converts a sheet row into the target's dict, or answers why it cannot."""

    def __init__(self, target: ImportTarget, mapping: dict[str, int], locale: str) -> None:
        self.target = target
        self.locale = locale
        self.plan: list[tuple[str, int, Callable[[Any], Any], str]] = []
        for f in target.fields:
            col = mapping.get(f.key)
            if col is None:
                continue
            self.plan.append((f.key, col, converter(f), localise(f.label, locale)))
        self.blank = {f.key: None for f in target.fields if f.key not in mapping}
        self.steps = [(key, col, conv) for key, col, conv, _ in self.plan]
        self.needs = max((col for _, col, _, _ in self.plan), default=-1) + 1
        self.validate = target.validate_row

    def __call__(self, row: list[Any]) -> tuple[dict[str, Any] | None, str]:
        out: dict[str, Any] = dict(self.blank)
        if len(row) >= self.needs:
            try:
                for key, col, conv in self.steps:
                    out[key] = conv(row[col])
            except CellError:
                return None, self._reasons(row)
        else:
            return self._short_row(row)
        return self._validated(out)

    def _short_row(self, row: list[Any]) -> tuple[dict[str, Any] | None, str]:
        padded = list(row) + [None] * (self.needs - len(row))
        return self(padded)

    def _reasons(self, row: list[Any]) -> str:
        """Every cell's problem, in the field order (the slow path, only for bad rows)."""
        errors: list[str] = []
        for _key, col, conv, label in self.plan:
            try:
                conv(row[col])
            except CellError as e:
                errors.append(services().t(e.key, field=label, **e.params))
        return "; ".join(errors)

    def _validated(self, out: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
        if self.validate is None:
            return out, ""
        try:
            problem = self.validate(out)
        except Exception:
            problem = services().t("transfer:cell.invalid_row")
        if problem:
            return None, services().t(problem) if ":" in problem and " " not in problem else problem
        return out, ""


def auto_match(target: ImportTarget, titles: list[str]) -> dict[str, int]:
    """Field key to column index, by the field's key, its label in any language, or an alias."""
    wanted: dict[str, str] = {}
    for f in target.fields:
        names = [f.key, *f.aliases]
        names += [f.label] if isinstance(f.label, str) else list(f.label.values())
        for n in names:
            wanted.setdefault(norm_title(n), f.key)
    out: dict[str, int] = {}
    for i, title in enumerate(titles):
        key = wanted.get(norm_title(title)) if title else None
        if key and key not in out:
            out[key] = i
    return out
