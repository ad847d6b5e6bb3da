"""Dataset fields: the four types, the two roles, and type detection from a source's columns or values."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

import sqlalchemy as sa

from atrium.plugins.reports.models import DatasetField

TYPES = ("text", "time", "integer", "float")
ROLES = ("dimension", "quota")
RECORD_COUNT_ID = "count"
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$")


@dataclass(frozen=True)
class FieldInfo:
    """What the query builder needs of a field (detached from the ORM)."""

    id: str
    name: str
    origin_name: str
    dataease_name: str
    type: str
    source_type: str
    role: str
    dataset_id: str = ""
    #: a calculated field's expression over the dataset's columns; "" for a column of the source
    expression: str = ""

    @property
    def is_calculated(self) -> bool:
        return bool(self.expression)

    @property
    def is_number(self) -> bool:
        return self.type in ("integer", "float")

    @property
    def is_record_count(self) -> bool:
        return self.id == RECORD_COUNT_ID

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "dataeaseName": self.dataease_name,
            "originName": self.origin_name,
            "type": self.type,
            "role": self.role,
            "tableId": self.dataset_id,
        }


def record_count_field(name: str) -> FieldInfo:
    """The pseudo quota `count` (number of records), usable in any view."""
    return FieldInfo(RECORD_COUNT_ID, name, "*", "record_count", "integer", "integer", "quota")


def info(f: DatasetField) -> FieldInfo:
    return FieldInfo(
        f.id,
        f.name,
        f.origin_name,
        f.dataease_name,
        f.type,
        f.source_type,
        f.role,
        f.dataset_id,
        f.expression or "",
    )


def dataease_name(origin: str) -> str:
    """A stable, safe key for a column: `f_` and a hash of its source name (never raw user text)."""
    return "f_" + hashlib.md5(origin.encode(), usedforsecurity=False).hexdigest()[:16]


def type_of_sqla(t: Any) -> str:
    try:
        py = t.python_type
    except (NotImplementedError, AttributeError):
        return "text"
    if py is bool or py is int:
        return "integer"
    if py in (float, Decimal):
        return "float"
    if py in (datetime, date):
        return "time"
    return "text"


def type_of_values(values: list[Any]) -> str:
    """The narrowest type that fits every non-null sample value."""
    kinds = set()
    for v in values:
        if v is None:
            continue
        if isinstance(v, bool | int):
            kinds.add("integer")
        elif isinstance(v, float | Decimal):
            kinds.add("float")
        elif isinstance(v, datetime | date) or isinstance(v, str) and _ISO_DATE.match(v.strip()):
            kinds.add("time")
        else:
            kinds.add("text")
    if not kinds:
        return "text"
    if kinds <= {"integer"}:
        return "integer"
    if kinds <= {"integer", "float"}:
        return "float"
    if kinds == {"time"}:
        return "time"
    return "text"


#: identifier columns: `id`, `order_id`, `order-id`, `order id`, `用户ID` (any case), camel case `orderId` /
#: `orderID`, and names ending in 编号 or 序号 (not words that merely end in "id", such as `paid`)
_CAMEL_ID = re.compile(r"[a-z0-9](?:Id|ID)$")
_SEPARATED_ID = re.compile(r"(?:^|[^a-z])id$", re.IGNORECASE)
_NUMBERED = re.compile(r"(?:编号|編號|序号|序號)$")


def is_identifier(name: str) -> bool:
    """Whether a column name reads as an identifier (`id`, `*_id`, `*Id`): its numbers name things, they
    are not amounts to add up."""
    name = name.strip()
    return bool(_SEPARATED_ID.search(name) or _CAMEL_ID.search(name) or _NUMBERED.search(name))


def default_role(field_type: str, name: str = "") -> str:
    """Numbers are quotas (measures), the rest dimensions; identifiers are dimensions whatever their type."""
    if is_identifier(name):
        return "dimension"
    return "quota" if field_type in ("integer", "float") else "dimension"


def sa_type(field_type: str) -> sa.types.TypeEngine[Any]:
    types: dict[str, sa.types.TypeEngine[Any]] = {
        "integer": sa.BigInteger(),
        "float": sa.Float(),
        "time": sa.DateTime(),
        "text": sa.String(),
    }
    return types[field_type]
