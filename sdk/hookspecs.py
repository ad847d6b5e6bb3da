"""The hook contract: the one file a plugin author reads.

A plugin is a module (or object) registered under the entry-point group ``atrium.plugins``. It implements
any of the hooks below with ``@hookimpl``; an implementation may take a subset of a hook's arguments. The
kernel calls hooks once while it assembles the app, before it starts serving, except for the runtime hooks
(events, tenant enabled/disabled, request headers, menu numbers) which are called as things happen.

Example plugin module::

    from atrium.sdk import PluginInfo, Router, hookimpl

    router = Router()

    @router.get("/api/hello/ping")
    def ping() -> dict[str, str]:
        return {"pong": "yes"}

    @hookimpl
    def atrium_plugin_info() -> PluginInfo:
        return PluginInfo(name="hello", version="1.0.0", services={"hello": "/api/hello"})

    @hookimpl
    def atrium_routes() -> Router:
        return router
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from collections.abc import Iterable

    from atrium.sdk.context import RequestContext
    from atrium.sdk.routing import Router
    from atrium.sdk.transfer import ExportSource, ImportTarget, WordTemplate
    from atrium.sdk.types import DatabaseSpec, Event, JobSpec, MenuSpec, PluginInfo

PROJECT = "atrium"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


# -------------------------------------------------------------------------
# Identity of a plugin
# -------------------------------------------------------------------------


@hookspec
def atrium_plugin_info() -> PluginInfo:
    """Describe the plugin: id, version, SDK range, dependencies, services, mount prefixes, web module.

    Called once per plugin at start-up; every plugin must implement it. A plugin whose SDK range does
    not admit the running SDK, or whose id is not kebab-case, is refused and reported with the reason.

    :return: the plugin's :class:`PluginInfo` (one per plugin).

    Example::

        @hookimpl
        def atrium_plugin_info():
            return PluginInfo(name="message", version="1.0.0", sdk=">=1.0,<2",
                              services={"message": "/api/message"}, prefixes=["/message-management"])
    """


@hookspec
def atrium_web_remote() -> str | None:
    """Name the folder that holds the plugin's built web module (``remoteEntry.js`` and its chunks).

    Called once at start-up, right after the plugin registers. A plugin installed as a wheel ships its
    built remote as package data and answers its folder; the kernel serves it at ``/plugins/<id>/`` like
    the built-in remotes and lists it in the web manifest of each tenant that has the plugin enabled. A
    folder without ``remoteEntry.js`` refuses the plugin with that reason (``atrium plugins list``, the
    admin console). Built-in plugins, whose remotes are ``web-plugins/<id>/dist``, need not implement it.

    :return: the folder's path, or None when the plugin has no built web module (it then has no page).

    Example::

        HERE = Path(__file__).parent

        @hookimpl
        def atrium_web_remote():
            # inside the wheel, else web/dist beside the sources of an editable install
            for folder in (HERE / "web_dist", HERE.parent / "web" / "dist"):
                if folder.is_dir():
                    return str(folder)
            return None
    """


# -------------------------------------------------------------------------
# Assembly: what the kernel builds the app from
# -------------------------------------------------------------------------


@hookspec
def atrium_routes() -> Router | list[Router]:
    """Return the plugin's HTTP routes.

    Called once while the app is assembled. Every route states who may call it (``public=True`` or a
    permission); when the plugin is disabled for the caller's tenant its routes answer code 460.

    :return: a :class:`Router` or a list of them; results of all plugins are used.

    Example::

        @hookimpl
        def atrium_routes():
            return router
    """


@hookspec
def atrium_database() -> DatabaseSpec:
    """Return the plugin's table metadata and its Alembic versions folder.

    Called by ``atrium db upgrade`` and by the test kit. Each plugin owns its migration history (a version
    table of its own), so heads of different plugins never clash.

    :return: a :class:`DatabaseSpec`; results of all plugins are used.

    Example::

        @hookimpl
        def atrium_database():
            return DatabaseSpec(metadata=Base.metadata, migrations=str(Path(__file__).parent / "migrations"))
    """


@hookspec
def atrium_menus() -> list[MenuSpec]:
    """Return the default menus (with their button resources) the plugin contributes.

    Called when the menu registry is synchronised (``atrium db upgrade``, demo data). Menus of a plugin
    that is disabled for a tenant are hidden from that tenant.

    :return: a list of :class:`MenuSpec`; results of all plugins are used.

    Example::

        @hookimpl
        def atrium_menus():
            return [MenuSpec(code="message-management", name="消息管理", en_name="Messages",
                             url="/message-management")]
    """


@hookspec
def atrium_scheduled_jobs() -> list[JobSpec]:
    """Return jobs for the scheduler (APScheduler).

    Called once at start-up. A job runs outside any request, with no tenant: use ``tenant_scope``.

    :return: a list of :class:`JobSpec`; results of all plugins are used.

    Example::

        @hookimpl
        def atrium_scheduled_jobs():
            return [JobSpec(id="export-cleanup", func=cleanup, trigger="interval", trigger_args={"hours": 1})]
    """


@hookspec
def atrium_i18n_namespaces() -> list[str]:
    """Return the i18n namespaces (``i18n/<locale>/<ns>.json``) the plugin's server messages use.

    Called once at start-up; errors raised with key ``"<ns>:<key>"`` are translated from them.

    :return: namespace names; results of all plugins are used.

    Example::

        @hookimpl
        def atrium_i18n_namespaces():
            return ["message"]
    """


@hookspec
def atrium_sso_providers() -> list[Any]:
    """Return single sign-on providers (objects following the sso plugin's provider protocol).

    Called once at start-up by the sso plugin, which offers each provider on the sign-in page of the
    tenants that configured it.

    :return: provider objects; results of all plugins are used.

    Example::

        @hookimpl
        def atrium_sso_providers():
            return [MyCorpProvider()]
    """


@hookspec
def atrium_login_types(tenant_id: int | None) -> list[dict[str, Any]]:
    """Return the sign-in modes this plugin offers on a tenant's sign-in page.

    Called by ``GET /api/base/base-sso-oauth-config/get-login-type`` and ``base-login-config/get-login-info``;
    the kernel itself offers ``account``, ``phone`` and ``email``.

    :param tenant_id: the tenant whose sign-in page asks (from ``domainName`` or ``tenantId``), or None.
    :return: entries such as ``{"type": "oidc", "name": "Corporate SSO", "loginUrl": "..."}``;
        all results are joined.

    Example::

        @hookimpl
        def atrium_login_types(tenant_id):
            return [{"type": "oidc", "name": "Okta", "loginUrl": "/api/base/sso/oidc/login?tenantId=1001"}]
    """


@hookspec
def atrium_knowledge_articles(tenant_id: int, locale: str) -> list[dict[str, Any]]:
    """Return a tenant's articles for the help plugin's knowledge chat to search.

    Called by the help plugin when it (re)builds a tenant's retrieval index (after its documents change,
    and at most every five minutes while articles are offered).

    :param tenant_id: the tenant whose index is built.
    :param locale: the language the index serves (``zh-cn``, ``en-us``, ...).
    :return: ``[{"id": ..., "title": ..., "content": "<p>HTML or text</p>", "url": ..., "locale": ...}]``;
        all results are joined. Content is sanitised before it is indexed.

    Example::

        @hookimpl
        def atrium_knowledge_articles(tenant_id, locale):
            return [{"id": a.id, "title": a.title, "content": a.body, "url": f"/knowledge-details?id={a.id}"}
                    for a in published_articles(tenant_id, locale)]
    """


@hookspec
def atrium_demo_data(tenants: dict[str, int]) -> None:
    """Load the plugin's demo content.

    Called by ``atrium demo`` inside a database session, once per plugin.

    :param tenants: demo tenant names to tenant ids (``platform``, ``acme``, ``globex``).

    Example::

        @hookimpl
        def atrium_demo_data(tenants):
            with tenant_scope(tenants["acme"]):
                session().add(Letter(content="Welcome"))
    """


# -------------------------------------------------------------------------
# Runtime
# -------------------------------------------------------------------------


@hookspec
def atrium_startup(services: Any) -> None:
    """Called once when the server starts, after the database and services are ready.

    :param services: the kernel's :class:`atrium.sdk.services.Services`.

    Example::

        @hookimpl
        def atrium_startup(services):
            services.pubsub.subscribe("message", on_message)
    """


@hookspec
def atrium_shutdown() -> None:
    """Called once when the server stops.

    Example::

        @hookimpl
        def atrium_shutdown():
            pool.close()
    """


@hookspec
def atrium_tenant_enabled(tenant_id: int, plugin: str) -> None:
    """Called after an admin enables ``plugin`` for ``tenant_id`` (every plugin is told).

    :param tenant_id: the tenant.
    :param plugin: the plugin id that was enabled.

    Example::

        @hookimpl
        def atrium_tenant_enabled(tenant_id, plugin):
            if plugin == "message":
                ensure_defaults(tenant_id)
    """


@hookspec
def atrium_tenant_disabled(tenant_id: int, plugin: str) -> None:
    """Called after an admin disables ``plugin`` for ``tenant_id``; its data is kept.

    :param tenant_id: the tenant.
    :param plugin: the plugin id that was disabled.

    Example::

        @hookimpl
        def atrium_tenant_disabled(tenant_id, plugin):
            log.info("disabled", plugin=plugin, tenant=tenant_id)
    """


@hookspec
def atrium_event(event: Event) -> None:
    """Called for every platform event: login, logout, tenant_switch, page_visit, message_sent, ...

    Runs after the action has succeeded; an exception is logged and does not undo the action.

    :param event: the :class:`Event`.

    Example::

        @hookimpl
        def atrium_event(event):
            if event.name == "login":
                audit(event.user_id)
    """


@hookspec
def atrium_request_headers(ctx: RequestContext) -> list[dict[str, str]]:
    """Return extra request headers the web should send for this user (grey rules).

    Called by ``GET /api/base/grayscale/rule/myid``.

    :param ctx: the signed-in request's context.
    :return: ``[{"header": ..., "value": ...}]``; results of all plugins are joined.

    Example::

        @hookimpl
        def atrium_request_headers(ctx):
            return [{"header": "x-gray", "value": "beta"}] if ctx.tenant_id == 2 else []
    """


@hookspec
def atrium_menu_numbers(keys: list[str], ctx: RequestContext) -> dict[str, int]:
    """Return corner numbers (menu badges) for the subscript keys this plugin knows.

    Called by ``POST /api/base/message-subscript/find-menu-num``.

    :param keys: the badge keys the web asks for.
    :param ctx: the signed-in request's context.
    :return: key to number for the keys the plugin owns; results of all plugins are merged.

    Example::

        @hookimpl
        def atrium_menu_numbers(keys, ctx):
            return {"unreadMessages": count_unread(ctx.user)} if "unreadMessages" in keys else {}
    """


@hookspec
def atrium_frame_ancestors(path: str) -> list[str] | None:
    """Return the sites (``https://host[:port]``) besides the platform itself that may frame the page the
    shell answers at ``path``, or None when the path is not one of this plugin's pages.

    Called for every HTML answer of a client route, with a database session open; the answer becomes the
    page's ``frame-ancestors``. Without an answer only the platform's own pages may frame it.

    :param path: the requested path, e.g. ``/dynamic-report/link/abc``.
    :return: origins (an empty list: nobody else); the first plugin that answers decides.

    Example::

        @hookimpl
        def atrium_frame_ancestors(path):
            return ["https://intranet.example.com"] if path.startswith("/kiosk/") else None
    """


@hookspec(firstresult=True)
def atrium_usage_totals(tenant_id: int | None, days: int) -> dict[str, Any] | None:
    """Return usage figures (clicks, most used menus, sign-ins per day) from a plugin that records usage.

    Called by the kernel's ``GET /api/base/base-behavior/behavior-total7`` and
    ``GET /api/base/login-log/user-7day-login-count`` (the home dashboard) inside the request's database
    session, so that the dashboard reads the same store as the tracking plugin.

    :param tenant_id: the tenant asked about, or None for the whole platform (super administrators).
    :param days: how many days back from today, today included.
    :return: the first answer: ``{"clickTotal": int, "topMenus": [{"name": str, "count": int}, ...],
        "loginSeries": [{"date": "YYYY-MM-DD", "count": int}, ...]}`` (``loginSeries`` optional, one entry
        a day, oldest first), or None when no plugin records usage.

    Example::

        @hookimpl
        def atrium_usage_totals(tenant_id, days):
            return {"clickTotal": 120, "topMenus": [{"name": "Letters", "count": 40}]}
    """


# -------------------------------------------------------------------------
# Forms in processes (the forms plugin answers, a process plugin asks)
# -------------------------------------------------------------------------


@hookspec
def atrium_process_forms(tenant_id: int) -> list[dict[str, Any]]:
    """Return the published forms a process may use as its start form or as a task form.

    Called by a process plugin while a process is designed (to offer forms) and started (to show one).
    A plugin that keeps forms (``forms``) answers; neither plugin imports the other.

    :param tenant_id: the tenant whose forms are asked for.
    :return: entries ``{"formId", "code", "name", "version", "schema", "uiSchema"}`` (``name`` per locale);
        all results are joined.

    Example::

        @hookimpl
        def atrium_process_forms(tenant_id):
            return [{"formId": "7", "code": "leave-request", "name": {"en-us": "Leave"}, "version": 2,
                     "schema": {...}, "uiSchema": {}}]
    """


@hookspec(firstresult=True)
def atrium_process_form_submit(
    tenant_id: int, form_code: str, data: dict[str, Any], user_id: int | None, process: dict[str, Any]
) -> dict[str, Any] | None:
    """Validate and store the data a user filled into a process's start or task form.

    Called by a process plugin inside its request (database session open) when a start form or a task
    form is submitted. The forms plugin validates ``data`` against the form's published schema and stores
    a submission; data that breaks the schema is not stored and the answer carries the field-level
    messages (in the request's language) instead.

    :param tenant_id: the tenant the process runs in.
    :param form_code: the form's code (``diy_code``) or id.
    :param data: the filled values; unknown fields are dropped.
    :param user_id: the user who filled the form, or None for a system step.
    :param process: where the form was filled, e.g. ``{"processId": "p1", "taskId": "t3", "kind": "start"}``.
    :return: the first answer: ``{"submissionId", "version", "data"}`` (the stored, cleaned data), or
        ``{"errors": [{"field", "message"}]}`` when the data is refused, or None when no plugin keeps forms.

    Example::

        @hookimpl
        def atrium_process_form_submit(tenant_id, form_code, data, user_id, process):
            return {"submissionId": "42", "version": 3, "data": data}
    """


@hookspec
def atrium_background_job_counts(tenant_id: int | None) -> dict[str, int] | None:
    """Return how many of a plugin's background jobs (imports, exports, ...) are running, failed or ended
    normally.

    Called for the home dashboard's run-state card when no process plugin counts process instances, inside
    the request's database session. Only answers of plugins enabled for the tenant are added up.

    :param tenant_id: the tenant asked about, or None for the whole platform (super administrators).
    :return: ``{"running": int, "failed": int, "normal": int}`` (waiting jobs count as running), or None.

    Example::

        @hookimpl
        def atrium_background_job_counts(tenant_id):
            return {"running": 1, "failed": 0, "normal": 12}
    """


@hookspec(firstresult=True)
def atrium_shared_file_url(tenant_id: int, url: str) -> str | None:
    """Return a short-lived address that shows one of a tenant's stored files to readers without a session.

    Called by a plugin that publishes content openly (the portal's public articles and their cover images)
    when it answers a reader who is not signed in; the file plugin answers for the addresses it stores.

    :param tenant_id: the tenant that owns the file (the published content's tenant).
    :param url: the stored file's address as the content keeps it.
    :return: the first answer: a signed address, or None when no plugin stores that address for the tenant.

    Example::

        @hookimpl
        def atrium_shared_file_url(tenant_id, url):
            return f"/files/{url.rsplit('/', 1)[-1]}?sig=..."
    """


# -------------------------------------------------------------------------
# Object storage
# -------------------------------------------------------------------------


@hookspec
def atrium_storage_references() -> Iterable[tuple[int, str, str]]:
    """Name every object of the platform's storage that the plugin's records point at.

    Called by ``atrium storage check`` (outside any request, inside a database session without a tenant
    scope) to report records whose bytes are missing from the store, e.g. after moving a node's files to a
    bucket. Answers are collected from every plugin.

    :return: ``(tenant_id, key, description)`` for each reference, the description telling an operator
        which record it is; materialise it (a list), as the session closes after the call.

    Example::

        @hookimpl
        def atrium_storage_references():
            rows = session().execute(select(Cover.tenant_id, Cover.stored_name, Cover.id)).all()
            return [(t, name, f"cover {id_}") for t, name, id_ in rows]
    """


# -------------------------------------------------------------------------
# Import and export (a plugin answers, the transfer plugin asks)
# -------------------------------------------------------------------------


@hookspec
def atrium_import_targets() -> list[ImportTarget]:
    """Return what the import wizard can import into (see :mod:`atrium.sdk.transfer`).

    Called by the transfer plugin each time it lists or looks up a target (not only at start): answer a
    list the plugin keeps, and add to it when a new target appears (a published form). Answers of every
    loaded plugin are joined; a later one replaces an earlier one with the same code.

    :return: the plugin's import targets (an empty list for none).

    Example::

        @hookimpl
        def atrium_import_targets():
            return [ImportTarget(code="assets", name={"en-us": "Assets"}, model=Asset,
                                 fields=[ImportField("code", {"en-us": "Code"}, required=True)])]
    """


@hookspec
def atrium_export_sources() -> list[ExportSource]:
    """Return the sources of asynchronous Excel exports, each under the url a client names.

    Called by the transfer plugin each time it looks up a source; answers of every loaded plugin are
    joined, a later one replacing an earlier one with the same url.

    :return: the plugin's export sources (an empty list for none).

    Example::

        @hookimpl
        def atrium_export_sources():
            return [ExportSource(url="api/assets/exportData", name="Assets", rows=query_rows(select_assets))]
    """


@hookspec
def atrium_word_templates() -> list[WordTemplate]:
    """Return Word templates (a .docx with placeholders and the function that fills them) by code.

    Called by the transfer plugin each time it looks up a template; answers of every loaded plugin are
    joined.

    :return: the plugin's Word templates (an empty list for none).

    Example::

        @hookimpl
        def atrium_word_templates():
            return [WordTemplate(code="asset-card", path=HERE / "asset-card.docx", context=card_data)]
    """


# -------------------------------------------------------------------------
# Services a plugin provides to the others
# -------------------------------------------------------------------------


@hookspec
def atrium_services() -> dict[str, Any]:
    """Return services the plugin provides to other plugins, by name.

    Called once when the kernel assembles the platform, before ``atrium_startup``; other plugins reach
    them through ``services()`` under a name the SDK declares (``attachments``: the files plugin's
    :class:`atrium.sdk.files.Attachments`). The object is built now but used later: it must not need
    the platform's services until it is called.

    :return: the services by name (an empty dict for none).

    Example::

        @hookimpl
        def atrium_services():
            return {"attachments": FileAttachments()}
    """
