"""Rebuild the Word templates of this folder (docxtpl placeholders in plain python-docx documents).

Run: .venv/bin/python templates/documents/build_templates.py
"""

from __future__ import annotations

from pathlib import Path

from docx import Document
from docx.shared import Pt

HERE = Path(__file__).parent


def _table(doc: Document, headers: list[str], cells: list[str]) -> None:
    table = doc.add_table(rows=4, cols=len(headers))
    table.style = "Table Grid"
    for i, h in enumerate(headers):
        table.rows[0].cells[i].text = h
    table.rows[1].cells[0].text = "{%tr for r in rows %}"
    for i, c in enumerate(cells):
        table.rows[2].cells[i].text = c
    table.rows[3].cells[0].text = "{%tr endfor %}"


def contacts_summary() -> None:
    doc = Document()
    doc.styles["Normal"].font.size = Pt(10.5)
    doc.add_heading("{{ title }}", level=1)
    doc.add_paragraph("Prepared by {{ user }} on {{ today }} — {{ total }} contacts")
    _table(
        doc,
        ["Name", "Company", "Phone", "Email"],
        ["{{ r.name }}", "{{ r.company }}", "{{ r.phone }}", "{{ r.email }}"],
    )
    doc.save(HERE / "contacts-summary.docx")


def export_summary() -> None:
    """A generic template: title, a paragraph of text and a table of label/value items from apiParams."""
    doc = Document()
    doc.add_heading("{{ title or 'Summary' }}", level=1)
    doc.add_paragraph("{{ text }}")
    doc.add_paragraph("{{ user }} · {{ now }}")
    table = doc.add_table(rows=4, cols=2)
    table.style = "Table Grid"
    table.rows[0].cells[0].text = "Item"
    table.rows[0].cells[1].text = "Value"
    table.rows[1].cells[0].text = "{%tr for r in items %}"
    table.rows[2].cells[0].text = "{{ r.label }}"
    table.rows[2].cells[1].text = "{{ r.value }}"
    table.rows[3].cells[0].text = "{%tr endfor %}"
    doc.save(HERE / "export-summary.docx")


def broken() -> None:
    """A template with a syntax error, kept to show (and test) the failure answer (code 805)."""
    doc = Document()
    doc.add_paragraph("{{ title ")
    doc.add_paragraph("{% for x in %}")
    doc.save(HERE / "broken-sample.docx")


if __name__ == "__main__":
    contacts_summary()
    export_summary()
    broken()
