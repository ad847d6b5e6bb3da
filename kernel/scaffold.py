"""`atrium plugin new NAME`: a plugin (Python package and web module) from `templates/plugin`."""

from __future__ import annotations

import shutil
from pathlib import Path

from atrium.kernel.config import ROOT
from atrium.sdk.types import PLUGIN_ID

TEMPLATE = ROOT / "templates" / "plugin"


def render(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    return text


def scaffold(name: str, dest: Path) -> Path:
    """Write the plugin to `dest` (its Python package at the top, its web module under `web/`)."""
    if not PLUGIN_ID.match(name):
        raise ValueError(
            f"plugin id {name!r} must be kebab-case: lowercase letters, digits and single dashes"
        )
    if dest.exists() and any(dest.iterdir()):
        raise ValueError(f"{dest} already exists and is not empty")
    values = {"name": name, "module": name.replace("-", "_"), "title": name.replace("-", " ").title()}
    for src in sorted(TEMPLATE.rglob("*")):
        if src.is_dir() or "__pycache__" in src.parts:
            continue
        rel = src.relative_to(TEMPLATE)
        parts = rel.parts[1:] if rel.parts[0] == "python" else rel.parts
        target = dest.joinpath(*[render(p, values) for p in parts])
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            target.write_text(render(src.read_text("utf-8"), values), "utf-8")
        except UnicodeDecodeError:
            shutil.copyfile(src, target)
    return dest
