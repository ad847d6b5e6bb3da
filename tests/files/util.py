"""Helpers for the files tests: pictures made on the fly, uploads, signing into another tenant."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from atrium.sdk.testing import AtriumClient

UPLOAD = "/api/file/iot-base-attachment/single/file-upload"
BASE = "/api/file/iot-base-attachment"
ICONS = "/api/base/base-custom-icon"


def picture(fmt: str = "PNG", size: tuple[int, int] = (16, 16), color: str = "red") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, fmt)
    return out.getvalue()


def upload(
    c: AtriumClient, name: str, data: bytes, ctype: str, func_code: str | None = None
) -> dict[str, Any]:
    url = UPLOAD + (f"?funcCode={func_code}" if func_code is not None else "")
    return c.post(url, files={"file": (name, data, ctype)})


def uploaded(
    c: AtriumClient, name: str, data: bytes, ctype: str, func_code: str | None = None
) -> dict[str, Any]:
    body = upload(c, name, data, ctype, func_code)
    assert body["code"] == 800, body
    data_: dict[str, Any] = body["data"]
    return data_


def switch_tenant(c: AtriumClient, tenant_id: int) -> AtriumClient:
    data = c.ok("POST", f"/api/base/base-user/change-tenant?tenantId={tenant_id}&systemCode=iotAutho")
    c.headers["authorization"] = data["authorization"]
    c.headers["refreshAuthorization"] = data["refresh-authorization"]
    return c
