"""Upload policies: which files a function code accepts, how big, and the messages a user sees."""

from __future__ import annotations

from dataclasses import dataclass

from atrium.sdk.errors import BadRequest

from .settings import MB, files_settings


def human_size(n: int) -> str:
    """1048576 -> '1MB', 512000 -> '500KB' (units B, KB, MB as the upload widgets show them)."""
    if n >= MB and n % MB == 0:
        return f"{n // MB}MB"
    if n >= MB:
        return f"{n / MB:.1f}MB"
    if n >= 1024:
        return f"{n // 1024}KB"
    return f"{n}B"


@dataclass(frozen=True)
class UploadPolicy:
    name: str
    max_bytes: int
    #: raster formats accepted (checked by content); empty means any file
    image_formats: frozenset[str] = frozenset()
    allow_svg: bool = False
    too_big_key: str = "files:upload.too_big"
    type_key: str = "files:upload.bad_type"

    @property
    def is_image(self) -> bool:
        return bool(self.image_formats)

    def too_big(self) -> BadRequest:
        return BadRequest(self.too_big_key, limit=human_size(self.max_bytes))

    def bad_type(self) -> BadRequest:
        return BadRequest(self.type_key)


def image_policy() -> UploadPolicy:
    s = files_settings()
    return UploadPolicy(
        "image",
        s.image_max_bytes,
        frozenset({"jpeg", "png"}),
        too_big_key="files:image.too_big",
        type_key="files:image.bad_type",
    )


def icon_policy() -> UploadPolicy:
    s = files_settings()
    return UploadPolicy(
        "icon",
        s.icon_max_bytes,
        frozenset({"jpeg", "png", "gif", "webp"}),
        allow_svg=True,
        too_big_key="files:icon.too_big",
        type_key="files:icon.bad_type",
    )


def file_policy() -> UploadPolicy:
    return UploadPolicy("file", files_settings().max_file_bytes)


_FUNC_POLICIES: dict[str, str] = {"image": "image", "picture": "image", "icon": "icon", "custom-icon": "icon"}
_BUILDERS = {"image": image_policy, "icon": icon_policy, "file": file_policy}


def register_func_code(func_code: str, policy: str) -> None:
    """Make uploads with ``funcCode=func_code`` follow a policy ('image', 'icon' or 'file')."""
    if policy not in _BUILDERS:
        raise ValueError(f"unknown upload policy {policy!r}")
    _FUNC_POLICIES[func_code] = policy


def policy_for(func_code: str) -> UploadPolicy:
    return _BUILDERS[_FUNC_POLICIES.get(func_code, "file")]()
