"""get-system-watermark and the admin calls: lookup, placeholders, validation, permissions, tenants."""

from __future__ import annotations

from datetime import datetime
from typing import Any

WM = "/api/watermark/iotBaseFuncWaterController/get-system-watermark"
SPEC_FIELDS = {
    "content",
    "fwContent",
    "fwType",
    "fwFont",
    "fwFontSize",
    "fwColor",
    "fwRotationAngle",
    "fwTransparent",
    "isTakeEffect",
    "isView",
}


def save(c: Any, **body: Any) -> dict[str, Any]:
    body.setdefault("fwContent", "{userFullName}")
    return c.post("/api/watermark/admin/save", json=body)


def save_ok(c: Any, **body: Any) -> dict[str, Any]:
    env = save(c, **body)
    assert env["code"] == 800, env
    data: dict[str, Any] = env["data"]
    return data


def settings(c: Any) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = c.ok("GET", "/api/watermark/admin/settings")["list"]
    return rows


def test_demo_watermark_shows_the_users_name_and_staff_number(user_client, admin_client):
    wm = user_client.ok("GET", WM)
    assert set(wm) >= SPEC_FIELDS
    assert wm["content"] == "Alice Zhang A0100"
    assert wm["fwContent"] == "{userFullName} {staffNo}" and wm["fwType"] == "dynamic"
    assert (wm["fwFontSize"], wm["isTakeEffect"], wm["isView"]) == (18, 1, 1)
    assert admin_client.ok("GET", WM)["content"] == "平台管理员 P0001"


def test_a_tenant_without_a_setting_has_no_watermark(client):
    bob = client.signed_in("bob")
    assert bob.ok("GET", WM) is None


def test_another_tenants_watermark_is_not_answered(user_client):
    assert user_client.ok("GET", WM, params={"tenantId": 1002}) is None
    assert user_client.ok("GET", WM, params={"tenantId": 1001})["content"] == "Alice Zhang A0100"


def test_every_placeholder_is_filled_from_the_signed_in_user(tenant_admin):
    template = "{userFullName}|{account}|{staffNo}|{mobile}|{tenantName}|{date}|{userId}"
    data = save_ok(tenant_admin, fwContent=template)
    today = datetime.now().strftime("%Y-%m-%d")
    wm = tenant_admin.ok("GET", WM)
    assert wm["content"] == data["content"]
    name, account, staff, mobile, tenant, date, uid = wm["content"].split("|")
    me = tenant_admin.account
    assert (name, account, staff, mobile, uid) == (
        f"User {me}",
        me,
        "S-7",
        "13900000007",
        str(tenant_admin.user_id),
    )
    assert tenant.startswith("T") and date == today


def test_the_most_specific_setting_wins(tenant_admin):
    save_ok(tenant_admin, fwContent="tenant {account}")
    save_ok(tenant_admin, fwContent="reports {account}", ffwFunctionCode="reports")
    save_ok(
        tenant_admin, fwContent="assets", fwType="static", systemCode="iotAutho", ffwFunctionCode="assets"
    )
    me = tenant_admin.account
    assert tenant_admin.ok("GET", WM)["content"] == f"tenant {me}"
    assert tenant_admin.ok("GET", WM, params={"ffwFunctionCode": "reports"})["content"] == f"reports {me}"
    exact = tenant_admin.ok("GET", WM, params={"ffwFunctionCode": "assets", "systemCode": "iotAutho"})
    assert exact["content"] == "assets"
    assert tenant_admin.ok("GET", WM, params={"ffwFunctionCode": "other"})["content"] == f"tenant {me}"


def test_static_text_is_drawn_as_written(tenant_admin):
    save_ok(tenant_admin, fwContent="Confidential {not a field}", fwType="static")
    assert tenant_admin.ok("GET", WM)["content"] == "Confidential {not a field}"


def test_flag_and_the_switches(tenant_admin):
    row = save_ok(tenant_admin, fwContent="off", fwType="static", isTakeEffect=0)
    assert tenant_admin.ok("GET", WM) is None
    assert tenant_admin.ok("GET", WM, params={"flag": 0})["isTakeEffect"] == 0
    save_ok(tenant_admin, ffwId=int(row["ffwId"]), fwContent="hidden", fwType="static", isView=0)
    assert tenant_admin.ok("GET", WM) is None
    save_ok(tenant_admin, ffwId=int(row["ffwId"]), fwContent="on", fwType="static")
    assert tenant_admin.ok("GET", WM)["content"] == "on"


