"""Access to the running kernel from the kernel's own handlers."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from atrium.sdk.services import services

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel


def kernel() -> Kernel:
    return cast("Kernel", services())
