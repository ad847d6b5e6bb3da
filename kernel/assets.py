"""Where the files that ship beside the code are: the built web, the translations and the templates.

A checkout has them at its top: ``web-host/dist`` (the built host), ``web-plugins/<name>/dist`` (each
built-in plugin's built remote), ``i18n/`` and ``templates/``. The wheel carries the same tree inside the
``atrium`` package (``atrium/web-host/dist``, ``atrium/web-plugins/<name>/dist``, ``atrium/i18n``,
``atrium/templates``), copied there when it is built (``setup.py``). The JS SDK with its webpack helper
(``sdk/web``: package.json, sources, ``webpack/``, never node_modules) ships as ``atrium/sdk/web``, so that
``atrium sdk pack`` can make the ``@atrium/sdk`` tarball a plugin outside the checkout builds its web with.
The kernel's folder sits directly under that top in both cases, ``<checkout>/kernel`` in development (an
editable install) and ``site-packages/atrium/kernel`` installed from the wheel, so a checkout is looked in
first simply because, in development, the checkout is where the kernel is.
"""

from __future__ import annotations

from pathlib import Path

#: the checkout's top in development, the installed ``atrium`` package's folder otherwise
ROOT = Path(__file__).resolve().parent.parent

#: each kind of asset, as a path under ROOT (the wheel's build step copies the same paths)
ASSETS: dict[str, tuple[str, ...]] = {
    "web-host": ("web-host", "dist"),
    "web-plugins": ("web-plugins",),
    "i18n": ("i18n",),
    "templates": ("templates",),
    "sdk-web": ("sdk", "web"),
}


def asset_root(name: str) -> Path:
    """The folder of one kind of asset: ``web-host`` (the built host, with its index.html), ``web-plugins``
    (a folder per plugin, its built remote in ``<name>/dist``), ``i18n``, ``templates`` or ``sdk-web`` (the
    ``@atrium/sdk`` package's folder, with its package.json)."""
    try:
        parts = ASSETS[name]
    except KeyError:
        raise ValueError(f"unknown asset {name!r}: one of {', '.join(ASSETS)}") from None
    return ROOT.joinpath(*parts)


def plugin_remotes(plugins_dir: Path | None = None) -> dict[str, Path]:
    """Each plugin's built remote folder (``<plugins_dir>/<name>/dist``), by plugin name, in name order."""
    top = asset_root("web-plugins") if plugins_dir is None else plugins_dir
    if not top.is_dir():
        return {}
    return {d.name: d / "dist" for d in sorted(top.iterdir()) if (d / "dist").is_dir()}
