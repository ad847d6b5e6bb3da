"""Tables of the reports plugin: data sources, datasets and fields, chart views, panels, links.

Every table is tenant-scoped. Ids are random hex strings (like the reference product's UUIDs) except the
link id, which is a longer random token because it is a public capability.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import BigInteger, Boolean, DateTime, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from atrium.sdk.db import BigId, TenantScoped, Timestamps, new_metadata


class Base(DeclarativeBase):
    """The reports plugin's own metadata (its own migration history)."""

    metadata = new_metadata()


def new_id() -> str:
    return uuid.uuid4().hex


class DataSource(TenantScoped, Timestamps, Base):
    """An external database reached through a SQLAlchemy URL; the URL is stored encrypted."""

    __tablename__ = "rpt_datasource"
    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(100))
    driver: Mapped[str] = mapped_column(String(32), default="")
    url_enc: Mapped[str] = mapped_column(Text, default="")
    description: Mapped[str] = mapped_column(String(500), default="")
    query_timeout: Mapped[int] = mapped_column(Integer, default=0)
    created_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class Dataset(TenantScoped, Timestamps, Base):
    """A table or a read-only SQL query of a data source (None: the platform's database)."""

    __tablename__ = "rpt_dataset"
    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(100))
    datasource_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    kind: Mapped[str] = mapped_column(String(16), default="table")
    table_name: Mapped[str] = mapped_column(String(255), default="")
    sql_text: Mapped[str] = mapped_column(Text, default="")
    mode: Mapped[str] = mapped_column(String(16), default="direct")
    sync_interval: Mapped[int] = mapped_column(Integer, default=0)
    version: Mapped[int] = mapped_column(Integer, default=1)
    extract_file: Mapped[str] = mapped_column(String(255), default="")
    extract_rows: Mapped[int] = mapped_column(BigInteger, default=0)
    sync_status: Mapped[str] = mapped_column(String(16), default="never")
    sync_error: Mapped[str] = mapped_column(Text, default="")
    sync_started_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    last_sync_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    created_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class DatasetField(TenantScoped, Base):
    """A column of a dataset: `origin_name` in the source, `dataease_name` the safe key answers use."""

    __tablename__ = "rpt_dataset_field"
    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    dataset_id: Mapped[str] = mapped_column(String(32), index=True)
    name: Mapped[str] = mapped_column(String(100))
    origin_name: Mapped[str] = mapped_column(String(255))
    dataease_name: Mapped[str] = mapped_column(String(64))
    type: Mapped[str] = mapped_column(String(16), default="text")
    source_type: Mapped[str] = mapped_column(String(16), default="text")
    role: Mapped[str] = mapped_column(String(16), default="dimension")
    sort: Mapped[int] = mapped_column(Integer, default=0)
    checked: Mapped[bool] = mapped_column(Boolean, default=True)
    #: a calculated field's scalar expression over the dataset's columns ("" for a column of the source)
    expression: Mapped[str] = mapped_column(Text, default="")


class OwnedTable(TenantScoped, Base):
    """A table in the platform's database that belongs to a tenant (imported from Excel, or demo data)."""

    __tablename__ = "rpt_owned_table"
    table_name: Mapped[str] = mapped_column(String(128), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)


class ChartView(TenantScoped, Timestamps, Base):
    """A chart or table over one dataset. Axis lists and styles are JSON text (spec 3.3)."""

    __tablename__ = "rpt_chart_view"
    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    panel_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    dataset_id: Mapped[str] = mapped_column(String(32), index=True)
    name: Mapped[str] = mapped_column(String(100), default="")
    title: Mapped[str] = mapped_column(String(200), default="")
    type: Mapped[str] = mapped_column(String(32), default="bar")
    render: Mapped[str] = mapped_column(String(16), default="echarts")
    style_priority: Mapped[str] = mapped_column(String(16), default="panel")
    custom_attr: Mapped[str] = mapped_column(Text, default="{}")
    custom_style: Mapped[str] = mapped_column(Text, default="{}")
    custom_filter: Mapped[str] = mapped_column(Text, default="[]")
    senior: Mapped[str] = mapped_column(Text, default="{}")
    xaxis: Mapped[str] = mapped_column(Text, default="[]")
    xaxis_ext: Mapped[str] = mapped_column(Text, default="[]")
    yaxis: Mapped[str] = mapped_column(Text, default="[]")
    yaxis_ext: Mapped[str] = mapped_column(Text, default="[]")
    ext_bubble: Mapped[str] = mapped_column(Text, default="[]")
    drill_fields: Mapped[str] = mapped_column(Text, default="[]")
    result_mode: Mapped[str] = mapped_column(String(16), default="all")
    result_count: Mapped[int] = mapped_column(Integer, default=1000)
    page_size: Mapped[int] = mapped_column(Integer, default=20)
    version: Mapped[int] = mapped_column(Integer, default=1)


