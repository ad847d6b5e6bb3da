"""Engine, sessions, and tenant scoping: the one place every query is scoped by tenant."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from sqlalchemy import Engine, create_engine, event, false
from sqlalchemy.orm import ORMExecuteState, Session, sessionmaker, with_loader_criteria
from sqlalchemy.orm.util import LoaderCriteriaOption

from atrium.sdk.context import LazySession, current_context
from atrium.sdk.db import TenantScoped
from atrium.sdk.errors import Forbidden


class TenantSession(Session):
    """A session whose ORM statements are filtered by the current tenant."""


def make_engine(url: str, **kw: Any) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, **kw)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _rec: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True, **kw)


def make_session_factory(engine: Engine) -> sessionmaker[TenantSession]:
    return sessionmaker(bind=engine, class_=TenantSession, expire_on_commit=False)


@event.listens_for(TenantSession, "do_orm_execute")
def _scope_to_tenant(state: ORMExecuteState) -> None:
    if not (state.is_select or state.is_update or state.is_delete):
        return
    ctx = current_context()
    if ctx.unscoped or state.execution_options.get("atrium_unscoped"):
        return
    state.statement = state.statement.options(_tenant_criteria(ctx.tenant_id))


@lru_cache(maxsize=4096)
def _tenant_criteria(tenant_id: int | None) -> LoaderCriteriaOption:
    """The tenant filter as a loader option, made once per tenant: building it (a lambda analysed for its
    closure) cost more than the rest of a simple select."""
    if tenant_id is None:
        return with_loader_criteria(TenantScoped, lambda cls: false(), include_aliases=True)
    return with_loader_criteria(TenantScoped, lambda cls: cls.tenant_id == tenant_id, include_aliases=True)


@event.listens_for(TenantSession, "transient_to_pending")
def _stamp_on_add(_session: Session, obj: Any) -> None:
    """A new row belongs to the tenant current when it was added, not to whichever is current when the
    session happens to flush."""
    if isinstance(obj, TenantScoped) and getattr(obj, "tenant_id", None) is None:
        tenant_id = current_context().tenant_id
        if tenant_id is not None:
            obj.tenant_id = tenant_id


@event.listens_for(TenantSession, "before_flush")
def _stamp_tenant(session: Session, _ctx: Any, _instances: Any) -> None:
    ctx = current_context()
    for obj in list(session.new) + list(session.dirty):
        if not isinstance(obj, TenantScoped):
            continue
        current = getattr(obj, "tenant_id", None)
        if current is None:
            if ctx.tenant_id is None:
                raise Forbidden()
            obj.tenant_id = ctx.tenant_id
        elif not ctx.unscoped and ctx.tenant_id != current:
            raise Forbidden()


@contextmanager
def lazy_session_scope(factory: sessionmaker[TenantSession]) -> Iterator[None]:
    """Like `session_scope`, for a block that reaches its session through the context only: the session
    is opened when first used, and a block that never used it has nothing to commit."""
    ctx = current_context()
    outer = ctx.db_slot
    lazy = LazySession(factory)
    ctx.db_slot = lazy
    try:
        yield
        if lazy.session is not None:
            lazy.session.commit()
    except BaseException:
        if lazy.session is not None:
            lazy.session.rollback()
        raise
    finally:
        ctx.db_slot = outer
        if lazy.session is not None:
            lazy.session.close()


@contextmanager
def session_scope(factory: sessionmaker[TenantSession]) -> Iterator[TenantSession]:
    """A session bound to the current context for the block; committed on success."""
    ctx = current_context()
    outer = ctx.db_slot
    with factory() as s:
        ctx.db_slot = s
        try:
            yield s
            s.commit()
        except BaseException:
            s.rollback()
            raise
        finally:
            ctx.db_slot = outer
