"""What a stamped preview may cost the server: input size, pages, pixels, conversion time and concurrency.

Tests and operators change them on the module's `LIMITS` (``limits.LIMITS = replace(LIMITS, ...)``).
"""

from __future__ import annotations

from dataclasses import dataclass

MB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    #: the largest file a preview reads (its stored size, and the bytes actually read)
    max_input_bytes: int = 20 * MB
    #: pages of a PDF (or of an office file once converted); more is refused
    max_pages: int = 50
    #: width times height of an image, checked before its pixels are decoded
    max_pixels: int = 40_000_000
    #: seconds LibreOffice may take for one document
    convert_timeout: float = 60.0
    #: LibreOffice processes one server process runs at once
    conversions: int = 1
    #: seconds a preview waits for a conversion slot before it is refused as busy
    queue_wait: float = 20.0


LIMITS = Limits()


def current() -> Limits:
    return LIMITS
