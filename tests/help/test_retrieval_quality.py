"""Retrieval quality over the demo documents and the 30 demo questions (`demo_questions.json`, each with the
documents related to it, the one that answers it first): the answering document in the top 5 for at least
80 % of them (the figure is printed), and no answer citing a document twice or one unrelated to its
question."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from atrium.plugins.help.demo import documents, questions

SEARCH = "/api/aigc/knowledge/search"


@pytest.fixture
def cited(member: Callable[..., Any]) -> Callable[[str, str], list[str]]:
    """The documents the answer to a question cites, in order, by demo key (another plugin's article by its
    source and title)."""
    keys = {(loc, doc["title"]): item["key"] for item in documents() for loc, doc in item["docs"].items()}
    clients: dict[str, Any] = {}

    def ask(locale: str, question: str) -> list[str]:
        client = clients.get(locale) or clients.setdefault(locale, member(locale=locale))
        found = client.ok("GET", SEARCH, params={"prompt": question, "top": 5})["passages"]
        return [keys.get((locale, p["title"]), f"{p['source']}:{p['title']}") for p in found]

    return ask


def test_the_demo_questions_name_demo_documents():
    keys = {item["key"] for item in documents()}
    asked = questions()
    assert len(asked) == 30
    for q in asked:
        assert q["documents"] and set(q["documents"]) <= keys, q


def test_thirty_questions_top5_hit_rate(cited):
    misses: list[str] = []
    for q in questions():
        found = cited(q["locale"], q["question"])
        if q["documents"][0] not in found:
            misses.append(f"{q['question']} -> {found}")
    rate = 1 - len(misses) / len(questions())
    print(f"\nhelp retrieval: top-5 hit rate {rate:.2f} over {len(questions())} questions; misses: {misses}")
    assert rate >= 0.8, misses


def test_answers_cite_each_related_document_once_and_nothing_else(cited):
    wrong: list[str] = []
    for q in questions():
        found = cited(q["locale"], q["question"])
        unrelated = [key for key in found if key not in q["documents"]]
        if not found or unrelated or len(set(found)) != len(found):
            wrong.append(f"{q['question']} -> {found} (related: {q['documents']})")
    assert not wrong, "\n".join(wrong)


def test_exporting_a_report_cites_the_reports_document_without_the_portal_or_feedback(member):
    """The question users met: it cited 门户首页 and 提交反馈, and one document twice."""
    c = member(locale="zh-cn")
    for access in ("all", "help"):
        params = {"prompt": "如何导出报表?", "top": 5, "access": access}
        found = c.ok("GET", SEARCH, params=params)["passages"]
        titles = [p["title"] for p in found]
        assert titles[0] == "报表与仪表板", titles
        assert set(titles) <= {"报表与仪表板", "文件、导入与导出"}, titles
        assert len({p["docId"] for p in found}) == len(found), titles
