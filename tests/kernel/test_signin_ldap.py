"""Domain-account sign-in against a real OpenLDAP server (slapd) started for these tests."""

from __future__ import annotations

import base64
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from atrium.kernel.identity.models import LdapConfig
from atrium.kernel.models import User
from atrium.sdk.testing import AtriumClient
from tests.kernel.conftest import ACME

SLAPD = shutil.which("slapd") or "/usr/sbin/slapd"
SLAPADD = shutil.which("slapadd") or "/usr/sbin/slapadd"
SUFFIX = "dc=atrium,dc=test"
READER_DN = f"cn=reader,ou=services,{SUFFIX}"
READER_PASSWORD = "reader-secret"
PEOPLE = {
    # uid: (common name, mail, phone, password)
    "lin.domain": ("Lin Domain", "lin.domain@atrium.test", "13900001111", "LinPass1"),
    "kovacs": ("Kovács Anna", "anna@atrium.test", "", "Anna2024"),
    "star": ("Star Person", "star@atrium.test", "", "StarPass9"),
}
LOGIN = "/api/base/base-user/ldap-login"


@dataclass
class Directory:
    url: str
    suffix: str


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _seed() -> str:
    parts = [
        f"dn: {SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\ndc: atrium\no: Atrium Test\n",
        f"dn: ou=people,{SUFFIX}\nobjectClass: organizationalUnit\nou: people\n",
        f"dn: ou=services,{SUFFIX}\nobjectClass: organizationalUnit\nou: services\n",
        f"dn: {READER_DN}\nobjectClass: organizationalRole\nobjectClass: simpleSecurityObject\n"
        f"cn: reader\nuserPassword: {READER_PASSWORD}\n",
    ]
    for uid, (cn, mail, phone, password) in PEOPLE.items():
        entry = (
            f"dn: uid={uid},ou=people,{SUFFIX}\nobjectClass: inetOrgPerson\nuid: {uid}\n"
            f"cn:: {base64.b64encode(cn.encode()).decode()}\nsn: {cn.split()[-1]}\n"
            f"mail: {mail}\nuserPassword: {password}\n"
        )
        if phone:
            entry += f"telephoneNumber: {phone}\n"
        parts.append(entry)
    return "\n".join(parts)


@contextmanager
def running_slapd() -> Iterator[Directory]:
    """slapd on a free loopback port with a temporary configuration and database, seeded with PEOPLE."""
    if not Path(SLAPD).exists():
        pytest.skip("slapd is not installed (Debian package slapd): the domain sign-in tests need it")
    root = Path(tempfile.mkdtemp(prefix="atrium-slapd-"))
    (root / "db").mkdir()
    conf = root / "slapd.conf"
    conf.write_text(
        "\n".join(
            [
                *(f"include /etc/ldap/schema/{s}.schema" for s in ("core", "cosine", "nis", "inetorgperson")),
                f"pidfile {root}/slapd.pid",
                "modulepath /usr/lib/ldap",
                "moduleload back_mdb",
                "database mdb",
                "maxsize 10485760",
                f'suffix "{SUFFIX}"',
                f'rootdn "cn=admin,{SUFFIX}"',
                f"rootpw {secrets.token_hex(12)}",
                f"directory {root}/db",
                "access to attrs=userPassword by self read by anonymous auth by * none",
                "access to * by users read by * none",
                "",
            ]
        )
    )
    (root / "seed.ldif").write_text(_seed())
    subprocess.run([SLAPADD, "-f", str(conf), "-l", str(root / "seed.ldif")], check=True, capture_output=True)
    port = _free_port()
    url = f"ldap://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [SLAPD, "-f", str(conf), "-h", f"{url}/", "-d", "0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        for _ in range(200):
            if proc.poll() is not None:
                raise RuntimeError("slapd stopped: " + (proc.stderr.read().decode() if proc.stderr else ""))
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            raise RuntimeError("slapd did not start listening")
        yield Directory(url, SUFFIX)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def directory() -> Iterator[Directory]:
    with running_slapd() as d:
        yield d


@pytest.fixture
def domain(admin_client: AtriumClient, directory: Directory) -> Iterator[Callable[..., dict[str, Any]]]:
    """Configure a domain server for Acme (removed after the test)."""
    made: list[str] = []

    def make(**overrides: Any) -> dict[str, Any]:
        body = {
            "domain": f"corp{secrets.token_hex(3)}",
            "serverUrl": directory.url,
            "bindDn": READER_DN,
            "bindPassword": READER_PASSWORD,
            "searchBase": f"ou=people,{directory.suffix}",
            "userFilter": "(&(objectClass=inetOrgPerson)(uid={account}))",
            "attributes": {"account": "uid", "name": "cn", "email": "mail", "phone": "telephoneNumber"},
            "timeout": 3,
            **overrides,
        }
        saved: dict[str, Any] = admin_client.ok("POST", "/api/base/admin/ldap/save", json=body)
        made.append(saved["id"])
        return saved

    yield make
    for config_id in made:
        admin_client.post(f"/api/base/admin/ldap/delete?id={config_id}")


def ldap_login(c: AtriumClient, domain: str, account: str, password: str) -> dict[str, Any]:
    body = {"domainName": "acme.localhost", "domain": domain, "account": account}
    body["password"] = c.encrypt(password) if password else ""
    return c.post(LOGIN, json={"params": body})


