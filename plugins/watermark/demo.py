"""Demo watermark: Acme shows each user's name and staff number."""

from __future__ import annotations

from atrium.plugins.watermark.models import WatermarkSetting
from atrium.sdk.context import tenant_scope
from atrium.sdk.db import session


def load(tenants: dict[str, int]) -> None:
    with tenant_scope(tenants["acme"]):
        session().add(
            WatermarkSetting(
                function_code="",
                system_code="",
                fw_content="{userFullName} {staffNo}",
                fw_type="dynamic",
                fw_font="Microsoft YaHei",
                fw_font_size=18,
                fw_color="#000000",
                fw_rotation_angle=-20,
                fw_transparent=85,
                is_take_effect=1,
                is_view=1,
            )
        )
        session().flush()
