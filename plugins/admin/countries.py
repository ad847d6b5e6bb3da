"""The country dial-code list (spec reports 3.10): the code with its plus sign and names in five languages."""

from __future__ import annotations

from typing import Any

# (dial code, ISO code, zh-cn, zh-tw, en-us, vi-vn, hu-hu)
_ROWS: list[tuple[str, str, str, str, str, str, str]] = [
    ("+86", "CN", "中国", "中國", "China", "Trung Quốc", "Kína"),
    ("+852", "HK", "中国香港", "中國香港", "Hong Kong, China", "Hồng Kông, Trung Quốc", "Hongkong, Kína"),
    ("+853", "MO", "中国澳门", "中國澳門", "Macao, China", "Ma Cao, Trung Quốc", "Makaó, Kína"),
    ("+886", "TW", "中国台湾", "中國台灣", "Taiwan, China", "Đài Loan, Trung Quốc", "Tajvan, Kína"),
    ("+84", "VN", "越南", "越南", "Vietnam", "Việt Nam", "Vietnám"),
    ("+36", "HU", "匈牙利", "匈牙利", "Hungary", "Hungary", "Magyarország"),
    ("+1", "US", "美国", "美國", "United States", "Hoa Kỳ", "Egyesült Államok"),
    ("+44", "GB", "英国", "英國", "United Kingdom", "Vương quốc Anh", "Egyesült Királyság"),
    ("+49", "DE", "德国", "德國", "Germany", "Đức", "Németország"),
    ("+33", "FR", "法国", "法國", "France", "Pháp", "Franciaország"),
    ("+39", "IT", "意大利", "義大利", "Italy", "Ý", "Olaszország"),
    ("+34", "ES", "西班牙", "西班牙", "Spain", "Tây Ban Nha", "Spanyolország"),
    ("+48", "PL", "波兰", "波蘭", "Poland", "Ba Lan", "Lengyelország"),
    ("+420", "CZ", "捷克", "捷克", "Czechia", "Séc", "Csehország"),
    ("+43", "AT", "奥地利", "奧地利", "Austria", "Áo", "Ausztria"),
    ("+40", "RO", "罗马尼亚", "羅馬尼亞", "Romania", "Romania", "Románia"),
    ("+7", "RU", "俄罗斯", "俄羅斯", "Russia", "Nga", "Oroszország"),
    ("+81", "JP", "日本", "日本", "Japan", "Nhật Bản", "Japán"),
    ("+82", "KR", "韩国", "韓國", "South Korea", "Hàn Quốc", "Dél-Korea"),
    ("+65", "SG", "新加坡", "新加坡", "Singapore", "Singapore", "Szingapúr"),
    ("+60", "MY", "马来西亚", "馬來西亞", "Malaysia", "Malaysia", "Malajzia"),
    ("+66", "TH", "泰国", "泰國", "Thailand", "Thái Lan", "Thaiföld"),
    ("+62", "ID", "印度尼西亚", "印尼", "Indonesia", "Indonesia", "Indonézia"),
    ("+63", "PH", "菲律宾", "菲律賓", "Philippines", "Philippines", "Fülöp-szigetek"),
    ("+91", "IN", "印度", "印度", "India", "Ấn Độ", "India"),
    ("+61", "AU", "澳大利亚", "澳洲", "Australia", "Úc", "Ausztrália"),
    ("+55", "BR", "巴西", "巴西", "Brazil", "Brazil", "Brazília"),
    ("+52", "MX", "墨西哥", "墨西哥", "Mexico", "Mexico", "Mexikó"),
    (
        "+971",
        "AE",
        "阿联酋",
        "阿聯酋",
        "United Arab Emirates",
        "Các Tiểu vương quốc Ả Rập Thống nhất",
        "Egyesült Arab Emírségek",
    ),
    ("+27", "ZA", "南非", "南非", "South Africa", "Nam Phi", "Dél-afrikai Köztársaság"),
]

LOCALES = ("zh-cn", "zh-tw", "en-us", "vi-vn", "hu-hu")


def countries() -> list[dict[str, Any]]:
    """Every entry: ``code`` (with the plus sign), ``value`` (the country code) and ``names`` per locale."""
    return [
        {"code": code, "value": iso, "names": dict(zip(LOCALES, names, strict=True))}
        for code, iso, *names in _ROWS
    ]


DIAL_CODES = frozenset(row[0] for row in _ROWS)
