"""The forms side of the process hooks (`atrium_process_forms`, `atrium_process_form_submit`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from atrium.plugins.forms import service
from atrium.plugins.forms.models import Form, FormVersion
from atrium.sdk import AtriumError
from atrium.sdk.context import current_context, tenant_scope
from atrium.sdk.db import session
from atrium.sdk.services import services


def process_forms(tenant_id: int) -> list[dict[str, Any]]:
    with tenant_scope(tenant_id):
        found = (
            session()
            .execute(
                select(Form, FormVersion)
                .join(
                    FormVersion,
                    (FormVersion.form_id == Form.id) & (FormVersion.version == Form.published_version),
                )
                .order_by(Form.code)
            )
            .all()
        )
        return [
            {
                "formId": str(f.id),
                "code": f.code,
                "name": f.name,
                "version": v.version,
                "schema": v.schema,
                "uiSchema": v.ui_schema,
            }
            for f, v in found
        ]


def process_form_submit(
    tenant_id: int, form_code: str, data: dict[str, Any], user_id: int | None, process: dict[str, Any]
) -> dict[str, Any]:
    outer = current_context().user
    with tenant_scope(tenant_id):
        try:
            form, row = service.published(form_code)
            user = outer if outer is not None and outer.user_id == user_id else None
            sub = service.store(form, row, data, False, user, created_by=user_id)
        except AtriumError as exc:
            errors = (exc.data or {}).get("errors") if isinstance(exc.data, dict) else None
            return {"errors": errors or [{"field": "", "message": services().t(exc.key, **exc.params)}]}
        return {"submissionId": str(sub.id), "version": sub.version, "data": sub.data, "process": process}
