"""The two workplace chat platforms: DingTalk and WeCom, signed in inside their apps and by QR code.

Both exchange a one-time code for the corporate user id through the platform's server API; the app's
access token (a sign-in helper token) is kept for 300 seconds in the shared cache.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from pydantic import Field, SecretStr, field_validator

from atrium.plugins.sso.providers.base import (
    BaseProvider,
    FlowState,
    LoginStart,
    ProviderError,
    ProviderIdentity,
    ProviderSettings,
    StartRequest,
    call_json,
    log,
    secret,
)
from atrium.plugins.sso.providers.oauth2 import check_url
from atrium.sdk.services import services

HELPER_TOKEN_TTL = 300
STALE_TOKEN_CODES = {40001, 40014, 42001, 88}


def helper_token(key: str, fetch: Callable[[], tuple[str, int]]) -> str:
    """An app access token from the cache (300 s at most), fetched when missing."""
    cache = services().cache
    token = cache.get(key)
    if token:
        return str(token)
    value, expires_in = fetch()
    cache.set(
        key, value, ttl=max(1, min(HELPER_TOKEN_TTL, expires_in - 60 if expires_in > 120 else expires_in))
    )
    return value


def checked(data: dict[str, Any]) -> dict[str, Any]:
    """The platforms answer HTTP 200 with `errcode`; anything but 0 is a refusal."""
    code = data.get("errcode", 0)
    if code not in (0, "0", None):
        raise ProviderError(
            "provider_refused", detail=f"{code} {str(data.get('errmsg') or '')[:100]}".strip()
        )
    return data


def text(value: Any) -> str:
    return value if isinstance(value, str) else ""


# -------------------------------------------------------------------------
# DingTalk
# -------------------------------------------------------------------------


def app_token(key: str, url: str, timeout: float, params: dict[str, str], fresh: bool = False) -> str:
    """A work-chat platform's app access token, cached for the helper-token lifetime (DingTalk and WeCom
    answer the same shape: access_token and expires_in)."""
    if fresh:
        services().cache.delete(key)

    def fetch() -> tuple[str, int]:
        data = checked(call_json("GET", url, timeout, params=params))
        if not text(data.get("access_token")):
            raise ProviderError("provider_bad_answer")
        return data["access_token"], int(data.get("expires_in") or 7200)

    return helper_token(key, fetch)


class DingTalkSettings(ProviderSettings):
    corp_id: str = Field(min_length=1, max_length=128)
    app_key: str = Field(min_length=1, max_length=128)
    app_secret: SecretStr
    agent_id: str = Field(default="", max_length=64)
    sso_secret: SecretStr = SecretStr("")
    api_base: str = Field(default="https://oapi.dingtalk.com", max_length=256)
    jsapi_url: str = Field(
        default="https://g.alicdn.com/dingding/dingtalk-jsapi/3.0.25/dingtalk.open.js", max_length=512
    )

    _urls = field_validator("api_base", "jsapi_url")(check_url)


class DingTalkProvider(BaseProvider):
    kind = "dingtalk"
    label = "DingTalk"
    settings_model = DingTalkSettings
    modes = ("inapp", "qr")
    sso_type = "dingtalk"

    def _base(self, s: DingTalkSettings) -> str:
        return s.api_base.rstrip("/")

    def _token(self, s: DingTalkSettings, fresh: bool = False) -> str:
        return app_token(
            f"sso:helper:dingtalk:{s.app_key}",
            f"{self._base(s)}/gettoken",
            s.timeout_seconds,
            {"appkey": s.app_key, "appsecret": secret(s.app_secret)},
            fresh,
        )

    def _api(self, s: DingTalkSettings, path: str, body: dict[str, Any]) -> dict[str, Any]:
        for fresh in (False, True):
            data = call_json(
                "POST",
                f"{self._base(s)}{path}",
                s.timeout_seconds,
                params={"access_token": self._token(s, fresh)},
                json=body,
            )
            if data.get("errcode") in STALE_TOKEN_CODES and not fresh:
                continue
            return checked(data)
        raise ProviderError("provider_refused", detail="token")

    def _person(self, s: DingTalkSettings, userid: str, extra: dict[str, Any]) -> ProviderIdentity:
        result = self._api(s, "/topapi/v2/user/get", {"userid": userid, "language": "zh_CN"}).get("result")
        info = result if isinstance(result, dict) else {}
        return ProviderIdentity(
            subject=userid,
            name=text(info.get("name")) or text(extra.get("name")),
            email=text(info.get("email")),
            mobile=text(info.get("mobile")),
            claims={**extra, **info},
        )

    def start(self, settings: DingTalkSettings, request: StartRequest) -> LoginStart:
        if request.mode != "qr":
            raise ProviderError("mode_unsupported")
        query = {
            "appid": settings.app_key,
            "response_type": "code",
            "scope": "snsapi_login",
            "state": request.state,
            "redirect_uri": request.redirect_uri,
        }
        return LoginStart(f"{self._base(settings)}/connect/qrconnect?{urlencode(query)}")

    def callback(
        self, settings: DingTalkSettings, params: dict[str, str], flow: FlowState
    ) -> ProviderIdentity:
        """QR sign-in: the scan's temporary code, signed with the app secret, names the person's unionid."""
        code = params.get("code", "")
        if not code:
            raise ProviderError("code_missing")
        timestamp = str(int(time.time() * 1000))
        digest = hmac.new(secret(settings.app_secret).encode(), timestamp.encode(), hashlib.sha256).digest()
        data = checked(
            call_json(
                "POST",
                f"{self._base(settings)}/sns/getuserinfo_bycode",
                settings.timeout_seconds,
                params={
                    "accessKey": settings.app_key,
                    "timestamp": timestamp,
                    "signature": base64.b64encode(digest).decode(),
                },
                json={"tmp_auth_code": code},
            )
        )
        info = data.get("user_info")
        unionid = text(info.get("unionid")) if isinstance(info, dict) else ""
        if not unionid:
            raise ProviderError("provider_bad_answer")
        result = self._api(settings, "/topapi/user/getbyunionid", {"unionid": unionid}).get("result")
        userid = text(result.get("userid")) if isinstance(result, dict) else ""
        if not userid:
            raise ProviderError("not_member")
        nick = text(info.get("nick")) if isinstance(info, dict) else ""
        return self._person(settings, userid, {"unionid": unionid, "name": nick})

    def inapp(self, settings: DingTalkSettings, code: str) -> ProviderIdentity:
        """In-app sign-in: the code from the app's requestAuthCode names the corporate user id."""
        result = self._api(settings, "/topapi/v2/user/getuserinfo", {"code": code}).get("result")
        userid = text(result.get("userid")) if isinstance(result, dict) else ""
        if not userid:
            raise ProviderError("not_member")
        return self._person(settings, userid, result if isinstance(result, dict) else {})

    def console(self, settings: DingTalkSettings, code: str) -> ProviderIdentity:
        """Sign-in from the platform's management console (its own SSO secret)."""
        if not secret(settings.sso_secret):
            raise ProviderError("mode_unsupported")
        base = self._base(settings)
        token = helper_token(f"sso:helper:dingtalk-sso:{settings.corp_id}", lambda: self._sso_token(settings))
        data = checked(
            call_json(
                "GET",
                f"{base}/sso/getuserinfo",
                settings.timeout_seconds,
                params={"access_token": token, "code": code},
            )
        )
        info = data.get("user_info")
        userid = text(info.get("userid")) if isinstance(info, dict) else ""
        if not userid:
            raise ProviderError("not_member")
        assert isinstance(info, dict)
        return ProviderIdentity(
            subject=userid, name=text(info.get("name")), email=text(info.get("email")), claims=info
        )

    def _sso_token(self, s: DingTalkSettings) -> tuple[str, int]:
        data = checked(
            call_json(
                "GET",
                f"{self._base(s)}/sso/gettoken",
                s.timeout_seconds,
                params={"corpid": s.corp_id, "corpsecret": secret(s.sso_secret)},
            )
        )
        if not text(data.get("access_token")):
            raise ProviderError("provider_bad_answer")
        return data["access_token"], int(data.get("expires_in") or 7200)

    def public_info(self, settings: DingTalkSettings) -> dict[str, Any]:
        return {
            "corpId": settings.corp_id,
            "appKey": settings.app_key,
            "clientId": settings.app_key,
            "agentId": settings.agent_id,
            "jsapiUrl": settings.jsapi_url,
        }


