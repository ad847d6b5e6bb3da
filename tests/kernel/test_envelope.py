"""The envelope and its errors: unknown paths, bad bodies, field messages, wrapping, forms, languages."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from atrium.sdk.testing import AtriumClient

ROOT = Path(__file__).resolve().parents[2]
FEEDBACK = "/api/portal/base-exception/save"
NUM = "/api/base/message-subscript/find-menu-num"


@pytest.mark.parametrize("method", ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_unknown_api_path_is_an_envelope_404(client, method):
    resp = client.http.request(method, "/api/no/such/thing", headers=client.headers)
    assert resp.status_code == 200
    assert resp.json() == {"code": 404, "msg": "Not found", "data": None}


def test_wrong_method_on_a_known_path_is_an_envelope_404(client, make_client):
    assert client.get("/api/base/base-user/login") == {"code": 404, "msg": "Not found", "data": None}
    assert make_client("zh-cn").get("/api/no/such") == {"code": 404, "msg": "数据不存在", "data": None}


@pytest.mark.parametrize(
    ("language", "msg"),
    [
        ("zh#cn", "数据不存在"),
        ("zh-TW", "數據不存在"),
        ("zh#tw", "數據不存在"),
        ("hu#hu", "Nem található"),
        ("vi#vn", "Không tìm thấy"),
        ("en#us", "Not found"),
        ("EN", "Not found"),
        ("xx#yy", "数据不存在"),
        ("", "数据不存在"),
    ],
)
def test_language_header(http, language, msg):
    assert http.get("/api/no/such", headers={"language": language}).json()["msg"] == msg


@pytest.mark.parametrize(
    ("language", "msg"),
    [
        ("zh#cn", "账号不能为空"),
        ("zh-TW", "賬號不能為空"),
        ("hu#hu", "A fiók nem lehet üres"),
        ("vi#vn", "Tài khoản không được để trống"),
        ("klingon", "账号不能为空"),
    ],
)
def test_language_of_a_handler_message(http, language, msg):
    answer = http.post(
        "/api/base/base-user/login", headers={"language": language}, json={"account": ""}
    ).json()
    assert answer == {"code": 400, "msg": msg, "data": None}


def test_accept_language_when_there_is_no_language_header(http):
    answer = http.get("/api/no/such", headers={"accept-language": "hu-HU,hu;q=0.9,en;q=0.8"}).json()
    assert answer["msg"] == "Nem található"


def test_malformed_json(user_client, make_client):
    bad = {"code": 400, "msg": "The request body is not valid JSON", "data": None}
    headers = {"content-type": "application/json"}
    assert user_client.post(FEEDBACK, content=b'{"ibeOutside": ', headers=headers) == bad
    assert user_client.post(FEEDBACK, content=b"\xff\xfe{}", headers=headers) == bad
    assert user_client.post(FEEDBACK, content=b"[" * 100_000, headers=headers) == bad
    zh = make_client("zh-cn").signed_in("alice")
    assert zh.post(FEEDBACK, content=b"{oops", headers=headers)["msg"] == "请求内容不是有效的 JSON"


def test_json_nested_beyond_the_limit_is_refused_before_any_handler(user_client, make_client):
    """65 levels of arrays or objects answer 400 naming the limit, in the caller's language; 64 pass on to
    the route (which refuses the shape with its own validation message)."""
    headers = {"content-type": "application/json"}
    too_deep = {"code": 400, "msg": "The request body is nested more than 64 levels deep", "data": None}
    assert user_client.post(FEEDBACK, content=b"[" * 65 + b"]" * 65, headers=headers) == too_deep
    objects = b'{"a":' * 65 + b"1" + b"}" * 65
    assert user_client.post(FEEDBACK, content=objects, headers=headers) == too_deep
    within = user_client.post(FEEDBACK, content=b"[" * 64 + b"]" * 64, headers=headers)
    assert within["code"] == 400 and "64 levels" not in within["msg"]
    zh = make_client("zh-cn").signed_in("alice")
    deep = zh.post(FEEDBACK, content=b"[" * 70 + b"]" * 70, headers=headers)
    assert deep["msg"] == "请求内容的嵌套超过 64 层"


@pytest.mark.parametrize("ctype", ["multipart/form-data", "multipart/form-data; boundary="])
def test_a_form_without_its_boundary_is_a_bad_request(user_client, make_client, ctype):
    """Any JSON route given a multipart body it cannot split answers 400 in the caller's language."""
    for c, msg in (
        (user_client, "The form in the request body cannot be read"),
        (make_client("zh-cn").signed_in("alice"), None),
    ):
        resp = c.http.post(FEEDBACK, content=b"--x\r\n", headers={**c.headers, "content-type": ctype})
        assert resp.status_code == 200
        body = resp.json()
        assert body["code"] == 400 and body["data"] is None
        assert body["msg"] == (msg or "请求的表单内容无法读取")


