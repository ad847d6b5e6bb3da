"""The letters a step sends about the tasks it opened, delivered once the step has committed.

A letter is written by the message plugin (its ``send_message`` event), never in the step's transaction: the
step holds its instance's row lock, and looking up the recipients and writing the letter and its inbox rows
would hold it longer, while a letter that fails could otherwise undo the step. The step composes its letters
(in its own language, names included) and queues them; after its commit they go out together, in one
transaction of their own, before the request answers (so the recipients' unread counts are up to date when
the starter or approver sees the step done).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial

from atrium.plugins.process.engine import spiff
from atrium.plugins.process.engine.store import TaskRow
from atrium.plugins.process.models import ProcessInstance
from atrium.sdk.context import tenant_scope
from atrium.sdk.db import after_commit
from atrium.sdk.services import services


@dataclass(frozen=True, slots=True)
class Letter:
    """One letter as the message plugin's ``send_message`` event takes it."""

    content: str
    to_users: tuple[int, ...]
    to_roles: tuple[int, ...]


def compose(rows: Iterable[TaskRow], inst: ProcessInstance, comp: spiff.Compiled) -> list[Letter]:
    """One letter per set of recipients, naming every task among ``rows`` (the tasks a step opened) they may
    do, written in the language of the step (its task and process names too)."""
    names_by_audience: dict[tuple[tuple[int, ...], tuple[int, ...]], list[str]] = {}
    for row in rows:
        users = set(row.candidates.get("users") or [])
        if row.candidates.get("starter") and inst.started_by is not None:
            users.add(inst.started_by)
        roles = set(row.candidates.get("roles") or [])
        if users or roles:
            audience = (tuple(sorted(users)), tuple(sorted(roles)))
            names_by_audience.setdefault(audience, []).append(comp.name_of(row.node_id, row.name))
    if not names_by_audience:
        return []
    svc, process = services(), comp.process_name(inst.model_name)
    return [
        Letter(svc.t("process:notify.new_task", task=", ".join(names), process=process), users, roles)
        for (users, roles), names in names_by_audience.items()
    ]


def send_after_commit(tenant_id: int, letters: list[Letter]) -> None:
    """Queue the step's letters to go out, as one batch, once its transaction commits (none if it rolls
    back)."""
    if letters:
        after_commit(partial(deliver, tenant_id, letters))


def deliver(tenant_id: int, letters: list[Letter]) -> None:
    """Send the letters in one transaction of their own, in the step's context (its user, whom the message
    plugin names as the sender, and its language)."""
    svc = services()
    with tenant_scope(tenant_id), svc.db():
        for letter in letters:
            svc.emit(
                "send_message",
                tenant_id=tenant_id,
                user_id=None,
                content=letter.content,
                to_users=list(letter.to_users),
                to_roles=list(letter.to_roles),
            )
