"""What users met in the administration console (issue "What users meet"), each kept fixed in Chromium:

1. the plugin switches acted at once on an unclear tenant, and one click could switch off `admin` itself:
   now the page names the tenant whose plugins it shows, a switch asks first naming the plugin and the
   tenant (by name), and the console's own plugin shows a locked switch saying why (the server refuses too);
2. the tenant list showed mostly empty columns and cut its actions off: now it shows the tenant's own
   columns and only the profile details some tenant has, with its actions in view, at 1440 and 390 px;
3. giving or taking a role, and granting menus and buttons, saved without a word: now each says so, and a
   refusal shows the server's reason;
4. after the forced password change the message read "sign-in expired", like a failure: now it says the
   password was changed and to sign in again with the new one.

The plugins page and the tenant list are photographed in zh-cn and en-us at 1440 and 390 px wide."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import shot
from playwright.sync_api import expect
from test_admin_console import pick_tenant, search
from test_message_inbox import Api, ensure_remotes_built

pytestmark = pytest.mark.e2e
WAIT = 15_000
A = "/api/base/admin"
START = "Start0pass"
NEW = "Renewed123"

ensure_remotes_built("admin")

MISSING_JS = "() => Array.isArray(window.__atriumMissingKeys) ? window.__atriumMissingKeys.slice() : []"
# whether the middle of the element is the element itself (nothing drawn over it, nothing cut off there)
UNCOVERED_JS = """(el) => {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return false;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && (hit === el || el.contains(hit));
}"""


def new_tenant(admin: Api, company: str, **profile: Any) -> tuple[int, str]:
    tid = 5_000_000 + secrets.randbelow(900_000)
    name = f"Dfx {tid % 100_000}"
    admin.ok(
        "POST",
        "/api/admin/tenants",
        json={
            "tenantId": tid,
            "tenantName": name,
            "companyName": company,
            "effectiveDate": "2026-01-01",
            "expirationDate": "2030-01-01",
            **profile,
        },
    )
    return tid, name


def new_user(admin: Api, tenant_id: int | None, full_name: str, *, must_change: bool = False) -> str:
    account = f"dfx{secrets.token_hex(3)}"
    body: dict[str, Any] = {
        "account": account,
        "password": START,
        "userFullName": full_name,
        "mustChangePassword": must_change,
    }
    if tenant_id is not None:
        body["tenantId"] = tenant_id
    admin.ok("POST", f"{A}/users", json=body)
    return account


def enabled(admin: Api, tenant_id: int, plugin: str) -> bool:
    rows = admin.ok("GET", f"{A}/plugins", params={"tenantId": tenant_id})
    return bool(next(p for p in rows if p["name"] == plugin)["enabled"])


def log_in(page: Any, base: str, account: str, password: str) -> None:
    """The sign-in form in any language (the submit button is the form's)."""
    page.goto(base + "/login")
    page.locator("#account").fill(account)
    page.locator("#password").fill(password)
    page.locator("#agree").check()
    page.locator("form button[type=submit]").first.click()


@pytest.fixture
def console(browser, live_server) -> Iterator[Any]:
    """Opens a page in a language and width, signed in as `account` (the administrator by default)."""
    contexts: list[Any] = []

    def open_page(
        locale: str = "en-us",
        width: int = 1440,
        account: str = "admin",
        password: str = "Admin@123",
        *,
        home: bool = True,
    ) -> Any:
        ctx = browser.new_context(viewport={"width": width, "height": 900}, locale="en-US")
        contexts.append(ctx)
        ctx.add_cookies([{"name": "language", "value": locale, "url": live_server.url}])
        ctx.route(
            "**/*",
            lambda route: (
                route.fallback()
                if route.request.url.startswith(live_server.url)
                or route.request.url.startswith(("data:", "blob:"))
                else route.fulfill(status=200, content_type="text/html", body="<html></html>")
            ),
        )
        page = ctx.new_page()
        page.set_default_timeout(WAIT)
        log_in(page, live_server.url, account, password)
        if home:
            page.wait_for_url("**/home")
        return page

    yield open_page
    for ctx in contexts:
        ctx.close()


# 1. plugin switches -------------------------------------------------------------------------------------


def test_the_console_plugin_is_refused_and_its_switch_locked_saying_why(admin_page, live_server):
    page, base = admin_page, live_server.url
    admin = Api(base, "admin")
    refused = admin.http.post(f"{A}/plugins/state", json={"plugin": "admin", "enabled": False}).json()
    assert refused["code"] == 400, refused
    assert "serves this administration console" in refused["msg"], refused
    row = next(p for p in admin.ok("GET", f"{A}/plugins") if p["name"] == "admin")
    assert row["enabled"] is True and row["essential"] is True

    page.goto(base + "/platform")
    switch = page.get_by_test_id("plugin-admin")
    expect(switch).to_have_attribute("aria-checked", "true", timeout=WAIT)
    expect(switch).to_be_disabled()
    expect(page.get_by_test_id("plugin-message")).to_be_enabled()
    page.get_by_test_id("plugin-lock-admin").hover()
    expect(page.get_by_role("tooltip")).to_contain_text(refused["msg"], timeout=WAIT)
    page.wait_for_timeout(400)  # the tooltip's opening animation, for the picture
    shot(page, "admin-defects-plugin-locked")


def test_a_plugin_switch_asks_first_naming_the_plugin_and_the_tenant(admin_page, live_server):
    page, base = admin_page, live_server.url
    admin = Api(base, "admin")
    tid, name = new_tenant(admin, "Switch Co")
    page.goto(base + "/platform")
    # the page says whose plugins it shows: the administrator's current tenant, then the one picked
    banner = page.get_by_test_id("plugins-tenant")
    expect(banner).to_contain_text(
        f"Showing the plugins of tenant {admin.profile['tenantName']}", timeout=WAIT
    )
    pick_tenant(page, tid)
    expect(banner).to_contain_text(f"Showing the plugins of tenant {name}", timeout=WAIT)

    switch = page.get_by_test_id("plugin-message")
    expect(switch).to_have_attribute("aria-checked", "true", timeout=WAIT)
    switch.click()
    confirm = page.locator(".ant-modal-confirm")
    expect(confirm).to_contain_text(f"Disable plugin “message” for tenant “{name}”?", timeout=WAIT)
    expect(confirm).to_contain_text(f"The users of “{name}” lose its pages and features at once.")
    expect(confirm).to_be_visible()
    page.wait_for_timeout(400)  # the dialog's opening animation, for the picture
    shot(page, "admin-defects-plugin-confirm")
    confirm.get_by_role("button", name="Cancel").click()
    expect(confirm).to_have_count(0, timeout=WAIT)
    expect(switch).to_have_attribute("aria-checked", "true")
    assert enabled(admin, tid, "message")  # nothing happened without the confirmation

    switch.click()
    page.get_by_test_id("plugin-confirm-ok").click()
    expect(page.get_by_text(f"Plugin “message” disabled for tenant “{name}”")).to_be_visible(timeout=WAIT)
    expect(switch).to_have_attribute("aria-checked", "false", timeout=WAIT)
    assert not enabled(admin, tid, "message")
    assert enabled(admin, int(admin.profile["tenantId"]), "message")  # the administrator's own tenant kept it

    switch.click()
    expect(confirm).to_contain_text(f"Enable plugin “message” for tenant “{name}”?", timeout=WAIT)
    page.get_by_test_id("plugin-confirm-ok").click()
    expect(switch).to_have_attribute("aria-checked", "true", timeout=WAIT)
    assert enabled(admin, tid, "message")


# 2. the tenant list -------------------------------------------------------------------------------------

DETAILS = [  # the profile's details, in their order on screen, with their English titles
    ("companyName", "Company name"),
    ("approvalState", "Approval state"),
    ("enabled", "State"),
    ("effectiveDate", "Effective date"),
    ("expirationDate", "Expiration date"),
    ("contact", "Contact"),
    ("contactPhone", "Contact phone"),
    ("contactEmail", "Contact email"),
    ("tenantType", "Tenant type"),
    ("enterpriseCode", "Enterprise code"),
    ("country", "Country"),
    ("size", "Size"),
]


@pytest.mark.parametrize("width", [1440, 390])
def test_the_tenant_list_shows_columns_with_data_and_keeps_its_actions_in_view(console, live_server, width):
    base = live_server.url
    admin = Api(base, "admin")
    tid, _ = new_tenant(
        admin, "Columns Co", contact="Ada", contactPhone="+36 1 555 0101", contactEmail="ada@columns.test"
    )
    page = console("en-us", width)
    page.goto(base + "/rent-mannage")
    search(page, "tenant-search", str(tid))
    row = page.locator("tr", has_text="Columns Co")
    expect(row).to_be_visible(timeout=WAIT)

    # every action of the row in view and not covered, the table scrolled to neither side
    for label in ("Edit", "Approve", "Suspend", "Systems", "Delete"):
        button = row.get_by_role("button", name=label, exact=True)
        expect(button).to_be_in_viewport(ratio=1)
        assert button.evaluate(UNCOVERED_JS), label

    # the tenant's name, id and state, and each profile detail only when some tenant has it
    profiles = {p["tenantId"]: p for p in admin.ok("GET", "/api/admin/tenant-profiles")}
    rows = [{**profiles.get(t["tenantId"], {}), **t} for t in admin.ok("GET", f"{A}/tenants")]
    details = ["Tenant id"] + [
        title for key, title in DETAILS if key == "enabled" or any(r.get(key) not in (None, "") for r in rows)
    ]
    # on a phone the actions come right after the name (clear of the floating buttons on the right)
    expected = ["Tenant name", "Actions", *details] if width < 768 else ["Tenant name", *details, "Actions"]
    headers = [h.strip() for h in page.locator(".ant-table-thead th").all_inner_texts() if h.strip()]
    assert headers == expected
    for title in ("Company name", "Contact phone", "Effective date"):
        assert title in headers
    shot(page, f"admin-defects-tenants-en-us-{width}")


# 3. roles and grants say so -----------------------------------------------------------------------------


def test_giving_and_taking_a_role_and_granting_menus_say_so(admin_page, live_server):
    page, base = admin_page, live_server.url
    admin = Api(base, "admin")
    tid, _ = new_tenant(admin, "Roles Co")
    admin.ok("POST", f"{A}/roles", json={"roleCode": "clerk", "roleName": "Clerk", "tenantId": tid})
    account = new_user(admin, tid, "Rita Roles")

    page.goto(base + "/system_manage/users")
    pick_tenant(page, tid)
    search(page, "user-search", account)
    page.get_by_test_id(f"user-roles-{account}").click()
    box = page.get_by_test_id("user-role-clerk")
    box.click()
    expect(page.get_by_text("Role “Clerk” given to Rita Roles")).to_be_visible(timeout=WAIT)
    expect(box).to_be_checked(timeout=WAIT)
    page.wait_for_timeout(400)  # the message's opening animation, for the picture
    shot(page, "admin-defects-role-given")
    box.click()
    expect(page.get_by_text("Role “Clerk” taken from Rita Roles")).to_be_visible(timeout=WAIT)
    expect(box).not_to_be_checked(timeout=WAIT)

    # a refusal shows the server's reason and no success
    reason = f"Refused for the test {secrets.token_hex(2)}"
    page.route(
        "**/api/base/admin/users/roles",
        lambda route: route.fulfill(
            status=200,
            content_type="application/json",
            body=json.dumps({"code": 409, "msg": reason, "data": None}),
        ),
    )
    box.click()
    expect(page.get_by_text(reason)).to_be_visible(timeout=WAIT)
    expect(box).not_to_be_checked(timeout=WAIT)
    expect(page.get_by_text("Role “Clerk” given to Rita Roles")).to_have_count(0, timeout=WAIT)
    page.unroute("**/api/base/admin/users/roles")

    # the role's menus and buttons, granted on the role screen
    page.goto(base + "/system_manage/roles")
    pick_tenant(page, tid)
    page.locator("tr", has_text="Clerk").click()
    tree = page.get_by_test_id("grant-tree")
    tree.locator(".ant-tree-treenode").first.locator(".ant-tree-checkbox").click()
    page.get_by_test_id("grant-save").click()
    expect(page.get_by_text("Menus and buttons of role “Clerk” saved")).to_be_visible(timeout=WAIT)
    clerk = next(
        r for r in admin.ok("GET", f"{A}/roles", params={"tenantId": tid}) if r["roleCode"] == "clerk"
    )
    assert clerk["menuIds"]


# 4. the forced password change --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("locale", "changed", "expired"),
    [
        ("en-us", "Your password has been changed. Please sign in again with your new password.", "expired"),
        ("zh-cn", "密码已修改成功，请使用新密码重新登录", "登录已过期"),
    ],
)
def test_after_the_forced_password_change_it_says_changed_and_to_sign_in_again(
    console, live_server, locale, changed, expired
):
    base = live_server.url
    account = new_user(Api(base, "admin"), None, "Forced Change", must_change=True)
    page = console(locale, 1440, account, START, home=False)
    page.locator("#oldPassword").fill(START)
    page.locator("#newPassword").fill(NEW)
    page.locator("#confirmPassword").fill(NEW)
    page.locator(".ant-modal-footer .ant-btn-primary").click()
    expect(page.locator(".ant-message")).to_contain_text(changed, timeout=WAIT)
    page.wait_for_url("**/login")
    # nothing says the sign-in expired, not even late (the server ended every session of the user)
    page.wait_for_timeout(2500)
    expect(page.get_by_text(expired)).to_have_count(0)
    shot(page, f"admin-defects-password-changed-{locale}")
    log_in(page, base, account, NEW)
    page.wait_for_url("**/home")


