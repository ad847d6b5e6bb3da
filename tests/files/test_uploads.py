"""Uploads: generic files, the image rules, tenant isolation of stored files, signed links, deletion."""

from __future__ import annotations

import io
import time

import pytest
from PIL import Image

from atrium.sdk.testing import AtriumClient

from .util import BASE, picture, upload, uploaded

MB = 1024 * 1024


def test_upload_answers_file_id_and_path_and_serves_it_to_the_tenant(user_client: AtriumClient) -> None:
    data = uploaded(user_client, "notes.txt", b"hello files\n", "text/plain", "")
    assert data["fileId"] > 0 and data["filePath"].startswith(f"{BASE}/file/")
    assert data["sourceFileName"] == "notes.txt"
    resp = user_client.http.get(data["filePath"], headers=user_client.headers)
    assert resp.status_code == 200 and resp.content == b"hello files\n"
    assert resp.headers["x-content-type-options"] == "nosniff"
    assert resp.headers["content-disposition"].startswith("attachment;")
    assert "notes.txt" in resp.headers["content-disposition"]


def test_stored_name_is_generated_by_the_server(user_client: AtriumClient) -> None:
    data = uploaded(user_client, "../../etc/passwd", b"x", "text/plain")
    stored = data["filePath"].rsplit("/", 1)[-1]
    assert "passwd" not in stored and ".." not in stored
    assert data["sourceFileName"] == "passwd"


def test_another_tenant_gets_not_found_exactly_like_a_missing_file(
    user_client: AtriumClient, client: AtriumClient
) -> None:
    data = uploaded(user_client, "secret.txt", b"acme only", "text/plain")
    bob = client.signed_in("bob")
    theirs = bob.get(data["filePath"])
    missing = bob.get(f"{BASE}/file/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.txt")
    assert theirs["code"] == missing["code"] == 404
    assert theirs["msg"] == missing["msg"]
    for path in (f"{BASE}/getUrl", f"{BASE}/getDownUrlByName"):
        a = bob.get(path, params={"url": data["filePath"], "oldUrl": data["filePath"], "fileName": "x"})
        b = bob.get(
            path,
            params={
                "url": f"{BASE}/file/AAAAAAAAAAAAAAAAAAAAAAAA.txt",
                "oldUrl": f"{BASE}/file/AAAAAAAAAAAAAAAAAAAAAAAA.txt",
                "fileName": "x",
            },
        )
        assert a["code"] == b["code"] == 404 and a["msg"] == b["msg"]
    assert bob.get(f"{BASE}/delete-id", params={"id": data["fileId"]}) == bob.get(
        f"{BASE}/delete-id", params={"id": 987654321}
    )


def test_the_file_route_needs_a_session_or_a_signature(
    user_client: AtriumClient, client: AtriumClient
) -> None:
    data = uploaded(user_client, "a.txt", b"a", "text/plain")
    assert client.get(data["filePath"])["code"] == -1


def test_client_paths_cannot_leave_the_storage_root(user_client: AtriumClient) -> None:
    for path in ("..%2F..%2Fatrium.db", "..", "%2e%2e%2fkeys%2ftransit-key.pem", "a" * 100):
        resp = user_client.http.get(f"{BASE}/file/{path}", headers=user_client.headers)
        assert resp.status_code in (200, 404)
        if resp.status_code == 200:
            assert resp.json()["code"] == 404
    for url in ("../../atrium.db", "/etc/passwd", "file:///etc/passwd", f"{BASE}/file/../../atrium.db"):
        assert user_client.get(f"{BASE}/getUrl", params={"url": url})["code"] == 404


def test_get_url_signs_an_address_that_works_without_a_session(
    user_client: AtriumClient, client: AtriumClient
) -> None:
    data = uploaded(user_client, "p.png", picture(), "image/png", "image")
    signed = user_client.ok("GET", f"{BASE}/getUrl", params={"url": data["filePath"]})
    resp = client.http.get(signed)
    assert resp.status_code == 200 and resp.headers["content-type"] == "image/png"
    assert resp.headers["content-disposition"].startswith("inline;")
    assert resp.headers["x-content-type-options"] == "nosniff"
    forged = signed.replace("t=1001", "t=1002")
    assert client.get(forged)["code"] == 404
    tampered = signed[:-3] + ("AAA" if not signed.endswith("AAA") else "BBB")
    assert client.get(tampered)["code"] == 404
    later = signed.replace("exp=", "exp=9")
    assert client.get(later)["code"] == 404


