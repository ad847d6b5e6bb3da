"""Local DingTalk and WeCom servers answering the documented token and user calls, and their QR and
in-app authorization pages (a "scan" link stands for the person confirming on the phone)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route


@dataclass
class Member:
    userid: str
    name: str
    mobile: str = ""
    email: str = ""
    unionid: str = ""


@dataclass
class FakeDingTalk:
    prefix: str = "/dingtalk"
    corp_id: str = "dingcorp001"
    app_key: str = "dingappkey"
    app_secret: str = "dingappsecret"
    sso_secret: str = "dingssosecret"
    members: dict[str, Member] = field(default_factory=dict)
    codes: dict[str, str] = field(default_factory=dict)  # auth code -> userid (single use)
    tokens: set[str] = field(default_factory=set)
    token_calls: int = 0
    behaviour: str = "ok"

    def reset(self) -> None:
        self.behaviour = "ok"
        self.members = {
            "dt-007": Member("dt-007", "Dora Ding", "13800000077", "dora@acme.example", "union-007")
        }

    def code_for(self, userid: str) -> str:
        code = secrets.token_hex(8)
        self.codes[code] = userid
        return code

    def _token_ok(self, request: Request) -> bool:
        return request.query_params.get("access_token", "") in self.tokens

    async def gettoken(self, request: Request) -> Response:
        self.token_calls += 1
        q = request.query_params
        if q.get("appkey") != self.app_key or q.get("appsecret") != self.app_secret:
            return JSONResponse({"errcode": 40089, "errmsg": "invalid appkey or appsecret"})
        token = secrets.token_hex(12)
        self.tokens.add(token)
        return JSONResponse({"errcode": 0, "errmsg": "ok", "access_token": token, "expires_in": 7200})

    async def getuserinfo(self, request: Request) -> Response:
        if self.behaviour == "garbage":
            return HTMLResponse("<html>upstream error</html>")
        if not self._token_ok(request):
            return JSONResponse({"errcode": 40014, "errmsg": "invalid access_token"})
        body = await request.json()
        userid = self.codes.pop(str(body.get("code", "")), None)
        if userid is None:
            return JSONResponse({"errcode": 40078, "errmsg": "code does not exist"})
        m = self.members[userid]
        return JSONResponse(
            {
                "errcode": 0,
                "errmsg": "ok",
                "result": {"userid": m.userid, "name": m.name, "unionid": m.unionid},
            }
        )

    async def user_get(self, request: Request) -> Response:
        if not self._token_ok(request):
            return JSONResponse({"errcode": 40014, "errmsg": "invalid access_token"})
        body = await request.json()
        m = self.members.get(str(body.get("userid")))
        if m is None:
            return JSONResponse({"errcode": 60121, "errmsg": "no such user"})
        return JSONResponse(
            {
                "errcode": 0,
                "result": {
                    "userid": m.userid,
                    "name": m.name,
                    "mobile": m.mobile,
                    "email": m.email,
                    "unionid": m.unionid,
                },
            }
        )

    async def sns_bycode(self, request: Request) -> Response:
        q = request.query_params
        expected = base64.b64encode(
            hmac.new(self.app_secret.encode(), q.get("timestamp", "").encode(), hashlib.sha256).digest()
        ).decode()
        if q.get("accessKey") != self.app_key or q.get("signature") != expected:
            return JSONResponse({"errcode": 853002, "errmsg": "signature mismatch"})
        if abs(int(q.get("timestamp", "0")) - time.time() * 1000) > 60_000:
            return JSONResponse({"errcode": 853003, "errmsg": "timestamp expired"})
        body = await request.json()
        userid = self.codes.pop(str(body.get("tmp_auth_code", "")), None)
        if userid is None:
            return JSONResponse({"errcode": 40078, "errmsg": "tmp_auth_code invalid"})
        m = self.members[userid]
        return JSONResponse(
            {"errcode": 0, "user_info": {"nick": m.name, "unionid": m.unionid, "openid": "open-" + m.userid}}
        )

    async def getbyunionid(self, request: Request) -> Response:
        if not self._token_ok(request):
            return JSONResponse({"errcode": 40014, "errmsg": "invalid access_token"})
        body = await request.json()
        for m in self.members.values():
            if m.unionid == body.get("unionid"):
                return JSONResponse({"errcode": 0, "result": {"contact_type": 0, "userid": m.userid}})
        return JSONResponse({"errcode": 60121, "errmsg": "not found"})

    async def sso_gettoken(self, request: Request) -> Response:
        q = request.query_params
        if q.get("corpid") != self.corp_id or q.get("corpsecret") != self.sso_secret:
            return JSONResponse({"errcode": 40091, "errmsg": "invalid corpsecret"})
        token = secrets.token_hex(12)
        self.tokens.add(token)
        return JSONResponse({"errcode": 0, "access_token": token, "expires_in": 7200})

    async def sso_getuserinfo(self, request: Request) -> Response:
        if not self._token_ok(request):
            return JSONResponse({"errcode": 40014, "errmsg": "invalid access_token"})
        userid = self.codes.pop(request.query_params.get("code", ""), None)
        if userid is None:
            return JSONResponse({"errcode": 40078, "errmsg": "code invalid"})
        m = self.members[userid]
        return JSONResponse(
            {
                "errcode": 0,
                "is_sys": True,
                "user_info": {"userid": m.userid, "name": m.name, "email": m.email},
            }
        )

    async def qrconnect(self, request: Request) -> Response:
        """The QR page; following its link stands for scanning and confirming with the first member."""
        q = request.query_params
        if q.get("appid") != self.app_key:
            return HTMLResponse("<p>unknown app</p>", status_code=400)
        code = self.code_for(next(iter(self.members)))
        sep = "&" if "?" in q["redirect_uri"] else "?"
        target = f"{q['redirect_uri']}{sep}{urlencode({'code': code, 'state': q.get('state', '')})}"
        if request.query_params.get("auto") == "1":
            return RedirectResponse(target, status_code=302)
        return HTMLResponse(
            f'<html><body><p>Scan with DingTalk</p><a id="scan" href="{target}" target="_top">'
            "Confirm sign-in on the phone</a></body></html>"
        )

    def routes(self) -> list[Route]:
        p = self.prefix
        return [
            Route(f"{p}/gettoken", self.gettoken),
            Route(f"{p}/topapi/v2/user/getuserinfo", self.getuserinfo, methods=["POST"]),
            Route(f"{p}/topapi/v2/user/get", self.user_get, methods=["POST"]),
            Route(f"{p}/sns/getuserinfo_bycode", self.sns_bycode, methods=["POST"]),
            Route(f"{p}/topapi/user/getbyunionid", self.getbyunionid, methods=["POST"]),
            Route(f"{p}/sso/gettoken", self.sso_gettoken),
            Route(f"{p}/sso/getuserinfo", self.sso_getuserinfo),
            Route(f"{p}/connect/qrconnect", self.qrconnect),
        ]


@dataclass
class FakeWeCom:
    prefix: str = "/wecom"
    corp_id: str = "wwcorp001"
    agent_id: str = "1000002"
    secret: str = "wecomsecret"
    members: dict[str, Member] = field(default_factory=dict)
    codes: dict[str, str] = field(default_factory=dict)
    tokens: set[str] = field(default_factory=set)
    token_calls: int = 0
    outsider: bool = False

    def reset(self) -> None:
        self.outsider = False
        self.members = {"wx-042": Member("wx-042", "Wen Wei", "13800000042", "wen@acme.example")}

    def code_for(self, userid: str) -> str:
        code = secrets.token_hex(8)
        self.codes[code] = userid
        return code

    async def gettoken(self, request: Request) -> Response:
        self.token_calls += 1
        q = request.query_params
        if q.get("corpid") != self.corp_id or q.get("corpsecret") != self.secret:
            return JSONResponse({"errcode": 40001, "errmsg": "invalid credential"})
        token = secrets.token_hex(12)
        self.tokens.add(token)
        return JSONResponse({"errcode": 0, "errmsg": "ok", "access_token": token, "expires_in": 7200})

    async def auth_getuserinfo(self, request: Request) -> Response:
        q = request.query_params
        if q.get("access_token") not in self.tokens:
            return JSONResponse({"errcode": 42001, "errmsg": "access_token expired"})
        userid = self.codes.pop(q.get("code", ""), None)
        if userid is None:
            return JSONResponse({"errcode": 40029, "errmsg": "invalid code"})
        if self.outsider:
            return JSONResponse({"errcode": 0, "errmsg": "ok", "openid": "o-outsider", "external_userid": ""})
        return JSONResponse({"errcode": 0, "errmsg": "ok", "userid": userid, "user_ticket": "t"})

    async def user_get(self, request: Request) -> Response:
        q = request.query_params
        if q.get("access_token") not in self.tokens:
            return JSONResponse({"errcode": 42001, "errmsg": "access_token expired"})
        m = self.members.get(q.get("userid", ""))
        if m is None:
            return JSONResponse({"errcode": 60111, "errmsg": "userid not found"})
        return JSONResponse(
            {
                "errcode": 0,
                "errmsg": "ok",
                "userid": m.userid,
                "name": m.name,
                "mobile": m.mobile,
                "email": m.email,
            }
        )

    def _redirect(self, q: Any) -> str:
        code = self.code_for(next(iter(self.members)))
        sep = "&" if "?" in q["redirect_uri"] else "?"
        return f"{q['redirect_uri']}{sep}{urlencode({'code': code, 'state': q.get('state', '')})}"

    async def oauth_authorize(self, request: Request) -> Response:
        q = request.query_params
        if q.get("appid") != self.corp_id or q.get("response_type") != "code":
            return HTMLResponse("<p>bad request</p>", status_code=400)
        return RedirectResponse(self._redirect(q), status_code=302)

    async def qr_login(self, request: Request) -> Response:
        q = request.query_params
        if q.get("appid") != self.corp_id or q.get("agentid") != self.agent_id:
            return HTMLResponse("<p>bad request</p>", status_code=400)
        target = self._redirect(q)
        if q.get("auto") == "1":
            return RedirectResponse(target, status_code=302)
        return HTMLResponse(
            f'<html><body><p>Scan with WeCom</p><a id="scan" href="{target}" target="_top">'
            "Confirm sign-in on the phone</a></body></html>"
        )

    def routes(self) -> list[Route]:
        p = self.prefix
        return [
            Route(f"{p}/cgi-bin/gettoken", self.gettoken),
            Route(f"{p}/cgi-bin/auth/getuserinfo", self.auth_getuserinfo),
            Route(f"{p}/cgi-bin/user/get", self.user_get),
            Route(f"{p}/connect/oauth2/authorize", self.oauth_authorize),
            Route(f"{p}/wwlogin/sso/login", self.qr_login),
        ]
