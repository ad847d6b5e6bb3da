"""Encryption of stored secrets (the language-model key): Fernet with a key derived from the server secret."""

from __future__ import annotations

import base64
from functools import lru_cache

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from atrium.sdk.services import services


@lru_cache(maxsize=8)
def _fernet(secret: str) -> Fernet:
    kdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=b"atrium-help", info=b"llm-key")
    key = kdf.derive(secret.encode())
    return Fernet(base64.urlsafe_b64encode(key))


def encrypt(text: str) -> str:
    return _fernet(str(services().settings.secret_key)).encrypt(text.encode()).decode() if text else ""


def decrypt(token: str) -> str:
    """The plain text, or '' when the token was made with another server secret (the admin re-enters it)."""
    if not token:
        return ""
    try:
        return _fernet(str(services().settings.secret_key)).decrypt(token.encode()).decode()
    except InvalidToken:
        return ""
