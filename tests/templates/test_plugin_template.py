"""`atrium plugin new` makes a plugin that installs, is discovered, and passes its own generated tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from atrium.kernel.cli import main


def test_scaffolded_plugin_installs_and_passes_its_tests(tmp_path: Path) -> None:
    dest = tmp_path / "atrium-field-notes"
    result = CliRunner().invoke(main, ["plugin", "new", "field-notes", "--dest", str(dest)])
    assert result.exit_code == 0, result.output
    assert (dest / "atrium_field_notes" / "plugin.py").exists()
    assert (dest / "web" / "src" / "App.tsx").exists()
    assert "{{" not in (dest / "atrium_field_notes" / "api.py").read_text()

    site = tmp_path / "site"
    install = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "--target",
            str(site),
            str(dest),
        ],
        capture_output=True,
        text=True,
    )
    assert install.returncode == 0, install.stderr[-2000:]
    env = {**os.environ, "PYTHONPATH": str(site), "ATRIUM_TEST_DATABASE_URL": "", "ATRIUM_TEST_REDIS_URL": ""}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:logging",
            "-W",
            "ignore",
            str(dest / "tests"),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=dest,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "3 passed" in run.stdout


def test_a_bad_plugin_id_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["plugin", "new", "Bad_Name", "--dest", str(tmp_path / "x")])
    assert result.exit_code != 0
    assert "kebab-case" in result.output
