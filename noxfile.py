"""Development sessions: serve, web, tests, e2e, lint, bench.

Sessions run in the interpreter that runs nox (the project's virtual environment), so nothing is
installed twice.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import nox

os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"

nox.options.default_venv_backend = "none"
nox.options.sessions = ["tests"]
ROOT = Path(__file__).parent
CHROMIUM = "/usr/bin/chromium"
SLAPD = "/usr/sbin/slapd"
CJK_FONT = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"  # Chinese labels in Chromium screenshots
LIBREOFFICE = (  # office documents converted to PDF: the program and the filters of each kind of document
    ("libreoffice-core-nogui", "/usr/lib/libreoffice/program/soffice.bin"),
    ("libreoffice-writer-nogui", "/usr/lib/libreoffice/program/libswlo.so"),
    ("libreoffice-calc-nogui", "/usr/lib/libreoffice/program/libsclo.so"),
    ("libreoffice-impress-nogui", "/usr/lib/libreoffice/program/libslideshowlo.so"),
)
# A real browser on a shared two-core runner sometimes misses a frame: a failing browser test runs
# again (at most twice, each rerun reported) before it counts as failed.
# A retried test's failed attempts are printed, so a flaky test shows why it failed even when it passes.
BROWSER_RERUNS = ("--reruns", "2", "--reruns-delay", "1", "--rerun-show-tracebacks")
# The Python suite runs in one worker per core (pytest-xdist); each worker has its own app, database
# schema and Redis prefix.
PARALLEL = ("-n", "auto")
# The browser tests run in two workers, each with its own server, demo data and Chromium; a file's tests
# stay together in one worker, in order (several build on what an earlier test of their file did).
BROWSER_PARALLEL = ("-n", "2", "--dist", "loadfile")
PG_URL = "postgresql://postgres@127.0.0.1:5432/test"
REDIS_URL = "redis://127.0.0.1:6379/0"


def _web_built() -> bool:
    return (ROOT / "web-host" / "dist" / "index.html").exists()


def build_web(session: nox.Session, force: bool = False) -> None:
    if not (ROOT / "package.json").exists():
        return
    if force or not (ROOT / "node_modules").exists():
        try:
            session.run("npm", "install", "--no-audit", "--no-fund", external=True)
        except nox.command.CommandFailed:
            session.log("npm install failed; retrying once with a verified cache")
            session.run("npm", "cache", "verify", external=True)
            session.run("npm", "install", "--no-audit", "--no-fund", external=True)
    if force or not _web_built():
        session.run("npm", "run", "build", external=True)


def ensure_chromium(session: nox.Session) -> None:
    """Debian's Chromium and a Chinese font for the browser tests, OpenLDAP's server (slapd) for the domain
    sign-in ones, LibreOffice (headless) for the watermarked previews of office documents."""
    ensure_debian(session, (("chromium", CHROMIUM), ("slapd", SLAPD), ("fonts-wqy-microhei", CJK_FONT),
                            *LIBREOFFICE))


def ensure_debian(session: nox.Session, needed: tuple[tuple[str, str], ...]) -> None:
    """Installs the Debian packages whose file is missing."""
    missing = [pkg for pkg, path in needed if not Path(path).exists()]
    if not missing:
        return
    if shutil.which("apt-get") is None:
        session.error(f"Needed for the tests: install Debian's {' and '.join(missing)} package")
    session.run("apt-get", "update", "-qq", external=True)
    session.run("apt-get", "install", "-y", "-qq", *missing, external=True,
                env={"DEBIAN_FRONTEND": "noninteractive"})


@nox.session
def web(session: nox.Session) -> None:
    """Install the web packages and build the host and every plugin's remote."""
    build_web(session, force=True)


@nox.session
def serve(session: nox.Session) -> None:
    """Demo data on the embedded defaults, then the server on http://127.0.0.1:8000/."""
    build_web(session)
    session.run("atrium", "demo", "--serve", *session.posargs)


