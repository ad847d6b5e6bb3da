"""Shaping aggregated rows into the chart answer: x, series, datas, fields, tableRow, pivot.

Runs only on the aggregated result (never on a dataset's raw rows); pandas does the pivot and the derived
values (share of total, running total).
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from math import isnan
from typing import Any

import pandas as pd

from atrium.plugins.reports.engine.query import Axis

X_SEPARATOR = "\n"


def plain(value: Any, integer: bool = False) -> Any:
    """JSON-ready scalars: Decimal to number, time to text, NaN to None."""
    kind = type(value)
    if kind is str or value is None or (kind is int and not integer):
        return value
    if isinstance(value, Decimal):
        value = float(value)
    if isinstance(value, float):
        if value != value:  # NaN
            return None
        if integer and value.is_integer():
            return int(value)
        return value
    if isinstance(value, datetime):
        return (
            value.strftime("%Y-%m-%d %H:%M:%S")
            if value.time() != datetime.min.time()
            else value.strftime("%Y-%m-%d %H:%M:%S")
        )
    if isinstance(value, date):
        return value.isoformat()
    if hasattr(value, "item"):  # numpy scalars
        return plain(value.item(), integer)
    return value


def plain_rows(rows: list[tuple[Any, ...]], integer: list[bool]) -> list[tuple[Any, ...]]:
    """`plain` over every value; checked column by column, so that columns already plain (text, and
    integers or finite floats where no integer is asked for) pass through without a call per value."""
    if not rows:
        return rows
    columns = list(zip(*rows, strict=True))
    changed = False
    for i, (col, whole) in enumerate(zip(columns, integer, strict=True)):
        kinds = set(map(type, col))
        if kinds <= _TEXT or (
            not whole and kinds <= _NUMBERS and (float not in kinds or not any(map(isnan, col)))
        ):
            continue
        columns[i] = tuple(plain(v, whole) for v in col)
        changed = True
    return list(zip(*columns, strict=True)) if changed else rows


_TEXT = {str, type(None)}
_NUMBERS = {int, float}


def label(values: tuple[Any, ...]) -> str:
    """Dimension values as one category label (None as empty text)."""
    try:
        return X_SEPARATOR.join(values)
    except TypeError:
        return X_SEPARATOR.join("" if v is None else str(v) for v in values)


def quota_is_integer(a: Axis) -> bool:
    return a.summary in ("count", "count_distinct") or (
        a.field.type == "integer" and a.summary in ("sum", "max", "min")
    )


def field_entry(a: Axis, axis_name: str) -> dict[str, Any]:
    entry = {**a.field.public(), "key": a.key, "axis": axis_name, "name": a.shown_name}
    if a.summary:
        entry["summary"] = a.summary
    for k in ("sort", "dateStyle", "datePattern", "valueFormat", "compareCalc"):
        if k in a.raw:
            entry[k] = a.raw[k]
    return entry


def derived(frame: pd.DataFrame, quotas: list[Axis], qcols: list[str]) -> pd.DataFrame:
    """Apply compareCalc per quota: `percent` (share of the column total) or `accumulate` (running total)."""
    for a, col in zip(quotas, qcols, strict=True):
        calc = a.raw.get("compareCalc") or {}
        kind = calc.get("type") if isinstance(calc, dict) else None
        if kind == "percent":
            total = pd.to_numeric(frame[col], errors="coerce").sum()
            frame[col] = pd.to_numeric(frame[col], errors="coerce") / total if total else None
        elif kind == "accumulate":
            frame[col] = pd.to_numeric(frame[col], errors="coerce").cumsum()
    return frame


def chart(
    dims: list[Axis],
    ext: list[Axis],
    quotas: list[tuple[str, Axis]],
    rows: list[tuple[Any, ...]],
    with_derived: bool,
) -> dict[str, Any]:
    """x, series, datas and tableRow of a grouped result (dims, then ext dims, then quotas per row)."""
    nd, ne = len(dims), len(ext)
    qaxes = [a for _, a in quotas]
    ints = [quota_is_integer(a) for a in qaxes]
    if with_derived and any(
        (a.raw.get("compareCalc") or {}).get("type") in ("percent", "accumulate")
        for a in qaxes
        if isinstance(a.raw.get("compareCalc"), dict)
    ):
        cols = [f"d{i}" for i in range(nd + ne)] + [f"q{i}" for i in range(len(qaxes))]
        frame = derived(pd.DataFrame(rows, columns=cols, dtype=object), qaxes, cols[nd + ne :])
        rows = [tuple(r) for r in frame.itertuples(index=False, name=None)]
        ints = [
            i and (a.raw.get("compareCalc") or {}).get("type") != "percent"
            for i, a in zip(ints, qaxes, strict=True)
        ]
    rows = plain_rows(rows, [False] * (nd + ne) + ints)
    row_keys = [a.key for a in dims + ext + qaxes]
    table_row = [dict(zip(row_keys, r, strict=True)) for r in rows]

    x_keys: list[tuple[Any, ...]] = []
    x_index: dict[tuple[Any, ...], int] = {}
    for r in rows:
        k = r[:nd]
        if k not in x_index:
            x_index[k] = len(x_keys)
            x_keys.append(k)
    x = [label(k) for k in x_keys]
    if nd == 0:
        x = []  # a single value (gauge, text): series carry one point each

    dim_ids = [a.field.id for a in dims + ext]
    # each row's dimension list and each quota's list are built once and shared by the points that show them
    dim_lists = [[{"id": fid, "value": v} for fid, v in zip(dim_ids, r, strict=False)] for r in rows]
    quota_lists = [[{"id": a.field.id}] for a in qaxes]

    names = _series_names(qaxes)
    series: list[dict[str, Any]] = []
    datas: list[dict[str, Any]] = []
    if ne == 0:
        slots = [x_index[r[:nd]] for r in rows]
        for qi, (axis_name, a) in enumerate(quotas):
            data: list[Any] = [None] * len(x_keys)
            col = nd + qi
            for r, slot, dl in zip(rows, slots, dim_lists, strict=True):
                data[slot] = {"value": r[col], "dimensionList": dl, "quotaList": quota_lists[qi]}
            series.append(
                {"name": names[qi], "data": data, "summary": a.summary, "property": _property(a, axis_name)}
            )
        bubble = next((nd + qi for qi, (n, _) in enumerate(quotas) if n == "extBubble"), None)
        for r, slot, dl in zip(rows, slots, dim_lists, strict=True):
            x_label = x[slot] if nd else ""
            for qi, (axis_name, _a) in enumerate(quotas):
                if axis_name == "extBubble":
                    continue
                item = {
                    "field": x_label,
                    "name": x_label,
                    "value": r[nd + qi],
                    "category": names[qi],
                    "dimensionList": dl,
                    "quotaList": quota_lists[qi],
                }
                if bubble is not None:
                    item["popSize"] = r[bubble]
                datas.append(item)
    else:
        groups: dict[tuple[str, int], dict[str, Any]] = {}
        for r, dl in zip(rows, dim_lists, strict=True):
            ext_label = label(r[nd : nd + ne])
            x_label = label(r[:nd])
            for qi, (axis_name, a) in enumerate(quotas):
                name = ext_label if len(quotas) == 1 else f"{ext_label}-{names[qi]}"
                s = groups.get((ext_label, qi))
                if s is None:
                    s = groups[(ext_label, qi)] = {
                        "name": name,
                        "data": [None] * len(x_keys),
                        "summary": a.summary,
                        "property": _property(a, axis_name),
                    }
                    series.append(s)
                point = {"value": r[nd + ne + qi], "dimensionList": dl, "quotaList": quota_lists[qi]}
                s["data"][x_index[r[:nd]]] = point
                datas.append(
                    {
                        "field": x_label,
                        "name": x_label,
                        "value": r[nd + ne + qi],
                        "category": name,
                        "dimensionList": dl,
                        "quotaList": quota_lists[qi],
                    }
                )
    fields = (
        [field_entry(a, "xaxis") for a in dims]
        + [field_entry(a, "xaxisExt") for a in ext]
        + [field_entry(a, n) for n, a in quotas]
    )
    return {"x": x, "series": series, "datas": datas, "fields": fields, "tableRow": table_row}


def _series_names(qaxes: list[Axis]) -> list[str]:
    seen: dict[str, int] = {}
    for a in qaxes:
        seen[a.shown_name] = seen.get(a.shown_name, 0) + 1
    return [a.shown_name if seen[a.shown_name] == 1 else f"{a.shown_name}({a.summary})" for a in qaxes]


def _property(a: Axis, axis_name: str) -> dict[str, Any]:
    return {
        "axis": axis_name,
        "fieldId": a.field.id,
        "key": a.key,
        "valueFormat": a.raw.get("valueFormat"),
        "chartType": a.raw.get("chartType"),
    }


def details(cols: list[Axis], rows: list[tuple[Any, ...]]) -> dict[str, Any]:
    """table-info: raw rows of the chosen columns."""
    table_row = [
        {a.key: plain(v, a.field.type == "integer") for a, v in zip(cols, r, strict=True)} for r in rows
    ]
    return {
        "x": [],
        "series": [],
        "datas": [],
        "fields": [field_entry(a, "xaxis") for a in cols],
        "tableRow": table_row,
    }


def pivot(
    rows_dims: list[Axis],
    col_dims: list[Axis],
    quotas: list[Axis],
    rows: list[tuple[Any, ...]],
    row_totals: list[tuple[Any, ...]],
    col_totals: list[tuple[Any, ...]],
    grand: tuple[Any, ...] | None,
) -> dict[str, Any]:
    """table-pivot: row dimensions down, column dimensions across, one cell per quota; totals come from
    separate aggregate queries so averages and distinct counts stay exact."""
    nr, nc = len(rows_dims), len(col_dims)
    qkeys = [a.key for a in quotas]
    ints = [quota_is_integer(a) for a in quotas]
    cols = [f"r{i}" for i in range(nr)] + [f"c{i}" for i in range(nc)] + qkeys
    frame = pd.DataFrame([tuple(plain(v) for v in r) for r in rows], columns=cols, dtype=object)
    col_paths: list[tuple[Any, ...]] = []
    if nc:
        col_paths = sorted(
            {tuple(r[nr : nr + nc]) for r in frame.itertuples(index=False, name=None)},
            key=lambda t: tuple("" if v is None else str(v) for v in t),
        )
    columns = []
    for path in col_paths or [()]:
        for q, key in zip(quotas, qkeys, strict=True):
            columns.append(
                {
                    "path": list(path),
                    "quota": key,
                    "name": q.shown_name,
                    "key": "|".join(["" if v is None else str(v) for v in path] + [key]),
                }
            )
    out_rows: list[dict[str, Any]] = []
    if len(frame):
        index = [f"r{i}" for i in range(nr)] or None
        if nc:
            frame["_col"] = [
                "|".join("" if v is None else str(v) for v in r)
                for r in frame[[f"c{i}" for i in range(nc)]].itertuples(index=False, name=None)
            ]
        else:
            frame["_col"] = ""
        long = frame.melt(id_vars=(index or []) + ["_col"], value_vars=qkeys, var_name="_q", value_name="_v")
        long["_key"] = [
            f"{c}|{q}" if c != "" or nc else q for c, q in zip(long["_col"], long["_q"], strict=True)
        ]
        if index:
            long[index] = long[index].fillna("")
            wide = long.pivot_table(
                index=index, columns="_key", values="_v", aggfunc="first", dropna=False, sort=True
            )
            for keys, rec in zip(wide.index, wide.to_dict("records"), strict=True):
                keys = keys if isinstance(keys, tuple) else (keys,)
                out_rows.append(
                    {
                        "rowKeys": [plain(k) for k in keys],
                        "values": {
                            k: plain(v, ints[qkeys.index(k.rsplit("|", 1)[-1])])
                            for k, v in rec.items()
                            if v is not None and v == v
                        },
                    }
                )
        else:
            rec = {k: v for k, v in zip(long["_key"], long["_v"], strict=True)}
            out_rows.append(
                {
                    "rowKeys": [],
                    "values": {k: plain(v, ints[qkeys.index(k.rsplit("|", 1)[-1])]) for k, v in rec.items()},
                }
            )
    totals_by_row = {tuple(plain(v) for v in r[:nr]): r[nr:] for r in row_totals}
    for rec in out_rows:
        t = totals_by_row.get(tuple(rec["rowKeys"]))
        rec["total"] = (
            {k: plain(v, ints[i]) for i, (k, v) in enumerate(zip(qkeys, t, strict=True))} if t else {}
        )
    column_totals = {}
    for r in col_totals:
        joined = "|".join("" if v is None else str(plain(v)) for v in r[:nc])
        for i, key in enumerate(qkeys):
            column_totals[f"{joined}|{key}" if nc else key] = plain(r[nc + i], ints[i])
    return {
        "rowFields": [a.key for a in rows_dims],
        "columnFields": [a.key for a in col_dims],
        "quotaFields": qkeys,
        "columns": columns,
        "rows": out_rows,
        "columnTotals": column_totals,
        "grandTotal": {
            k: plain(v, ints[i]) for i, (k, v) in enumerate(zip(qkeys, grand or (), strict=False))
        },
    }
