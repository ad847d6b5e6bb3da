"""The start form a model declares on its start event, and the check of what a starter sends for it.

A start event lists its fields as ``<atrium:formField>`` elements under ``<bpmn:extensionElements>``::

    <atrium:formField id="days" type="number" required="true" min="0.5" max="30" label="Days">
      <atrium:label lang="zh-cn">请假天数</atrium:label>
    </atrium:formField>

``id`` is the variable the value becomes; ``type`` is ``string`` (one line), ``text`` (several lines),
``number`` (with optional ``min`` and ``max``) or ``date`` (``YYYY-MM-DD``); ``label`` is the text shown, with
one ``<atrium:label lang>`` per language that has its own (read as any element's labels are: `labels`). The
web form and `check_values` apply the same rules, so a value refused here is one the form had already
refused.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from atrium.plugins.process.engine import labels as element_labels
from atrium.sdk import BadRequest
from atrium.sdk.services import services

ATRIUM_NS = "http://atrium.dev/schema/bpmn"
TYPES = ("string", "text", "number", "date")
MAX_FIELDS = 50
MAX_TEXT = {"string": 200, "text": 2000}
PARAM_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
TRUE = ("true", "1", "yes")


@dataclass
class StartField:
    """One field of a start form: the variable it sets, its kind, its labels and its limits."""

    id: str
    type: str
    label: str
    labels: dict[str, str] = field(default_factory=dict)
    required: bool = False
    min: float | None = None
    max: float | None = None

    def out(self) -> dict[str, Any]:
        """The field as the web's start form reads it."""
        return {
            "id": self.id,
            "type": self.type,
            "label": self.label,
            "labels": self.labels,
            "required": self.required,
            "min": self.min,
            "max": self.max,
        }

    def label_for(self, locale: str | None = None) -> str:
        """The field's label in ``locale`` (the reader's by default)."""
        return element_labels.pick(self.labels, self.label or self.id, locale)


def _number(text: str) -> float | None:
    value = text.strip()
    return float(value) if NUMBER.match(value) else None


def parse(el: Any) -> tuple[list[StartField], list[tuple[str, dict[str, Any]]]]:
    """The start event ``el``'s fields, and the broken declarations (left out) as (rule, parameters)."""
    found: list[StartField] = []
    refused: list[tuple[str, dict[str, Any]]] = []

    def problem(rule: str, params: dict[str, Any]) -> None:
        refused.append((rule, params))

    seen: set[str] = set()
    items = [
        item
        for ext in el.findall("{http://www.omg.org/spec/BPMN/20100524/MODEL}extensionElements")
        for item in ext
        if isinstance(item.tag, str) and item.tag == f"{{{ATRIUM_NS}}}formField"
    ]
    for item in items[:MAX_FIELDS]:
        fid = (item.get("id") or "").strip()
        kind = (item.get("type") or "string").strip()
        if not PARAM_NAME.match(fid):
            problem("param_name", {"name": fid[:64]})
            continue
        if fid in seen:
            problem("field_duplicate", {"field": fid})
            continue
        if kind not in TYPES:
            problem("field_type", {"field": fid, "types": ", ".join(TYPES)})
            continue
        low, high = (item.get("min") or "").strip(), (item.get("max") or "").strip()
        lo, hi = _number(low) if low else None, _number(high) if high else None
        if (low and lo is None) or (high and hi is None):
            problem("value_numeric", {"name": fid})
            continue
        if lo is not None and hi is not None and hi < lo:
            problem("range_order", {})
            continue
        seen.add(fid)
        found.append(
            StartField(
                id=fid,
                type=kind,
                label=(item.get("label") or "").strip()[:100] or fid,
                labels=element_labels.own(item),
                required=(item.get("required") or "").strip().lower() in TRUE,
                min=lo if kind == "number" else None,
                max=hi if kind == "number" else None,
            )
        )
    return found, refused


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _as_number(value: Any) -> float | int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, str) and NUMBER.match(value.strip()):
        number = float(value.strip())
        return int(number) if number.is_integer() and "." not in value else number
    return None


def _as_date(value: Any) -> str | None:
    if not isinstance(value, str) or not DATE.match(value.strip()[:10]):
        return None
    text = value.strip()[:10]
    try:
        date.fromisoformat(text)
    except ValueError:
        return None
    return text


def _limit(value: float) -> str:
    return str(int(value)) if value.is_integer() else str(value)


def _check(f: StartField, value: Any) -> tuple[Any, str, dict[str, Any]]:
    """The cleaned value, or the rule it breaks with the message's parameters."""
    if f.type == "number":
        number = _as_number(value)
        if number is None:
            return None, "field_number", {}
        too_low = f.min is not None and number < f.min
        too_high = f.max is not None and number > f.max
        if too_low or too_high:
            low = _limit(f.min) if f.min is not None else "-∞"
            high = _limit(f.max) if f.max is not None else "∞"
            return None, "field_range", {"min": low, "max": high}
        return number, "", {}
    if f.type == "date":
        day = _as_date(value)
        return (day, "", {}) if day is not None else (None, "field_date", {})
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        return None, "field_text", {"limit": MAX_TEXT[f.type]}
    text = str(value).strip()
    if len(text) > MAX_TEXT[f.type]:
        return None, "field_text", {"limit": MAX_TEXT[f.type]}
    return text, "", {}


def check_values(fields: list[StartField], values: dict[str, Any]) -> dict[str, Any]:
    """``values`` with each declared field checked and cleaned (numbers as numbers, dates as
    ``YYYY-MM-DD``, text trimmed; an empty optional field left out). Every broken field is answered at once
    in ``data.errors`` (``{field, rule, message}``), the first one's message as the error's."""
    out = dict(values)
    t = services().t
    errors: list[dict[str, Any]] = []
    first: tuple[str, dict[str, Any]] | None = None
    for f in fields:
        params: dict[str, Any] = {}
        value = out.pop(f.id, None)
        if _blank(value):
            if not f.required:
                continue
            rule = "field_required"
        else:
            cleaned, rule, params = _check(f, value)
            if not rule:
                out[f.id] = cleaned
                continue
        params = {"field": f.label_for(), **params}
        errors.append({"field": f.id, "rule": rule, "message": t(f"process:start.{rule}", **params)})
        first = first or (rule, params)
    if first is not None:
        raise BadRequest(f"process:start.{first[0]}", data={"errors": errors}, **first[1])
    return out
