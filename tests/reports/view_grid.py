"""A published panel of many views laid out in a grid, for the viewer's benchmark and browser tests."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

#: an API call of the reports service: its path below `/api/dyreport` and a body (None: GET); answers data
Call = Callable[[str, Any], Any]


def grid_components(
    view_ids: list[str], columns: int, design_width: int, view_height: int
) -> list[dict[str, Any]]:
    """The panel's components: one view a cell, `columns` a row."""
    width = design_width // columns
    components = []
    for n, view_id in enumerate(view_ids):
        row, column = divmod(n, columns)
        components.append(
            {
                "id": f"view-{n}",
                "type": "view",
                "component": "user-view",
                "propValue": {"viewId": view_id},
                "style": {
                    "left": column * width,
                    "top": row * view_height,
                    "width": width,
                    "height": view_height,
                },
            }
        )
    return components


def publish_view_grid(
    call: Call,
    name: str,
    sources: list[dict[str, Any]],
    count: int,
    *,
    columns: int,
    design_width: int,
    view_height: int,
) -> str:
    """A published panel of `count` views, copies of `sources` in turn (titled #1, #2, ...); its id."""
    panel = call("/panel/save", {"name": name, "panelData": []})
    view_ids = []
    for n in range(count):
        source = {k: v for k, v in sources[n % len(sources)].items() if k not in ("id", "panelId")}
        view = call("/chart/view/save", {**source, "panelId": panel["id"], "title": f"#{n + 1}"})
        view_ids.append(view["id"])
    components = grid_components(view_ids, columns, design_width, view_height)
    call(
        "/panel/saveDraft",
        {
            "id": panel["id"],
            "panelData": json.dumps(components),
            "panelStyle": json.dumps({"width": design_width}),
        },
    )
    call("/panel/publish", {"id": panel["id"], "note": name})
    return str(panel["id"])