class Panel(TenantScoped, Timestamps, Base):
    """A report page: panelData is the JSON list of components (spec 3.2), panelStyle spec 3.1."""

    __tablename__ = "rpt_panel"
    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    panel_data: Mapped[str] = mapped_column(Text, default="[]")
    panel_style: Mapped[str] = mapped_column(Text, default="{}")
    created_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    #: the designer's unpublished edit (None: the draft is the live panel)
    draft_data: Mapped[str | None] = mapped_column(Text, nullable=True)
    draft_style: Mapped[str | None] = mapped_column(Text, nullable=True)
    draft_name: Mapped[str | None] = mapped_column(String(200), nullable=True)
    draft_updated_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    #: the newest published version (0: never published)
    published_version: Mapped[int] = mapped_column(Integer, default=0)
    #: the proxy user (spec 6): viewers may ask for data as this user's data scope (None: no proxy)
    proxy_user_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class PanelVersion(TenantScoped, Base):
    """A published state of a panel: its components, style, and a JSON snapshot of its chart views,
    linkage and jumps (`views`: {views, linkages, jumps}) to roll back to."""

    __tablename__ = "rpt_panel_version"
    __table_args__ = (UniqueConstraint("tenant_id", "panel_id", "version"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    panel_id: Mapped[str] = mapped_column(String(32), index=True)
    version: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))
    panel_data: Mapped[str] = mapped_column(Text, default="[]")
    panel_style: Mapped[str] = mapped_column(Text, default="{}")
    views: Mapped[str] = mapped_column(Text, default="{}")
    note: Mapped[str] = mapped_column(String(500), default="")
    published_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    published_at: Mapped[datetime] = mapped_column(DateTime)


class PanelGrant(TenantScoped, Base):
    """A privilege on a panel for a user or a role: view, export, manage."""

    __tablename__ = "rpt_panel_grant"
    __table_args__ = (UniqueConstraint("panel_id", "subject_type", "subject_id"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    panel_id: Mapped[str] = mapped_column(String(32), index=True)
    subject_type: Mapped[str] = mapped_column(String(8))
    subject_id: Mapped[int] = mapped_column(BigInteger)
    can_view: Mapped[bool] = mapped_column(Boolean, default=True)
    can_export: Mapped[bool] = mapped_column(Boolean, default=False)
    can_manage: Mapped[bool] = mapped_column(Boolean, default=False)


class RowPermission(TenantScoped, Base):
    """A row permission of a dataset: the user or the role it names sees only the rows matching the filter
    (`field_id`, `operator`, JSON list `value`). Every rule naming a user or one of their roles applies."""

    __tablename__ = "rpt_row_permission"
    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    dataset_id: Mapped[str] = mapped_column(String(32), index=True)
    subject_type: Mapped[str] = mapped_column(String(8))
    subject_id: Mapped[int] = mapped_column(BigInteger)
    field_id: Mapped[str] = mapped_column(String(32))
    operator: Mapped[str] = mapped_column(String(16), default="eq")
    value: Mapped[str] = mapped_column(Text, default="[]")


class Linkage(TenantScoped, Base):
    """Clicking `source_view_id` filters `target_view_id`; `fields` pairs source and target field ids."""

    __tablename__ = "rpt_linkage"
    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    panel_id: Mapped[str] = mapped_column(String(32), index=True)
    source_view_id: Mapped[str] = mapped_column(String(32))
    target_view_id: Mapped[str] = mapped_column(String(32))
    fields: Mapped[str] = mapped_column(Text, default="[]")
    active: Mapped[bool] = mapped_column(Boolean, default=True)


class LinkJump(TenantScoped, Base):
    """Clicking a field of a view jumps to a panel (inner) or an external address (outer)."""

    __tablename__ = "rpt_link_jump"
    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    panel_id: Mapped[str] = mapped_column(String(32), index=True)
    source_view_id: Mapped[str] = mapped_column(String(32))
    source_field_id: Mapped[str] = mapped_column(String(32))
    link_type: Mapped[str] = mapped_column(String(8), default="inner")
    jump_type: Mapped[str] = mapped_column(String(16), default="_blank")
    target_panel_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    content: Mapped[str] = mapped_column(Text, default="")
    target_view_info: Mapped[str] = mapped_column(Text, default="[]")
    attach_params: Mapped[bool] = mapped_column(Boolean, default=False)
    checked: Mapped[bool] = mapped_column(Boolean, default=True)


class PanelLink(TenantScoped, Timestamps, Base):
    """A shared link to a panel; data calls through it run as `user_id` and see only `panel_id`."""

    __tablename__ = "rpt_panel_link"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    panel_id: Mapped[str] = mapped_column(String(32), index=True)
    user_id: Mapped[int] = mapped_column(BigInteger)
    valid: Mapped[bool] = mapped_column(Boolean, default=True)
    enable_pwd: Mapped[bool] = mapped_column(Boolean, default=False)
    pwd_enc: Mapped[str] = mapped_column(Text, default="")
    pwd_version: Mapped[int] = mapped_column(Integer, default=1)
    over_time: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    failed_attempts: Mapped[int] = mapped_column(Integer, default=0)
    locked: Mapped[bool] = mapped_column(Boolean, default=False)
    owner_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    owner_roles: Mapped[str] = mapped_column(Text, default="[]")
    #: whether pages of other sites may frame the link page, and which (JSON list of origins)
    embed_allowed: Mapped[bool] = mapped_column(Boolean, default=False)
    embed_origins: Mapped[str] = mapped_column(Text, default="[]")
