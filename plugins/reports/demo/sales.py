"""Realistic, reproducible demo sales rows (the same seed always gives the same rows)."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from typing import Any

import sqlalchemy as sa

GEO: dict[str, dict[str, dict[str, tuple[float, float]]]] = {
    "华东": {
        "上海": {"上海": (31.23, 121.47)},
        "江苏": {"南京": (32.06, 118.79), "苏州": (31.30, 120.59)},
        "浙江": {"杭州": (30.27, 120.16), "宁波": (29.87, 121.55)},
        "山东": {"济南": (36.65, 117.12), "青岛": (36.07, 120.38)},
    },
    "华北": {
        "北京": {"北京": (39.90, 116.41)},
        "天津": {"天津": (39.13, 117.20)},
        "河北": {"石家庄": (38.04, 114.51)},
    },
    "华南": {
        "广东": {"广州": (23.13, 113.26), "深圳": (22.54, 114.06)},
        "福建": {"福州": (26.07, 119.30), "厦门": (24.48, 118.09)},
    },
    "西南": {"四川": {"成都": (30.57, 104.07)}, "重庆": {"重庆": (29.56, 106.55)}},
    "华中": {"湖北": {"武汉": (30.59, 114.31)}, "湖南": {"长沙": (28.23, 112.94)}},
}
PRODUCTS: dict[str, dict[str, float]] = {
    "办公用品": {"订书机": 25.0, "文件夹": 8.5, "签字笔": 3.2},
    "家具": {"办公椅": 680.0, "书架": 420.0, "会议桌": 2300.0},
    "技术": {"笔记本电脑": 5600.0, "打印机": 1500.0, "手机": 3200.0},
}
CHANNELS = ("线上", "门店", "分销")
COLUMNS = (
    "order_date",
    "region",
    "province",
    "city",
    "category",
    "product",
    "channel",
    "quantity",
    "amount",
    "profit",
    "lat",
    "lng",
)
COLUMN_TYPES = {
    "order_date": "time",
    "region": "text",
    "province": "text",
    "city": "text",
    "category": "text",
    "product": "text",
    "channel": "text",
    "quantity": "integer",
    "amount": "float",
    "profit": "float",
    "lat": "float",
    "lng": "float",
}


def sales_rows(
    n: int = 20_000, seed: int = 20240101, end: date | None = None, days: int = 731
) -> list[dict[str, Any]]:
    """`n` order lines over the `days` days up to `end` (today by default): date, region, province, city,
    category, product, channel, quantity, amount, profit, lat, lng. Amounts have two decimals.

    The first `days` lines fall one on each day, newest first, so every dynamic date range (today, this
    month, this year on 1 January...) finds orders whatever day the demo is loaded."""
    rnd = random.Random(seed)
    last = end or date.today()
    start = datetime(last.year, last.month, last.day) - timedelta(days=days - 1)
    places = [
        (r, p, c, ll) for r, provs in GEO.items() for p, cities in provs.items() for c, ll in cities.items()
    ]
    weights = [3 if p in ("上海", "广东", "北京", "江苏", "浙江") else 1 for _, p, _, _ in places]
    items = [(cat, prod, price) for cat, prods in PRODUCTS.items() for prod, price in prods.items()]
    out = []
    for i in range(n):
        region, province, city, (lat, lng) = rnd.choices(places, weights)[0]
        category, product, price = items[rnd.randrange(len(items))]
        qty = rnd.randint(1, 20) if price < 100 else rnd.randint(1, 6)
        discount = rnd.choice((0.0, 0.0, 0.05, 0.1, 0.2))
        amount = round(qty * price * (1 - discount), 2)
        margin = rnd.uniform(-0.08, 0.32)
        offset = days - 1 - i if i < days else rnd.randrange(days)
        day = start + timedelta(days=offset, hours=rnd.randrange(8, 21), minutes=rnd.randrange(60))
        out.append(
            {
                "id": i + 1,
                "order_date": day,
                "region": region,
                "province": province,
                "city": city,
                "category": category,
                "product": product,
                "channel": CHANNELS[rnd.randrange(3)],
                "quantity": qty,
                "amount": amount,
                "profit": round(amount * margin, 2),
                "lat": lat,
                "lng": lng,
            }
        )
    return out


def sales_table(name: str, metadata: sa.MetaData | None = None) -> sa.Table:
    return sa.Table(
        name,
        metadata or sa.MetaData(),
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("order_date", sa.DateTime),
        sa.Column("region", sa.String(16)),
        sa.Column("province", sa.String(16)),
        sa.Column("city", sa.String(16)),
        sa.Column("category", sa.String(16)),
        sa.Column("product", sa.String(32)),
        sa.Column("channel", sa.String(16)),
        sa.Column("quantity", sa.Integer),
        sa.Column("amount", sa.Float),
        sa.Column("profit", sa.Float),
        sa.Column("lat", sa.Float),
        sa.Column("lng", sa.Float),
    )
