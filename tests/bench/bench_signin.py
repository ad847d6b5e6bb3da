"""Sign-ins per second for each mode, each beside the bare cost of its own primitive in the same run.

- password: `POST base-user/login` with a sealed password (encrypted before the clock starts),
  beside one argon2id verify alone;
- SMS code: `POST base-user/login` with a phone code (codes sent before the clock starts), beside a bare
  Starlette JSON endpoint through the same in-process client;
- LDAP bind: `POST base-user/ldap-login` against a local slapd (search with the service account, then a
  bind as the user), beside the service bind, search and user bind with ldap3 alone;
- QR confirm: the phone's confirm and the desktop's collect (`qrcode/confirm`, `qrcode/login`), beside the
  bare Starlette JSON endpoint (two requests).

Run: .venv/bin/python -m tests.bench.bench_signin   (ROUNDS=50 for a quick look)
"""

from __future__ import annotations

import logging
import os
import secrets
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from atrium.kernel.logs import configure_logging
from atrium.sdk.testing import AtriumClient
from tests.bench.report import report

ROUNDS = int(os.environ.get("ROUNDS", "200"))


def per_second(rounds: int, run: Callable[[int], None]) -> float:
    start = time.perf_counter()
    for i in range(rounds):
        run(i)
    return rounds / (time.perf_counter() - start)


def make_app() -> tuple[Any, TestClient]:
    from atrium.kernel.config import Settings
    from atrium.sdk.testing import build_app

    settings = Settings(
        var_dir=Path(tempfile.mkdtemp(prefix="atrium-bench-signin-")),
        demo=True,
        dev_outbox=True,
        scheduler=False,
        secret_key="bench-" + secrets.token_hex(24),
    )
    app = build_app(settings)
    http = TestClient(app, base_url="http://testserver")
    http.__enter__()
    return app.state.kernel, http


def bare_client() -> TestClient:
    async def hello(_request: Any) -> JSONResponse:
        return JSONResponse({"code": 800, "msg": "ok", "data": {"hello": "world"}})

    http = TestClient(Starlette(routes=[Route("/hello", hello, methods=["GET", "POST"])]))
    http.__enter__()
    return http


def ok(answer: dict[str, Any]) -> None:
    assert answer["code"] == 800, answer


def main() -> None:
    from atrium.kernel import accounts
    from atrium.kernel.identity.passwords import hash_password, verify_password
    from atrium.sdk.context import unscoped

    kernel, http = make_app()
    configure_logging(level=logging.WARNING)  # one log line per code sent would bury the figures
    client = AtriumClient(http)
    bare = bare_client()
    bare_rps = per_second(ROUNDS * 5, lambda _i: bare.get("/hello").json())

    # password
    ciphertexts = [client.encrypt("Alice@123") for _ in range(ROUNDS)]
    password_rps = per_second(
        ROUNDS,
        lambda i: ok(
            client.post("/api/base/base-user/login", json={"account": "alice", "password": ciphertexts[i]})
        ),
    )
    stored = hash_password("Alice@123")
    argon_rps = per_second(ROUNDS, lambda _i: verify_password(stored, "Alice@123"))
    report(
        "sign-in, password",
        password_rps,
        argon_rps,
        "sign-ins/s",
        baseline_name="argon2id verify alone",
        higher_is_better=True,
    )

    # SMS code
    phones = [f"137{i:08d}" for i in range(ROUNDS)]
    with unscoped(), kernel.db():
        for phone in phones:
            accounts.create_user(f"sms{phone}", "Passw0rd1", "Sms Person", 1001, mobile=phone)
    codes: dict[str, str] = {}
    for n, phone in enumerate(phones, 1):  # the development outbox keeps the last 100 codes
        ok(client.get(f"/api/base/base-user/pre-captcha?phone={phone}"))
        if n % 100 == 0 or n == len(phones):
            codes |= {m["target"]: m["code"] for m in kernel.codes.outbox}
            kernel.codes.outbox.clear()
    sms_rps = per_second(
        ROUNDS,
        lambda i: ok(
            client.post(
                "/api/base/base-user/login",
                json={"loginType": "phone", "phone": phones[i], "code": codes[phones[i]]},
            )
        ),
    )
    report(
        "sign-in, SMS code",
        sms_rps,
        bare_rps,
        "sign-ins/s",
        baseline_name="bare Starlette JSON endpoint",
        higher_is_better=True,
    )

    # QR confirm
    phone_client = client.signed_in("alice")
    made = [client.ok("POST", "/api/base/qrcode/create") for _ in range(ROUNDS)]

    def qr(i: int) -> None:
        phone_client.ok("POST", "/api/base/qrcode/confirm", json={"qrCode": made[i]["qrCode"]})
        ok(
            client.post(
                "/api/base/qrcode/login", json={"qrCode": made[i]["qrCode"], "secret": made[i]["secret"]}
            )
        )

    qr_rps = per_second(ROUNDS, qr)
    bare_two = bare_rps / 2
    report(
        "sign-in, QR confirm and collect",
        qr_rps,
        bare_two,
        "sign-ins/s",
        baseline_name="bare Starlette JSON endpoint (two requests)",
        higher_is_better=True,
    )

    # LDAP bind
    from tests.kernel.test_signin_ldap import PEOPLE, READER_DN, READER_PASSWORD, SLAPD, running_slapd

    if not Path(SLAPD).exists():
        print("sign-in, LDAP bind: skipped (slapd is not installed)")
        return
    with running_slapd() as directory:
        admin_client = client.signed_in("admin")
        cfg = admin_client.ok(
            "POST",
            "/api/base/admin/ldap/save",
            json={
                "domain": "bench",
                "serverUrl": directory.url,
                "bindDn": READER_DN,
                "bindPassword": READER_PASSWORD,
                "searchBase": f"ou=people,{directory.suffix}",
                "userFilter": "(uid={account})",
            },
        )
        password = PEOPLE["lin.domain"][3]
        rounds = max(ROUNDS // 2, 10)
        ldap_ciphertexts = [client.encrypt(password) for _ in range(rounds)]
        body = {"domainName": "acme.localhost", "domain": cfg["domain"], "account": "lin.domain"}
        ldap_rps = per_second(
            rounds,
            lambda i: ok(
                client.post("/api/base/base-user/ldap-login", json={**body, "password": ldap_ciphertexts[i]})
            ),
        )
        from ldap3 import SUBTREE, Connection, Server

        server = Server(directory.url)

        def bind_alone(_i: int) -> None:
            svc = Connection(server, READER_DN, READER_PASSWORD, auto_bind=True)
            svc.search(
                f"ou=people,{directory.suffix}", "(uid=lin.domain)", SUBTREE, attributes=["cn", "mail"]
            )
            dn = svc.response[0]["dn"]
            svc.unbind()
            user = Connection(server, dn, password)
            assert user.bind()
            user.unbind()

        bind_rps = per_second(rounds, bind_alone)
        report(
            "sign-in, LDAP bind",
            ldap_rps,
            bind_rps,
            "sign-ins/s",
            baseline_name="ldap3 search and bind alone",
            higher_is_better=True,
        )


if __name__ == "__main__":
    main()
