"""A tenant's password rule, the one every place that sets a password checks and every screen shows.

The tenant's password strategy says how long a password is and whether it may hold symbols besides letters
and digits (printable ASCII, no spaces). Without a stored strategy the spec's rule applies: 6 to 12 letters
or digits. Registration, reset, change, and the administrators' new-user and reset forms all check it here,
and `answer()` hands the screens the same rule with its pattern and its words."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from atrium.kernel.models import PasswordStrategy
from atrium.sdk.context import tenant_scope
from atrium.sdk.db import session
from atrium.sdk.errors import BadRequest

DEFAULT_MIN, DEFAULT_MAX = 6, 12


@dataclass(frozen=True)
class PasswordRule:
    min_length: int = DEFAULT_MIN
    max_length: int = DEFAULT_MAX
    allow_symbols: bool = False

    @property
    def pattern(self) -> str:
        chars = r"\x21-\x7e" if self.allow_symbols else "A-Za-z0-9"
        return f"^[{chars}]{{{self.min_length},{self.max_length}}}$"

    @property
    def message_key(self) -> str:
        return "password.rule_symbols" if self.allow_symbols else "password.rule"

    def check(self, password: str) -> None:
        """Refuses, in the request's language, a password the rule does not allow."""
        if not re.fullmatch(self.pattern, password):
            raise BadRequest(self.message_key, min=self.min_length, max=self.max_length)

    @property
    def tips_key(self) -> str:
        return "password.tips_symbols" if self.allow_symbols else "password.tips"

    def tips(self, translate: Callable[..., str]) -> str:
        return translate(self.tips_key, min=self.min_length, max=self.max_length)

    def answer(self, translate: Callable[..., str]) -> dict[str, Any]:
        """The rule as the screens show and check it: lengths, symbols, pattern and its words."""
        return {
            "minLength": self.min_length,
            "maxLength": self.max_length,
            "allowSymbols": self.allow_symbols,
            "pattern": self.pattern,
            "pwdTips": self.tips(translate),
        }


def rule_of(tenant_id: int | None) -> PasswordRule:
    """The tenant's rule; the spec's default for no tenant or a tenant that stored no strategy."""
    if tenant_id is None:
        return PasswordRule()
    with tenant_scope(tenant_id):
        return rule_from(session().execute(select(PasswordStrategy)).scalar())


def rule_from(row: PasswordStrategy | None) -> PasswordRule:
    """The rule a stored strategy makes (the spec's default without one), for callers that hold the row."""
    if row is None:
        return PasswordRule()
    return PasswordRule(row.min_length, row.max_length, bool(row.allow_symbols))
