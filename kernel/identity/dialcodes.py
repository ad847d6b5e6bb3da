"""Country dial codes for the phone fields (spec reports.md 3.10) and phone-number checks.

The codes come from Google's phone-number metadata (phonenumbers) and the country names in the five
languages from the ISO 3166 translations pycountry ships, so nothing is typed by hand."""

from __future__ import annotations

import gettext
from functools import cache
from typing import Any

import phonenumbers
import pycountry

SMS_REGIONS = frozenset({"CN"})  # where the platform's SMS sender delivers codes
LOCALE_LANGS = {"zh-cn": "zh_CN", "zh-tw": "zh_TW", "vi-vn": "vi", "hu-hu": "hu"}


@cache
def _translations(lang: str) -> gettext.NullTranslations:
    return gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=[lang], fallback=True)


@cache
def dial_codes() -> tuple[dict[str, Any], ...]:
    """Every region with a dial code: `{code: "+86", value: "CN", names: {locale: name}, sms: bool}`,
    mainland China first, then by English name."""
    entries: list[dict[str, Any]] = []
    for region in phonenumbers.SUPPORTED_REGIONS:
        country = pycountry.countries.get(alpha_2=region)
        if country is None:
            continue
        official = str(country.name)
        names = {"en-us": str(getattr(country, "common_name", official))}
        for locale, lang in LOCALE_LANGS.items():
            names[locale] = _translations(lang).gettext(official)
        code = phonenumbers.country_code_for_region(region)
        entries.append({"code": f"+{code}", "value": region, "names": names, "sms": region in SMS_REGIONS})
    entries.sort(key=lambda e: (e["value"] != "CN", e["names"]["en-us"]))
    return tuple(entries)


def foreign_number_message(phone: str) -> str | None:
    """For a number written with a `+` country code outside the SMS regions: the message key to answer
    (a valid number: codes for other regions are not supported; otherwise: not a correct number)."""
    phone = phone.strip()
    if not phone.startswith("+"):
        return None
    try:
        parsed = phonenumbers.parse(phone, None)
    except phonenumbers.NumberParseException:
        return "login.phone_invalid"
    if not phonenumbers.is_valid_number(parsed):
        return "login.phone_invalid"
    region = phonenumbers.region_code_for_number(parsed)
    return None if region in SMS_REGIONS else "login.phone_region"
