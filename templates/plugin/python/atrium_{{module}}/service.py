"""Logic of {{title}}, free of HTTP."""

from __future__ import annotations

from sqlalchemy import select

from atrium.sdk.db import session

from .models import Note


def list_notes() -> list[Note]:
    return list(session().execute(select(Note).order_by(Note.id)).scalars())


def add_note(text: str) -> Note:
    note = Note(text=text.strip())
    session().add(note)
    session().flush()
    return note
