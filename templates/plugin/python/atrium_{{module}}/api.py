"""Routes of {{title}}."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from atrium.sdk import Router

from . import service

router = Router("/api/{{name}}")


class NoteIn(BaseModel):
    text: str = Field(min_length=1, max_length=200)


@router.get("/notes")
def notes() -> list[dict[str, Any]]:
    """The tenant's notes."""
    return [{"id": n.id, "text": n.text} for n in service.list_notes()]


@router.post("/notes", body=NoteIn)
def add(body: NoteIn) -> dict[str, Any]:
    """Add a note."""
    note = service.add_note(body.text)
    return {"id": note.id, "text": note.text}