def test_configuration_keeps_the_bind_password_encrypted(admin_client, domain, rows):
    saved = domain()
    assert saved["bindPasswordSet"] is True and "bindPassword" not in saved
    with rows() as db:
        stored = db.execute(
            select(LdapConfig.bind_password).where(LdapConfig.id == int(saved["id"]))
        ).scalar()
    assert stored and READER_PASSWORD not in stored
    listed = admin_client.ok("GET", "/api/base/admin/ldap")
    assert READER_PASSWORD not in str(listed) and saved["domain"] in [c["domain"] for c in listed]
    tested = admin_client.ok("POST", f"/api/base/admin/ldap/test?id={saved['id']}")
    assert tested["ok"] is True and tested["entries"] == len(PEOPLE) + 1
    # saving again without a password keeps the stored one
    again = admin_client.ok("POST", "/api/base/admin/ldap/save", json={**saved, "id": int(saved["id"])})
    assert again["bindPasswordSet"] is True
    assert admin_client.ok("POST", f"/api/base/admin/ldap/test?id={saved['id']}")["ok"] is True


def test_domain_sign_in_creates_then_links_the_user(client, domain, rows):
    cfg = domain()
    types = client.ok("GET", "/api/base/base-sso-oauth-config/get-login-type?domainName=acme.localhost")
    (ldap_type,) = [t for t in types if t["type"] == "ldap"]
    assert cfg["domain"] in ldap_type["domains"]
    first = ldap_login(client, cfg["domain"], "kovacs", "Anna2024")
    assert first["code"] == 800, first
    assert first["data"]["userFullName"] == "Kovács Anna" and first["data"]["tenantId"] == ACME
    assert first["data"]["authorization"]
    with rows() as db:
        user = db.get(User, int(first["data"]["userId"]))
        assert user is not None and user.email == "anna@atrium.test" and user.password_hash == ""
    again = ldap_login(client, cfg["domain"], " kovacs ", "Anna2024")
    assert again["code"] == 800 and again["data"]["userId"] == first["data"]["userId"]
    # the directory's password, not a local one: the account cannot sign in with a password of its own
    assert client.login(user.account, "Anna2024")["code"] == 1001


def test_wrong_password_unknown_user_and_empty_fields(client, make_client, domain):
    cfg = domain()
    failed = {"code": 1001, "msg": "Account or password is wrong", "data": None}
    assert ldap_login(client, cfg["domain"], "lin.domain", "wrong-one") == failed
    assert ldap_login(client, cfg["domain"], "nobody", "LinPass1") == failed
    assert ldap_login(client, cfg["domain"], "lin.domain", "") == {
        "code": 400,
        "msg": "Password cannot be empty",
        "data": None,
    }
    assert ldap_login(client, cfg["domain"], "", "x")["msg"] == "Account cannot be empty"
    assert ldap_login(client, "", "lin.domain", "LinPass1")["msg"] == "Please choose a domain"
    unknown = ldap_login(make_client("zh-cn"), "nowhere", "lin.domain", "LinPass1")
    assert unknown == {"code": 400, "msg": "该域不可用于登录", "data": None}
    assert ldap_login(client, cfg["domain"], "lin.domain", "LinPass1")["code"] == 800


@pytest.mark.parametrize("account", ["*", "lin*", "lin.domain)(uid=*", "*)(|(uid=*", "star)(objectClass=*"])
def test_filter_injection_finds_nobody(client, domain, account):
    cfg = domain()
    for password in ("LinPass1", "StarPass9", "Anna2024"):
        answer = ldap_login(client, cfg["domain"], account, password)
        assert answer["code"] == 1001, (account, answer)


def test_unreachable_server_answers_at_once_with_a_message(client, admin_client, domain, make_client):
    cfg = domain(serverUrl=f"ldap://127.0.0.1:{_free_port()}", timeout=2)
    answer = ldap_login(client, cfg["domain"], "lin.domain", "LinPass1")
    assert answer == {
        "code": 1006,
        "msg": "The domain server cannot be reached, please try again later",
        "data": None,
    }
    vi = ldap_login(make_client("vi-vn"), cfg["domain"], "lin.domain", "LinPass1")
    assert vi["msg"] == "Không thể kết nối máy chủ miền, vui lòng thử lại sau"
    assert admin_client.post(f"/api/base/admin/ldap/test?id={cfg['id']}")["code"] == 1006


def test_wrong_service_account(admin_client, client, domain):
    cfg = domain(bindPassword="not-the-password")
    tested = admin_client.post(f"/api/base/admin/ldap/test?id={cfg['id']}")
    assert tested == {"code": 1006, "msg": "The domain server refused the service account", "data": None}
    assert ldap_login(client, cfg["domain"], "lin.domain", "LinPass1")["code"] == 1006


@pytest.mark.parametrize(
    ("field", "value", "msg"),
    [
        ("serverUrl", "http://example.com", "The server address must start with ldap:// or ldaps://"),
        ("userFilter", "uid={account}", "The user filter must be in parentheses and contain {account}"),
        ("userFilter", "(uid=fixed)", "The user filter must be in parentheses and contain {account}"),
        (
            "attributes",
            {"password": "userPassword"},
            "The attribute mapping accepts account, name, email and phone",
        ),
    ],
)
def test_configuration_is_checked(admin_client, field, value, msg):
    body = {"domain": "bad", "serverUrl": "ldap://127.0.0.1:1", "searchBase": SUFFIX, field: value}
    assert admin_client.post("/api/base/admin/ldap/save", json=body) == {
        "code": 400,
        "msg": msg,
        "data": None,
    }


def test_only_administrators_configure(user_client):
    assert user_client.post("/api/base/admin/ldap/save", json={})["code"] == 403
    assert user_client.get("/api/base/admin/ldap")["code"] == 403


def test_a_tenant_sees_only_its_own_servers(admin_client, domain, client):
    cfg = domain()
    globex = client.post(
        LOGIN,
        json={
            "domainName": "globex.localhost",
            "domain": cfg["domain"],
            "account": "kovacs",
            "password": client.encrypt("Anna2024"),
        },
    )
    assert globex["msg"] == "This domain is not available for sign-in"
