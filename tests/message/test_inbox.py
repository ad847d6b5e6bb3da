"""The inbox calls of spec 7: message-find, unread-message-total, read, unread, read-all, message-delete."""

from __future__ import annotations

import re

from tests.message.helpers import INBOX, inbox, send_ok, unread_total


def test_a_sent_letter_is_in_the_recipients_inbox(admin_client, member):
    bob = member()
    send_ok(admin_client, toUsers=[bob.user_id], content="<p>Quarterly <b>close</b> starts Monday</p>")
    page = inbox(bob)
    assert page["total"] == 1 and not page["hasMore"]
    msg = page["list"][0]
    assert msg["messageContent"] == "<p>Quarterly <b>close</b> starts Monday</p>"
    assert msg["readStatus"] == 0 and msg["systemCode"] == "iotAutho"
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z", msg["sendTime"])
    assert unread_total(bob) == 1


def test_demo_letters_for_alice(user_client):
    page = inbox(user_client, rows=50)
    texts = " ".join(m["messageContent"] for m in page["list"])
    assert "EXP-2024-0318" in texts and "NB-0042" in texts
    assert {m["readStatus"] for m in page["list"]} == {0, 1}


def test_pages_of_ten_newest_first(admin_client, member):
    u = member()
    for i in range(12):
        send_ok(admin_client, toUsers=[u.user_id], content=f"<p>n{i}</p>")
    first = inbox(u)
    assert len(first["list"]) == 10 and first["total"] == 12 and first["hasMore"]
    assert first["list"][0]["messageContent"] == "<p>n11</p>"
    second = inbox(u, page=2)
    assert [m["messageContent"] for m in second["list"]] == ["<p>n1</p>", "<p>n0</p>"]
    assert not second["hasMore"]
    ids = [m["msgInstanceId"] for m in first["list"] + second["list"]]
    assert len(set(ids)) == 12


def test_read_status_and_system_filters(admin_client, member):
    u = member()
    a = send_ok(admin_client, toUsers=[u.user_id], content="<p>portal</p>")
    send_ok(admin_client, toUsers=[u.user_id], content="<p>assets</p>", systemCode="assetMgmt")
    del a
    first = inbox(u, system_codes=["iotAutho"])["list"][0]
    u.ok(
        "POST",
        f"{INBOX}/read",
        json={"params": {"systemCodes": ["iotAutho"], "msgInstanceIds": [first["msgInstanceId"]]}},
    )
    assert [m["messageContent"] for m in inbox(u, read_status=1)["list"]] == ["<p>portal</p>"]
    assert [m["messageContent"] for m in inbox(u, read_status=0)["list"]] == ["<p>assets</p>"]
    assert inbox(u)["total"] == 2
    assert [m["messageContent"] for m in inbox(u, system_codes=["assetMgmt"])["list"]] == ["<p>assets</p>"]
    assert unread_total(u, ["iotAutho"]) == 0
    assert unread_total(u, ["assetMgmt"]) == 1
    assert unread_total(u, ["iotAutho", "assetMgmt"]) == 1
    assert unread_total(u) == 1


def test_mark_read_unread_and_all_read(admin_client, member):
    u = member()
    for i in range(3):
        send_ok(admin_client, toUsers=[u.user_id], content=f"<p>m{i}</p>")
    send_ok(admin_client, toUsers=[u.user_id], systemCode="assetMgmt")
    ids = [m["msgInstanceId"] for m in inbox(u, system_codes=["iotAutho"])["list"]]
    assert unread_total(u, ["iotAutho"]) == 3
    marked = u.ok("POST", f"{INBOX}/read", json={"systemCodes": ["iotAutho"], "msgInstanceIds": ids[:2]})
    assert marked == {"count": 2}
    assert unread_total(u, ["iotAutho"]) == 1
    # marking again changes nothing
    assert u.ok("POST", f"{INBOX}/read", json={"msgInstanceIds": ids[:1]}) == {"count": 0}
    assert u.ok("POST", f"{INBOX}/unread", json={"msgInstanceIds": ids[:1]}) == {"count": 1}
    assert unread_total(u, ["iotAutho"]) == 2
    assert u.ok("POST", f"{INBOX}/read-all", json={"systemCodes": ["iotAutho"]}) == {"count": 2}
    assert unread_total(u, ["iotAutho"]) == 0
    assert unread_total(u, ["assetMgmt"]) == 1  # another system's letters stay unread
    assert u.ok("POST", f"{INBOX}/read-all", json={}) == {"count": 1}
    assert unread_total(u) == 0


