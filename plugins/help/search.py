"""BM25 retrieval over a tenant's help documents and portal articles (bm25s, no model download).

One index per tenant and locale is kept in process and rebuilt when the tenant's documents change: every
save bumps a version counter in the shared cache (Redis when configured), so all server processes see it.
Indexes that include other plugins' articles are also rebuilt after ``ARTICLE_TTL`` seconds.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import bm25s
import numpy as np

from atrium.plugins.help.text import Passage, tokenize
from atrium.sdk.services import services

MAX_INDEXES = 64
ARTICLE_TTL = 300.0


@dataclass
class Index:
    """Passages of one tenant and locale with their BM25 model (None when there is nothing to search)."""

    version: int
    passages: list[Passage]
    model: bm25s.BM25 | None
    built_at: float = field(default_factory=time.monotonic)
    has_articles: bool = False

    def search(self, query: str, top: int) -> list[tuple[Passage, float]]:
        """The best ``top`` passages for a question, best first; passages that share no word are left out."""
        if self.model is None or top <= 0:
            return []
        vocab: dict[str, int] = self.model.vocab_dict
        tokens = [tok for tok in tokenize(query) if tok in vocab]
        if not tokens:
            return []
        scores = self.model.get_scores(tokens)
        k = min(top, len(scores))
        best = np.argpartition(-scores, k - 1)[:k]
        best = best[np.argsort(-scores[best], kind="stable")]
        return [(self.passages[i], float(scores[i])) for i in best if scores[i] > 0]


def build(passages: list[Passage], version: int = 0, has_articles: bool = False) -> Index:
    """Index passages; the title counts twice so a question naming a screen finds its document."""
    if not passages:
        return Index(version, [], None, has_articles=has_articles)
    corpus = [tokenize(f"{p.title} {p.title} {p.text}") or ["∅"] for p in passages]
    model = bm25s.BM25()
    model.index(corpus, show_progress=False)
    return Index(version, passages, model, has_articles=has_articles)


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
            if found is None or found.version != version or (
                found.has_articles and time.monotonic() - found.built_at > ARTICLE_TTL
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
