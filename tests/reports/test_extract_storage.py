"""Extracts through object storage, with two nodes (two apps of one process) sharing one database but each
with its own var dir: a sync on node A is charted on node B from an empty cache, on a shared disk and on
S3; charts over cached extracts answer while the store is away, a sync then fails with the storage error
recorded; removal deletes the stored files; the cache keeps to its size; and the sign-in key is shared."""

from __future__ import annotations

import os
import secrets
import shutil
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from starlette.testclient import TestClient

from atrium.kernel.config import Settings
from atrium.kernel.services.storage import LocalStorage
from atrium.kernel.services.storage_s3 import S3Storage
from atrium.plugins.reports.settings import report_settings
from atrium.plugins.reports.store import extract_store
from atrium.sdk.testing import AtriumClient, build_app, encrypt_password
from tests.kernel.s3_server import S3Server, running_s3
from tests.reports.conftest import Demo

ACME = 1001
EXTRACT_VIEW = ("表格与文本", "抽取模式：大区销售额")


@dataclass
class Node:
    name: str
    http: TestClient
    kernel: Any
    admin: AtriumClient

    @property
    def cache(self) -> Path:
        return Path(self.kernel.settings.var_dir) / "reports" / "extracts"

    def cached_files(self) -> list[str]:
        return sorted(p.name for p in self.cache.rglob("*.parquet"))


@dataclass
class Cluster:
    a: Node
    b: Node
    demo: Demo

    def use(self, storage: Any) -> None:
        """Both nodes on one store, each with an empty extract cache."""
        for node in (self.a, self.b):
            node.kernel.storage = storage
            shutil.rmtree(node.cache, ignore_errors=True)
        extract_store._present.clear()

    def chart(self, node: Node) -> dict[str, Any]:
        v = self.demo.view(*EXTRACT_VIEW)
        url = f"/api/dyreport/chart/view/getData/{v['id']}/{v['panelId']}"
        return node.admin.post(url, json={"cache": False})


def _database(tmp: Path) -> tuple[str, str]:
    """A database both nodes share: a SQLite file, or a fresh PostgreSQL schema (and its name)."""
    base = os.environ.get("ATRIUM_TEST_DATABASE_URL", "")
    if not base:
        return f"sqlite:///{tmp / 'shared.db'}", ""
    schema = f"t_{secrets.token_hex(6)}"
    url = base.replace("postgresql://", "postgresql+psycopg://", 1)
    eng = sa.create_engine(url)
    with eng.begin() as conn:
        conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
    eng.dispose()
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}", schema


def _own_key(var_dir: Path) -> None:
    """A sign-in key file of this node's own (the test kit would give every app the same one)."""
    key = ec.generate_private_key(ec.SECP256R1())
    target = var_dir / "keys" / "transit-key.pem"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )


