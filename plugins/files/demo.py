"""Demo content: a few uploaded pictures and documents, and custom icons, for Acme.

Demo data is loaded before the platform starts (no storage service yet), so the records are written with
fixed names and their bytes are put in place at start-up when they are missing.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import structlog
from PIL import Image, ImageDraw
from sqlalchemy import select

from atrium.sdk.context import tenant_scope, unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import StorageUnavailable

from .models import Attachment, CustomIcon

log = structlog.get_logger("atrium.files")

SVG_STAR = (
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path fill="#204BE3" '
    b'd="M12 2l3 7h7l-5.5 4.5L18.5 21 12 16.5 5.5 21l2-7.5L2 9h7z"/></svg>'
)


def _png(color: str, size: int = 64, shape: str = "circle") -> Callable[[], bytes]:
    def make() -> bytes:
        img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
        draw = ImageDraw.Draw(img)
        if shape == "circle":
            draw.ellipse((4, 4, size - 4, size - 4), fill=color)
        else:
            draw.rounded_rectangle((6, 6, size - 6, size - 6), radius=10, fill=color)
        out = io.BytesIO()
        img.save(out, "PNG")
        return out.getvalue()

    return make


# stored name -> (source name, content type, policy, func code, uploader, icon name or "", bytes)
FILES: dict[str, tuple[str, str, str, str, str, str, Callable[[], bytes]]] = {
    "demo-acme-banner-0001.png": (
        "acme-banner.png",
        "image/png",
        "image",
        "image",
        "Alice Zhang",
        "",
        _png("#13A8A8", 320, "square"),
    ),
    "demo-acme-readme-0002.txt": (
        "readme.txt",
        "text/plain",
        "file",
        "",
        "王主管",
        "",
        lambda: b"Quarterly figures are in the report centre.\n",
    ),
    "demo-acme-icon-dot-0003.png": (
        "acme-dot.png",
        "image/png",
        "icon",
        "icon",
        "王主管",
        "Acme dot",
        _png("#204BE3"),
    ),
    "demo-acme-icon-tile-0004.png": (
        "acme-tile.png",
        "image/png",
        "icon",
        "icon",
        "王主管",
        "Acme tile",
        _png("#FA8C16", shape="square"),
    ),
    "demo-acme-icon-star-0005.svg": (
        "acme-star.svg",
        "image/svg+xml",
        "icon",
        "icon",
        "王主管",
        "Acme star",
        lambda: SVG_STAR,
    ),
}


def load(tenants: dict[str, int]) -> None:
    with tenant_scope(tenants["acme"]):
        db = session()
        for i, (stored, (source, ctype, policy, func_code, who, icon, data)) in enumerate(FILES.items()):
            att = Attachment(
                stored_name=stored,
                backend="local",
                source_name=source,
                content_type=ctype,
                size=len(data()),
                func_code=func_code,
                policy=policy,
                creation_name=who,
            )
            db.add(att)
            db.flush()
            if icon:
                db.add(CustomIcon(icon_name=icon, icon_format=ctype, file_id=att.id, sort=i))
        db.flush()


def materialise(services: Any) -> None:
    """Put the bytes of demo attachments whose objects are missing (called at start-up).

    An unreachable store is logged and left: the platform still starts, and the next start fills in."""
    with unscoped(), services.db() as db:
        rows = db.execute(
            select(Attachment.tenant_id, Attachment.stored_name).where(
                Attachment.stored_name.in_(list(FILES))
            )
        ).all()
    storage = services.storage
    try:
        for tenant_id, stored in rows:
            if not storage.exists(tenant_id, stored):
                _, ctype, *_, data = FILES[stored]
                storage.put(tenant_id, stored, io.BytesIO(data()), ctype)
    except StorageUnavailable:
        log.warning("demo files not written: the object storage is unreachable")