# the screens, photographed ------------------------------------------------------------------------------


@pytest.mark.parametrize("width", [1440, 390])
@pytest.mark.parametrize("locale", ["zh-cn", "en-us"])
def test_plugins_and_tenants_screens(console, live_server, locale, width):
    base = live_server.url
    admin = Api(base, "admin")
    new_tenant(admin, "Screens Co", contact="Lin", contactEmail="lin@screens.test", country="+86")
    page = console(locale, width)

    page.goto(base + "/platform")
    expect(page.get_by_test_id("plugins-tenant")).to_contain_text(admin.profile["tenantName"], timeout=WAIT)
    switches = page.locator("button[data-testid^=plugin-]")
    expect(switches.first).to_be_visible(timeout=WAIT)
    page.wait_for_timeout(500)  # the floating buttons and the layout settle
    for i in range(switches.count()):
        switch = switches.nth(i)
        switch.scroll_into_view_if_needed()
        assert switch.evaluate(UNCOVERED_JS), switch.get_attribute("data-testid")
    page.evaluate("document.querySelectorAll('.at-content').forEach((e) => e.scrollTo(0, 0))")
    shot(page, f"admin-defects-plugins-{locale}-{width}")

    page.goto(base + "/rent-mannage")
    row = page.locator("tr", has_text="Screens Co").first
    search(page, "tenant-search", "Screens Co")
    expect(row).to_be_visible(timeout=WAIT)
    for button in row.get_by_role("button").all():
        expect(button).to_be_in_viewport(ratio=1)
        assert button.evaluate(UNCOVERED_JS), button.inner_text()
    search(page, "tenant-search", "")
    expect(page.locator("tr", has_text="Acme").first).to_be_visible(timeout=WAIT)
    for button in page.locator("[data-testid^=tenant-actions-] button").all():  # every row's, scrolled to
        button.scroll_into_view_if_needed()
        assert button.evaluate(UNCOVERED_JS), button.inner_text()
    page.evaluate("document.querySelectorAll('.at-content').forEach((e) => e.scrollTo(0, 0))")
    shot(page, f"admin-defects-tenants-{locale}-{width}")

    missing = [k for k in page.evaluate(MISSING_JS) if k.startswith("admin:")]
    assert not missing, missing
