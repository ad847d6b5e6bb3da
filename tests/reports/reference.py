"""Independent answers computed in plain Python over the generated rows."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

Row = dict[str, Any]


def aggregate(values: list[Any], summary: str) -> Any:
    present = [v for v in values if v is not None]
    if summary == "sum":
        return sum(present)
    if summary == "avg":
        return sum(present) / len(present) if present else None
    if summary == "count":
        return len(present)
    if summary == "count_distinct":
        return len(set(present))
    if summary == "max":
        return max(present) if present else None
    if summary == "min":
        return min(present) if present else None
    raise ValueError(summary)


def group(
    rows: Iterable[Row],
    key: Callable[[Row], Any],
    field: str,
    summary: str,
    where: Callable[[Row], bool] = lambda r: True,
) -> dict[Any, Any]:
    buckets: dict[Any, list[Any]] = defaultdict(list)
    for r in rows:
        if where(r):
            buckets[key(r)].append(r[field] if field != "*" else 1)
    return {k: aggregate(v, summary) for k, v in buckets.items()}


def month(r: Row) -> str:
    return r["order_date"].strftime("%Y-%m")


def quarter(r: Row) -> str:
    d = r["order_date"]
    return f"{d.year}-Q{(d.month + 2) // 3}"