def test_body_too_large(user_client):
    big = json.dumps({"keys": ["x" * 1000] * 2200}).encode()
    answer = user_client.post(NUM, content=big, headers={"content-type": "application/json"})
    assert answer == {"code": 413, "msg": "The request body is too large", "data": None}


@pytest.mark.parametrize(
    ("body", "msg"),
    [
        ({"ibeOutside": 5}, "ibeOutside: must be text"),
        ({"ibeOutside": "bug", "fileIds": [1, "ok", 2]}, "fileIds.0: must be text; fileIds.2: must be text"),
        ({"ibeOutside": "bug", "fileIds": "abc"}, "fileIds: must be a list"),
        ({"ibeOutside": ["bug"]}, "ibeOutside: must be text"),
    ],
)
def test_wrong_types_name_the_field(user_client, body, msg):
    assert user_client.post(FEEDBACK, json=body) == {"code": 400, "msg": msg, "data": None}


def test_field_messages_in_chinese(make_client):
    zh = make_client("zh-cn").signed_in("alice")
    answer = zh.post("/api/base/base-user/refresh-token", json={})
    assert answer["code"] == 400 and answer["msg"].startswith("refreshToken")
    assert answer["msg"] != "refreshToken: required"


def test_body_that_is_not_an_object(user_client):
    for body in ([], "text", 5, {"params": 5}, {"params": []}):
        answer = user_client.post(FEEDBACK, json=body)
        assert answer == {"code": 400, "msg": "request body: must be an object", "data": None}, body


def test_wrapped_and_plain_bodies_alike(user_client):
    plain = user_client.ok("POST", NUM, json={"keys": ["a", "b"]})
    wrapped = user_client.ok("POST", NUM, json={"params": {"keys": ["a", "b"]}})
    assert plain == wrapped == {"a": 0, "b": 0}
    assert user_client.ok("POST", NUM, json={"params": None}) == {}


def test_form_encoded_bodies(client, user_client):
    enc = client.ok("POST", "/api/base/base-user/get-enryption")
    from atrium.sdk.testing import encrypt_password

    password = encrypt_password(enc["publicKey"], enc["nonce"], "Alice@123")
    signed = client.post("/api/base/base-user/login", data={"account": "alice", "password": password})
    assert signed["code"] == 800 and signed["data"]["userFullName"] == "Alice Zhang"
    feedback = user_client.post(FEEDBACK, data={"ibeOutside": "slow", "ibeExceptionDesc": "from a form"})
    assert feedback["code"] == 800
    refused = user_client.post(FEEDBACK, data={"ibeOutside": "weather"})
    assert refused == {"code": 400, "msg": "The reason is not one of the listed reasons", "data": None}
    # a repeated key is a list
    form = {"content-type": "application/x-www-form-urlencoded"}
    nums = user_client.post(NUM, content="keys=a&keys=b", headers=form)
    assert nums["code"] == 800 and set(nums["data"]) == {"a", "b"}


@pytest.mark.parametrize(
    ("method", "path", "kw"),
    [
        ("GET", "/api/base/resource/find-resource?menuId=99999999999999999999", {}),
        ("GET", "/api/portal/portal-favourite/delete-id?id=99999999999999999999", {}),
        ("POST", "/api/base/base-menu-fetch/find-list", {"json": {"menuId": 99999999999999999999}}),
        (
            "POST",
            "/api/base/base-default-menu/save",
            {"json": {"menuId": 99999999999999999999, "routePath": "/x"}},
        ),
        ("GET", "/api/base/base-tenant-system/find-tenant-defined?tenantId=99999999999999999999", {}),
    ],
)
def test_numbers_beyond_the_database_are_bad_requests(user_client, method, path, kw):
    answer = user_client.http.request(method, path, headers=user_client.headers, **kw).json()
    assert answer == {"code": 400, "msg": "The request is not valid", "data": None}


def test_request_id_header(http):
    resp = http.get("/api/no/such", headers={"x-request-id": "trace-123"})
    assert resp.headers["x-request-id"] == "trace-123"
    assert len(http.get("/api/no/such").headers["x-request-id"]) >= 8


