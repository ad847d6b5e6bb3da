"""Datasets from Excel: a workbook becomes a tenant-owned table in the platform database and a dataset.

`create_excel_dataset` is the function other plugins (the transfer wizard) can call; the route
`POST /api/dyreport/dataset/importExcel` uses it directly. `append_sales_rows` is the write function of
the `dyreport-sales` import target registered with the transfer plugin.
"""

from __future__ import annotations

import secrets
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

import python_calamine as pc
import sqlalchemy as sa
from sqlalchemy import select

from atrium.plugins.reports.demo import content, sales
from atrium.plugins.reports.engine.fields import dataease_name, default_role, type_of_values
from atrium.plugins.reports.models import Dataset, DatasetField, new_id
from atrium.plugins.reports.store import datasets
from atrium.sdk.context import current_context
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest

MAX_ROWS = 1_000_000
MAX_COLUMNS = 200
BATCH = 5000
SALES_IMPORT_FIELDS = [
    ("order_date", {"zh-cn": "下单日期", "en-us": "Order date"}, "datetime"),
    ("region", {"zh-cn": "大区", "en-us": "Region"}, "str"),
    ("province", {"zh-cn": "省份", "en-us": "Province"}, "str"),
    ("city", {"zh-cn": "城市", "en-us": "City"}, "str"),
    ("category", {"zh-cn": "品类", "en-us": "Category"}, "str"),
    ("product", {"zh-cn": "产品", "en-us": "Product"}, "str"),
    ("channel", {"zh-cn": "渠道", "en-us": "Channel"}, "str"),
    ("quantity", {"zh-cn": "数量", "en-us": "Quantity"}, "int"),
    ("amount", {"zh-cn": "销售额", "en-us": "Amount"}, "float"),
    ("profit", {"zh-cn": "利润", "en-us": "Profit"}, "float"),
    ("lat", {"zh-cn": "纬度", "en-us": "Latitude"}, "float"),
    ("lng", {"zh-cn": "经度", "en-us": "Longitude"}, "float"),
]
SA_TYPES = {"text": sa.Text, "integer": sa.BigInteger, "float": sa.Float, "time": sa.DateTime}


def read_workbook(path: Path, header_row: int = 1) -> tuple[list[str], list[list[Any]]]:
    """Header titles and data rows of the first worksheet (python-calamine)."""
    try:
        book = pc.CalamineWorkbook.from_path(str(path))
        sheet = book.get_sheet_by_index(0)
        rows = sheet.to_python(skip_empty_area=False)
    except Exception as exc:  # noqa: BLE001 - any unreadable file is the same bad input
        raise BadRequest("reports:excel.unreadable") from exc
    if len(rows) < header_row:
        raise BadRequest("reports:excel.empty")
    header = [
        str(v).strip() if v not in (None, "") else f"column{i + 1}"
        for i, v in enumerate(rows[header_row - 1])
    ]
    if len(header) > MAX_COLUMNS:
        raise BadRequest("reports:excel.too_wide", max=MAX_COLUMNS)
    data = [r for r in rows[header_row:] if any(v not in (None, "") for v in r)]
    if len(data) > MAX_ROWS:
        raise BadRequest("reports:excel.too_long", max=MAX_ROWS)
    return header, data


def _convert(value: Any, ftype: str) -> Any:
    if value is None or value == "":
        return None
    if ftype == "time":
        if isinstance(value, datetime):
            return value
        if isinstance(value, date):
            return datetime.combine(value, time())
        return datetime.fromisoformat(str(value).strip())
    if ftype == "integer":
        return int(value)
    if ftype == "float":
        return float(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def create_excel_dataset(name: str, header: list[str], rows: list[list[Any]]) -> Dataset:
    """A table `rpt_x_<tenant>_<random>` with one column per header title, the rows, and its dataset."""
    tenant = current_context().tenant_id
    if tenant is None:
        raise BadRequest("reports:excel.no_tenant")
    width = len(header)
    rows = [list(r[:width]) + [None] * (width - len(r)) for r in rows]
    types = []
    for i in range(width):
        sample = [r[i] for r in rows[:2000] if r[i] != ""]
        # spreadsheet numbers come as floats: whole ones count as integers
        t = type_of_values([int(v) if isinstance(v, float) and v.is_integer() else v for v in sample])
        types.append(t)
    table_name = f"rpt_x_{abs(tenant)}_{secrets.token_hex(6)}"
    cols = [f"c{i + 1}" for i in range(width)]
    table = sa.Table(
        table_name, sa.MetaData(), *[sa.Column(c, SA_TYPES[t]()) for c, t in zip(cols, types, strict=True)]
    )
    conn = session().connection()
    table.create(bind=conn)
    try:
        records = [{c: _convert(v, t) for c, v, t in zip(cols, r, types, strict=True)} for r in rows]
    except (ValueError, TypeError) as exc:
        raise BadRequest("reports:excel.bad_value") from exc
    for i in range(0, len(records), BATCH):
        conn.execute(table.insert(), records[i : i + BATCH])
    datasets.own_table(table_name)
    user = current_context().user
    ds = Dataset(
        id=new_id(),
        name=name,
        kind="excel",
        table_name=table_name,
        mode="direct",
        created_by=user.user_id if user else None,
    )
    session().add(ds)
    for i, (col, title, t) in enumerate(zip(cols, header, types, strict=True)):
        session().add(
            DatasetField(
                id=new_id(),
                dataset_id=ds.id,
                name=title[:100],
                origin_name=col,
                dataease_name=dataease_name(col),
                type=t,
                source_type=t,
                role=default_role(t, title),
                sort=i,
            )
        )
    session().flush()
    return ds


def append_sales_rows(rows: list[dict[str, Any]]) -> None:
    """Import target `dyreport-sales`: rows go into the tenant's demo sales table (new versions of its
    datasets, so cached charts refresh)."""
    tenant = current_context().tenant_id
    if tenant is None:
        raise BadRequest("reports:excel.no_tenant")
    name = content.table_name(tenant)
    if not datasets.owned_table(name):
        raise BadRequest("reports:dataset.table_not_found", table=name)
    table = sales.sales_table(name)
    conn = session().connection()
    start = int(conn.execute(sa.select(sa.func.coalesce(sa.func.max(table.c.id), 0))).scalar() or 0)
    keys = [k for k, _, _ in SALES_IMPORT_FIELDS]
    conn.execute(
        table.insert(), [{"id": start + i + 1, **{k: r.get(k) for k in keys}} for i, r in enumerate(rows)]
    )
    for ds in session().execute(select(Dataset).where(Dataset.table_name == name)).scalars():
        datasets.bump(ds)
