"""Built-in plugins are written like anyone else's: against the SDK, never the kernel's internals."""

from __future__ import annotations

import ast
from pathlib import Path

PLUGINS = Path(__file__).resolve().parents[2] / "plugins"


def kernel_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        found += [f"{path.relative_to(PLUGINS)}: {n}" for n in names if n.startswith("atrium.kernel")]
    return found


def test_no_plugin_imports_the_kernel() -> None:
    sources = [p for p in PLUGINS.rglob("*.py") if "node_modules" not in p.parts]
    assert len(sources) > 50
    assert [hit for p in sources for hit in kernel_imports(p)] == []
