"""Self-registration and forgotten passwords: `/base-user/register` and `/base-user/reset-pwd`, with
their code calls. Passwords arrive sealed like the sign-in password (one nonce each)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from atrium.kernel.api.deps import kernel
from atrium.kernel.identity import register as signup
from atrium.kernel.identity.dialcodes import dial_codes, foreign_number_message
from atrium.kernel.identity.models import SigninConfig
from atrium.kernel.identity.service import PHONE
from atrium.sdk.errors import BadRequest
from atrium.sdk.routing import Router

router = Router("/api/base")


class PhoneQuery(BaseModel):
    phone: str = Field(default="", max_length=32)


class EmailQuery(BaseModel):
    email: str = Field(default="", max_length=128)


def _password(ciphertext: str) -> str:
    return kernel().crypto.decrypt_password(ciphertext).strip() if ciphertext.strip() else ""


@router.get("/base-user/dial-codes", public=True)
def get_dial_codes() -> list[dict[str, Any]]:
    """Country dial codes with their names in the five languages; `sms` tells where codes can be sent."""
    return list(dial_codes())


def _sms_contact(phone: str) -> tuple[str, str]:
    """A number codes can be sent to (mainland China); others are refused saying why."""
    if phone.strip() and not PHONE.match(phone.strip()):
        raise BadRequest(foreign_number_message(phone) or "login.phone_region")
    return signup.contact("phone", phone, "")


@router.get("/base-user/register/pre-captcha", public=True, query=PhoneQuery)
def register_sms_code(query: PhoneQuery) -> None:
    """Send a registration code by SMS (mainland numbers)."""
    channel, target = _sms_contact(query.phone)
    signup.send_register_code(kernel(), channel, target)


@router.get("/base-user/register/pre-email-captcha", public=True, query=EmailQuery)
def register_email_code(query: EmailQuery) -> None:
    """Send a registration code by e-mail."""
    channel, target = signup.contact("email", "", query.email)
    signup.send_register_code(kernel(), channel, target)


class RegisterIn(BaseModel):
    domainName: str = Field(default="", max_length=128)
    tenantId: int | None = None
    registerType: Literal["phone", "email"] = "phone"
    account: str = Field(default="", max_length=64)
    userFullName: str = Field(default="", max_length=64)
    phone: str = Field(default="", max_length=32)
    email: str = Field(default="", max_length=128)
    code: str = Field(default="", max_length=16)
    password: str = Field(default="", max_length=2048)
    confirmPassword: str = Field(default="", max_length=2048)
    agree: bool = False


@router.post("/base-user/register", public=True, body=RegisterIn)
def register(body: RegisterIn) -> dict[str, Any]:
    """Create an account in the tenant of the sign-in page (when its sign-in options allow it)."""
    channel, target = signup.contact(body.registerType, body.phone, body.email)
    form = signup.Registration(
        account=body.account,
        full_name=body.userFullName,
        channel=channel,
        target=target,
        code=body.code,
        password=_password(body.password),
        confirm=_password(body.confirmPassword),
        agree=body.agree,
    )
    return signup.register(kernel(), signup.tenant_for(body.tenantId, body.domainName), form)


@router.get("/base-user/reset-pwd/pre-captcha", public=True, query=PhoneQuery)
def reset_sms_code(query: PhoneQuery) -> None:
    """Send a password-reset code by SMS; the answer is the same whether or not the number is known."""
    channel, target = _sms_contact(query.phone)
    signup.send_reset_code(kernel(), channel, target)


@router.get("/base-user/reset-pwd/pre-email-captcha", public=True, query=EmailQuery)
def reset_email_code(query: EmailQuery) -> None:
    """Send a password-reset code by e-mail; the answer is the same whether or not the address is known."""
    channel, target = signup.contact("email", "", query.email)
    signup.send_reset_code(kernel(), channel, target)


class ResetIn(BaseModel):
    resetType: Literal["phone", "email"] = "phone"
    phone: str = Field(default="", max_length=32)
    email: str = Field(default="", max_length=128)
    account: str = Field(default="", max_length=64)
    code: str = Field(default="", max_length=16)
    password: str = Field(default="", max_length=2048)
    confirmPassword: str = Field(default="", max_length=2048)
    tenantId: int | None = None
    domainName: str = Field(default="", max_length=128)


@router.post("/base-user/reset-pwd", public=True, body=ResetIn)
def reset_pwd(body: ResetIn) -> None:
    """Set a new password with a code; every session of the account ends."""
    channel, target = signup.contact(body.resetType, body.phone, body.email)
    signup.reset_password(
        kernel(),
        channel,
        target,
        body.code,
        _password(body.password),
        _password(body.confirmPassword),
        body.account,
        signup.tenant_for(body.tenantId, body.domainName),
    )


CONFIG_FIELDS = {
    "allowRegister": "allow_register",
    "registerApproval": "register_approval",
    "qrcodeEnabled": "qrcode_enabled",
    "passwordEnabled": "password_enabled",
    "phoneCodeEnabled": "phone_code_enabled",
    "emailCodeEnabled": "email_code_enabled",
}


def config_answer(row: SigninConfig) -> dict[str, bool]:
    return {name: bool(getattr(row, column)) for name, column in CONFIG_FIELDS.items()}
