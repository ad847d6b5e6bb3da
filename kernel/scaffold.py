"""`atrium plugin new NAME`: a plugin (Python package and web module) from `templates/plugin`; `atrium sdk
pack`: the `@atrium/sdk` tarball (the JS SDK and its webpack helper) a plugin outside the checkout builds
its web module with; `atrium plugin build`: its web module, then its wheel with the built remote inside."""

from __future__ import annotations

import gzip
import io
import json
import shutil
import subprocess
import sys
import tarfile
from collections.abc import Callable
from pathlib import Path

from packaging.version import Version

from atrium.kernel.assets import asset_root
from atrium.sdk import SDK_VERSION
from atrium.sdk.types import PLUGIN_ID

TEMPLATE = asset_root("templates") / "plugin"
#: where the scaffold keeps the SDK tarball, under its web module's folder
VENDOR = "vendor"
#: npm install's flags: packages from the local cache when it has them, the registry otherwise
NPM_INSTALL = ("install", "--prefer-offline", "--no-audit", "--no-fund")
#: left out of the tarball, as npm pack leaves them out
PACK_SKIP = {"node_modules", "__pycache__", ".git", ".DS_Store"}


def render(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    return text


def sdk_web_version(sdk_web: Path | None = None) -> str:
    """The version of `@atrium/sdk` (its package.json), the JS side of SDK_VERSION."""
    folder = asset_root("sdk-web") if sdk_web is None else sdk_web
    version: str = json.loads((folder / "package.json").read_text("utf-8"))["version"]
    return version


def sdk_tarball_name(version: str | None = None) -> str:
    """`atrium-sdk-<version>.tgz`, the name npm pack gives the scoped package."""
    return f"atrium-sdk-{version or sdk_web_version()}.tgz"


def sdk_range(version: str = SDK_VERSION) -> str:
    """The SDK range a new plugin declares: this SDK's minor version up to the next major."""
    v = Version(version)
    return f">={v.major}.{v.minor},<{v.major + 1}"


def pack_sdk(dest: Path, sdk_web: Path | None = None) -> Path:
    """Pack `@atrium/sdk` (the checkout's `sdk/web`, or the installed package's copy) into `dest`, answering
    the tarball: with `npm pack` when npm is there, else the same layout written here (``package/...``)."""
    folder = asset_root("sdk-web") if sdk_web is None else sdk_web
    if not (folder / "package.json").is_file():
        raise FileNotFoundError(f"{folder / 'package.json'} is missing: this Atrium ships no JS SDK")
    dest.mkdir(parents=True, exist_ok=True)
    out = dest / sdk_tarball_name(sdk_web_version(folder))
    npm = shutil.which("npm")
    if npm is not None:
        done = subprocess.run(
            [npm, "pack", str(folder), "--pack-destination", str(dest), "--silent"],
            cwd=dest,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"npm pack {folder} failed:\n{done.stderr[-2000:]}")
    else:
        _pack_in_python(folder, out)
    if not out.is_file():
        raise RuntimeError(f"packing {folder} did not write {out}")
    return out


def _pack_in_python(folder: Path, out: Path) -> None:
    """What `npm pack` writes for a package without a `files` list: every file under ``package/``."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for path in sorted(folder.rglob("*")):
            rel = path.relative_to(folder)
            if path.is_dir() or PACK_SKIP.intersection(rel.parts):
                continue
            info = tarfile.TarInfo(f"package/{rel.as_posix()}")
            data = path.read_bytes()
            info.size, info.mode, info.mtime = len(data), 0o644, 499162500  # npm's fixed date
            tar.addfile(info, io.BytesIO(data))
    out.write_bytes(gzip.compress(buffer.getvalue(), mtime=0))


def scaffold(name: str, dest: Path, *, pack: bool = True) -> Path:
    """Write the plugin to `dest` (its Python package at the top, its web module under `web/`), with the
    SDK tarball its web module depends on in `web/vendor/` (unless not `pack`)."""
    if not PLUGIN_ID.match(name):
        raise ValueError(
            f"plugin id {name!r} must be kebab-case: lowercase letters, digits and single dashes"
        )
    if dest.exists() and any(dest.iterdir()):
        raise ValueError(f"{dest} already exists and is not empty")
    tarball = sdk_tarball_name()
    values = {
        "name": name,
        "module": name.replace("-", "_"),
        "title": name.replace("-", " ").title(),
        "sdk_range": sdk_range(),
        # relative, so that the plugin's folder is self-contained and may move
        "sdk_dependency": f"file:{VENDOR}/{tarball}",
    }
    for src in sorted(TEMPLATE.rglob("*")):
        if src.is_dir() or "__pycache__" in src.parts:
            continue
        rel = src.relative_to(TEMPLATE)
        parts = rel.parts[1:] if rel.parts[0] == "python" else rel.parts
        target = dest.joinpath(*[render(p, values) for p in parts])
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            target.write_text(render(src.read_text("utf-8"), values), "utf-8")
        except UnicodeDecodeError:
            shutil.copyfile(src, target)
    if pack:
        pack_sdk(dest / "web" / VENDOR)
    return dest


def vendored_sdk(web: Path) -> Path | None:
    """The tarball a web module's package.json names for `@atrium/sdk` (``file:...``), if it does."""
    package = json.loads((web / "package.json").read_text("utf-8"))
    spec = str(
        {**package.get("devDependencies", {}), **package.get("dependencies", {})}.get("@atrium/sdk", "")
    )
    if not spec.startswith("file:") or not spec.endswith(".tgz"):
        return None
    return (web / spec[len("file:") :]).resolve()


def build_plugin(
    folder: Path, *, isolation: bool = True, run: Callable[..., object] = subprocess.run
) -> Path:
    """`npm install` and `npm run build` in the plugin's `web/` (its SDK tarball packed again if missing),
    then `python -m build --wheel` into its `dist/`; answers the wheel."""
    web = folder / "web"
    if not (web / "package.json").is_file():
        raise FileNotFoundError(
            f"{web / 'package.json'} is missing: not a plugin made by `atrium plugin new`"
        )
    tarball = vendored_sdk(web)
    if tarball is not None and not tarball.is_file():
        packed = pack_sdk(tarball.parent)
        if packed != tarball:
            shutil.copyfile(packed, tarball)
    npm = shutil.which("npm")
    if npm is None:
        raise FileNotFoundError("npm is not on PATH: the web module needs Node 20 and npm")
    run([npm, *NPM_INSTALL], cwd=web, check=True)
    run([npm, "run", "build"], cwd=web, check=True)
    out = folder / "dist"
    before = set(out.glob("*.whl"))
    command = [sys.executable, "-m", "build", "--wheel", "--outdir", str(out)]
    if not isolation:
        command.append("--no-isolation")
    run([*command, str(folder)], cwd=folder, check=True)
    made = sorted(set(out.glob("*.whl")) - before) or sorted(
        out.glob("*.whl"), key=lambda p: p.stat().st_mtime
    )
    if not made:
        raise RuntimeError(f"no wheel was written to {out}")
    return made[-1]