@pytest.fixture(scope="module")
def s3() -> Iterator[S3Server]:
    with running_s3() as server:
        yield server


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    tmp = tmp_path_factory.mktemp("two-nodes")
    db_url, schema = _database(tmp)
    redis_url = os.environ.get("ATRIUM_TEST_REDIS_URL", "")
    common: dict[str, Any] = {
        "database_url": db_url,
        "redis_url": redis_url,
        "redis_prefix": f"atrium-test-nodes-{secrets.token_hex(4)}:",
        "demo": True,
        "dev_outbox": True,
        "scheduler": False,
        "task_threads": 0,
        "secret_key": "test-" + secrets.token_hex(24),
    }
    started: list[TestClient] = []
    try:
        nodes: list[Node] = []
        for name in ("a", "b"):
            var_dir = tmp / name
            _own_key(var_dir)
            app = build_app(Settings(var_dir=var_dir, **common), demo=name == "a")
            if nodes and not redis_url:  # what a shared Redis is to real nodes: one cache
                app.state.kernel.cache = app.state.kernel.crypto.cache = nodes[0].kernel.cache
            http = TestClient(app, base_url="http://testserver")
            http.__enter__()
            started.append(http)
            admin = AtriumClient(http).signed_in("admin")
            nodes.append(Node(name, http, app.state.kernel, admin))
        yield Cluster(nodes[0], nodes[1], Demo(nodes[0].admin))
    finally:
        for http in reversed(started):
            http.__exit__(None, None, None)
        if schema:
            eng = sa.create_engine(
                os.environ["ATRIUM_TEST_DATABASE_URL"].replace("postgresql://", "postgresql+psycopg://", 1)
            )
            with eng.begin() as conn:
                conn.execute(sa.text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
            eng.dispose()


@pytest.fixture(params=["local", "s3"])
def store(request: pytest.FixtureRequest, cluster: Cluster, tmp_path: Path) -> Any:
    """One store both nodes use: a folder both mount, or a bucket of its own."""
    if request.param == "local":
        storage: Any = LocalStorage(tmp_path / "shared-files")
    else:
        s3: S3Server = request.getfixturevalue("s3")
        storage = S3Storage.from_url(s3.url(s3.bucket()))
    cluster.use(storage)
    return storage


def _stored(storage: Any, dataset_id: str) -> list[str]:
    return sorted(o.key for o in storage.list(ACME, f"{extract_store.PREFIX}/{dataset_id}/"))


def test_a_sync_on_one_node_is_charted_on_another(cluster: Cluster, store: Any) -> None:
    a, b, ds_id = cluster.a, cluster.b, cluster.demo.extract_id
    status = a.admin.ok("POST", f"/api/dyreport/dataset/sync/{ds_id}")
    assert status["status"] == "ok" and status["ready"] is True
    (name,) = [k.rsplit("/", 1)[-1] for k in _stored(store, ds_id)]
    assert a.cached_files() == [name] and b.cached_files() == []

    on_b = {d["id"]: d for d in b.admin.ok("GET", "/api/dyreport/dataset/list")}[ds_id]
    assert on_b["sync"]["ready"] is True
    from_b, from_a = cluster.chart(b), cluster.chart(a)
    assert from_b["code"] == 800, from_b
    assert from_b["data"]["data"] == from_a["data"]["data"] and from_b["data"]["data"]["x"]
    assert b.cached_files() == [name]

    # a second sync: both versions stay in the store and in A's cache, B fetches the new one when asked
    a.admin.ok("POST", f"/api/dyreport/dataset/sync/{ds_id}")
    assert len(_stored(store, ds_id)) == 2 and len(a.cached_files()) == 2
    assert cluster.chart(b)["data"]["data"] == from_a["data"]["data"]
    assert len(b.cached_files()) == 2
    # a third: the oldest version leaves the store and both caches
    a.admin.ok("POST", f"/api/dyreport/dataset/sync/{ds_id}")
    assert cluster.chart(b)["code"] == 800
    assert name not in [k.rsplit("/", 1)[-1] for k in _stored(store, ds_id)]
    assert len(_stored(store, ds_id)) == 2
    assert name not in a.cached_files() and name not in b.cached_files()


def test_an_unreachable_store(cluster: Cluster) -> None:
    """Charts over extracts a node holds answer while the store is away; one a node does not hold answers the
    storage error; a sync fails with that error recorded and the dataset keeps its file."""
    a, b, ds_id = cluster.a, cluster.b, cluster.demo.extract_id
    with running_s3() as server:
        cluster.use(S3Storage.from_url(server.url(server.bucket())))
        a.admin.ok("POST", f"/api/dyreport/dataset/sync/{ds_id}")
        before = cluster.chart(b)
        assert before["code"] == 800
        server.stop()

        assert cluster.chart(b)["data"]["data"] == before["data"]["data"]
        assert cluster.chart(a)["data"]["data"] == before["data"]["data"]
        failed = a.admin.post(f"/api/dyreport/dataset/sync/{ds_id}")
        assert failed["code"] == 503, failed
        status = b.admin.ok("GET", f"/api/dyreport/dataset/syncStatus/{ds_id}")
        assert status["status"] == "error" and status["error"] == failed["msg"] and status["ready"] is True
        assert cluster.chart(b)["data"]["data"] == before["data"]["data"]

        shutil.rmtree(b.cache)
        extract_store._present.clear()
        missing = cluster.chart(b)
        assert missing["code"] == 503 and missing["msg"] == failed["msg"]
    assert not list(b.cache.rglob("*.tmp"))


def test_removal_deletes_the_stored_files(cluster: Cluster, store: Any, tmp_path: Path) -> None:
    a, b = cluster.a, cluster.b
    path = tmp_path / "small.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t (g TEXT, n INTEGER)")
    con.executemany("INSERT INTO t VALUES (?, ?)", [(f"g{i % 3}", i) for i in range(30)])
    con.commit()
    con.close()
    src = a.admin.ok(
        "POST", "/api/dyreport/datasource/save", json={"name": "small", "url": f"sqlite:///{path}"}
    )
    ds = a.admin.ok(
        "POST",
        "/api/dyreport/dataset/save",
        json={"name": "small", "datasourceId": src["id"], "tableName": "t", "mode": "extract"},
    )
    a.admin.ok("POST", f"/api/dyreport/dataset/sync/{ds['id']}")
    a.admin.ok("POST", f"/api/dyreport/dataset/sync/{ds['id']}")
    assert len(_stored(store, ds["id"])) == 2
    fields = {f["originName"]: f["id"] for f in ds["fields"]}
    counted = b.admin.ok(
        "POST",
        "/api/dyreport/chart/view/calcData/new",
        json={
            "view": {
                "tableId": ds["id"],
                "panelId": cluster.demo.overview,
                "type": "text",
                "render": "echarts",
                "yaxis": [{"id": fields["n"], "summary": "sum"}],
            },
            "cache": False,
        },
    )
    assert counted["data"]["series"][0]["data"][0]["value"] == sum(range(30))
    assert b.cached_files()

    b.admin.ok("POST", f"/api/dyreport/dataset/delete/{ds['id']}")
    assert _stored(store, ds["id"]) == []
    assert not list((b.cache / str(ACME) / ds["id"]).glob("*.parquet"))


