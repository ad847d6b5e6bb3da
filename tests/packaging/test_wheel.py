"""The atrium wheel runs without the checkout.

A wheel is built from a copy of this checkout's sources (`python -m build --wheel`, in a temporary
folder; the web must be built already, as `nox -s tests` does first), or taken from ``ATRIUM_TEST_WHEEL``
when that names one. A wheel left in dist/ is never picked up on its own: it may be older than the sources
under test.

The wheel goes into a new virtual environment in a temporary folder (not ``--system-site-packages``), and
``atrium demo --serve`` starts from it on a free loopback port, in a working directory outside the checkout,
with its var directory in the temporary folder. Over HTTP the test then reads the host's index.html, the
translations, the OpenAPI document, signs in (the password sealed as the sign-in page does) and
reads the manifest, then every remote the manifest lists; and it scaffolds a plugin from the installed
templates. Each file served must be byte for byte the one inside the installed package.

Then, against the same server, Debian's Chromium (``/usr/bin/chromium``, skipped when missing) signs in as
admin through the sign-in page and opens the home page, a demo report panel under /dynamic-report (its views
drawn), the demo leave-request form and the admin console's user screen, each checked by what it shows, with
no page error and no asset or plugin file missing. Playwright's sync API runs in a thread of its own (as in
test_plugin_package.py), away from the test's main thread. Both checks share one test, so the wheel is built,
installed and started once per run, whichever worker takes it.

Dependencies: installing them all from the package index into the new environment takes about a hundred
seconds here, on top of building the wheel, so by default the wheel goes in with ``--no-deps`` and the
environment sees the project's own environment's packages through a ``.pth`` file naming its
site-packages folder. A ``.pth`` line only adds a folder to ``sys.path``; the ``.pth`` files inside that
folder are not run, among them the editable install's hook that maps ``atrium.*`` to the checkout. So
``atrium`` can only be imported from the new environment, which the test checks, and ``pip check`` there
checks that the wheel's declared dependencies are all met. ``ATRIUM_TEST_WHEEL_DEPS=index`` installs them
from the package index instead, as a user would (the release check).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from atrium.sdk.testing import AtriumClient
from tests.chromium import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 120
# how long a page of the installed server may take to show its content in Chromium (ms); a plugin's first
# page fetches its remote and the chunks it needs
SHOWN = 30_000
REPORT_PANEL = "销售总览"  # the demo's sales overview panel
# run by the new environment's Python: where the kernel, its assets and the transfer plugin's templates are
WHERE = """
import json
import atrium.kernel.app
import atrium.kernel.assets as a
import atrium.plugins.transfer.settings as t

print(json.dumps({
    "kernel": atrium.kernel.app.__file__,
    "assets": {name: str(a.asset_root(name)) for name in a.ASSETS},
    "remotes": {name: str(path) for name, path in a.plugin_remotes().items()},
    "word": str(t.transfer_settings().templates_dir),
}))
"""


def timed(timings: dict[str, float], name: str, *args: str, timeout: float, **kw: object) -> str:
    started = time.monotonic()
    result = subprocess.run(args, capture_output=True, text=True, timeout=timeout, **kw)
    timings[name] = round(time.monotonic() - started, 1)
    assert result.returncode == 0, f"{name} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    out: str = result.stdout
    return out


def copy_sources(dest: Path) -> None:
    """What the build reads, copied: building in the checkout would rewrite its atrium.egg-info, which the
    other test processes read the plugins' entry points from while it is written."""
    for name in ("pyproject.toml", "setup.py", "README.md"):
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, dest / name)
    skip = shutil.ignore_patterns("node_modules", "__pycache__", "*.pyc")
    for name in ("kernel", "sdk", "plugins", "i18n", "templates", "web-host/dist"):
        shutil.copytree(ROOT / name, dest / name, ignore=skip)
    for remote in (ROOT / "web-plugins").glob("*/dist"):
        shutil.copytree(remote, dest / remote.relative_to(ROOT), ignore=skip)


def the_wheel(tmp_path: Path, timings: dict[str, float]) -> Path:
    given = os.environ.get("ATRIUM_TEST_WHEEL")
    if given:
        wheel = Path(given)
        assert wheel.is_file() and wheel.suffix == ".whl", f"ATRIUM_TEST_WHEEL={given} is not a wheel"
        return wheel
    if not (ROOT / "web-host" / "dist" / "index.html").is_file():
        pytest.skip("the web is not built (npm run build), so no wheel can be built")
    sources = tmp_path / "sources"
    copy_sources(sources)
    out = tmp_path / "wheel"
    build = (sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(sources))
    timed(timings, "build", *build, timeout=240, cwd=sources)
    (wheel,) = out.glob("atrium-*.whl")
    return wheel


