"""Transfer's lookup of import targets, export sources and Word templates.

The types are the SDK's (:mod:`atrium.sdk.transfer`, re-exported here for transfer's own modules). Other
plugins offer theirs by answering the hooks ``atrium_import_targets``, ``atrium_export_sources`` and
``atrium_word_templates``; they are asked on each look-up, so a target a plugin adds later (a form
published while the server runs) is found at once. Transfer's own entries (the contacts demo) are kept in
:data:`registry`, which also wins over a hook answer under the same code or url.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

import structlog

from atrium.sdk.services import services
from atrium.sdk.transfer import (
    ExportColumn,
    ExportRequest,
    ExportSource,
    FieldType,
    ImportField,
    ImportTarget,
    Label,
    Row,
    WordTemplate,
    _batch,
    bulk_insert,
    current_batch_id,
    localise,
    normalise_url,
    paged,
    query_rows,
)

__all__ = [
    "ExportColumn",
    "ExportRequest",
    "ExportSource",
    "FieldType",
    "ImportField",
    "ImportTarget",
    "Label",
    "Row",
    "WordTemplate",
    "_batch",
    "bulk_insert",
    "current_batch_id",
    "export_source",
    "export_sources",
    "import_target",
    "import_targets",
    "localise",
    "normalise_url",
    "paged",
    "query_rows",
    "register_export_source",
    "register_import_target",
    "register_word_template",
    "registry",
    "word_template",
    "word_templates",
]

log = structlog.get_logger("atrium.transfer")
T = TypeVar("T")


class _Registry:
    """Transfer's own entries (and tests'), beside those the other plugins answer through the hooks."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.targets: dict[str, ImportTarget] = {}
        self.sources: dict[str, ExportSource] = {}
        self.templates: dict[str, WordTemplate] = {}


registry = _Registry()


def register_import_target(target: ImportTarget) -> None:
    with registry._lock:
        registry.targets[target.code] = target


def register_export_source(source: ExportSource) -> None:
    with registry._lock:
        registry.sources[source.key] = source


def register_word_template(template: WordTemplate) -> None:
    with registry._lock:
        registry.templates[template.code] = template


def _answers(hook: str, kind: type[T], key: Callable[[T], str], own: dict[str, T]) -> dict[str, T]:
    """Every loaded plugin's answer to ``hook`` keyed by ``key`` (later plugins replace earlier ones),
    then transfer's own entries."""
    found: dict[str, T] = {}
    try:
        answers: dict[str, Any] = services().call_hook(hook)
    except RuntimeError:  # the platform is not started (tools, unit tests): only transfer's own entries
        answers = {}
    for plugin, items in answers.items():
        for item in items or []:
            if isinstance(item, kind):
                found[key(item)] = item
            else:
                log.warning("ignored a hook answer of the wrong type", hook=hook, plugin=plugin)
    with registry._lock:
        found.update(own)
    return found


def import_targets() -> dict[str, ImportTarget]:
    return _answers("atrium_import_targets", ImportTarget, lambda t: t.code, registry.targets)


def export_sources() -> dict[str, ExportSource]:
    return _answers("atrium_export_sources", ExportSource, lambda s: s.key, registry.sources)


def word_templates() -> dict[str, WordTemplate]:
    return _answers("atrium_word_templates", WordTemplate, lambda w: w.code, registry.templates)


def import_target(code: str) -> ImportTarget | None:
    return import_targets().get(code)


def export_source(url: str) -> ExportSource | None:
    return export_sources().get(normalise_url(url))


def word_template(code: str) -> WordTemplate | None:
    return word_templates().get(code)
