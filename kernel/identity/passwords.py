"""Password hashing with argon2id.

New hashes use OWASP's argon2id configuration (19 MiB, 2 iterations, 1 lane): argon2-cffi's default
(64 MiB, 3 iterations, 4 lanes) costs about seven times as much per sign-in for no protection OWASP asks
for. A hash made with other parameters still verifies and is replaced on the next successful sign-in.

Verifying runs in a pool of one thread per core: argon2 releases the interpreter lock, so the pool keeps
every core busy during a storm of sign-ins, and queues the rest instead of letting dozens of 19 MiB
computations share two cores and all finish late.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_hasher = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)
_DUMMY = _hasher.hash("atrium-dummy-password")
#: how every hash made with today's parameters begins (`$argon2id$v=19$m=19456,t=2,p=1$`)
_CURRENT = _DUMMY.rsplit("$", 2)[0] + "$"
_pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 2, thread_name_prefix="atrium-argon2")


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def _verify(stored: str, password: str) -> bool:
    try:
        return _hasher.verify(stored or _DUMMY, password) and bool(stored)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def verify_password(stored: str, password: str) -> bool:
    """Constant work whether or not the account exists: an empty hash is checked against a dummy."""
    return _pool.submit(_verify, stored, password).result()


def needs_rehash(stored: str) -> bool:
    """True when a hash that just verified was made with other parameters than today's, read from its
    prefix: parsing the whole hash, as argon2's own check does, cost a sign-in a tenth of its work."""
    return not stored.startswith(_CURRENT)
