"""WeCom's callback address (/third-party/receiveWxMsg): URL verification and encrypted event messages.

WeCom signs every call with SHA-1 over the sorted token, timestamp, nonce and ciphertext, and encrypts
with AES-256-CBC (key from the 43-character EncodingAESKey, IV its first 16 bytes, PKCS#7 to 32 bytes);
the plaintext is 16 random bytes, a 4-byte length, the message, then the corp id.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import struct

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from defusedxml import ElementTree

from atrium.plugins.sso.providers.base import ProviderError

BLOCK = 32


def signature(token: str, timestamp: str, nonce: str, encrypted: str) -> str:
    return hashlib.sha1("".join(sorted([token, timestamp, nonce, encrypted])).encode()).hexdigest()  # noqa: S324


def _key(aes_key: str) -> bytes:
    return base64.b64decode(aes_key + "=")


def decrypt(aes_key: str, encrypted: str, corp_id: str) -> str:
    try:
        key = _key(aes_key)
        raw = base64.b64decode(encrypted, validate=True)
        plain = Cipher(algorithms.AES(key), modes.CBC(key[:16])).decryptor()
        data = plain.update(raw) + plain.finalize()
        pad = data[-1]
        if not 1 <= pad <= BLOCK:
            raise ValueError("bad padding")
        data = data[:-pad]
        (length,) = struct.unpack(">I", data[16:20])
        message, receiver = data[20 : 20 + length], data[20 + length :]
    except (ValueError, struct.error) as exc:
        raise ProviderError("wx_bad_message") from exc
    if receiver.decode("utf-8", "replace") != corp_id:
        raise ProviderError("wx_bad_message")
    return message.decode("utf-8")


def encrypt(aes_key: str, message: str, corp_id: str) -> str:
    key = _key(aes_key)
    body = os.urandom(16) + struct.pack(">I", len(message.encode())) + message.encode() + corp_id.encode()
    pad = BLOCK - len(body) % BLOCK
    body += bytes([pad]) * pad
    enc = Cipher(algorithms.AES(key), modes.CBC(key[:16])).encryptor()
    return base64.b64encode(enc.update(body) + enc.finalize()).decode()


def verify(token: str, timestamp: str, nonce: str, encrypted: str, given: str) -> None:
    if not token or not hmac.compare_digest(signature(token, timestamp, nonce, encrypted), given or ""):
        raise ProviderError("wx_bad_signature")


def parse(xml_text: str) -> dict[str, str]:
    """A flat XML message as a dict (defusedxml: no entities, no external references)."""
    try:
        root = ElementTree.fromstring(xml_text)
    except Exception as exc:
        raise ProviderError("wx_bad_message") from exc
    return {child.tag: (child.text or "") for child in root}