# -------------------------------------------------------------------------
# WeCom
# -------------------------------------------------------------------------


class WeComSettings(ProviderSettings):
    corp_id: str = Field(min_length=1, max_length=128)
    agent_id: str = Field(min_length=1, max_length=64)
    secret: SecretStr
    api_base: str = Field(default="https://qyapi.weixin.qq.com", max_length=256)
    oauth_base: str = Field(default="https://open.weixin.qq.com", max_length=256)
    qr_base: str = Field(default="https://login.work.weixin.qq.com", max_length=256)
    callback_token: str = Field(default="", max_length=64)
    callback_aes_key: SecretStr = SecretStr("")

    _urls = field_validator("api_base", "oauth_base", "qr_base")(check_url)

    @field_validator("callback_aes_key")
    @classmethod
    def _aes(cls, v: SecretStr) -> SecretStr:
        if v.get_secret_value() and len(v.get_secret_value()) != 43:
            raise ValueError("the EncodingAESKey has 43 characters")
        return v


class WeComProvider(BaseProvider):
    kind = "wecom"
    label = "WeCom"
    settings_model = WeComSettings
    modes = ("inapp", "qr")
    sso_type = "wecom"

    def _token(self, s: WeComSettings, fresh: bool = False) -> str:
        return app_token(
            f"sso:helper:wecom:{s.corp_id}:{s.agent_id}",
            f"{s.api_base.rstrip('/')}/cgi-bin/gettoken",
            s.timeout_seconds,
            {"corpid": s.corp_id, "corpsecret": secret(s.secret)},
            fresh,
        )

    def _get(self, s: WeComSettings, path: str, **params: str) -> dict[str, Any]:
        for fresh in (False, True):
            data = call_json(
                "GET",
                f"{s.api_base.rstrip('/')}{path}",
                s.timeout_seconds,
                params={"access_token": self._token(s, fresh), **params},
            )
            if data.get("errcode") in STALE_TOKEN_CODES and not fresh:
                continue
            return checked(data)
        raise ProviderError("provider_refused", detail="token")

    def start(self, settings: WeComSettings, request: StartRequest) -> LoginStart:
        if request.mode == "qr":
            query = {
                "login_type": "CorpApp",
                "appid": settings.corp_id,
                "agentid": settings.agent_id,
                "redirect_uri": request.redirect_uri,
                "state": request.state,
            }
            return LoginStart(f"{settings.qr_base.rstrip('/')}/wwlogin/sso/login?{urlencode(query)}")
        query = {
            "appid": settings.corp_id,
            "redirect_uri": request.redirect_uri,
            "response_type": "code",
            "scope": "snsapi_base",
            "state": request.state,
            "agentid": settings.agent_id,
        }
        return LoginStart(
            f"{settings.oauth_base.rstrip('/')}/connect/oauth2/authorize?{urlencode(query)}#wechat_redirect"
        )

    def callback(self, settings: WeComSettings, params: dict[str, str], flow: FlowState) -> ProviderIdentity:
        code = params.get("code", "")
        if not code:
            raise ProviderError("code_missing")
        data = self._get(settings, "/cgi-bin/auth/getuserinfo", code=code)
        userid = text(data.get("userid")) or text(data.get("UserId"))
        if not userid:
            log.info("wecom sign-in by a non-member", openid=bool(data.get("openid")))
            raise ProviderError("not_member")
        info = self._get(settings, "/cgi-bin/user/get", userid=userid)
        return ProviderIdentity(
            subject=userid,
            name=text(info.get("name")),
            email=text(info.get("email")),
            mobile=text(info.get("mobile")),
            claims=info,
        )

    def public_info(self, settings: WeComSettings) -> dict[str, Any]:
        return {"corpId": settings.corp_id, "agentId": settings.agent_id, "appid": settings.corp_id}
