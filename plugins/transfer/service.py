"""The transfer plugin's start-up and menus (the logic lives in importing, exporting and jobs)."""

from __future__ import annotations

from typing import Any

from atrium.sdk.types import MenuSpec

from . import contacts, demo
from .jobs import runtime, scheduled
from .registry import register_export_source, register_import_target, register_word_template


def register_builtins() -> None:
    register_import_target(contacts.TARGET)
    register_export_source(contacts.SOURCE)
    register_word_template(contacts.word_template())


def startup(services: Any) -> None:
    """Register the built-in target and source, write demo files, recover interrupted tasks."""
    runtime.new_start()
    register_builtins()
    demo.materialise(services)
    scheduled.recover()


def menus() -> list[MenuSpec]:
    return [
        MenuSpec(
            code="data-transfer",
            name="导入导出",
            en_name="Import and export",
            url="/data-transfer",
            icon="swap",
            sort=61,
            children=[
                MenuSpec(
                    code="data-transfer-import",
                    name="数据导入",
                    en_name="Import",
                    url="/data-transfer/import",
                    sort=1,
                ),
                MenuSpec(
                    code="data-transfer-exports",
                    name="导出记录",
                    en_name="Export records",
                    url="/data-transfer/exports",
                    sort=2,
                ),
            ],
        )
    ]
