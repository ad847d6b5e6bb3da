"""The first start, as the README tells people to do it, and from the wheel.

- fresh clone: the checkout cloned into a temporary folder (with the working tree's uncommitted changes
  copied over, so the sources under test are measured), then the README's start command
  `python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/atrium demo --serve` until `/`
  answers: migrations, demo data, `npm install` and the web build included (budget: 180 s on two cores);
  beside `python3 -m venv .venv && .venv/bin/pip install -e .` alone, measured in the same run;
- wheel: a wheel built from that clone (web built), installed into a new virtual environment with its
  dependencies from the package index, then `atrium demo --serve` in an empty folder until `/` answers
  (budget: 20 s); beside that `pip install` of the wheel alone.

Both servers run on a free loopback port and are stopped afterwards; the temporary folder is removed
(kept with ATRIUM_BENCH_KEEP=1). Needs Node and npm (skipped without them) and the package index.

Run: .venv/bin/python -m tests.bench.bench_first_start
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from tests.bench.report import report

ROOT = Path(__file__).resolve().parents[2]
CLONE_BUDGET = 180.0
WHEEL_BUDGET = 20.0


def clean_env() -> dict[str, str]:
    """This environment without Atrium's settings or anything that points Python at the checkout."""
    skip = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "ATRIUM_BENCH_OUT")
    return {k: v for k, v in os.environ.items() if not k.startswith(("ATRIUM_", "npm_")) and k not in skip}


def run(args: list[str], cwd: Path, timeout: float, log: Path) -> float:
    """Runs `args`, its output into `log`; answers the seconds it took."""
    started = time.monotonic()
    with log.open("ab") as out:
        done = subprocess.run(
            args, cwd=cwd, env=clean_env(), stdout=out, stderr=subprocess.STDOUT, timeout=timeout
        )
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed; see {log}:\n{log.read_text()[-3000:]}")
    return time.monotonic() - started


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def first_answer(atrium: Path, cwd: Path, timeout: float, log: Path) -> float:
    """Seconds from `atrium demo --serve` starting until `/` answers 200; the server is stopped after."""
    port = free_port()
    started = time.monotonic()
    with log.open("ab") as out:
        server = subprocess.Popen(
            [str(atrium), "demo", "--serve", "--port", str(port)],
            cwd=cwd,
            env=clean_env(),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            while True:
                if server.poll() is not None:
                    raise SystemExit(f"the server stopped; see {log}:\n{log.read_text()[-3000:]}")
                if time.monotonic() - started > timeout:
                    raise SystemExit(f"no answer in {timeout:.0f} s; see {log}")
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/", timeout=5).status_code == 200:
                        return time.monotonic() - started
                except httpx.HTTPError:
                    pass
                time.sleep(0.25)
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def fresh_clone(dest: Path, log: Path) -> None:
    """`git clone` of the checkout, with the working tree's changes to tracked files and its new files (not
    the ignored ones) copied over, and the files deleted in it deleted."""
    run(["git", "clone", "--quiet", str(ROOT), str(dest)], ROOT, 300, log)

    def listed(*args: str) -> list[str]:
        out = subprocess.run(["git", *args, "-z"], cwd=ROOT, capture_output=True, check=True).stdout
        return [p for p in out.decode().split("\0") if p]

    deleted = set(listed("ls-files", "--deleted"))
    for rel in listed("ls-files", "--modified", "--others", "--exclude-standard"):
        if rel in deleted:
            continue
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, dest / rel)
    for rel in deleted:
        (dest / rel).unlink(missing_ok=True)


def main() -> None:
    if shutil.which("npm") is None or shutil.which("git") is None:
        print("bench_first_start: needs git, Node and npm; skipped")
        return
    top = Path(tempfile.mkdtemp(prefix="atrium-bench-first-start-"))
    log = top / "log.txt"
    python3 = shutil.which("python3") or sys.executable
    try:
        # the README's start command in a fresh clone
        clone = top / "clone"
        fresh_clone(clone, log)
        pip_e = run([python3, "-m", "venv", ".venv"], clone, 120, log)
        pip_e += run([str(clone / ".venv/bin/pip"), "install", "-q", "-e", "."], clone, 900, log)
        serve = first_answer(clone / ".venv/bin/atrium", clone, 900, log)
        print(f"fresh clone: pip install -e . {pip_e:.1f} s, then demo --serve's first answer {serve:.1f} s")
        report(
            "first start from a fresh clone (venv, pip install -e ., demo --serve until / answers)",
            pip_e + serve,
            pip_e,
            "s",
            f"< {CLONE_BUDGET:.0f} s",
            baseline_name="venv and pip install -e . alone",
        )

        # the wheel, built from that clone with its web built, in a new environment
        wheels = top / "wheel"
        run([sys.executable, "-m", "build", "--wheel", "--outdir", str(wheels), str(clone)], clone, 600, log)
        (wheel,) = wheels.glob("atrium-*.whl")
        venv = top / "venv"
        run([python3, "-m", "venv", str(venv)], top, 120, log)
        pip = run([str(venv / "bin/pip"), "install", "-q", str(wheel)], top, 900, log)
        empty = top / "run"
        empty.mkdir()
        answer = first_answer(venv / "bin/atrium", empty, 300, log)
        report(
            "wheel: demo --serve's first answer (migrations and demo data included)",
            answer,
            pip,
            "s",
            f"< {WHEEL_BUDGET:.0f} s",
            baseline_name="pip install of the wheel alone",
        )
    finally:
        if os.environ.get("ATRIUM_BENCH_KEEP") == "1":
            print(f"kept {top}")
        else:
            shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    main()