def test_signed_address_expires(
    user_client: AtriumClient, client: AtriumClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = uploaded(user_client, "e.txt", b"e", "text/plain")
    signed = user_client.ok("GET", f"{BASE}/getUrl", params={"url": data["filePath"]})
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + 7200)
    assert client.get(signed)["code"] == 404


def test_download_by_name_saves_under_the_given_name(user_client: AtriumClient, client: AtriumClient) -> None:
    data = uploaded(user_client, "raw.txt", b"report body", "text/plain")
    url = user_client.ok(
        "GET",
        f"{BASE}/getDownUrlByName",
        params={"fileName": "季度报表/../Q3", "oldUrl": "http://host" + data["filePath"]},
    )
    resp = client.http.get(url)
    assert resp.status_code == 200 and resp.content == b"report body"
    disp = resp.headers["content-disposition"]
    assert disp.startswith("attachment;") and "Q3.txt" in disp and "/" not in disp.split("filename*=")[1]


def test_image_rules_accept_png_and_jpeg(user_client: AtriumClient) -> None:
    for name, fmt, ctype in (
        ("a.png", "PNG", "image/png"),
        ("b.jpg", "JPEG", "image/jpeg"),
        ("c.jpeg", "JPEG", "image/jpeg"),
    ):
        data = uploaded(user_client, name, picture(fmt), ctype, "image")
        assert data["contentType"] == ctype


@pytest.mark.parametrize(
    ("name", "payload", "ctype"),
    [
        ("a.gif", "GIF", "image/gif"),
        ("a.png", "JPEG", "image/png"),  # content is not what the name says
        ("a.jpg", "PNG", "image/jpeg"),
        ("a.png", "PNG", "text/plain"),  # declared type refused
        ("a.txt", "PNG", "image/png"),  # name refused
        ("a.png", "TEXT", "image/png"),  # not a picture at all
        ("a.png", "TRUNCATED", "image/png"),  # magic bytes, but does not decode
    ],
)
def test_image_rules_refuse_other_types(
    user_client: AtriumClient, name: str, payload: str, ctype: str
) -> None:
    if payload == "TEXT":
        data = b"<html><script>alert(1)</script></html>"
    elif payload == "TRUNCATED":
        data = picture("PNG", (64, 64))[:40]
    else:
        data = picture(payload)
    body = upload(user_client, name, data, ctype, "image")
    assert body["code"] == 400
    assert body["msg"] == "picture must be JPEG, JPG or PNG"


def test_image_over_2mb_is_refused_with_the_spec_message(user_client: AtriumClient) -> None:
    data = picture() + b"\0" * (2097152 + 1)
    body = upload(user_client, "big.png", data, "image/png", "image")
    assert body == {"code": 400, "msg": "picture size must not exceed 2MB", "data": None}


def test_image_of_exactly_2mb_is_accepted(user_client: AtriumClient) -> None:
    head = picture()
    data = head + b"\0" * (2097152 - len(head))
    assert len(data) == 2097152
    assert upload(user_client, "edge.png", data, "image/png", "image")["code"] == 800


def test_image_messages_are_translated(user_client: AtriumClient) -> None:
    user_client.headers["language"] = "zh#cn"
    try:
        body = upload(user_client, "a.gif", picture("GIF"), "image/gif", "image")
        assert body["msg"] == "图片必须是JPEG、JPG或PNG格式"
        body = upload(user_client, "big.png", picture() + b"\0" * (3 * MB), "image/png", "image")
        assert body["msg"] == "图片大小不能超过2MB"
    finally:
        user_client.headers["language"] = "en#us"


def test_image_over_40_megapixels_is_refused(user_client: AtriumClient) -> None:
    out = io.BytesIO()
    Image.new("1", (8000, 5001)).save(out, "PNG")
    assert len(out.getvalue()) < 2 * MB
    body = upload(user_client, "huge.png", out.getvalue(), "image/png", "image")
    assert body["code"] == 400 and "40" in body["msg"]


