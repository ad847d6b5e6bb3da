"""The SDK's `Administration` as the kernel provides it: one object per concept."""

from __future__ import annotations

from typing import TYPE_CHECKING

from atrium.kernel.administration.menus import KernelMenus
from atrium.kernel.administration.roles import KernelRoles
from atrium.kernel.administration.settings import KernelSettings
from atrium.kernel.administration.signin import KernelSignin
from atrium.kernel.administration.systems import KernelSystems
from atrium.kernel.administration.tenants import KernelTenants
from atrium.kernel.administration.users import KernelUsers
from atrium.sdk import accounts

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel


class KernelAdministration:
    """`services().administration`: the admin plugin's HTTP API calls it; so may the kernel itself."""

    def __init__(self, kernel: Kernel) -> None:
        self.tenants: accounts.Tenants = KernelTenants(kernel)
        self.users: accounts.Users = KernelUsers(kernel)
        self.roles: accounts.Roles = KernelRoles(kernel)
        self.menus: accounts.Menus = KernelMenus(kernel)
        self.systems: accounts.Systems = KernelSystems(kernel)
        self.settings: accounts.Settings = KernelSettings(kernel)
        self.signin: accounts.Signin = KernelSignin(kernel)
