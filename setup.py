"""Packages under the import names `atrium.kernel`, `atrium.sdk` and `atrium.plugins.<name>`.

The wheel also carries the files the server reads beside its code, under the `atrium` package with the
checkout's own layout (see kernel/assets.py): the built host (`web-host/dist`), each built-in plugin's built
remote (`web-plugins/<name>/dist`, never its sources or node_modules), `i18n/`, `templates/` and the JS SDK
with its webpack helper (`sdk/web`, for plugins built outside the checkout). The sdist
carries the same files at its top, so a wheel built from it has them too. Both need the web built first.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

FOLDERS = {"atrium.kernel": "kernel", "atrium.sdk": "sdk", "atrium.plugins": "plugins"}
SKIP = [
    "web",
    "web.*",
    "node_modules",
    "node_modules.*",
    "*.node_modules",
    "*.node_modules.*",
    "*.dist",
    "*.dist.*",
]
HERE = Path(__file__).resolve().parent
IGNORE = shutil.ignore_patterns("node_modules", "__pycache__", "*.pyc", ".DS_Store")

packages = []
for name, folder in FOLDERS.items():
    packages.append(name)
    packages += [f"{name}.{sub}" for sub in find_namespace_packages(folder, exclude=SKIP)]


def asset_folders(top: Path) -> list[Path]:
    """The folders to ship, relative to `top`: the built host and remotes, i18n, templates and the JS SDK
    (`sdk/web`, which `atrium sdk pack` makes the `@atrium/sdk` tarball of)."""
    if not (top / "web-host" / "dist" / "index.html").is_file():
        raise SystemExit(
            f"{top / 'web-host' / 'dist' / 'index.html'} is missing: "
            "build the web first: npm install && npm run build"
        )
    remotes = sorted(p.relative_to(top) for p in (top / "web-plugins").glob("*/dist") if p.is_dir())
    return [Path("web-host", "dist"), *remotes, Path("i18n"), Path("templates"), Path("sdk", "web")]


def copy_assets(top: Path, dest: Path) -> None:
    for rel in asset_folders(top):
        target = dest / rel
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(top / rel, target, ignore=IGNORE)


class BuildPyWithAssets(build_py):
    """Copies the assets into the build tree as `atrium/<folder>`. An editable install reads them from the
    checkout instead, so it needs no web built."""

    def run(self) -> None:
        super().run()
        if not getattr(self, "editable_mode", False):
            copy_assets(HERE, Path(self.build_lib) / "atrium")


class SdistWithAssets(sdist):
    """Puts the assets at the top of the sdist, where BuildPyWithAssets finds them again."""

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        super().make_release_tree(base_dir, files)
        copy_assets(HERE, Path(base_dir))


setup(packages=packages, cmdclass={"build_py": BuildPyWithAssets, "sdist": SdistWithAssets})
