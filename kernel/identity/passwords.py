"""Password hashing with argon2id."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_hasher = PasswordHasher()
_DUMMY = _hasher.hash("atrium-dummy-password")


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(stored: str, password: str) -> bool:
    """Constant work whether or not the account exists: an empty hash is checked against a dummy."""
    try:
        return _hasher.verify(stored or _DUMMY, password) and bool(stored)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False
