"""Who may frame a shared link's page: the platform itself, and the sites its owner allows."""

from __future__ import annotations

from typing import Any

import pytest

from atrium.sdk.testing import AtriumClient

UPDATE = "/api/dyreport/api/link/update"


@pytest.fixture
def link(acme: Any, admin_client: AtriumClient) -> dict[str, Any]:
    """A link to a fresh copy of the overview panel, with its defaults."""
    bundle = admin_client.ok("GET", f"/api/dyreport/panel/export/{acme.overview}")
    panel = admin_client.ok("POST", "/api/dyreport/panel/import", json={"bundle": bundle})
    return admin_client.ok("POST", f"/api/dyreport/api/link/enable/{panel['id']}")


def framing(client: AtriumClient, uri: str) -> tuple[list[str], str | None]:
    """The page's `frame-ancestors` sources and its X-Frame-Options, as a browser receives them."""
    resp = client.http.get(uri)
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/html")
    policy = {
        p.split()[0]: p.split()[1:] for p in resp.headers["content-security-policy"].split(";") if p.strip()
    }
    assert policy["script-src"] == ["'self'"]
    return policy["frame-ancestors"], resp.headers.get("x-frame-options")


def test_a_link_page_is_not_embeddable_by_default(link: dict[str, Any], client: AtriumClient) -> None:
    assert link["allowEmbed"] is False and link["embedOrigins"] == []
    assert framing(client, link["uri"]) == (["'self'"], "SAMEORIGIN")


def test_allowed_sites_may_frame_the_link_page(
    link: dict[str, Any], admin_client: AtriumClient, client: AtriumClient
) -> None:
    sites = [
        "https://Intranet.Example.com/",
        "https://*.corp.example.org:8443",
        "https://intranet.example.com",
    ]
    changed = admin_client.ok(
        "POST", UPDATE, json={"id": link["id"], "allowEmbed": True, "embedOrigins": sites}
    )
    assert changed["allowEmbed"] is True
    assert changed["embedOrigins"] == ["https://intranet.example.com", "https://*.corp.example.org:8443"]
    ancestors, xfo = framing(client, link["uri"])
    assert ancestors == ["'self'", "https://intranet.example.com", "https://*.corp.example.org:8443"]
    assert xfo is None  # it cannot name a site; browsers follow frame-ancestors
    # other pages keep their own framing
    assert framing(client, "/home") == (["'self'"], "SAMEORIGIN")

    off = admin_client.ok("POST", UPDATE, json={"id": link["id"], "allowEmbed": False})
    assert off["allowEmbed"] is False and off["embedOrigins"] == changed["embedOrigins"]
    assert framing(client, link["uri"]) == (["'self'"], "SAMEORIGIN")


def test_an_unknown_link_page_is_not_embeddable(client: AtriumClient) -> None:
    assert framing(client, "/dynamic-report/link/" + "x" * 32) == (["'self'"], "SAMEORIGIN")


@pytest.mark.parametrize(
    "origin",
    [
        "*",
        "https://*",
        "https://*.com",
        "javascript:alert(1)",
        "ftp://files.example.com",
        "https://example.com/embed",
        "https://example.com?x=1",
        "https://user@example.com",
        "https://example.com:99999",
        "https://example.com; script-src *",
        "'unsafe-inline'",
        "data:",
        "",
        42,
    ],
)
def test_a_site_that_is_not_an_origin_is_refused(
    link: dict[str, Any], admin_client: AtriumClient, client: AtriumClient, origin: Any
) -> None:
    body = admin_client.post(UPDATE, json={"id": link["id"], "allowEmbed": True, "embedOrigins": [origin]})
    assert body["code"] == 400
    assert body["msg"].startswith("Not a site address that may embed the link") and str(origin) in body["msg"]
    assert framing(client, link["uri"]) == (["'self'"], "SAMEORIGIN")


def test_refusals_are_translated(link: dict[str, Any], client: AtriumClient) -> None:
    zh = AtriumClient(client.http, "zh-cn").signed_in("admin")
    body = zh.post(UPDATE, json={"id": link["id"], "embedOrigins": ["https://example.com/embed"]})
    assert body["code"] == 400 and body["msg"].startswith("不是可以嵌入链接的网站地址")
    hu = AtriumClient(client.http, "hu-hu").signed_in("admin")
    body = hu.post(UPDATE, json={"id": link["id"], "allowEmbed": True})
    assert (
        body["code"] == 400
        and body["msg"] == "Adjon meg legalább egy webhelyet, amely beágyazhatja a hivatkozást"
    )


def test_embedding_needs_named_sites_and_at_most_ten(
    link: dict[str, Any], admin_client: AtriumClient
) -> None:
    body = admin_client.post(UPDATE, json={"id": link["id"], "allowEmbed": True, "embedOrigins": []})
    assert body["code"] == 400 and body["msg"] == "Name at least one site that may embed the link"
    many = [f"https://site{n}.example.com" for n in range(11)]
    body = admin_client.post(UPDATE, json={"id": link["id"], "allowEmbed": True, "embedOrigins": many})
    assert body["code"] == 400 and body["msg"] == "At most 10 sites may embed one link"
    assert admin_client.ok(
        "POST", UPDATE, json={"id": link["id"], "allowEmbed": True, "embedOrigins": many[:10]}
    )


def test_another_tenants_link_is_not_found(link: dict[str, Any], client: AtriumClient) -> None:
    globex = client.signed_in("admin")
    switched = globex.ok("POST", "/api/base/base-user/change-tenant?tenantId=1002&systemCode=iotAutho")
    globex.headers["authorization"] = switched["authorization"]
    body = globex.post(
        UPDATE, json={"id": link["id"], "allowEmbed": True, "embedOrigins": ["https://evil.example"]}
    )
    assert body["code"] == 404 and body["msg"] == "Link not found"
    assert framing(client, link["uri"]) == (["'self'"], "SAMEORIGIN")
