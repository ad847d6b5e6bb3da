"""The forms home card follows the caller's grants: the tenant's forms and submissions for tenant
administrators and holders of `form:stats`, everyone else the published forms and her own submissions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import func, select

from atrium.plugins.forms.models import SUBMITTED, Form, Submission
from atrium.sdk.context import tenant_scope
from atrium.sdk.db import session
from atrium.sdk.testing import AtriumClient
from tests.forms.conftest import SUB, published_form, save_design
from tests.forms.test_forms_api import GOOD
from tests.tracking.test_dashboard_scope import grant_button, user_id_of

COUNT = "/api/form/count"


def submit(c: AtriumClient, draft: bool = False) -> None:
    c.ok("POST", f"{SUB}/save", json={"params": {"formId": "expense", "data": GOOD, "draft": draft}})


def test_members_count_their_own_submissions_and_the_supervisor_the_tenants(
    boss: Any, member: Callable[..., Any], kernel: Any
) -> None:
    published_form(boss)
    assert save_design(boss, "unpublished")["code"] == 800  # a draft design: the tenant's, not a member's
    viewer, colleague = member(boss.tenant_id), member(boss.tenant_id)
    submit(viewer)
    submit(viewer, draft=True)  # drafts are not submissions
    for _ in range(3):
        submit(colleague)
    submit(boss)

    assert viewer.ok("GET", COUNT) == {"scope": "mine", "forms": 1, "published": 1, "submissions": 1}
    assert colleague.ok("GET", COUNT) == {"scope": "mine", "forms": 1, "published": 1, "submissions": 3}
    assert boss.ok("GET", COUNT) == {"scope": "tenant", "forms": 2, "published": 1, "submissions": 5}

    grant_button(boss, kernel, "form:stats", viewer.user_id)
    assert viewer.ok("GET", COUNT) == boss.ok("GET", COUNT)
    assert colleague.ok("GET", COUNT)["scope"] == "mine"


def test_alice_counts_hers_and_the_supervisor_acmes(
    user_client: AtriumClient, client: AtriumClient, member: Callable[..., Any], kernel: Any
) -> None:
    visit = {"visitor": "Ann Guest", "company": "Initech", "visitDate": "2026-12-01"}
    for who in (user_client, member(1001), member(1001)):
        who.ok("POST", f"{SUB}/save", json={"params": {"formId": "visitor-registration", "data": visit}})
    alice_id = user_id_of(kernel, "alice")
    with tenant_scope(1001), kernel.db():
        db = session()
        submitted = select(func.count()).select_from(Submission).where(Submission.status == SUBMITTED)
        hers = db.execute(submitted.where(Submission.created_by == alice_id)).scalar_one()
        everyone = db.execute(submitted).scalar_one()
        forms = db.execute(select(func.count()).select_from(Form)).scalar_one()
        published = db.execute(
            select(func.count()).select_from(Form).where(Form.published_version.is_not(None))
        ).scalar_one()
    assert hers >= 1 and everyone >= hers + 2  # others' submissions are there too

    mine = user_client.ok("GET", COUNT)
    assert mine == {"scope": "mine", "forms": published, "published": published, "submissions": hers}
    acme = client.signed_in("supervisor").ok("GET", COUNT)
    assert acme == {"scope": "tenant", "forms": forms, "published": published, "submissions": everyone}
    assert client.signed_in("admin").ok("GET", COUNT)["scope"] == "tenant"
    assert client.signed_in("carol").ok("GET", COUNT)["scope"] == "tenant"  # the demo's author holds it
