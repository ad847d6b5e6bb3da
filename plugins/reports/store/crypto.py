"""Secrets of the reports plugin: Fernet for stored credentials, HMAC-signed link tokens."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from functools import lru_cache
from typing import Any

import orjson
from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from atrium.sdk.services import services


@lru_cache(maxsize=8)
def _derive(secret: str, purpose: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=b"atrium-reports", info=purpose).derive(
        secret.encode()
    )


def _secret() -> str:
    return str(services().settings.secret_key)


def fernet() -> Fernet:
    return Fernet(base64.urlsafe_b64encode(_derive(_secret(), b"fernet-credentials")))


def encrypt(text: str) -> str:
    return fernet().encrypt(text.encode()).decode() if text else ""


def decrypt(token: str) -> str:
    """The plain text, or '' when the token was made with another secret key (then the owner re-enters it)."""
    if not token:
        return ""
    try:
        return fernet().decrypt(token.encode()).decode()
    except InvalidToken:
        return ""


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign_token(payload: dict[str, Any], ttl_seconds: int) -> str:
    """A compact `payload.signature` token (HMAC-SHA256) that expires after `ttl_seconds`."""
    body = _b64(
        json.dumps({**payload, "exp": int(time.time()) + ttl_seconds}, separators=(",", ":")).encode()
    )
    sig = hmac.new(_derive(_secret(), b"link-token"), body.encode(), hashlib.sha256).digest()
    return f"{body}.{_b64(sig)}"


def verify_token(token: str) -> dict[str, Any] | None:
    """The payload of a valid, unexpired token; None for anything else."""
    if not token or len(token) > 1024 or token.count(".") != 1:
        return None
    body, sig = token.split(".")
    expected = hmac.new(_derive(_secret(), b"link-token"), body.encode(), hashlib.sha256).digest()
    try:
        if not hmac.compare_digest(expected, _unb64(sig)):
            return None
        payload: dict[str, Any] = json.loads(_unb64(body))
    except (ValueError, TypeError):
        return None
    if not isinstance(payload, dict) or int(payload.get("exp", 0)) < time.time():
        return None
    return payload


def digest(*parts: Any) -> str:
    """A stable short hash of JSON-able parts (cache keys)."""
    try:
        raw = orjson.dumps(parts, default=str, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:  # an integer beyond 64 bits, which only the standard library writes
        raw = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str).encode()
    return hashlib.sha256(raw).hexdigest()[:32]