def test_the_cache_keeps_to_its_size(cluster: Cluster, store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over its limit the cache drops the least recently used files, never the one a query reads."""
    a, b, ds_id = cluster.a, cluster.b, cluster.demo.extract_id
    a.admin.ok("POST", f"/api/dyreport/dataset/sync/{ds_id}")
    assert cluster.chart(b)["code"] == 800
    stray = b.cache / str(ACME) / "elsewhere" / "v1-00.parquet"
    stray.parent.mkdir(parents=True)
    stray.write_bytes(b"x" * 1000)
    os.utime(stray, (1, 1))
    monkeypatch.setattr(report_settings(), "extract_cache_mb", 0)
    a.admin.ok("POST", f"/api/dyreport/dataset/sync/{ds_id}")
    assert cluster.chart(b)["code"] == 800
    assert len(b.cached_files()) == 1 and not stray.exists()


def test_the_sign_in_key_is_shared_by_the_nodes(cluster: Cluster) -> None:
    """A public key fetched from one node decrypts on the other, though each has its own key file."""
    a, b = cluster.a, cluster.b
    pem_a = a.kernel.crypto.public_pem
    assert pem_a == b.kernel.crypto.public_pem
    own = {n.name: n.kernel.crypto.local_key.public_key().public_numbers() for n in (a, b)}
    assert own["a"] != own["b"]
    for first, second in ((a, b), (b, a)):
        enc = AtriumClient(first.http).ok("POST", "/api/base/base-user/get-enryption")
        assert enc["publicKey"] == pem_a
        signed = AtriumClient(second.http).post(
            "/api/base/base-user/login",
            json={
                "params": {
                    "account": "admin",
                    "password": encrypt_password(enc["publicKey"], enc["nonce"], "Admin@123"),
                }
            },
        )
        assert signed["code"] == 800, signed
