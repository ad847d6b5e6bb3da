"""A plugin made outside the checkout becomes a wheel that another Atrium installs, page included.

The walk of the scaffold's README, in a temporary folder: ``atrium plugin new``, ``atrium sdk pack``,
``atrium plugin build --no-isolation`` (``npm install --prefer-offline`` against the packed ``@atrium/sdk``,
``npm run build``, then the wheel with this environment's setuptools), ``pip install --target`` of the wheel
into a folder of its own that only the servers started here have on their path (so the suite's other
workers never load it), ``atrium demo``, ``atrium plugins enable``,
``atrium plugins list`` and ``atrium demo --serve`` on a free port with its own var directory and every
installed plugin (``ATRIUM_LOAD_PLUGINS`` unset). Over HTTP: the remote is served with the built-ins'
caching, only the enabled tenant's manifest lists it, its API answers there and not in the other tenant. In
Chromium: its menu and page. With that folder deleted (uninstalled), Atrium starts again and the host
answers its prefix with the application not installed page, naming why.

npm reads the shared cache (``~/.npm``) first; the packages the web module needs (webpack, swc, Module
Federation, react, antd, ...) are those of the checkout's own install, so it needs no registry once that
install has filled the cache. The browser part runs in a thread of its own: Playwright's sync API refuses a
thread whose event loop another test left running.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from atrium.kernel.scaffold import sdk_tarball_name
from atrium.sdk.testing import AtriumClient
from tests.chromium import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[2]
NAME = "visitor-log"
MODULE = "atrium_visitor_log"
ACME, GLOBEX = 1001, 1002
START_SECONDS = 120
BIN = Path(sys.executable).parent
ATRIUM = str(BIN / "atrium")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def server_env(var_dir: Path, site: Path | None = None) -> dict[str, str]:
    """The server's environment; `site` is the folder the plugin's wheel was installed into (its own
    folder on the path, so that the test process and the suite's other workers never see it)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATRIUM_")}
    env.update({"ATRIUM_VAR_DIR": str(var_dir), "ATRIUM_SCHEDULER": "false", "ATRIUM_DEMO": "1"})
    if site is not None:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(site), env.get("PYTHONPATH", "")) if p)
    return env


class Steps:
    """Runs commands, each timed, failing with its output."""

    def __init__(self) -> None:
        self.timings: dict[str, float] = {}

    def run(self, name: str, *args: str, timeout: float, **kw: Any) -> str:
        started = time.monotonic()
        done = subprocess.run(args, capture_output=True, text=True, timeout=timeout, **kw)
        self.timings[name] = round(time.monotonic() - started, 1)
        assert done.returncode == 0, f"{name} failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
        return done.stdout


