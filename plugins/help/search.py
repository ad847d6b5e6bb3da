"""BM25 retrieval over a tenant's help documents and portal articles (bm25s, no model download).

A question is answered with documents, each cited once by its best passage: passages are scored with
BM25, each document by its best passage weighed by how much of the question the whole document covers
(its title counting extra), and documents scoring below ``RELEVANCE_CUT`` of the best one are left out.

One index per tenant and locale is kept in process and rebuilt when the tenant's documents change: every
save bumps a version counter in the shared cache (Redis when configured), so all server processes see it.
Indexes that include other plugins' articles are also rebuilt after ``ARTICLE_TTL`` seconds.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import bm25s
import numpy as np
import numpy.typing as npt

from atrium.plugins.help.text import Passage, question_tokens, tokenize
from atrium.sdk.services import services

MAX_INDEXES = 64
ARTICLE_TTL = 300.0
RELEVANCE_CUT = 0.5
"""A document is cited only when it scores at least this share of the best document for the question."""
CANDIDATES = 100
"""Passages (at least) among which a question's documents are looked for, the best ones by BM25."""


@dataclass
class Index:
    """Passages of one tenant and locale with their BM25 model (None when there is nothing to search), the
    document (numbered in order of first passage) of each passage, and which documents' titles hold a token.
    Which passages hold a token is read from the model's token-by-passage matrix."""

    version: int
    passages: list[Passage]
    model: bm25s.BM25 | None
    built_at: float = field(default_factory=time.monotonic)
    has_articles: bool = False
    doc_of: npt.NDArray[np.intp] = field(default_factory=lambda: np.zeros(0, dtype=np.intp))
    titles_with: dict[str, npt.NDArray[np.intp]] = field(default_factory=dict)
    sources: dict[str, npt.NDArray[np.bool_]] = field(default_factory=dict)

    def search(
        self, query: str, top: int, source: str | None = None, cut: bool = True
    ) -> list[tuple[Passage, float]]:
        """The best ``top`` documents for a question, best first, each as its best passage with the document's
        score; documents sharing no word with it are left out, and with ``cut`` those below
        ``RELEVANCE_CUT`` of the best. ``source``: only passages of that source (``help``, ``portal``).

        A document scores its best passage's BM25 score times the share of the question's weight (each
        token weighing by how few passages hold it, as in BM25) that the whole document holds, times one plus
        the share its title holds."""
        if self.model is None or top <= 0:
            return []
        tokens = question_tokens(query, self.model.vocab_dict)
        if not tokens:
            return []
        scores = self.model.get_scores(tokens)
        wanted = scores > 0
        if source is not None:
            wanted &= self.sources.get(source, False)
        hits = np.flatnonzero(wanted)
        if not len(hits):
            return []
        many = max(CANDIDATES, 8 * top)
        if len(hits) > many:  # documents are looked for among the best passages only
            hits = hits[np.argpartition(-scores[hits], many - 1)[:many]]
        hits = hits[np.argsort(-scores[hits], kind="stable")]
        docs, first = np.unique(self.doc_of[hits], return_index=True)
        best = hits[first]  # each document's best passage
        matrix: dict[str, Any] = self.model.scores  # token by passage, compressed sparse columns
        indices, indptr, n = matrix["indices"], matrix["indptr"], len(self.passages)
        covered = np.zeros(len(docs))
        in_title = np.zeros(len(docs))
        total = 0.0
        for token in tokens:
            i = self.model.vocab_dict[token]
            rows = indices[indptr[i] : indptr[i + 1]]  # the passages holding the token
            weight = math.log(1 + (n - len(rows) + 0.5) / (len(rows) + 0.5))
            total += weight
            covered += weight * np.isin(docs, self.doc_of[rows])
            in_title += weight * np.isin(docs, self.titles_with.get(token, _NONE))
        covered /= total
        in_title /= total
        doc_scores = scores[best] * covered * (1.0 + in_title)
        order = np.argsort(-doc_scores, kind="stable")
        if cut:
            order = order[doc_scores[order] >= RELEVANCE_CUT * doc_scores[order[0]]]
        return [(self.passages[best[k]], float(doc_scores[k])) for k in order[:top]]


_NONE: npt.NDArray[np.intp] = np.zeros(0, dtype=np.intp)


def build(passages: list[Passage], version: int = 0, has_articles: bool = False) -> Index:
    """Index passages; the title counts twice so a question naming a screen finds its document."""
    if not passages:
        return Index(version, [], None, has_articles=has_articles)
    corpus = [tokenize(f"{p.title} {p.title} {p.text}") or ["∅"] for p in passages]
    model = bm25s.BM25()
    model.index(corpus, show_progress=False)
    numbers: dict[str, int] = {}
    titles_with: dict[str, list[int]] = {}
    for p in passages:
        if p.doc_key not in numbers:
            numbers[p.doc_key] = len(numbers)
            for token in set(tokenize(p.title)):
                titles_with.setdefault(token, []).append(numbers[p.doc_key])
    return Index(
        version,
        passages,
        model,
        has_articles=has_articles,
        doc_of=np.array([numbers[p.doc_key] for p in passages], dtype=np.intp),
        titles_with={t: np.array(d, dtype=np.intp) for t, d in titles_with.items()},
        sources={s: np.array([p.source == s for p in passages]) for s in {p.source for p in passages}},
    )


class IndexCache:
    """Per-process indexes keyed by tenant and locale, invalidated through the shared cache's counter."""

    def __init__(self) -> None:
        self._items: OrderedDict[tuple[int, int, str], Index] = OrderedDict()
        self._building: dict[tuple[int, int, str], threading.Lock] = {}
        self._lock = threading.Lock()

    @staticmethod
    def _version_key(tenant_id: int) -> str:
        return f"help:index-version:{tenant_id}"

    def version(self, tenant_id: int) -> int:
        value: Any = services().cache.get(self._version_key(tenant_id))
        return int(value or 0)

    def bump(self, tenant_id: int) -> None:
        """Called after a tenant's documents change."""
        services().cache.incr(self._version_key(tenant_id))

    def _fresh(self, key: tuple[int, int, str], version: int) -> Index | None:
        with self._lock:
            found = self._items.get(key)
            if (
                found is None
                or found.version != version
                or (found.has_articles and time.monotonic() - found.built_at > ARTICLE_TTL)
            ):
                return None
            self._items.move_to_end(key)
            return found

    def get(self, tenant_id: int, locale: str, load: Callable[[], tuple[list[Passage], bool]]) -> Index:
        """The index of a tenant and locale at the shared version; built once when stale, while questions
        arriving meanwhile for the same index wait for that build rather than start their own."""
        version = self.version(tenant_id)
        key = (id(services()), tenant_id, locale)  # several platforms may share a process (tests)
        found = self._fresh(key, version)
        if found is not None:
            return found
        with self._lock:
            building = self._building.setdefault(key, threading.Lock())
        with building:
            version = self.version(tenant_id)
            found = self._fresh(key, version)
            if found is not None:
                return found
            passages, has_articles = load()
            index = build(passages, version, has_articles)
            with self._lock:
                self._items[key] = index
                self._items.move_to_end(key)
                while len(self._items) > MAX_INDEXES:
                    self._building.pop(self._items.popitem(last=False)[0], None)
        return index

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._building.clear()


indexes = IndexCache()
