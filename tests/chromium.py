"""How the browser tests and the web benchmarks start Chromium (Debian's, or ATRIUM_CHROMIUM)."""

from __future__ import annotations

import os

CHROMIUM = os.environ.get("ATRIUM_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # Chromium's own omnibox popup is a WebUI page of some 400 files that a new window (every test's or
    # cold round's context) loads in a renderer of its own: about a second of the two cores' time in the
    # middle of the page's load, which a user's already-open browser does not spend
    "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup",
]
