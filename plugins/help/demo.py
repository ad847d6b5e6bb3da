"""Demo help documents: one per demo menu (and a few general ones) in every locale, for Acme and Globex."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from atrium.plugins.help.models import HelpDocument
from atrium.plugins.help.text import plain_text, sanitise
from atrium.sdk.context import tenant_scope
from atrium.sdk.db import session

DOCS = Path(__file__).parent / "demo_docs.json"
QUESTIONS = Path(__file__).parent / "demo_questions.json"
PARTNER_MANUAL = "https://docs.example/partner"


def documents() -> list[dict[str, Any]]:
    """The demo documents: ``[{key, menuCode, sort, docs: {locale: {title, content}}}]``."""
    found: list[dict[str, Any]] = json.loads(DOCS.read_text(encoding="utf-8"))
    return found


def questions() -> list[dict[str, Any]]:
    """Questions users ask about the demo documents: ``[{locale, question, documents}]``, ``documents``
    being the keys of the documents related to it, the one that answers it first."""
    found: list[dict[str, Any]] = json.loads(QUESTIONS.read_text(encoding="utf-8"))
    return found


def load(tenants: dict[str, int]) -> None:
    for name in ("acme", "globex"):
        with tenant_scope(tenants[name]):
            db = session()
            for item in documents():
                for locale, doc in item["docs"].items():
                    clean = sanitise(doc["content"])
                    db.add(
                        HelpDocument(
                            menu_code=item["menuCode"],
                            locale=locale,
                            title=doc["title"],
                            content=clean,
                            text=plain_text(clean),
                            sort=item["sort"],
                            manual_url=PARTNER_MANUAL if item["key"] == "partner" else "",
                        )
                    )
            db.flush()