@nox.session
def tests(session: nox.Session) -> None:
    """Everything: web unit tests, the Python suite on SQLite, the browser tests (their own run: Playwright's
    sync API keeps an event loop in the main thread), then the suite again on PostgreSQL with Redis when
    ATRIUM_TEST_DATABASE_URL and ATRIUM_TEST_REDIS_URL are set."""
    build_web(session, force=bool(os.environ.get("CI")))
    ensure_chromium(session)
    if (ROOT / "package.json").exists():
        session.run("npm", "test", "--silent", external=True)
    sqlite_env = {"ATRIUM_TEST_DATABASE_URL": "", "ATRIUM_TEST_REDIS_URL": ""}
    quiet = ("-q", "-p", "no:logging")
    session.run("pytest", *quiet, *PARALLEL, "--ignore=tests/e2e", *session.posargs, env=sqlite_env)
    session.run("pytest", *quiet, *BROWSER_PARALLEL, *BROWSER_RERUNS, "tests/e2e", *session.posargs,
                env=sqlite_env)
    if os.environ.get("ATRIUM_TEST_DATABASE_URL"):
        session.run("pytest", *quiet, *PARALLEL, "--ignore=tests/e2e", *session.posargs)


@nox.session
def e2e(session: nox.Session) -> None:
    """Only the browser tests."""
    build_web(session)
    ensure_chromium(session)
    session.run("pytest", "-q", "-p", "no:logging", *BROWSER_PARALLEL, *BROWSER_RERUNS, "tests/e2e",
                *session.posargs)


def typecheck_tree() -> Path:
    """The sources under their import names (atrium/kernel, ...) as hard links, for mypy."""
    top = ROOT / "var" / "typecheck"
    shutil.rmtree(top, ignore_errors=True)
    for name in ("kernel", "sdk", "plugins"):
        for src in (ROOT / name).rglob("*.py"):
            if "node_modules" in src.parts:
                continue
            link = top / "atrium" / name / src.relative_to(ROOT / name)
            link.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(src, link)
            except OSError:
                shutil.copyfile(src, link)
    return top


@nox.session
def lint(session: nox.Session) -> None:
    """ruff and mypy (strict on the kernel, the SDK and the plugins), then the web's ESLint
    (`npm run lint:web`) and tsc over the host, the JS SDK and every remote (`npm run typecheck`)."""
    session.run("ruff", "check", ".")
    top = typecheck_tree()
    sources = [str(top / "atrium" / name) for name in ("kernel", "sdk", "plugins")]
    session.run("mypy", *sources, env={"MYPYPATH": str(top)})
    if not (ROOT / "package.json").exists():
        return
    # the web's tools come with `npm install`: installed first when node_modules lacks them (no build needed)
    if not (ROOT / "node_modules" / ".bin" / "eslint").exists():
        session.run("npm", "install", "--no-audit", "--no-fund", external=True)
    session.run("npm", "run", "lint:web", external=True)
    session.run("npm", "run", "typecheck", external=True)


@nox.session
def bench(session: nox.Session) -> None:
    """Every benchmark, each figure beside its baseline from the same run."""
    build_web(session)
    # bench_faults runs a PostgreSQL cluster and a Redis server of its own, to stop and restart them;
    # bench_rolling_restart puts nginx in front of two nodes
    ensure_debian(session, (("wrk", "/usr/bin/wrk"), ("slapd", SLAPD),
                            ("redis-server", "/usr/bin/redis-server"),
                            ("postgresql", "/usr/lib/postgresql/15/bin/initdb"),
                            ("nginx", "/usr/sbin/nginx")))
    out = ROOT / "var" / "bench-results.jsonl"
    out.unlink(missing_ok=True)
    env = {"ATRIUM_BENCH_PG": os.environ.get("ATRIUM_BENCH_PG", PG_URL),
           "ATRIUM_BENCH_REDIS": os.environ.get("ATRIUM_BENCH_REDIS", REDIS_URL)}
    names = sorted(p.stem for p in (ROOT / "tests" / "bench").glob("bench_*.py"))
    if session.posargs:
        names = [n for n in names if any(a in n for a in session.posargs)]
    for name in names:
        session.run("python", "-m", f"tests.bench.{name}", env=env)


@nox.session
def dist(session: nox.Session) -> None:
    """The atrium wheel and sdist in dist/, with the built host, the built-in remotes, i18n and templates
    inside (the web is built first if it is not yet)."""
    build_web(session)
    shutil.rmtree(ROOT / "build", ignore_errors=True)  # no module left over from an earlier build
    session.run("python", "-m", "build", "--wheel", "--sdist", "--outdir", str(ROOT / "dist"))
