"""Articles another plugin offers through `atrium_knowledge_articles` are searched with the help documents."""

from __future__ import annotations

import types
from typing import Any

from atrium.sdk import PluginInfo, hookimpl
from atrium.sdk.testing import AtriumClient


def _articles_plugin() -> types.ModuleType:
    mod = types.ModuleType("kb_articles")

    @hookimpl
    def atrium_plugin_info() -> PluginInfo:
        return PluginInfo(name="kb-articles", version="1.0.0")

    @hookimpl
    def atrium_knowledge_articles(tenant_id: int, locale: str) -> list[dict[str, Any]]:
        if tenant_id != 1001:
            return []
        return [
            {
                "id": 7,
                "title": "Travel policy",
                "url": "/knowledge-details?id=7",
                "locale": locale,
                "content": "<p>Book flights through the travel desk.<script>x()</script></p>",
            }
        ]

    mod.atrium_plugin_info = atrium_plugin_info
    mod.atrium_knowledge_articles = atrium_knowledge_articles
    return mod


def test_portal_articles_are_searched_for_their_tenant_only(make_atrium_app):
    http = make_atrium_app([_articles_plugin()])
    alice = AtriumClient(http).signed_in("alice")
    found = alice.ok("GET", "/api/aigc/knowledge/search", params={"prompt": "how do I book flights?"})
    top = found["passages"][0]
    assert top["source"] == "portal" and top["title"] == "Travel policy"
    assert top["url"] == "/knowledge-details?id=7" and "x()" not in top["text"]
    only_help = alice.ok(
        "GET", "/api/aigc/knowledge/search", params={"prompt": "how do I book flights?", "access": "help"}
    )
    assert all(p["source"] == "help" for p in only_help["passages"])
    bob = AtriumClient(http).signed_in("bob")
    assert all(
        p["source"] == "help"
        for p in bob.ok("GET", "/api/aigc/knowledge/search", params={"prompt": "book flights"})["passages"]
    )
