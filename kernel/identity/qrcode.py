"""QR-code sign-in: the desktop shows a one-time code (two minutes), a signed-in phone confirms or
declines it, and the desktop hears the answer through the WebSocket hub and collects its session.

The desktop also holds a secret that never appears in the QR code: only it can watch the code and
collect the session, so a photographed QR code is useless to anyone else."""

from __future__ import annotations

import hashlib
import secrets
import time
from typing import TYPE_CHECKING, Any

from atrium.kernel.identity.service import LoginResult, complete_login
from atrium.kernel.models import User
from atrium.sdk.context import SessionUser, unscoped
from atrium.sdk.db import session
from atrium.sdk.errors import AtriumError

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

QR_TTL = 120
USED_TTL = 600
WAITING, SCANNED, CONFIRMED, DECLINED = "waiting", "scanned", "confirmed", "declined"


class QrCodeError(AtriumError):
    code = 1007
    key = "signin.qrcode_expired"


def hub_key(code: str) -> str:
    return f"qrcode:{code}"


def _digest(secret: str) -> str:
    return hashlib.sha256(f"qrcode:{secret}".encode()).hexdigest()


def _load(kernel: Kernel, code: str) -> dict[str, Any]:
    record = kernel.cache.get(f"qrcode:{code}") if code else None
    if not isinstance(record, dict):
        if code and kernel.cache.get(f"qrcode-used:{code}"):
            raise QrCodeError("signin.qrcode_used")
        raise QrCodeError("signin.qrcode_expired")
    return record


def _store(kernel: Kernel, code: str, record: dict[str, Any]) -> bool:
    left = float(record["expiresAt"]) - time.time()
    if left <= 0:
        return False
    kernel.cache.set(f"qrcode:{code}", record, ttl=left)
    return True


def create(kernel: Kernel) -> dict[str, Any]:
    code, secret = secrets.token_urlsafe(18), secrets.token_urlsafe(24)
    record = {"state": WAITING, "secret": _digest(secret), "expiresAt": time.time() + QR_TTL}
    kernel.cache.set(f"qrcode:{code}", record, ttl=QR_TTL)
    return {"qrCode": code, "secret": secret, "expiresIn": QR_TTL}


def watch(kernel: Kernel, code: str, secret: str) -> str:
    """The state of a code for its desktop (the holder of the secret)."""
    try:
        record = _load(kernel, code)
    except QrCodeError as exc:
        return "used" if exc.key == "signin.qrcode_used" else "expired"
    if not secrets.compare_digest(record["secret"], _digest(secret)):
        return "expired"
    return str(record["state"])


def _announce(kernel: Kernel, code: str, state: str) -> None:
    kernel.ws.send(hub_key(code), {"type": "qrcode", "state": state})


def scan(kernel: Kernel, code: str, user: SessionUser) -> None:
    """The phone opened the code: the desktop shows that it waits for a confirmation."""
    record = _load(kernel, code)
    if record["state"] not in (WAITING, SCANNED) or record.get("by", user.user_id) != user.user_id:
        raise QrCodeError("signin.qrcode_used")
    record.update(state=SCANNED, by=user.user_id)
    if not _store(kernel, code, record):
        raise QrCodeError("signin.qrcode_expired")
    _announce(kernel, code, SCANNED)


def decide(kernel: Kernel, code: str, user: SessionUser, approve: bool) -> None:
    record = _load(kernel, code)
    if record["state"] not in (WAITING, SCANNED) or record.get("by", user.user_id) != user.user_id:
        raise QrCodeError("signin.qrcode_used")
    state = CONFIRMED if approve else DECLINED
    record.update(
        state=state,
        by=user.user_id,
        userId=user.user_id,
        tenantId=user.tenant_id,
        systemCode=user.system_code,
    )
    if not _store(kernel, code, record):
        raise QrCodeError("signin.qrcode_expired")
    _announce(kernel, code, state)


def collect(kernel: Kernel, code: str, secret: str) -> LoginResult:
    """The desktop's session once the phone confirmed; a code signs in once."""
    record = _load(kernel, code)
    if not secrets.compare_digest(record["secret"], _digest(secret)):
        raise QrCodeError("signin.qrcode_expired")
    if record["state"] == DECLINED:
        raise QrCodeError("signin.qrcode_declined")
    if record["state"] != CONFIRMED:
        raise QrCodeError("signin.qrcode_waiting")
    taken = kernel.cache.pop(f"qrcode:{code}")
    if not isinstance(taken, dict) or taken.get("state") != CONFIRMED:
        raise QrCodeError("signin.qrcode_used")  # another request collected it first
    kernel.cache.set(f"qrcode-used:{code}", 1, ttl=USED_TTL)
    with unscoped():
        user = session().get(User, int(taken["userId"]))
    if user is None or not user.enabled:
        raise QrCodeError("signin.qrcode_expired")
    result = complete_login(kernel, user, int(taken["tenantId"]), str(taken["systemCode"]))
    _announce(kernel, code, "used")
    return result
