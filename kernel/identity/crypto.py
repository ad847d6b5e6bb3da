"""Passwords in transit: RSA-OAEP (SHA-256, 3072-bit key), each ciphertext bound to a single-use nonce.

Every node of one platform uses the same key, kept in the database (the ``server_config`` row
``TRANSIT_RSA_KEY``): a public key fetched from one node decrypts on any other. The first node to need it
offers its own key file's (``var/keys/transit-rsa.pem``, made when absent) with an insert that does nothing
when a row is already there, then every node reads the row back, so nodes starting together agree. Until the
database answers (before the first migration, outside a running platform) a node uses its key file.
"""

from __future__ import annotations

import base64
import binascii
import os
import secrets
import threading
from pathlib import Path
from typing import Any

import sqlalchemy as sa
import structlog
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from atrium.sdk.errors import BadRequest
from atrium.sdk.services import Cache, services

log = structlog.get_logger("atrium.kernel")

KEY_BITS = 3072
NONCE_TTL = 120
OAEP = padding.OAEP(mgf=padding.MGF1(algorithm=hashes.SHA256()), algorithm=hashes.SHA256(), label=None)
#: the server_config row holding the shared private key (PKCS#8 PEM)
CONFIG_KEY = "TRANSIT_RSA_KEY"


def _pem(key: rsa.RSAPrivateKey) -> str:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()


def _private_key(pem: str | bytes) -> rsa.RSAPrivateKey:
    key = serialization.load_pem_private_key(pem.encode() if isinstance(pem, str) else pem, password=None)
    assert isinstance(key, rsa.RSAPrivateKey)
    return key


def shared_pem(session: Any, offered: str) -> str:
    """The platform's key in the database: `offered` becomes it unless a key is there already (an insert
    that does nothing on a conflict, so two nodes starting together keep the same one)."""
    from atrium.kernel.models import ServerConfig

    values = {"key": CONFIG_KEY, "value": offered}
    if session.get_bind().dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        session.execute(pg_insert(ServerConfig).values(values).on_conflict_do_nothing(index_elements=["key"]))
    else:
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        session.execute(
            sqlite_insert(ServerConfig).values(values).on_conflict_do_nothing(index_elements=["key"])
        )
    stored = session.execute(sa.select(ServerConfig.value).where(ServerConfig.key == CONFIG_KEY)).scalar_one()
    return str(stored)


class TransitCrypto:
    def __init__(self, key_file: Path, cache: Cache) -> None:
        self.cache = cache
        self.local_key = self._load_or_create(key_file)
        self._shared: rsa.RSAPrivateKey | None = None
        self._lock = threading.Lock()

    @property
    def key(self) -> rsa.RSAPrivateKey:
        """The platform's shared key (this node's key file's until the database answers)."""
        if self._shared is None:
            with self._lock:
                if self._shared is None:
                    self._shared = self._load_shared()
        return self._shared or self.local_key

    @property
    def public_pem(self) -> str:
        return (
            self.key.public_key()
            .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
            .decode()
        )

    def _load_shared(self) -> rsa.RSAPrivateKey | None:
        from atrium.sdk.context import unscoped

        try:
            platform = services()
        except RuntimeError:  # not started (a command, a test's helper): the key file it is
            return None
        try:
            with unscoped(), platform.db() as db:
                pem = shared_pem(db, _pem(self.local_key))
        except sa.exc.SQLAlchemyError as exc:  # no table yet, or the database is away: ask again next time
            log.warning("the shared sign-in key cannot be read yet", error=str(exc).splitlines()[0][:200])
            return None
        return self.local_key if pem == _pem(self.local_key) else _private_key(pem)

    @staticmethod
    def _load_or_create(path: Path) -> rsa.RSAPrivateKey:
        if path.exists():
            return _private_key(path.read_bytes())
        path.parent.mkdir(parents=True, exist_ok=True)
        key = rsa.generate_private_key(public_exponent=65537, key_size=KEY_BITS)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(_pem(key).encode())
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
