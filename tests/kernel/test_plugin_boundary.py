"""Built-in plugins are written like anyone else's: against the SDK, never the kernel's internals, and
never another plugin's modules (plugins meet through hooks and SDK services)."""

from __future__ import annotations

import ast
from pathlib import Path

PLUGINS = Path(__file__).resolve().parents[2] / "plugins"


def imported_modules(source: str) -> list[str]:
    """Every module an Import/ImportFrom node names, wherever it is (functions, try blocks, TYPE_CHECKING);
    relative imports are not resolved (they stay inside the plugin's package)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
            # `from atrium.plugins import transfer` names the plugin in the imported names
            if node.module == "atrium.plugins":
                found += [f"atrium.plugins.{a.name}" for a in node.names]
    return found


def boundary_breaches(source: str, plugin: str) -> list[str]:
    """The imports of a module of ``plugin`` that cross the boundary: the kernel, or another plugin."""
    bad = []
    for name in imported_modules(source):
        if name == "atrium.kernel" or name.startswith("atrium.kernel."):
            bad.append(name)
        elif name.startswith("atrium.plugins."):
            other = name.split(".")[2]
            if other != plugin:
                bad.append(name)
    return bad


def breaches(path: Path) -> list[str]:
    plugin = path.relative_to(PLUGINS).parts[0]
    return [f"{path.relative_to(PLUGINS)}: {n}" for n in boundary_breaches(path.read_text("utf-8"), plugin)]


def test_no_plugin_imports_the_kernel_or_another_plugin() -> None:
    sources = [p for p in PLUGINS.rglob("*.py") if "node_modules" not in p.parts]
    assert len(sources) > 50
    assert [hit for p in sources for hit in breaches(p)] == []


def test_the_checker_finds_imports_wherever_they_hide() -> None:
    sample = """
import json
from atrium.sdk.transfer import ExportSource
from atrium.plugins.transfer.registry import registry
from . import api

def register():
    try:
        from atrium.plugins.files import service as files
    except ImportError:
        return None
    import atrium.plugins.reports.engine
    from atrium.plugins import forms
    from atrium.kernel.db import session
    return files
"""
    assert sorted(boundary_breaches(sample, "admin")) == [
        "atrium.kernel.db",
        "atrium.plugins.files",
        "atrium.plugins.forms",
        "atrium.plugins.reports.engine",
        "atrium.plugins.transfer.registry",
    ]
    # a plugin's own modules are its business
    assert sorted(boundary_breaches(sample, "transfer")) == [
        "atrium.kernel.db",
        "atrium.plugins.files",
        "atrium.plugins.forms",
        "atrium.plugins.reports.engine",
    ]
    assert boundary_breaches("from atrium.sdk import hookimpl\nfrom .service import x\n", "files") == []