def test_images_are_reencoded_so_trailing_payloads_are_dropped(user_client: AtriumClient) -> None:
    payload = picture() + b"<script>alert(document.cookie)</script>"
    data = uploaded(user_client, "poly.png", payload, "image/png", "image")
    stored = user_client.http.get(data["filePath"], headers=user_client.headers).content
    assert b"<script>" not in stored
    assert Image.open(io.BytesIO(stored)).size == (16, 16)


def test_upload_without_a_file_is_refused(user_client: AtriumClient) -> None:
    body = user_client.post(f"{BASE}/single/file-upload", files={"other": ("x", b"", "text/plain")})
    assert body["code"] == 400
    body = user_client.post(f"{BASE}/single/file-upload", data={"name": "x"}, files={})
    assert body["code"] == 400
    body = user_client.post(f"{BASE}/single/file-upload", json={"file": "x"})
    assert body["code"] == 400


def test_upload_needs_a_session(client: AtriumClient) -> None:
    assert upload(client, "a.txt", b"a", "text/plain")["code"] == -1


def test_bad_func_code_is_refused(user_client: AtriumClient) -> None:
    assert upload(user_client, "a.txt", b"a", "text/plain", "../x")["code"] == 400


def test_delete_by_uploader_admin_and_not_by_others(
    user_client: AtriumClient, client: AtriumClient, user_factory
) -> None:
    data = uploaded(user_client, "d.txt", b"d", "text/plain")
    account, password, _ = user_factory(1001)
    other = client.signed_in(account, password)  # no role: without the `file:delete` button
    assert other.get(f"{BASE}/delete-id", params={"id": data["fileId"]})["code"] == 403
    user_client.ok("GET", f"{BASE}/delete-id", params={"id": data["fileId"]})
    assert user_client.get(data["filePath"])["code"] == 404
    assert user_client.get(f"{BASE}/delete-id", params={"id": data["fileId"]})["code"] == 404
    data2 = uploaded(user_client, "d2.txt", b"d", "text/plain")
    client.signed_in("supervisor").ok("GET", f"{BASE}/delete-id", params={"id": data2["fileId"]})


def test_a_holder_of_the_delete_button_deletes_any_file_of_the_tenant(
    user_client: AtriumClient, client: AtriumClient, user_factory
) -> None:
    """alice's role holds `file:delete`: she deletes another member's file; a member without it may not."""
    account, password, _ = user_factory(1001)
    member = client.signed_in(account, password)
    mine = uploaded(member, "m.txt", b"m", "text/plain")
    theirs = uploaded(user_client, "a.txt", b"a", "text/plain")
    assert member.get(f"{BASE}/delete-id", params={"id": theirs["fileId"]})["code"] == 403
    user_client.ok("GET", f"{BASE}/delete-id", params={"id": mine["fileId"]})
    assert member.get(mine["filePath"])["code"] == 404
    user_client.ok("GET", f"{BASE}/delete-id", params={"id": theirs["fileId"]})
    other_tenant = uploaded(client.signed_in("bob"), "b.txt", b"b", "text/plain")
    assert user_client.get(f"{BASE}/delete-id", params={"id": other_tenant["fileId"]})["code"] == 404


def test_uploaded_document_list(user_client: AtriumClient) -> None:
    uploaded(user_client, "listed.png", picture(), "image/png", "image")
    page = user_client.ok("GET", f"{BASE}/find-list", params={"funcCode": "image", "keyword": "listed"})
    assert page["total"] >= 1
    row = page["list"][0]
    assert row["sourceFileName"] == "listed.png" and row["creationName"] == "Alice Zhang"
    assert row["uploadDate"] and row["previewUrl"] and row["canDelete"] is True
    assert row["filePath"].startswith(f"{BASE}/file/")


def test_demo_attachments_are_there_for_acme(user_client: AtriumClient) -> None:
    page = user_client.ok("GET", f"{BASE}/find-list", params={"keyword": "acme-banner"})
    assert page["total"] == 1
    resp = user_client.http.get(page["list"][0]["previewUrl"])
    assert resp.status_code == 200 and resp.headers["content-type"] == "image/png"