def test_delete(admin_client, member):
    u = member()
    send_ok(admin_client, toUsers=[u.user_id], content="<p>keep</p>")
    send_ok(admin_client, toUsers=[u.user_id], content="<p>drop</p>")
    drop = inbox(u)["list"][0]
    assert drop["messageContent"] == "<p>drop</p>"
    deleted = u.ok("POST", f"{INBOX}/message-delete", json={"msgInstanceIds": [drop["msgInstanceId"]]})
    assert deleted == {"count": 1}
    left = inbox(u)
    assert [m["messageContent"] for m in left["list"]] == ["<p>keep</p>"]
    assert unread_total(u) == 1
    again = u.post(f"{INBOX}/message-delete", json={"msgInstanceIds": [drop["msgInstanceId"]]})
    assert again["code"] == 404


def test_unknown_ids_change_nothing(admin_client, member):
    u = member()
    send_ok(admin_client, toUsers=[u.user_id])
    mine = inbox(u)["list"][0]["msgInstanceId"]
    for call in ("read", "message-delete"):
        env = u.post(f"{INBOX}/{call}", json={"msgInstanceIds": [mine, 987654321]})
        assert env["code"] == 404
        assert env["msg"] == "Message 987654321 does not exist or was deleted"
    assert inbox(u)["list"][0]["readStatus"] == 0
    assert inbox(u)["total"] == 1


def test_another_users_or_tenants_ids_answer_like_unknown_ids(admin_client, member):
    owner = member()
    send_ok(admin_client, toUsers=[owner.user_id])
    theirs = inbox(owner)["list"][0]["msgInstanceId"]
    neighbour = member()
    foreigner = member(1002)
    for other in (neighbour, foreigner):
        for call in ("read", "unread", "message-delete"):
            env = other.post(f"{INBOX}/{call}", json={"msgInstanceIds": [theirs]})
            assert env["code"] == 404, env
            assert env["msg"] == f"Message {theirs} does not exist or was deleted"
        assert inbox(other)["total"] == 0
    assert inbox(owner)["list"][0]["readStatus"] == 0
    assert inbox(owner)["total"] == 1


def test_letters_of_another_tenant_stay_there(client, admin_client, user_factory):
    account, password, uid = user_factory(1001)
    from atrium.kernel import accounts
    from atrium.sdk.context import unscoped

    kernel = client.http.app.state.kernel
    with unscoped(), kernel.db():
        accounts.add_membership(uid, 1002)
    acme = client.signed_in(account, password)
    send_ok(admin_client, toUsers=[uid], content="<p>for acme</p>")
    globex_token = acme.ok("POST", "/api/base/base-user/change-tenant?tenantId=1002&systemCode=iotAutho")
    globex = client.signed_in(account, password)
    globex.headers["authorization"] = globex_token["authorization"]
    assert inbox(globex)["total"] == 0
    assert unread_total(globex) == 0


def test_bad_input_is_refused_with_a_message(member):
    u = member()
    cases = [
        ("message-find", {"pageIndex": 1, "pageRows": 10, "params": {"readStatus": 2}}, "readStatus"),
        ("message-find", {"pageIndex": 0, "pageRows": 10}, "pageIndex"),
        ("message-find", {"pageIndex": 1, "pageRows": 1000}, "pageRows"),
        ("read", {"msgInstanceIds": ["abc"]}, "msgInstanceIds"),
        ("unread-message-total", {"systemCodes": ["x" * 65]}, "systemCodes"),
    ]
    for call, body, field in cases:
        env = u.post(f"{INBOX}/{call}", json=body)
        assert env["code"] == 400, (call, env)
        assert field in env["msg"], env
    env = u.post(f"{INBOX}/read", json={"msgInstanceIds": []})
    assert env["code"] == 400 and env["msg"] == "Choose at least one message"
    env = u.post(f"{INBOX}/message-delete", json={"msgInstanceIds": list(range(1, 502))})
    assert env["code"] == 400