def test_openapi_lists_the_kernel_routes(http):
    doc = http.get("/api/openapi.json").json()
    for path in ("/api/base/base-user/login", "/api/base/base-rolemenu/find-user-menus", "/api/account"):
        assert path in doc["paths"], path


def _keys(node: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for k, v in node.items():
        if isinstance(v, dict):
            out.update(_keys(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def test_every_locale_has_every_server_message_with_the_same_placeholders():
    bundles = {
        d.name: _keys(json.loads((d / "server.json").read_text("utf-8"))) for d in (ROOT / "i18n").iterdir()
    }
    assert set(bundles) == {"zh-cn", "zh-tw", "en-us", "vi-vn", "hu-hu"}
    english = bundles["en-us"]
    for locale, bundle in bundles.items():
        assert set(bundle) == set(english), locale
        for key, text in bundle.items():
            assert text.strip(), (locale, key)
            want = set(re.findall(r"\{\{\s*(\w+)\s*\}\}", english[key]))
            assert set(re.findall(r"\{\{\s*(\w+)\s*\}\}", text)) == want, (locale, key)


def test_every_message_key_the_kernel_raises_exists(kernel):
    pattern = re.compile(
        r"\b(?:BadRequest|NotFound|Forbidden|Conflict|TooManyRequests|CaptchaRequired|AtriumError|"
        r"LoginFailed|CodeInvalid|NotLoggedIn|PluginDisabled)\(\s*\"([a-z_.:]+)\""
    )
    used = set()
    for src in (ROOT / "kernel").rglob("*.py"):
        used |= set(pattern.findall(src.read_text("utf-8")))
    for src in (ROOT / "kernel").rglob("*.py"):
        used |= set(re.findall(r"\bt\(\s*\"([a-z_]+\.[a-z_.]+)\"", src.read_text("utf-8")))
    assert len(used) > 30
    missing = sorted(k for k in used if not kernel.i18n.has(k))
    assert not missing


# --- no 500 anywhere: every kernel route with odd input ----------------------------------------

ODD_VALUES: list[Any] = [None, -1, 99999999999999999999, "x" * 3000, "", [], {}, True, 1.5]
ODD_QUERY = ["", "-1", "x" * 300, "99999999999999999999", "1e309", "%00"]
SKIP = {"/api/base/base-user/logout"}


def _fields(model: type[BaseModel] | None) -> list[str]:
    return list(model.model_fields) if model is not None else []


def test_no_kernel_route_answers_500_to_odd_input(atrium_app, client, tenant_factory, user_factory):
    tid = tenant_factory()
    account, password, _uid = user_factory(tid, super_admin=True)
    caller = client.signed_in(account, password)
    failures = []
    calls = 0
    for spec in atrium_app.state.route_specs:
        if spec.plugin or spec.path in SKIP:
            continue
        path = re.sub(r"\{[^}]+\}", "1", spec.path)
        attempts: list[dict[str, Any]] = []
        for name in _fields(spec.query):
            attempts += [{"params": {name: v}} for v in ODD_QUERY]
        for name in _fields(spec.body):
            attempts += [{"json": {name: v}} for v in ODD_VALUES]
        attempts += [{"json": []}, {"json": "x"}, {"json": {"params": 5}}, {"content": b"\x00\x01"}]
        for method in spec.methods:
            for kw in attempts:
                resp = caller.http.request(method, path, headers=caller.headers, **kw)
                calls += 1
                if resp.status_code >= 500:
                    failures.append(f"{method} {spec.path} {kw}: HTTP {resp.status_code}")
                elif resp.headers.get("content-type", "").startswith("application/json"):
                    body = resp.json()
                    if isinstance(body, dict) and body.get("code") == 500:
                        failures.append(f"{method} {spec.path} {str(kw)[:80]}: {body['msg']}")
                    if isinstance(body, dict) and body.get("code") == -1:
                        caller = client.signed_in(
                            account, password
                        )  # a route ended the session: sign in again
    assert calls > 300
    assert not failures, "\n".join(failures[:20])


def test_the_odd_input_caller_changed_nothing_it_should_not(client):
    alice = client.signed_in("alice")
    assert alice.ok("GET", "/api/base/base-user/get-login-user")["userFullName"] == "Alice Zhang"
    assert isinstance(AtriumClient(client.http).signed_in("admin").profile["userId"], int)
