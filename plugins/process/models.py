"""The process plugin's tables: models and their BPMN versions, instances with their engine state, tasks,
the candidates who may do an open task, and each instance's history."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from atrium.sdk.db import BigId, TenantScoped, new_metadata, utcnow

RUNNING = "running"
COMPLETED = "completed"
CANCELLED = "cancelled"
WITHDRAWN = "withdrawn"
FAILED = "failed"

OPEN = "open"
DONE = "done"
REJECTED = "rejected"
CLOSED = "closed"

#: candidate kinds of an open task
USER = "u"
ROLE = "r"
SUPERVISOR = "s"


class Base(DeclarativeBase):
    """The process plugin's own metadata (its own migration history)."""

    metadata = new_metadata()


class ProcessModel(TenantScoped, Base):
    """A process model of a tenant: its key (model id), name, category and the version deployed."""

    __tablename__ = "process_model"
    __table_args__ = (UniqueConstraint("tenant_id", "key"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(100))
    category: Mapped[str] = mapped_column(String(64), default="")
    latest_version: Mapped[int] = mapped_column(Integer, default=0)
    deployed_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)


class ProcessVersion(TenantScoped, Base):
    """One saved BPMN 2.0 diagram of a model; never changed once saved."""

    __tablename__ = "process_version"
    __table_args__ = (UniqueConstraint("model_id", "version"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    model_id: Mapped[int] = mapped_column(BigInteger, index=True)
    version: Mapped[int] = mapped_column(Integer)
    xml: Mapped[str] = mapped_column(Text)
    deployed_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    created_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class ProcessInstance(TenantScoped, Base):
    """A run of a deployed version; ``state`` is the engine's serialized task tree after the last step.
    ``wake_at`` is when a running instance next needs the engine without anyone acting (a timer falls due,
    an HTTP task's attempt is due or overdue): the scheduler's scan reads it through one index."""

    __tablename__ = "process_instance"
    __table_args__ = (
        Index("ix_process_instance_tenant_starter", "tenant_id", "started_by", "id"),
        Index("ix_process_instance_tenant_status", "tenant_id", "status"),
        Index("ix_process_instance_wake_at", "wake_at"),
    )
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    model_id: Mapped[int] = mapped_column(BigInteger)
    version_id: Mapped[int] = mapped_column(BigInteger)
    model_key: Mapped[str] = mapped_column(String(64))
    model_name: Mapped[str] = mapped_column(String(100))
    status: Mapped[str] = mapped_column(String(16), default=RUNNING)
    started_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    state: Mapped[str] = mapped_column(Text, default="")
    error: Mapped[str] = mapped_column(String(500), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, index=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    wake_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class ProcessTask(TenantScoped, Base):
    """A user task reached by an instance: open until someone completes or rejects it."""

    __tablename__ = "process_task"
    __table_args__ = (
        Index("ix_process_task_tenant_instance", "tenant_id", "instance_id"),
        Index("ix_process_task_tenant_claimed", "tenant_id", "claimed_by", "status"),
    )
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    instance_id: Mapped[int] = mapped_column(BigInteger)
    engine_id: Mapped[str] = mapped_column(String(36))
    node_id: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(100))
    form_key: Mapped[str] = mapped_column(String(64), default="")
    status: Mapped[str] = mapped_column(String(16), default=OPEN)
    candidates: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    claimed_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    done_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    comment: Mapped[str] = mapped_column(String(500), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    done_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class TaskCandidate(TenantScoped, Base):
    """Who may do an open task: a user, a role, or the tenant's supervisors; removed when the task closes."""

    __tablename__ = "process_task_candidate"
    __table_args__ = (
        Index("ix_process_task_candidate_lookup", "tenant_id", "kind", "ref", "task_id"),
        {"sqlite_with_rowid": False},
    )
    tenant_id: Mapped[int] = mapped_column(BigInteger, nullable=False)
    task_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    kind: Mapped[str] = mapped_column(String(1), primary_key=True)
    ref: Mapped[int] = mapped_column(BigInteger, primary_key=True)


class HistoryEntry(TenantScoped, Base):
    """One step of an instance: started, a task done or rejected, withdrawn, cancelled, failed, ended."""

    __tablename__ = "process_history"
    __table_args__ = (Index("ix_process_history_tenant_instance", "tenant_id", "instance_id", "id"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    instance_id: Mapped[int] = mapped_column(BigInteger)
    node_id: Mapped[str] = mapped_column(String(64), default="")
    name: Mapped[str] = mapped_column(String(100), default="")
    action: Mapped[str] = mapped_column(String(16))
    user_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    comment: Mapped[str] = mapped_column(String(500), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
