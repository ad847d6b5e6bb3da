"""What the WeCom callback address does: answer the URL check, and unlink people WeCom deleted."""

from __future__ import annotations

from sqlalchemy import delete

from atrium.plugins.sso import service, wxmsg
from atrium.plugins.sso.models import SsoIdentity
from atrium.plugins.sso.providers.base import ProviderError, log, secret
from atrium.sdk.context import tenant_scope
from atrium.sdk.db import session
from atrium.sdk.services import services


def handle(method: str, params: dict[str, str], body: bytes) -> str:
    corp_id = params.get("corpId") or params.get("corpid") or ""
    tenant, cfg, reg = service.find_by_corp("wecom", corp_id)
    settings = service.settings_of(cfg, reg)
    token, aes = settings.callback_token, secret(settings.callback_aes_key)
    if not token or not aes:
        raise ProviderError("wx_not_configured")
    timestamp, nonce, sig = (
        params.get("timestamp", ""),
        params.get("nonce", ""),
        params.get("msg_signature", ""),
    )
    if method == "GET":
        echo = params.get("echostr", "")
        wxmsg.verify(token, timestamp, nonce, echo, sig)
        return wxmsg.decrypt(aes, echo, corp_id)
    outer = wxmsg.parse(body.decode("utf-8", "replace"))
    encrypted = outer.get("Encrypt", "")
    wxmsg.verify(token, timestamp, nonce, encrypted, sig)
    message = wxmsg.parse(wxmsg.decrypt(aes, encrypted, corp_id))
    event, change = message.get("Event", ""), message.get("ChangeType", "")
    if event == "change_contact" and change == "delete_user" and message.get("UserID"):
        with tenant_scope(tenant.tenant_id):
            session().execute(
                delete(SsoIdentity).where(
                    SsoIdentity.provider == cfg.code, SsoIdentity.subject == message["UserID"]
                )
            )
        log.info("wecom member deleted: identity unlinked", tenant=tenant.tenant_id, provider=cfg.code)
    services().emit("wecom_message", tenant_id=tenant.tenant_id, event=event, change=change)
    return "success"
