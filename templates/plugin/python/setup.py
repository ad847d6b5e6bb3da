"""The wheel carries the web module's built remote (`web/dist`) inside the package, as
`atrium_{{module}}/web_dist`, where `atrium_web_remote` (plugin.py) finds it once installed.

Build the web module first (`cd web && npm install && npm run build`, or `atrium plugin build`, which does it
all). Without `web/dist` the wheel has no page, and says so while it builds. An editable install
(`pip install -e .`) serves `web/dist` from the sources instead.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
REMOTE = HERE / "web" / "dist"
PACKAGE = "atrium_{{module}}"


class BuildPyWithRemote(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        if not (REMOTE / "remoteEntry.js").is_file():
            print(f"warning: {REMOTE / 'remoteEntry.js'} is missing: this wheel has no page (build web/ first)")
            return
        target = Path(self.build_lib) / PACKAGE / "web_dist"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(REMOTE, target)


setup(cmdclass={"build_py": BuildPyWithRemote})
