"""Tables for plugins: a declarative base per plugin and the tenant-scoped mixin.

Rows of a `TenantScoped` table are filtered by the current tenant on every ORM select, update and delete,
and stamped with it on insert, by the kernel's session events: handlers never add the filter themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import structlog
from sqlalchemy import BigInteger, DateTime, Integer, MetaData, event
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, declared_attr, mapped_column

from atrium.sdk.context import current_context

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

BigId = BigInteger().with_variant(Integer(), "sqlite")


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def new_metadata() -> MetaData:
    return MetaData(naming_convention=NAMING)


class TenantScoped:
    """Mixin: the row belongs to one tenant and is only ever seen inside that tenant."""

    @declared_attr
    def tenant_id(cls) -> Mapped[int]:  # noqa: N805
        return mapped_column(BigInteger, index=True, nullable=False)


class Timestamps:
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow, nullable=False)


def session() -> Session:
    """The database session of the running request or job."""
    db = current_context().db
    if db is None:
        raise RuntimeError("no database session in this context")
    s: Session = db
    return s


def declarative_base(name: str) -> Any:
    """A declarative base with its own MetaData, so each plugin owns its tables and migrations.

    Typed code declares it as a class instead, which strict mypy can check::

        class Base(DeclarativeBase):
            metadata = new_metadata()
    """

    class Base(DeclarativeBase):
        metadata = new_metadata()

    Base.__name__ = f"{name.title().replace('-', '')}Base"
    return Base


_AFTER_COMMIT = "atrium_after_commit"
_log = structlog.get_logger("atrium.sdk.db")


def after_commit(fn: Callable[[], object]) -> None:
    """Run `fn` once the current session commits (a push, a queued job: nothing that may be seen before the
    change is stored); forgotten if the session rolls back. A failing `fn` is logged, never raised: the
    change is already committed."""
    session().info.setdefault(_AFTER_COMMIT, []).append(fn)


@event.listens_for(Session, "after_commit")
def _run_after_commit(db: Session) -> None:
    """Listens on every session, once: a listener added to each session that queues an action cost more
    than a step's statements."""
    for fn in db.info.pop(_AFTER_COMMIT, None) or []:
        try:
            fn()
        except Exception:
            _log.exception("after-commit action failed")


@event.listens_for(Session, "after_soft_rollback")
def _forget_after_commit(db: Session, _transaction: Any) -> None:
    db.info.pop(_AFTER_COMMIT, None)
