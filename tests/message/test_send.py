"""Sending letters: recipients, administrators only, content rules, the SDK service and its event."""

from __future__ import annotations

from typing import Any

from atrium.sdk import PluginInfo, hookimpl
from atrium.sdk.types import Event
from tests.message.helpers import ACME, inbox, send, send_ok, unread_total

LETTERS = "/api/message/admin/letters"


def _role_with(kernel: Any, tenant_id: int, user_ids: list[int]) -> int:
    import secrets

    from atrium.kernel import accounts
    from atrium.sdk.context import tenant_scope

    with tenant_scope(tenant_id), kernel.db():
        role = accounts.create_role(f"r{secrets.token_hex(3)}", "Reviewers")
        for uid in user_ids:
            accounts.assign_role(kernel, uid, role.id)
        return int(role.id)


def _letters_total(admin: Any) -> int:
    total: int = admin.ok("POST", LETTERS, json={"pageIndex": 1, "pageRows": 1})["total"]
    return total


def test_to_users_and_roles(kernel, admin_client, member):
    a, b, c, outsider = member(), member(), member(), member()
    role = _role_with(kernel, ACME, [b.user_id, c.user_id])
    sent = send_ok(
        admin_client, toUsers=[a.user_id, b.user_id], toRoles=[role], content="<p>Audit next week</p>"
    )
    assert sent["recipients"] == 3 and sent["systemCode"] == "iotAutho"
    for u in (a, b, c):
        assert [m["messageContent"] for m in inbox(u)["list"]] == ["<p>Audit next week</p>"]
    assert inbox(outsider)["total"] == 0
    listed = admin_client.ok("POST", LETTERS, json={"pageIndex": 1, "pageRows": 5})["list"][0]
    assert listed["letterId"] == sent["letterId"]
    assert listed["recipients"] == 3 and listed["readCount"] == 0
    assert listed["toRoles"] == ["Reviewers"] and not listed["toTenant"]
    a.ok("POST", "/api/message/iotBaseMessageLogController/read-all", json={})
    listed = admin_client.ok("POST", LETTERS, json={"pageIndex": 1, "pageRows": 5})["list"][0]
    assert listed["readCount"] == 1


def test_to_the_whole_tenant(tenant_factory, member):
    tid = tenant_factory()
    boss = member(tid, supervisor=True)
    staff = [member(tid), member(tid)]
    acme_user = member()
    sent = send_ok(boss, toTenant=True, content="<p>Office closed on Friday</p>")
    assert sent["recipients"] == 3
    for u in [boss, *staff]:
        assert unread_total(u) == 1
    assert inbox(acme_user)["total"] == 0


def test_only_holders_of_the_send_button_send(user_client, client, member):
    """alice (a viewer) lacks `message:send`: refused; carol's author role holds it: she sends, reads the
    letters sent and the audience, as administrators do."""
    target = member()
    calls = (
        ("POST", "/api/message/admin/send", {"content": "x", "toUsers": [target.user_id]}),
        ("POST", LETTERS, {}),
        ("GET", "/api/message/admin/audience", None),
    )
    for method, path, body in calls:
        env = user_client.post(path, json=body) if method == "POST" else user_client.get(path)
        assert env["code"] == 403, (path, env)
        assert env["msg"] == "You do not have permission for this action"
    assert inbox(target)["total"] == 0
    carol = client.signed_in("carol")
    sent = send_ok(carol, toUsers=[target.user_id], content="<p>From an author</p>")
    assert sent["recipients"] == 1
    assert [m["messageContent"] for m in inbox(target)["list"]] == ["<p>From an author</p>"]
    letters = carol.ok("POST", LETTERS, json={"pageIndex": 1, "pageRows": 5})["list"]
    assert letters[0]["letterId"] == sent["letterId"]
    assert carol.ok("GET", "/api/message/admin/audience")["users"]


def test_content_is_sanitised_before_it_is_stored(admin_client, member):
    u = member()
    send_ok(
        admin_client,
        toUsers=[u.user_id],
        content=(
            '<p style="color: red; position: fixed">Hi <unknown>there</unknown></p>'
            '<a href="https://example.com/x" target="_blank">link</a>'
            '<img src="https://example.com/a.png" alt="a">'
        ),
    )
    stored = inbox(u)["list"][0]["messageContent"]
    assert stored == (
        '<p style="color:red">Hi there</p>'
        '<a href="https://example.com/x" target="_blank" rel="noopener noreferrer">link</a>'
        '<img src="https://example.com/a.png" alt="a">'
    )


SCRIPTS = [
    "<p>hi</p><script>alert(1)</script>",
    '<img src="x" onerror="alert(1)">',
    '<a href="javascript:alert(1)">x</a>',
    '<a href=" jav&#x09;ascript:alert(1)">x</a>',
    '<p onmouseover="steal()">hover</p>',
    '<iframe src="https://evil.example"></iframe>',
    '<svg><animate onbegin="alert(1)"/></svg>',
    '<p style="background: url(javascript:alert(1))">x</p>',
]


def test_script_laden_content_is_refused_and_nothing_is_stored(admin_client, member):
    u = member()
    before = _letters_total(admin_client)
    for content in SCRIPTS:
        env = send(admin_client, toUsers=[u.user_id], content=content)
        assert env["code"] == 400, content
        assert env["msg"].startswith("The message contains scripts"), env
    assert inbox(u)["total"] == 0 and _letters_total(admin_client) == before