def test_update_delete_and_unknown_ids(tenant_admin, admin_client):
    row = save_ok(
        tenant_admin,
        fwContent="first",
        fwType="static",
        fwColor="rgba(255, 0, 0, 0.5)",
        fwRotationAngle=30,
        fwTransparent=60,
        fwFont="微软雅黑",
        fwFontSize=20,
    )
    again = save_ok(tenant_admin, ffwId=int(row["ffwId"]), fwContent="second", fwType="static")
    assert again["ffwId"] == row["ffwId"]
    assert [r["fwContent"] for r in settings(tenant_admin)] == ["second"]
    saved_by_place = save_ok(tenant_admin, fwContent="third", fwType="static")  # same function and system
    assert saved_by_place["ffwId"] == row["ffwId"]
    acme_id = int(settings(admin_client)[0]["ffwId"])
    for unknown in (99_999_999, acme_id):
        env = save(tenant_admin, ffwId=unknown, fwContent="x")
        assert env["code"] == 404 and env["msg"] == f"Watermark setting {unknown} does not exist"
        env = tenant_admin.post("/api/watermark/admin/delete", json={"ffwId": unknown})
        assert env["code"] == 404 and env["msg"] == f"Watermark setting {unknown} does not exist"
    assert admin_client.ok("GET", WM)["fwContent"] == "{userFullName} {staffNo}"
    other = save_ok(tenant_admin, fwContent="per function", ffwFunctionCode="f1")
    env = save(tenant_admin, ffwId=int(other["ffwId"]), fwContent="clash")  # moving onto the tenant-wide one
    assert env["code"] == 400 and "already exists" in env["msg"]
    tenant_admin.ok("POST", "/api/watermark/admin/delete", json={"ffwId": int(row["ffwId"])})
    assert [r["fwContent"] for r in settings(tenant_admin)] == ["per function"]
    assert tenant_admin.ok("GET", WM) is None


def test_bad_settings_are_refused_and_nothing_changes(tenant_admin):
    save_ok(tenant_admin, fwContent="kept {account}")
    before = settings(tenant_admin)
    cases = [
        ({"fwContent": "{userFullName} {salary}"}, "Unknown placeholder {salary}"),
        ({"fwColor": "red; background:url(x)"}, "fwColor"),
        ({"fwFontSize": 100}, "fwFontSize"),
        ({"fwRotationAngle": 200}, "fwRotationAngle"),
        ({"fwTransparent": -1}, "fwTransparent"),
        ({"fwType": "animated"}, "fwType"),
        ({"fwContent": "   "}, "fwContent"),
        ({"fwContent": "x" * 201}, "fwContent"),
        ({"fwFont": "<script>alert(1)</script>"}, "fwFont"),
        ({"isView": 3}, "isView"),
        ({"ffwFunctionCode": "a b"}, "ffwFunctionCode"),
    ]
    for body, text in cases:
        env = save(tenant_admin, **body)
        assert env["code"] == 400, (body, env)
        assert text in env["msg"], (body, env)
    env = save(tenant_admin, systemCode="noSuchSystem")
    assert env["code"] == 404 and env["msg"] == "System noSuchSystem does not exist"
    assert settings(tenant_admin) == before


def test_preview(tenant_admin):
    got = tenant_admin.ok(
        "POST",
        "/api/watermark/admin/preview",
        json={"fwType": "dynamic", "fwContent": "{account} / {staffNo}"},
    )
    assert got == {"content": f"{tenant_admin.account} / S-7"}
    env = tenant_admin.post("/api/watermark/admin/preview", json={"fwType": "dynamic", "fwContent": "{nope}"})
    assert env["code"] == 400


def test_only_administrators_edit(user_client):
    calls = (
        ("/api/watermark/admin/save", {"fwContent": "x"}),
        ("/api/watermark/admin/delete", {"ffwId": 1}),
        ("/api/watermark/admin/preview", {"fwContent": "x"}),
    )
    for path, body in calls:
        assert user_client.post(path, json=body)["code"] == 403
    assert user_client.get("/api/watermark/admin/settings")["code"] == 403
    assert user_client.ok("GET", WM)["fwContent"] == "{userFullName} {staffNo}"


def test_signed_out_callers_are_refused(client):
    assert client.get(WM)["code"] == -1


def test_messages_are_translated(tenant_admin):
    tenant_admin.headers["language"] = "zh#cn"
    env = save(tenant_admin, fwContent="{salary}")
    assert env["msg"].startswith("未知的占位符 {salary}")
