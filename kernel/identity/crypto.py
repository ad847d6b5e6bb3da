"""Passwords in transit: RSA-OAEP (SHA-256, 3072-bit key), each ciphertext bound to a single-use nonce."""

from __future__ import annotations

import base64
import binascii
import os
import secrets
from pathlib import Path

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from atrium.sdk.errors import BadRequest
from atrium.sdk.services import Cache

KEY_BITS = 3072
NONCE_TTL = 120
OAEP = padding.OAEP(mgf=padding.MGF1(algorithm=hashes.SHA256()), algorithm=hashes.SHA256(), label=None)


class TransitCrypto:
    def __init__(self, key_file: Path, cache: Cache) -> None:
        self.cache = cache
        self.key = self._load_or_create(key_file)
        self.public_pem = (
            self.key.public_key()
            .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
            .decode()
        )

    @staticmethod
    def _load_or_create(path: Path) -> rsa.RSAPrivateKey:
        if path.exists():
            key = serialization.load_pem_private_key(path.read_bytes(), password=None)
            assert isinstance(key, rsa.RSAPrivateKey)
            return key
        path.parent.mkdir(parents=True, exist_ok=True)
        key = rsa.generate_private_key(public_exponent=65537, key_size=KEY_BITS)
        pem = key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(pem)
        os.chmod(tmp, 0o600)
        try:
            os.link(tmp, path)
        except FileExistsError:
            tmp.unlink()
            return TransitCrypto._load_or_create(path)
        tmp.unlink()
        return key

    def new_nonce(self) -> str:
        nonce = secrets.token_urlsafe(18)
        self.cache.set(f"nonce:{nonce}", 1, ttl=NONCE_TTL)
        return nonce

    def encrypt(self, nonce: str, password: str) -> str:
        """What the browser does; used by the CLI and the tests."""
        data = self.key.public_key().encrypt(f"{nonce}:{password}".encode(), OAEP)
        return base64.b64encode(data).decode()

    def decrypt_password(self, ciphertext: str) -> str:
        """The password inside a ciphertext, if its nonce is fresh and unused; the nonce is spent."""
        try:
            plain = self.key.decrypt(base64.b64decode(ciphertext, validate=True), OAEP).decode("utf-8")
        except (ValueError, binascii.Error, UnicodeDecodeError) as exc:
            raise BadRequest("login.bad_ciphertext") from exc
        nonce, sep, password = plain.partition(":")
        if not sep or self.cache.pop(f"nonce:{nonce}") is None:
            raise BadRequest("login.nonce_expired")
        return password
