"""Portal articles: writing, publishing, reading, panels, the public detail and bad input."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from atrium.sdk.context import unscoped
from atrium.sdk.db import utcnow

BASE = "/api/portal/portal-article"


def article(**extra: Any) -> dict[str, Any]:
    return {
        "category": "news",
        "title": "Canteen reopens",
        "summary": "New menu from Monday",
        "content": "<p>Fresh <strong>noodles</strong></p>",
        **extra,
    }


def fresh_admin(client: Any, tenant_factory: Any, user_factory: Any) -> tuple[Any, Any, int]:
    tid = tenant_factory()
    sup, password, _ = user_factory(tid, supervisor=True)
    reader, rpassword, _ = user_factory(tid)
    return client.signed_in(sup, password), client.signed_in(reader, rpassword), tid


def test_write_publish_and_read(client: Any, tenant_factory: Any, user_factory: Any) -> None:
    admin, reader, _tid = fresh_admin(client, tenant_factory, user_factory)
    saved = admin.ok("POST", f"{BASE}/admin/save", json={"params": article()})
    assert saved["status"] == "draft"
    assert reader.ok("GET", f"{BASE}/list?category=news")["total"] == 0
    assert reader.get(f"{BASE}/detail?id={saved['id']}")["code"] == 404
    admin.ok("POST", f"{BASE}/admin/publish", json={"params": {"id": saved["id"]}})
    listed = reader.ok("GET", f"{BASE}/list?category=news")
    assert [a["title"] for a in listed["list"]] == ["Canteen reopens"] and listed["total"] == 1
    assert reader.ok("GET", f"{BASE}/panels")["news"][0]["id"] == saved["id"]
    detail = reader.ok("GET", f"{BASE}/detail?id={saved['id']}")
    assert detail["content"] == "<p>Fresh <strong>noodles</strong></p>" and detail["views"] == 1
    assert reader.ok("GET", f"{BASE}/detail?id={saved['id']}")["views"] == 2
    admin.ok("POST", f"{BASE}/admin/unpublish", json={"params": {"id": saved["id"]}})
    assert reader.ok("GET", f"{BASE}/list")["total"] == 0
    assert reader.get(f"{BASE}/admin/list")["code"] == 403


def test_script_content_is_sanitised(client: Any, tenant_factory: Any, user_factory: Any) -> None:
    admin, _reader, _tid = fresh_admin(client, tenant_factory, user_factory)
    html = (
        '<p onclick="steal()">Hi<script>alert(1)</script></p><a href="javascript:alert(1)">x</a>'
        '<img src="https://cdn.example/a.png" onerror="alert(2)"><iframe src="https://evil"></iframe>'
    )
    saved = admin.ok("POST", f"{BASE}/admin/save", json={"params": article(content=html)})
    stored = admin.ok("GET", f"{BASE}/admin/get?id={saved['id']}")["content"]
    for bad in ("script", "onclick", "onerror", "javascript:", "iframe"):
        assert bad not in stored
    assert "Hi" in stored and 'src="https://cdn.example/a.png"' in stored
    preview = admin.ok("POST", f"{BASE}/admin/preview", json={"params": {"content": html}})["content"]
    assert preview == stored


def test_publish_window_and_paging_and_search(client: Any, tenant_factory: Any, user_factory: Any) -> None:
    admin, reader, _tid = fresh_admin(client, tenant_factory, user_factory)
    now = utcnow()
    future = admin.ok(
        "POST",
        f"{BASE}/admin/save",
        json={"params": article(title="Later", publishStart=(now + timedelta(days=2)).isoformat())},
    )
    ended = admin.ok(
        "POST",
        f"{BASE}/admin/save",
        json={"params": article(title="Over", publishEnd=(now - timedelta(days=1)).isoformat())},
    )
    ids = [future["id"], ended["id"]]
    for i in range(12):
        ids.append(
            admin.ok("POST", f"{BASE}/admin/save", json={"params": article(title=f"News {i:02d}")})["id"]
        )
    for aid in ids:
        admin.ok("POST", f"{BASE}/admin/publish", json={"params": {"id": aid}})
    page1 = reader.ok("GET", f"{BASE}/list?category=news&pageIndex=1&pageRows=10")
    page2 = reader.ok("GET", f"{BASE}/list?category=news&pageIndex=2&pageRows=10")
    assert page1["total"] == 12 and len(page1["list"]) == 10 and len(page2["list"]) == 2
    assert not {"Later", "Over"} & {a["title"] for a in page1["list"] + page2["list"]}
    found = reader.ok("GET", f"{BASE}/list?keyword=News 0")
    assert found["total"] == 10
    assert reader.ok("GET", f"{BASE}/list?keyword=%25")["total"] == 0
    bad = admin.post(
        f"{BASE}/admin/save",
        json={
            "params": article(publishStart=now.isoformat(), publishEnd=(now - timedelta(hours=1)).isoformat())
        },
    )
    assert bad == {"code": 400, "msg": "The publish window must end after it starts", "data": None}


def test_other_tenants_and_unknown_ids_are_not_found(
    client: Any, tenant_factory: Any, user_factory: Any, user_client: Any
) -> None:
    admin, _reader, _tid = fresh_admin(client, tenant_factory, user_factory)
    saved = admin.ok("POST", f"{BASE}/admin/save", json={"params": article()})
    admin.ok("POST", f"{BASE}/admin/publish", json={"params": {"id": saved["id"]}})
    other = user_client.get(f"{BASE}/detail?id={saved['id']}")
    assert other == {"code": 404, "msg": f"Article {saved['id']} does not exist", "data": None}
    sup = client.signed_in("supervisor")
    for path in ("admin/publish", "admin/delete"):
        assert sup.post(f"{BASE}/{path}", json={"params": {"id": saved["id"]}})["code"] == 404
    assert sup.get(f"{BASE}/admin/get?id=999999999")["code"] == 404
    assert sup.get(f"{BASE}/admin/get?id=abc")["code"] == 400


def test_bad_input(client: Any, tenant_factory: Any, user_factory: Any) -> None:
    admin, _reader, _tid = fresh_admin(client, tenant_factory, user_factory)
    assert admin.post(f"{BASE}/admin/save", json={"params": article(category="gossip")})["code"] == 400
    assert admin.post(f"{BASE}/admin/save", json={"params": article(title="")})["code"] == 400
    assert admin.post(f"{BASE}/admin/save", json={"params": article(title="t" * 201)})["code"] == 400
    assert (
        admin.post(f"{BASE}/admin/save", json={"params": article(coverUrl="javascript:alert(1)")})["code"]
        == 400
    )
    garbage = admin.post(f"{BASE}/admin/save", content=b"{nope", headers={"content-type": "application/json"})
    assert garbage["code"] == 400


def test_public_detail_without_a_session(
    client: Any, tenant_factory: Any, user_factory: Any, kernel: Any
) -> None:
    admin, _reader, tid = fresh_admin(client, tenant_factory, user_factory)
    open_one = admin.ok("POST", f"{BASE}/admin/save", json={"params": article(public=True)})
    closed = admin.ok("POST", f"{BASE}/admin/save", json={"params": article(title="Internal")})
    for a in (open_one, closed):
        admin.ok("POST", f"{BASE}/admin/publish", json={"params": {"id": a["id"]}})
    assert client.ok("GET", f"{BASE}/public-detail?id={open_one['id']}")["title"] == "Canteen reopens"
    assert client.get(f"{BASE}/public-detail?id={closed['id']}")["code"] == 404
    assert client.get(f"{BASE}/detail?id={open_one['id']}")["code"] == -1
    with kernel.db(), unscoped():
        kernel.enablement.set(tid, "portal", False)
    try:
        assert client.get(f"{BASE}/public-detail?id={open_one['id']}")["code"] == 404
        assert admin.get(f"{BASE}/panels")["code"] == 460
    finally:
        with kernel.db(), unscoped():
            kernel.enablement.set(tid, "portal", True)


def test_demo_panels(user_client: Any) -> None:
    panels = user_client.ok("GET", f"{BASE}/panels")
    assert all(panels[k] for k in ("announcement", "hot", "featured", "news"))
    views = [a["views"] for a in panels["hot"]]
    assert views == sorted(views, reverse=True)
    assert panels["announcement"][0]["pinned"] is True


def test_a_public_articles_cover_shows_without_a_session(
    client: Any, tenant_factory: Any, user_factory: Any
) -> None:
    from tests.files.util import picture, upload

    admin, _reader, _tid = fresh_admin(client, tenant_factory, user_factory)
    cover = upload(admin, "cover.png", picture("PNG", (32, 20)), "image/png", "image")["data"]["filePath"]
    saved = admin.ok("POST", f"{BASE}/admin/save", json={"params": article(public=True, coverUrl=cover)})
    admin.ok("POST", f"{BASE}/admin/publish", json={"params": {"id": saved["id"]}})
    client.http.cookies.clear()
    stored = client.http.get(cover)
    assert not stored.headers["content-type"].startswith("image/")  # the stored address needs a session

    detail = client.ok("GET", f"{BASE}/public-detail?id={saved['id']}")
    assert detail["coverUrl"] == cover and detail["coverSrc"] and detail["coverSrc"] != cover
    shown = client.http.get(detail["coverSrc"])
    assert shown.status_code == 200 and shown.headers["content-type"] == "image/png"
    assert shown.content.startswith(b"\x89PNG")
    outside = client.ok("GET", f"{BASE}/public-detail?id={saved['id']}")
    external = admin.ok(
        "POST",
        f"{BASE}/admin/save",
        json={"params": article(public=True, coverUrl="https://example.com/a.png")},
    )
    admin.ok("POST", f"{BASE}/admin/publish", json={"params": {"id": external["id"]}})
    assert client.ok("GET", f"{BASE}/public-detail?id={external['id']}")["coverSrc"] is None
    assert outside["views"] == detail["views"] + 1
