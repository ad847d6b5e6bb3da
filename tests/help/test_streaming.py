"""The knowledge chat over a real HTTP connection: Server-Sent Events read as they arrive, the
passages-only answer, and the OpenAI-compatible path against a local server speaking its stream format
(tokens, refusals, a broken stream, a time-out)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.help.servers import ANSWER, FakeLlm, read_events, serve

CHAT = "/api/aigc/knowledge/chat"
SAVE = "/api/help/admin/doc/save"
ENDPOINT = "/api/aigc/admin/endpoint/save"


@pytest.fixture(scope="module")
def fake_llm() -> Iterator[tuple[FakeLlm, str]]:
    llm = FakeLlm()
    with serve(llm.app) as url:
        yield llm, url


@pytest.fixture(scope="module")
def live(atrium_app: Any) -> Iterator[str]:
    with serve(atrium_app) as url:
        yield url


@pytest.fixture
def llm_tenant(tenant_admin, member, fake_llm) -> Any:
    """A tenant with one document and the local endpoint configured; yields a signed-in member."""
    _llm, url = fake_llm
    tenant_admin.ok(
        "POST",
        SAVE,
        json={
            "locale": "en-us",
            "title": "Passwords",
            "content": "<p>Change your password from the user menu.</p>",
        },
    )
    tenant_admin.ok(
        "POST",
        ENDPOINT,
        json={"baseUrl": url + "/v1", "model": "ok", "apiKey": "sk-test-123", "timeoutSeconds": 2},
    )
    return member(tenant_admin.tenant_id)


def _stream(base: str, c: Any, **params: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    with (
        httpx.Client(base_url=base, timeout=30) as http,
        http.stream("GET", CHAT, params=params, headers=c.headers) as resp,
    ):
        assert resp.status_code == 200
        assert resp.headers["content-type"].startswith("text/event-stream")
        yield from read_events(resp.iter_lines())


def test_without_an_endpoint_the_answer_is_the_passages_clearly_marked(live, member):
    c = member(locale="en-us")
    events = list(_stream(live, c, prompt="How do I change my password?", top=5, session="plain-1"))
    names = [e for e, _ in events]
    assert names[0] == "meta" and names[-1] == "done" and "error" not in names
    meta = events[0][1]
    assert meta["mode"] == "passages" and meta["session"] == "plain-1"
    # one document answers it: cited once, by its best passage, and nothing far less relevant beside it
    assert [p["title"] for p in meta["passages"]] == ["Signing in and passwords"]
    answer = "".join(d["text"] for e, d in events if e == "token")
    assert answer.startswith("No language model is set up for your organisation")
    assert "[1] Signing in and passwords" in answer and "Change Password" in answer


def test_tokens_arrive_while_the_model_is_still_writing(live, llm_tenant, fake_llm):
    llm, _url = fake_llm
    llm.release.clear()
    seen: list[str] = []
    for event, data in _stream(live, llm_tenant, prompt="How do I change my password?"):
        seen.append(event)
        if event == "token" and len(seen) == 2:
            # the first piece is here although the model has not written the rest yet
            assert data["text"] == ANSWER[0] and not llm.release.is_set()
            llm.release.set()
        if event == "meta":
            assert data["mode"] == "llm" and data["passages"][0]["title"] == "Passwords"
    assert seen == ["meta", "token", "token", "token", "done"]
    sent = llm.requests[-1]
    assert sent["authorization"] == "Bearer sk-test-123"
    assert sent["body"]["stream"] is True and sent["body"]["model"] == "ok"
    assert "Change your password from the user menu." in sent["body"]["messages"][-1]["content"]


def test_an_endpoint_that_refuses_ends_with_a_clear_error(live, llm_tenant, fake_llm):
    events = list(_stream(live, llm_tenant, prompt="password", model="refuse"))
    assert [e for e, _ in events] == ["meta", "error", "done"]
    err = events[1][1]
    assert err["code"] == 502 and "could not answer" in err["msg"] and "Invalid API key" in err["msg"]


def test_a_stream_that_breaks_keeps_what_came_and_reports_the_error(live, llm_tenant):
    events = list(_stream(live, llm_tenant, prompt="password", model="broken"))
    assert [e for e, _ in events] == ["meta", "token", "error", "done"]
    assert events[1][1]["text"] == "Partial " and "model overloaded" in events[2][1]["msg"]


def test_a_slow_endpoint_times_out_with_a_message_and_the_stream_closes(live, llm_tenant):
    events = list(_stream(live, llm_tenant, prompt="password", model="slow"))
    assert [e for e, _ in events] == ["meta", "error", "done"]
    assert events[1][1] == {
        "code": 504,
        "msg": "The language model did not answer within 2 seconds. Please try again later.",
    }


def test_the_answer_streams_in_the_callers_language(live, member):
    c = member(locale="zh-cn")
    events = list(_stream(live, c, prompt="怎么修改密码？"))
    answer = "".join(d["text"] for e, d in events if e == "token")
    assert answer.startswith("本单位尚未配置大语言模型") and "修改密码" in answer


def test_bad_input_answers_the_envelope_not_a_stream(live, member):
    c = member(locale="en-us")
    resp = httpx.post(live + CHAT, json={"prompt": "x" * 4001}, headers=c.headers)
    assert resp.headers["content-type"].startswith("application/json")
    assert resp.json()["code"] == 400


def test_a_reader_that_stops_closes_the_upstream_stream(live, llm_tenant, fake_llm):
    llm, _url = fake_llm
    llm.release.clear()
    llm.closed.clear()
    with (
        httpx.Client(base_url=live, timeout=30) as http,
        http.stream("GET", CHAT, params={"prompt": "password"}, headers=llm_tenant.headers) as resp,
    ):
        events = read_events(resp.iter_lines())
        assert next(events)[0] == "meta"
        assert next(events) == ("token", {"text": ANSWER[0]})
    # the user pressed stop: the platform hangs up on the model instead of reading the rest
    assert llm.closed.wait(10)


def test_a_quiet_model_keeps_the_connection_alive_with_comments(live, llm_tenant, fake_llm, monkeypatch):
    from atrium.plugins.help import chat

    llm, _url = fake_llm
    llm.release.clear()
    monkeypatch.setattr(chat, "PING_SECONDS", 0.05)
    lines: list[str] = []
    with (
        httpx.Client(base_url=live, timeout=30) as http,
        http.stream("GET", CHAT, params={"prompt": "password"}, headers=llm_tenant.headers) as resp,
    ):
        for line in resp.iter_lines():
            lines.append(line)
            if line == ": ping":
                llm.release.set()
    assert ": ping" in lines
    text = "".join(d["text"] for e, d in read_events(iter(lines)) if e == "token")
    assert text == "".join(ANSWER) and lines[-2].startswith("data:") and "done" in lines[-3]