def clean_env(venv: Path) -> dict[str, str]:
    """This environment without Atrium's settings or anything that points Python at the checkout."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("ATRIUM_") and k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")
    }
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def installed(tmp_path: Path) -> Iterator[tuple[Path, dict[str, float]]]:
    """A new virtual environment outside the checkout with the wheel installed."""
    timings: dict[str, float] = {}
    wheel = the_wheel(tmp_path, timings)
    venv = tmp_path / "venv"
    env = clean_env(venv)
    timed(timings, "venv", sys.executable, "-m", "venv", str(venv), timeout=120, env=env, cwd=tmp_path)
    python = str(venv / "bin" / "python")
    pip = (python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check")
    if os.environ.get("ATRIUM_TEST_WHEEL_DEPS") == "index":
        timed(timings, "install", *pip, str(wheel), timeout=900, env=env, cwd=tmp_path)
    else:
        timed(timings, "install", *pip, "--no-deps", str(wheel), timeout=120, env=env, cwd=tmp_path)
        ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
        purelib = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
        site = Path(timed(timings, "site", python, "-c", purelib, timeout=60, env=env, cwd=tmp_path).strip())
        (site / "zz-atrium-test-deps.pth").write_text("".join(f"{p}\n" for p in sorted(ours)))
        timed(timings, "pip check", python, "-m", "pip", "check", timeout=120, env=env, cwd=tmp_path)
    yield venv, timings


@pytest.mark.timeout(600)  # the wheel's build and install, then the server over HTTP and in Chromium
def test_wheel_serves_the_portal_from_the_installed_package(
    installed: tuple[Path, dict[str, float]], tmp_path: Path
) -> None:
    venv, timings = installed
    env = clean_env(venv)
    run_dir = tmp_path / "run"
    run_dir.mkdir()

    # atrium and every file it serves come from the new environment
    python = str(venv / "bin" / "python")
    where = json.loads(timed(timings, "where", python, "-c", WHERE, timeout=120, env=env, cwd=run_dir))
    package = venv.resolve() / "lib"
    for path in [where["kernel"], *where["assets"].values(), *where["remotes"].values(), where["word"]]:
        assert Path(path).resolve().is_relative_to(package), f"{path} is not in the new environment"
        assert not Path(path).resolve().is_relative_to(ROOT / "kernel")
        assert Path(path).exists(), path
    host = Path(where["assets"]["web-host"])
    remotes = {name: Path(p) for name, p in where["remotes"].items()}
    assert "reports" in remotes and all((p / "remoteEntry.js").is_file() for p in remotes.values())
    assert not list(Path(where["assets"]["web-plugins"]).glob("*/src")), "web sources were packaged"
    assert not list(package.glob("**/node_modules")), "node_modules were packaged"

    # the scaffold from the installed templates
    timed(
        timings,
        "scaffold",
        str(venv / "bin" / "atrium"),
        "plugin",
        "new",
        "wheel-check",
        "--dest",
        str(tmp_path / "scaffold"),
        timeout=120,
        env=env,
        cwd=run_dir,
    )
    assert (tmp_path / "scaffold" / "atrium_wheel_check" / "plugin.py").is_file()

    port = free_port()
    env["ATRIUM_VAR_DIR"] = str(tmp_path / "var")
    log = (tmp_path / "server.log").open("w")
    started = time.monotonic()
    server = subprocess.Popen(
        [str(venv / "bin" / "atrium"), "demo", "--serve", "--port", str(port)],
        cwd=run_dir,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=30) as http:
            while True:
                if server.poll() is not None:
                    pytest.fail(f"the server stopped:\n{(tmp_path / 'server.log').read_text()[-3000:]}")
                assert time.monotonic() - started < START_SECONDS, "the server did not answer in time"
                try:
                    index = http.get("/")
                    break
                except httpx.TransportError:
                    time.sleep(0.25)
            timings["first answer"] = round(time.monotonic() - started, 1)

            assert index.status_code == 200 and index.headers["content-type"].startswith("text/html")
            assert index.content == (host / "index.html").read_bytes()
            shell = http.get("/i18n/en-us/shell.json")
            assert shell.status_code == 200
            assert shell.content == (Path(where["assets"]["i18n"]) / "en-us" / "shell.json").read_bytes()
            assert http.get("/api/openapi.json").json()["paths"]

            admin = AtriumClient(http).signed_in("admin")
            manifest = admin.ok("GET", "/api/kernel/manifest")
            listed = {p["name"]: p["remoteUrl"] for p in manifest["plugins"]}
            assert "reports" in listed and set(listed) <= set(remotes)
            for name, url in listed.items():
                entry = http.get(url)
                assert entry.status_code == 200, url
                assert entry.content == (remotes[name] / "remoteEntry.js").read_bytes(), url

            if Path(CHROMIUM).exists():
                panels = {p["name"]: p["id"] for p in admin.ok("GET", "/api/dyreport/panel/list")}
                assert REPORT_PANEL in panels, f"no demo panel {REPORT_PANEL}: {sorted(panels)}"
                started = time.monotonic()
                in_browser(base, lambda page: the_pages_in_chromium(page, base, panels[REPORT_PANEL]))
                timings["browser"] = round(time.monotonic() - started, 1)
            else:
                print(f"\n{CHROMIUM} is not installed: the pages were not opened in a browser")
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
    print(f"\nwheel timings (s): {timings}")


def in_browser(base: str, check: Any) -> None:
    """Runs `check(page)` in Chromium, in a thread of its own, in English; addresses outside the server are
    answered locally. Fails on any page error, or an asset, plugin or i18n file the server did not serve."""
    from playwright.sync_api import sync_playwright

    def run() -> None:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                context = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
                context.add_cookies([{"name": "language", "value": "en-us", "url": base}])

                def outside(route: Any) -> None:
                    url = route.request.url
                    if url.startswith((base, "data:", "blob:", "about:")):
                        route.fallback()
                    else:
                        route.fulfill(status=200, content_type="text/html", body="<html><body></body></html>")

                context.route("**/*", outside)
                page = context.new_page()
                page.set_default_timeout(SHOWN)
                errors: list[str] = []
                missing: list[str] = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                files = tuple(f"{base}{prefix}" for prefix in ("/assets/", "/plugins/", "/i18n/"))

                def served(response: Any) -> None:
                    if response.url.startswith(files) and response.status >= 400:
                        missing.append(f"{response.status} {response.url}")

                page.on("response", served)
                try:
                    check(page)
                except Exception as e:
                    raise AssertionError(f"{e}\npage errors: {errors}\nnot served: {missing}") from e
                assert errors == [], f"page errors: {errors}"
                assert missing == [], f"files not served: {missing}"
            finally:
                browser.close()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(run).result()


# every view of the panel finished loading, and every chart drew
VIEWS_READY = """() => {
    const vs = Array.from(document.querySelectorAll('[data-testid=report-view]'));
    return vs.length > 0 && vs.every(v => {
        if (v.dataset.state !== 'ready') return false;
        const c = v.querySelector('.rpt-chart');
        return !c || c.dataset.rendered === '1';
    });
}"""


def the_pages_in_chromium(page: Any, base: str, panel_id: str) -> None:
    """Admin signs in on the sign-in page, then opens the home page, a report panel, a form and the admin
    console, each shown with its content."""
    from playwright.sync_api import expect

    page.goto(base + "/login")
    page.locator("#account").fill("admin")
    page.locator("#password").fill("Admin@123")
    page.locator("#agree").check()
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/home")

    # home: the shell (sidebar with its menus) and the home page's cards
    home = page.get_by_test_id("home-page")
    expect(home).to_be_visible()
    expect(page.get_by_test_id("sidebar")).to_contain_text("Workbench")
    expect(home.locator(".ant-card").first).to_be_visible()

    # a report panel: the reports plugin's remote, the panel's views loaded and drawn
    page.goto(f"{base}/dynamic-report?panelId={panel_id}")
    expect(page.get_by_test_id("report-panel")).to_be_visible()
    page.wait_for_function(VIEWS_READY, timeout=SHOWN)
    assert page.locator("[data-testid=report-view] .rpt-chart").count() > 0

    # a form: the forms plugin draws the demo leave request with its fields
    page.goto(base + "/dynamic-form/render/leave-request?layoutId=L1")
    form = page.locator(".at-page")
    expect(form).to_contain_text("Leave request")
    expect(page.get_by_test_id("field-applicant").locator("input")).to_be_visible()
    expect(page.get_by_test_id("field-leaveType")).to_be_visible()
    expect(page.get_by_test_id("form-submit")).to_be_visible()

    # the admin console: the user screen lists the demo accounts
    page.goto(base + "/system_manage/users")
    expect(page.locator(".at-page tr", has_text="alice").first).to_be_visible()
    expect(page.locator(".at-page")).to_contain_text("supervisor")
