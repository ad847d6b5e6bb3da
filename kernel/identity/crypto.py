"""Passwords in transit: sealed to the platform's P-256 key (ECIES: ECDH with a fresh key per ciphertext,
HKDF-SHA256, AES-256-GCM), each plaintext bound to a single-use nonce.

The strength is that of RSA-3072 (128 bits), at a fraction of its cost: opening a ciphertext takes about
0.08 ms, against 2.3 ms for an RSA-3072 decryption, which was a third of what a sign-in costs besides its
password hash. A ciphertext is the sender's point (65 bytes, uncompressed), the 12-byte IV, then the
AES-GCM ciphertext with its tag; the browser makes it with WebCrypto, `seal` does the same in Python.

Every node of one platform uses the same key, kept in the database (the ``server_config`` row
``TRANSIT_RSA_KEY``): a public key fetched from one node decrypts on any other. The first node to need it
offers its own key file's (``var/keys/transit-key.pem``, made when absent) with an insert that does nothing
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
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from atrium.sdk.errors import BadRequest
from atrium.sdk.services import Cache, services

log = structlog.get_logger("atrium.kernel")

CURVE = ec.SECP256R1()
#: what the sign-in answer names the scheme
ALGORITHM = "ECDH-P256-HKDF-SHA256-A256GCM"
#: HKDF's context: a key derived here serves nothing else
INFO = b"atrium transit password"
POINT_BYTES = 65
IV_BYTES = 12
TAG_BYTES = 16
NONCE_TTL = 120
#: the server_config row holding the shared private key (PKCS#8 PEM)
CONFIG_KEY = "TRANSIT_EC_KEY"


def _pem(key: ec.EllipticCurvePrivateKey) -> str:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()


def _private_key(pem: str | bytes) -> ec.EllipticCurvePrivateKey:
    key = serialization.load_pem_private_key(pem.encode() if isinstance(pem, str) else pem, password=None)
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != CURVE.name:
        raise ValueError("the transit key is not a P-256 key")
    return key


def _aes_key(shared: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=INFO).derive(shared)


def seal(public_key: ec.EllipticCurvePublicKey, plain: bytes) -> bytes:
    """`plain` sealed to `public_key`, as the sign-in page seals a password."""
    own = ec.generate_private_key(CURVE)
    iv = os.urandom(IV_BYTES)
    point = own.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return point + iv + AESGCM(_aes_key(own.exchange(ec.ECDH(), public_key))).encrypt(iv, plain, None)


def open_sealed(private_key: ec.EllipticCurvePrivateKey, data: bytes) -> bytes:
    """What `seal` sealed; ValueError for anything else (a point off the curve, a changed byte)."""
    if len(data) < POINT_BYTES + IV_BYTES + TAG_BYTES:
        raise ValueError("too short")
    peer = ec.EllipticCurvePublicKey.from_encoded_point(CURVE, data[:POINT_BYTES])
    iv, sealed = data[POINT_BYTES : POINT_BYTES + IV_BYTES], data[POINT_BYTES + IV_BYTES :]
    try:
        return AESGCM(_aes_key(private_key.exchange(ec.ECDH(), peer))).decrypt(iv, sealed, None)
    except InvalidTag as exc:
        raise ValueError("not sealed to this key") from exc


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
        self._shared: ec.EllipticCurvePrivateKey | None = None
        self._lock = threading.Lock()

    @property
    def key(self) -> ec.EllipticCurvePrivateKey:
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

    def _load_shared(self) -> ec.EllipticCurvePrivateKey | None:
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
    def _load_or_create(path: Path) -> ec.EllipticCurvePrivateKey:
        if path.exists():
            return _private_key(path.read_bytes())
        path.parent.mkdir(parents=True, exist_ok=True)
        key = ec.generate_private_key(CURVE)
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
        return base64.b64encode(seal(self.key.public_key(), f"{nonce}:{password}".encode())).decode()

    def decrypt_password(self, ciphertext: str) -> str:
        """The password inside a ciphertext, if its nonce is fresh and unused; the nonce is spent."""
        try:
            plain = open_sealed(self.key, base64.b64decode(ciphertext, validate=True)).decode("utf-8")
        except (ValueError, binascii.Error, UnicodeDecodeError) as exc:
            raise BadRequest("login.bad_ciphertext") from exc
        nonce, sep, password = plain.partition(":")
        if not sep or self.cache.pop(f"nonce:{nonce}") is None:
            raise BadRequest("login.nonce_expired")
        return password