@contextmanager
def serving(
    steps: Steps, name: str, cwd: Path, var_dir: Path, site: Path | None = None
) -> Iterator[httpx.Client]:
    """`atrium demo --serve` on a free port until the block ends; yields a client of it."""
    port = free_port()
    log_path = var_dir / f"{name}.log"
    started = time.monotonic()
    with log_path.open("w") as log:
        server = subprocess.Popen(
            [ATRIUM, "demo", "--serve", "--port", str(port)],
            cwd=cwd,
            env=server_env(var_dir, site),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
                while True:
                    if server.poll() is not None:
                        pytest.fail(f"the server stopped:\n{log_path.read_text()[-4000:]}")
                    assert time.monotonic() - started < START_SECONDS, "the server did not answer in time"
                    try:
                        if http.get("/healthz").status_code == 200:
                            break
                    except httpx.TransportError:
                        pass
                    time.sleep(0.25)
                steps.timings[name] = round(time.monotonic() - started, 1)
                yield http
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def in_browser(check: Callable[[Any], None]) -> None:
    """Runs `check(page)` in Chromium, in a thread of its own (see the module's docstring)."""
    from playwright.sync_api import sync_playwright

    def run() -> None:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                context = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
                page = context.new_page()
                page.set_default_timeout(20000)
                check(page)
            finally:
                browser.close()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(run).result()


def sign_in(page: Any, base: str, account: str, password: str) -> None:
    page.context.add_cookies([{"name": "language", "value": "en-us", "url": base}])
    page.goto(base + "/login")
    page.locator("#account").fill(account)
    page.locator("#password").fill(password)
    page.locator("#agree").check()
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/home")


def test_a_scaffolded_plugin_ships_its_page_in_its_wheel(tmp_path: Path) -> None:
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed")
    steps = Steps()
    work = tmp_path / "work"
    work.mkdir()
    plugin = work / NAME

    # the scaffold, with the SDK it builds against packed into its web module's folder
    steps.run("plugin new", ATRIUM, "plugin", "new", NAME, "--dest", str(plugin), timeout=120, cwd=work)
    sdk_web = json.loads((ROOT / "sdk" / "web" / "package.json").read_text())
    package = json.loads((plugin / "web" / "package.json").read_text())
    assert package["dependencies"]["@atrium/sdk"] == f"file:vendor/{sdk_tarball_name(sdk_web['version'])}"
    assert (plugin / "web" / "vendor" / sdk_tarball_name(sdk_web["version"])).is_file()
    root_tools = json.loads((ROOT / "package.json").read_text())["devDependencies"]
    for tool, version in package["devDependencies"].items():
        assert root_tools[tool] == version, f"the scaffold's {tool} {version} drifted from the checkout's"

    out = steps.run("sdk pack", ATRIUM, "sdk", "pack", "--dest", str(work / "sdk"), timeout=120, cwd=work)
    tarball = Path(out.strip().splitlines()[-1])
    assert tarball == work / "sdk" / f"atrium-sdk-{sdk_web['version']}.tgz"
    with tarfile.open(tarball) as tar:
        names = set(tar.getnames())
    assert {"package/package.json", "package/webpack/index.cjs", "package/src/index.ts"} <= names
    assert not [n for n in names if "node_modules" in n]

    # its web module and its wheel, the built remote inside
    steps.run("plugin build", ATRIUM, "plugin", "build", str(plugin), "--no-isolation", timeout=600, cwd=work)
    (wheel,) = (plugin / "dist").glob("atrium_visitor_log-*.whl")
    built = plugin / "web" / "dist"
    assert (built / "remoteEntry.js").is_file()

    pip = (sys.executable, "-m", "pip", "--disable-pip-version-check")
    var_dir = tmp_path / "var"
    var_dir.mkdir()
    site = tmp_path / "site"
    env = server_env(var_dir, site)
    try:
        steps.run(
            "pip install",
            *pip,
            "install",
            "--quiet",
            "--no-deps",
            "--target",
            str(site),
            str(wheel),
            timeout=300,
            cwd=work,
        )
        steps.run("demo", ATRIUM, "demo", timeout=300, cwd=work, env=env)
        steps.run(
            "enable", ATRIUM, "plugins", "enable", NAME, "--tenant", str(ACME), timeout=120, cwd=work, env=env
        )
        listed = steps.run(
            "list", ATRIUM, "plugins", "list", "--tenant", str(ACME), timeout=120, cwd=work, env=env
        )
        (row,) = [line.split() for line in listed.splitlines() if line.startswith(NAME + " ")]
        assert row[:4] == [NAME, "loaded", "0.1.0", "enabled"], listed

        with serving(steps, "serve", work, var_dir, site) as http:
            entry = http.get(f"/plugins/{NAME}/remoteEntry.js")
            assert entry.status_code == 200
            assert entry.content == (built / "remoteEntry.js").read_bytes()
            assert entry.headers["cache-control"] == "no-cache"
            assert entry.headers["x-content-type-options"] == "nosniff"
            chunk = next(p for p in built.iterdir() if p.name != "remoteEntry.js")
            hashed = http.get(f"/plugins/{NAME}/{chunk.name}")
            assert hashed.status_code == 200 and hashed.content == chunk.read_bytes()
            assert hashed.headers["cache-control"] == "public, max-age=31536000, immutable"

            acme = AtriumClient(http).signed_in("supervisor")
            globex = AtriumClient(http).signed_in("bob")
            (mine,) = [p for p in acme.ok("GET", "/api/kernel/manifest")["plugins"] if p["name"] == NAME]
            assert mine["remoteUrl"] == f"/plugins/{NAME}/remoteEntry.js"
            assert mine["remoteName"] == MODULE and mine["prefixes"] == [f"/{NAME}"]
            other = globex.ok("GET", "/api/kernel/manifest")
            assert NAME not in {p["name"] for p in other["plugins"]}
            assert NAME not in {p["name"] for p in other["unavailable"]}
            acme.ok("POST", f"/api/{NAME}/notes", json={"text": "first visitor"})
            assert [n["text"] for n in acme.ok("GET", f"/api/{NAME}/notes")] == ["first visitor"]
            assert globex.get(f"/api/{NAME}/notes")["code"] == 460

            if Path(CHROMIUM).exists():
                base = str(http.base_url).rstrip("/")

                def page_appears(page: Any) -> None:
                    sign_in(page, base, "supervisor", "Super@123")
                    page.get_by_role("menuitem", name="Visitor Log").first.click()
                    page.wait_for_url(f"**/{NAME}")
                    page.get_by_text("first visitor").wait_for()
                    page.locator(".ant-card-head-title", has_text="Visitor Log").wait_for()

                started = time.monotonic()
                in_browser(page_appears)
                steps.timings["browser"] = round(time.monotonic() - started, 1)
    finally:
        shutil.rmtree(site, ignore_errors=True)  # uninstalled: its files are gone from every path

    # uninstalled: Atrium starts, and the prefix says the application is not installed, and why
    with serving(steps, "serve again", work, var_dir) as http:
        assert http.get(f"/plugins/{NAME}/remoteEntry.js").status_code == 404
        manifest = AtriumClient(http).signed_in("supervisor").ok("GET", "/api/kernel/manifest")
        assert NAME not in {p["name"] for p in manifest["plugins"]}
        assert {"name": NAME, "prefixes": [f"/{NAME}"], "error": "not installed"} in manifest["unavailable"]
        if Path(CHROMIUM).exists():
            base = str(http.base_url).rstrip("/")

            def not_installed(page: Any) -> None:
                sign_in(page, base, "supervisor", "Super@123")
                page.goto(f"{base}/{NAME}")
                page.get_by_text("Application not installed").wait_for()
                page.get_by_test_id("plugin-load-error").get_by_text("not installed").wait_for()

            started = time.monotonic()
            in_browser(not_installed)
            steps.timings["browser again"] = round(time.monotonic() - started, 1)
    print(f"\nplugin package timings (s): {steps.timings}")
