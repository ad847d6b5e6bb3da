"""Which item of an edited list is which of the original (`pairs`): the editor's paragraphs matched with
the stored ones by their text, and a paragraph's characters with those it had, so a save keeps the
formatting the editor does not show on the text it belonged to."""

from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher


def _similar(old: list[str], new: list[str], i: int, j: int) -> bool:
    return SequenceMatcher(None, old[i], new[j], autojunk=False).quick_ratio() >= 0.5


def pairs(old: list[str], new: list[str], by_likeness: bool = False) -> list[int | None]:
    """For each item of `new`, the item of `old` it is: an equal one or, where both sides changed, the one
    in its place (`by_likeness`: the next one at least half alike, unless a single one changed into a
    single one); None for an added one. Common ends are matched first, so one edit in a long text costs
    little."""
    out: list[int | None] = [None] * len(new)
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        out[head] = head
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        out[len(new) - 1 - tail] = len(old) - 1 - tail
        tail += 1
    a, b = old[head : len(old) - tail], new[head : len(new) - tail]
    if not a or not b:
        return out
    blocks: Sequence[tuple[str, int, int, int, int]] = [("replace", 0, len(a), 0, len(b))]
    if len(a) * len(b) <= 4_000_000:
        blocks = SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    for op, i1, i2, j1, j2 in blocks:
        if op == "equal" or op == "replace" and not (by_likeness and (i2 - i1, j2 - j1) != (1, 1)):
            for k in range(min(i2 - i1, j2 - j1)):
                out[head + j1 + k] = head + i1 + k
        elif op == "replace" and (i2 - i1) * (j2 - j1) <= 10_000:
            i = i1
            for j in range(j1, j2):
                found = next((k for k in range(i, i2) if _similar(a, b, k, j)), None)
                if found is not None:
                    out[head + j], i = head + found, found + 1
    return out