def test_size_limit(admin_client, member):
    u = member()
    env = send(admin_client, toUsers=[u.user_id], content="<p>" + "x" * 20_000 + "</p>")
    assert env["code"] == 400
    assert env["msg"] == "The message is too long: at most 20000 characters (it has 20007)"
    assert inbox(u)["total"] == 0
    ok = "<p>" + "y" * (20_000 - 7) + "</p>"
    send_ok(admin_client, toUsers=[u.user_id], content=ok)
    assert inbox(u)["list"][0]["messageContent"] == ok


def test_empty_content_and_missing_recipients(admin_client, member):
    u = member()
    env = send(admin_client, toUsers=[u.user_id], content="<p>  </p><script></script>")
    assert env["code"] == 400  # scripts first
    env = send(admin_client, toUsers=[u.user_id], content="<p>  </p>")
    assert env["code"] == 400 and env["msg"] == "The message has no content"
    env = send(admin_client, content="<p>to nobody</p>")
    assert env["code"] == 400 and env["msg"].startswith("Choose who receives the message")
    assert inbox(u)["total"] == 0


def test_unknown_or_foreign_recipients_change_nothing(kernel, client, admin_client, member):
    u = member()
    foreign = member(1002)
    foreign_role = _role_with(kernel, 1002, [foreign.user_id])
    before = _letters_total(admin_client)
    for body, text in (
        ({"toUsers": [u.user_id, 99_999_999]}, "User 99999999 does not exist"),
        ({"toUsers": [u.user_id, foreign.user_id]}, f"User {foreign.user_id} does not exist"),
        ({"toUsers": [u.user_id], "toRoles": [88_888_888]}, "Role 88888888 does not exist"),
        ({"toUsers": [u.user_id], "toRoles": [foreign_role]}, f"Role {foreign_role} does not exist"),
    ):
        env = send(admin_client, **body)
        assert env["code"] == 404 and env["msg"] == text, env
    env = send(admin_client, toUsers=[u.user_id], systemCode="noSuchSystem")
    assert env["code"] == 404 and env["msg"] == "System noSuchSystem does not exist"
    assert inbox(u)["total"] == 0 and inbox(foreign)["total"] == 0
    assert _letters_total(admin_client) == before


def test_a_role_without_members_reaches_nobody(kernel, admin_client):
    role = _role_with(kernel, ACME, [])
    env = send(admin_client, toRoles=[role])
    assert env["code"] == 400
    assert env["msg"] == "No user receives this message (the chosen roles have no members)"


def test_audience_lists_the_tenants_people_roles_and_systems(admin_client):
    options = admin_client.ok("GET", "/api/message/admin/audience")
    accounts = {u["account"] for u in options["users"]}
    assert {"alice", "supervisor", "admin"} <= accounts and "bob" not in accounts
    assert "员工" in {r["roleName"] for r in options["roles"]}
    assert {"iotAutho", "assetMgmt"} <= {s["systemCode"] for s in options["systems"]}


def test_messages_are_translated(admin_client, member):
    u = member()
    admin_client.headers["language"] = "zh#cn"
    try:
        env = send(admin_client, toUsers=[u.user_id], content="<script>x</script>")
        assert env["msg"] == "消息内容包含脚本（<script>），不允许发送"
    finally:
        admin_client.headers["language"] = "en#us"


class Recorder:
    """A plugin that sends letters through the event and records `message_sent`."""

    __name__ = "recorder"

    def __init__(self) -> None:
        self.events: list[Event] = []

    @hookimpl
    def atrium_plugin_info(self) -> PluginInfo:
        return PluginInfo(name="recorder", version="1.0.0")

    @hookimpl
    def atrium_event(self, event: Event) -> None:
        self.events.append(event)


def test_other_plugins_send_through_the_service_and_the_event(make_atrium_app):
    from atrium.plugins.message.service import send_message
    from atrium.sdk.context import tenant_scope
    from atrium.sdk.testing import AtriumClient

    recorder = Recorder()
    http = make_atrium_app([recorder])
    kernel = http.app.state.kernel
    alice = AtriumClient(http).signed_in("alice")
    before = unread_total(alice, ["iotAutho"])
    uid = alice.profile["userId"]

    with tenant_scope(ACME), kernel.db():
        sent = send_message(to_users=[uid], content="<p>From the reports plugin</p>")
    assert sent.recipients == 1
    kernel.emit(
        "send_message",
        tenant_id=ACME,
        user_id=None,
        to_users=[uid],
        content="<p>By event</p>",
        system_code="iotAutho",
    )
    texts = [m["messageContent"] for m in inbox(alice)["list"][:2]]
    assert texts == ["<p>By event</p>", "<p>From the reports plugin</p>"]
    assert unread_total(alice, ["iotAutho"]) == before + 2
    sent_events = [e for e in recorder.events if e.name == "message_sent"]
    assert len(sent_events) == 2
    assert sent_events[0].tenant_id == ACME and sent_events[0].data["recipients"] == [uid]
    # a bad event is logged and stores nothing
    kernel.emit("send_message", tenant_id=ACME, to_users=[uid], content="<script>x</script>")
    assert unread_total(alice, ["iotAutho"]) == before + 2
