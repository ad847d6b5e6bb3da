"""Word export: a .docx template from ``templates/documents/`` (or one a plugin registered) filled with
docxtpl in a sandboxed, auto-escaping Jinja environment; the result is stored as an attachment.

A failure answers code 805 with the reason, as the web's Word export dialog expects.
"""

from __future__ import annotations

import re
import secrets
from datetime import datetime
from pathlib import Path
from typing import Any

import structlog
from docxtpl import DocxTemplate
from jinja2 import TemplateError
from jinja2.sandbox import SandboxedEnvironment

from atrium.sdk.context import current_context
from atrium.sdk.db import session, utcnow
from atrium.sdk.errors import AtriumError
from atrium.sdk.services import services

from ..jobs import runtime
from ..models import DONE, FAILED, ExportTask
from ..registry import WordTemplate, localise, word_template, word_templates
from ..settings import transfer_settings

log = structlog.get_logger("atrium.transfer.word")
CODE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
WORD_FAILED = 805


def find_template(code: str) -> WordTemplate | None:
    if not CODE.match(code):
        return None
    offered = word_template(code)
    if offered is not None:
        return offered
    root = transfer_settings().templates_dir.resolve()
    path = (root / f"{code}.docx").resolve()
    if path.parent != root or not path.is_file():
        return None
    return WordTemplate(code=code, path=path)


def _context(tpl: WordTemplate, params: dict[str, Any]) -> dict[str, Any]:
    user = current_context().user
    base = {
        "user": user.full_name if user else "",
        "tenantId": current_context().tenant_id,
        "today": datetime.now().strftime("%Y-%m-%d"),
        "now": datetime.now().strftime("%Y-%m-%d %H:%M"),
    }
    data = tpl.context(params) if tpl.context is not None else dict(params)
    return {**base, **data}


def export_word(temp_code: str, params: dict[str, Any], resource_id: str) -> dict[str, Any]:
    """Render a template; answers ``{fileUrl, fileName, exportId}`` or raises code 805 with the reason."""
    user = current_context().require_user()
    tpl = find_template(temp_code)
    if tpl is None:
        _fail(temp_code, resource_id, services().t("transfer:word.no_template", code=temp_code[:64]))
    assert tpl is not None
    stamp = datetime.now().strftime("%Y%m%d%H%M%S")
    name = localise(tpl.file_name) if tpl.file_name else tpl.code
    file_name = f"{name}-{stamp}.docx"
    out = runtime.work_dir("exports") / f"word-{secrets.token_hex(6)}.docx"
    try:
        doc = DocxTemplate(str(tpl.path))
        doc.render(_context(tpl, params), jinja_env=SandboxedEnvironment(autoescape=True), autoescape=True)
        doc.save(str(out))
        att = services().attachments.store(out, file_name, DOCX, func_code="dataexport-word", policy="export")
    except AtriumError:
        raise
    except (TemplateError, ValueError, KeyError, TypeError, AttributeError) as exc:
        log.info("word template failed", code=temp_code, error=str(exc)[:200])
        _fail(temp_code, resource_id, services().t("transfer:word.render_failed", reason=str(exc)[:200]))
        raise
    except Exception:
        log.exception("word export failed", code=temp_code)
        _fail(temp_code, resource_id, services().t("transfer:word.system_error"))
        raise
    finally:
        out.unlink(missing_ok=True)
    task = ExportTask(
        action="word",
        request_url="data-export/v2/export-word",
        function_name=temp_code,
        file_name=file_name[:-5],
        excel_type="docx",
        status=DONE,
        progress=100,
        resource_id=resource_id[:64],
        params={"tempCode": temp_code},
        locale=current_context().locale,
        file_id=att.id,
        file_url=att.url,
        created_by=user.user_id,
        user_name=user.full_name,
        owner=runtime.owner(),
        finished_at=utcnow(),
        attempts=1,
    )
    session().add(task)
    session().flush()
    return {
        "fileUrl": att.url,
        "fileName": file_name,
        "exportId": task.id,
        "downloadUrl": services().attachments.signed_url(att, file_name),
    }


def _fail(temp_code: str, resource_id: str, reason: str) -> None:
    """Keep a record of the failure (in its own transaction) and answer code 805."""
    user = current_context().require_user()
    with services().db() as db:
        db.add(
            ExportTask(
                action="word",
                request_url="data-export/v2/export-word",
                function_name=temp_code[:128],
                file_name=temp_code[:64],
                excel_type="docx",
                status=FAILED,
                error_msg=reason[:2000],
                resource_id=resource_id[:64],
                locale=current_context().locale,
                created_by=user.user_id,
                user_name=user.full_name,
                owner=runtime.owner(),
                finished_at=utcnow(),
                attempts=1,
            )
        )
    raise AtriumError("transfer:word.failed", code=WORD_FAILED, reason=reason)


def template_codes() -> list[str]:
    root = transfer_settings().templates_dir
    found = {p.stem for p in Path(root).glob("*.docx")} if Path(root).is_dir() else set()
    return sorted(found | set(word_templates()))
