"""Installed plugins' remotes (`atrium_web_remote`): checked at load, served like the built-ins', listed per
tenant; what does not load is in the manifest's `unavailable` list with its prefixes (and, for
administrators, its error)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from atrium.kernel.plugins import load
from atrium.sdk import PluginInfo, WebModule, hookimpl
from atrium.sdk.testing import AtriumClient

ACME = 1001


class Shipped:
    """A plugin as a wheel ships it: its remote in a folder it names."""

    def __init__(self, name: str, folder: Path | None, sdk: str = ">=1.0,<2", on: bool = False) -> None:
        self.__name__ = name
        self.name, self.folder, self.sdk, self.on = name, folder, sdk, on

    @hookimpl
    def atrium_plugin_info(self) -> PluginInfo:
        return PluginInfo(
            name=self.name,
            version="0.3.0",
            sdk=self.sdk,
            prefixes=[f"/{self.name}"],
            web=WebModule(remote_name="atrium_" + self.name.replace("-", "_")),
            enabled_by_default=self.on,
        )

    @hookimpl
    def atrium_web_remote(self) -> str | None:
        return None if self.folder is None else str(self.folder)


def remote(tmp_path: Path, name: str, entry: bool = True) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    if entry:
        (folder / "remoteEntry.js").write_text("var atrium_x = {};\n")
        (folder / "123.0123abcd.js").write_text("/* chunk */\n" * 200)
    return folder


def test_the_remote_folder_and_sdk_range_are_checked_at_load(tmp_path: Path) -> None:
    built = remote(tmp_path, "built")
    reg = load(
        [],
        [
            Shipped("good-one", built),
            Shipped("no-page", None),
            Shipped("unbuilt", remote(tmp_path, "empty", entry=False)),
            Shipped("old-one", built, sdk=">=0.1,<0.2"),
        ],
    )
    assert reg.loaded["good-one"].remote == built.resolve() and reg.loaded["good-one"].remote_hook
    assert reg.loaded["no-page"].remote is None and reg.loaded["no-page"].remote_hook
    assert "has no remoteEntry.js" in reg.failed["unbuilt"].error
    assert "needs SDK >=0.1,<0.2" in reg.failed["old-one"].error
    rows = {r["name"]: r for r in reg.report()}
    assert rows["unbuilt"]["status"] == "failed" and rows["unbuilt"]["prefixes"] == ["/unbuilt"]
    assert rows["old-one"]["version"] == "0.3.0"


def test_an_installed_remote_is_served_and_listed_per_tenant(make_atrium_app: Any, tmp_path: Path) -> None:
    built = remote(tmp_path, "built")
    http = make_atrium_app(
        [Shipped("good-one", built), Shipped("unbuilt", remote(tmp_path, "e", entry=False), on=True)]
    )
    entry = http.get("/plugins/good-one/remoteEntry.js")
    assert entry.status_code == 200 and entry.content == (built / "remoteEntry.js").read_bytes()
    assert entry.headers["cache-control"] == "no-cache"
    chunk = http.get("/plugins/good-one/123.0123abcd.js", headers={"accept-encoding": "gzip"})
    assert chunk.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert chunk.headers["content-encoding"] == "gzip"
    assert http.get("/plugins/unbuilt/remoteEntry.js").status_code == 404

    admin = AtriumClient(http).signed_in("admin")
    admin.ok(
        "POST",
        "/api/base/admin/plugins/state",
        json={"plugin": "good-one", "enabled": True, "tenantId": ACME},
    )
    supervisor, alice, bob = (AtriumClient(http).signed_in(a) for a in ("supervisor", "alice", "bob"))
    acme = supervisor.ok("GET", "/api/kernel/manifest")
    assert [p["remoteUrl"] for p in acme["plugins"] if p["name"] == "good-one"] == [
        "/plugins/good-one/remoteEntry.js"
    ]
    assert "good-one" not in {p["name"] for p in bob.ok("GET", "/api/kernel/manifest")["plugins"]}
    # the plugin that failed: its prefixes for everyone, its error for administrators only
    (failed,) = [p for p in acme["unavailable"] if p["name"] == "unbuilt"]
    assert failed["prefixes"] == ["/unbuilt"] and "has no remoteEntry.js" in failed["error"]
    (seen,) = [p for p in alice.ok("GET", "/api/kernel/manifest")["unavailable"] if p["name"] == "unbuilt"]
    assert seen == {"name": "unbuilt", "prefixes": ["/unbuilt"]}