def test_body_wrapped_as_params_is_accepted(admin_client, member):
    u = member()
    send_ok(admin_client, toUsers=[u.user_id])
    wrapped = u.ok(
        "POST",
        f"{INBOX}/message-find",
        json={"params": {"pageIndex": 1, "pageRows": 10, "params": {"readStatus": 0}}},
    )
    assert wrapped["total"] == 1
    assert u.ok("POST", f"{INBOX}/unread-message-total", json={"params": {"systemCodes": "iotAutho"}}) == 1


def test_signed_out_callers_are_refused(client):
    assert client.post(f"{INBOX}/message-find", json={})["code"] == -1
    assert client.post(f"{INBOX}/unread-message-total", json={})["code"] == -1


def test_unread_badge_through_find_menu_num(admin_client, member):
    u = member()
    nums = u.ok("POST", "/api/base/message-subscript/find-menu-num", json={"keys": ["unreadMessages"]})
    assert nums == {"unreadMessages": 0}
    send_ok(admin_client, toUsers=[u.user_id])
    send_ok(admin_client, toUsers=[u.user_id])
    send_ok(admin_client, toUsers=[u.user_id], systemCode="assetMgmt")
    nums = u.ok(
        "POST", "/api/base/message-subscript/find-menu-num", json={"keys": ["unreadMessages", "other"]}
    )
    assert nums == {"unreadMessages": 2, "other": 0}


def test_letters_menu_carries_the_badge_key(user_client):
    menus = user_client.ok("GET", "/api/base/base-rolemenu/find-user-menus?systemCode=iotAutho")["menus"]
    flat = []
    stack = list(menus)
    while stack:
        m = stack.pop()
        flat.append(m)
        stack.extend(m["children"])
    letters = [m for m in flat if m["menuUrl"] == "/letters"]
    assert letters and letters[0]["subscriptKey"] == "unreadMessages" and letters[0]["subscriptStatus"] == 1
    assert not [m for m in flat if m["menuUrl"] == "/message-management"]  # administrators only


def test_pages_that_miss_the_unread_count_together_share_one_load(admin_client, member, kernel, monkeypatch):
    """The bells of many open pages ask at once when a count is missing: the database is read once. A
    request that comes after a letter was read never takes the answer of a load begun before it."""
    import asyncio
    import threading

    from atrium.plugins.message import api
    from atrium.sdk.context import RequestContext, set_context

    u = member()
    send_ok(admin_client, toUsers=[u.user_id])
    first = inbox(u)["list"][0]["msgInstanceId"]
    send_ok(admin_client, toUsers=[u.user_id])
    assert unread_total(u) == 2
    api.unread.cache.clear()
    loads: list[dict[str, int]] = []
    loaded, release = threading.Event(), threading.Event()
    real_load = api._load_counts

    def held_load(tenant_id: int, user_id: int) -> dict[str, int]:
        counts = real_load(tenant_id, user_id)
        loads.append(counts)
        if len(loads) == 1:
            loaded.set()
            release.wait(5)
        return counts

    monkeypatch.setattr(api, "_load_counts", held_load)

    async def bells() -> tuple[list[int], int]:
        session = await kernel.auth.session_for(u.headers["authorization"])
        set_context(RequestContext(user=session.user, tenant_id=session.user.tenant_id))
        ask = lambda: asyncio.ensure_future(api.unread_message_total(api.MessageSystemsIn()))  # noqa: E731
        together = [ask() for _ in range(6)]
        await asyncio.to_thread(loaded.wait, 5)
        read = {"params": {"systemCodes": [], "msgInstanceIds": [first]}}
        await asyncio.to_thread(u.ok, "POST", f"{INBOX}/read", json=read)
        after_read = await asyncio.wait_for(ask(), 5)  # its own load, not the one still running
        release.set()
        return list(await asyncio.gather(*together)), after_read

    answers, after_read = asyncio.run(bells())
    assert answers == [2] * 6 and after_read == 1
    assert len(loads) == 2
    assert unread_total(u) == 1
