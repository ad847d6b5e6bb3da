"""Browser tests of the shell: real Chromium (Debian's /usr/bin/chromium) against the real server.

`live_server` starts `atrium demo --serve` on a free port with its own data directory (or uses the
server at ATRIUM_E2E_URL); it yields an object with `.url`.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.chromium import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "var" / "artifacts" / "screenshots"
FIXTURE_REMOTE = Path(__file__).resolve().parent / "fixture_remote"

pytestmark = pytest.mark.e2e


def _npm(*args: str, cwd: Path = ROOT) -> None:
    subprocess.run(["npm", *args], cwd=cwd, check=True, stdout=subprocess.DEVNULL)


def ensure_web_built() -> None:
    """The host bundle and the test remote; built once when missing."""
    if not (ROOT / "node_modules" / "webpack").exists():
        _npm("install", "--no-audit", "--no-fund")
    if not (ROOT / "web-host" / "dist" / "index.html").exists():
        _npm("run", "build:host")
    if not (FIXTURE_REMOTE / "dist" / "remoteEntry.js").exists():
        subprocess.run(
            [
                "npx",
                "webpack",
                "--config",
                str(FIXTURE_REMOTE / "webpack.config.cjs"),
                "--mode",
                "production",
            ],
            cwd=ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
        )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LiveServer:
    url: str


@contextmanager
def demo_server(var_dir: Path, env: dict[str, str] | None = None, prefix: str = "") -> Iterator[str]:
    """`atrium demo --serve` on a free port with its data in `var_dir` (and `env` added to its
    environment); yields its address once its sign-in page answers at `prefix`."""
    port = _free_port()
    full_env = {
        **os.environ,
        "ATRIUM_VAR_DIR": str(var_dir),
        "ATRIUM_SCHEDULER": "false",
        "ATRIUM_DEMO": "1",
        **(env or {}),
    }
    atrium = shutil.which("atrium", path=str(Path(sys.executable).parent)) or "atrium"
    log = open(var_dir / "server.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(
        [atrium, "demo", "--serve", "--port", str(port)],
        cwd=ROOT,
        env=full_env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(f"{url}{prefix}/login", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start; see {var_dir / 'server.log'}")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    ensure_web_built()
    if os.environ.get("ATRIUM_E2E_URL"):  # a server that is already running, with the demo data loaded
        yield LiveServer(url=os.environ["ATRIUM_E2E_URL"].rstrip("/"))
        return
    with demo_server(tmp_path_factory.mktemp("atrium-e2e-var")) as url:
        yield LiveServer(url=url)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _is_local(url: str, base: str) -> bool:
    return (
        url.startswith(base) or url.startswith("data:") or url.startswith("blob:") or url.startswith("about:")
    )


@pytest.fixture
def context(browser, live_server):
    """A fresh browser profile in English; any address outside the test server is answered locally."""
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
    ctx.add_cookies([{"name": "language", "value": "en-us", "url": live_server.url}])
    missing = strict_i18n(ctx)

    def outside(route):
        if _is_local(route.request.url, live_server.url):
            route.fallback()
        else:
            route.fulfill(
                status=200, content_type="text/html", body="<html><body>external page</body></html>"
            )

    ctx.route("**/*", outside)
    yield ctx
    ctx.close()
    assert not missing, f"texts drawn from translation keys that no bundle has: {sorted(set(missing))}"


MISSING_KEY = "atrium:missing-key "


def strict_i18n(ctx) -> list[str]:
    """Makes the pages of `ctx` report every translation key that no bundle has; returns their list."""
    missing: list[str] = []
    ctx.add_init_script("window.__atriumStrictI18n = true;")

    def note(message) -> None:
        if message.text.startswith(MISSING_KEY):
            missing.append(message.text[len(MISSING_KEY) :])

    ctx.on("console", note)
    return missing


@pytest.fixture
def page(context):
    p = context.new_page()
    p.page_errors = []
    p.on("pageerror", lambda e: p.page_errors.append(str(e)))
    p.set_default_timeout(15000)
    yield p


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def api_client(base: str, account: str = "admin", password: str | None = None) -> httpx.Client:
    """The live server's API signed in as a demo account (its password unless another is given), in
    English, with the token on every call."""
    from atrium.sdk.testing import DEMO_PASSWORDS, encrypt_password

    http = httpx.Client(base_url=base, timeout=30, headers={"language": "en#us"})
    enc = http.post("/api/base/base-user/get-enryption").json()["data"]
    secret = encrypt_password(enc["publicKey"], enc["nonce"], password or DEMO_PASSWORDS[account])
    body = http.post("/api/base/base-user/login", json={"account": account, "password": secret}).json()
    assert body["code"] == 800, body
    http.headers["authorization"] = body["data"]["authorization"]
    return http


def sign_in(
    page, base: str, account: str = "admin", password: str = "Admin@123", *, expect_home: bool = True
) -> None:
    page.goto(base + "/login")
    page.locator("#account").fill(account)
    page.locator("#password").fill(password)
    page.locator("#agree").check()
    page.get_by_role("button", name="Sign in").click()
    if expect_home:
        page.wait_for_url("**/home")
        page.get_by_test_id("home-page").wait_for()


@pytest.fixture
def admin_page(page, live_server):
    sign_in(page, live_server.url)
    return page


def user_menu(page, item: str, url_part: str | None = None) -> None:
    """Picks an item of the user dropdown (retried: the navbar may re-render while its slots load)."""
    for attempt in range(3):
        page.get_by_test_id("user-menu").click()
        entry = page.locator(".ant-dropdown:not(.ant-dropdown-hidden)").get_by_role("menuitem", name=item)
        try:
            entry.click(timeout=4000)
            if url_part is None:
                return
            page.wait_for_url(f"**{url_part}", timeout=4000)
            return
        except Exception:
            if attempt == 2:
                raise
            page.keyboard.press("Escape")
            page.wait_for_timeout(300)
