"""Text handling for help documents: HTML sanitising, plain text, passages and the retrieval tokenizer.

The tokenizer is the same for documents and questions: lower-cased words of Latin-script languages
(accents kept, a light plural stem, a short stop list) and overlapping character pairs plus single
characters for CJK runs, which carry no spaces between words.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

import nh3

ALLOWED_TAGS = {
    "a", "b", "blockquote", "br", "code", "div", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img",
    "li", "ol", "p", "pre", "span", "strong", "sub", "sup", "table", "tbody", "td", "th", "thead", "tr", "u",
    "ul",
}
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "img": {"src", "alt", "title"}, "td": {"colspan", "rowspan"},
                      "th": {"colspan", "rowspan"}}
PASSAGE_CHARS = 480

_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]+|[^\W_]+", re.UNICODE)
_IS_CJK = re.compile(rf"[{_CJK}]")
_BLOCK = re.compile(r"</?(p|div|li|h[1-6]|br|tr|pre|blockquote|table|ul|ol)\b[^>]*>", re.IGNORECASE)
_TAG = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"[ \t\r\f\v]+")
_PARA = re.compile(r"\n\s*\n+")
_SENTENCE = re.compile(r"(?<=[.!?。！？；;])\s*")

STOP_WORDS = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "how", "i", "in",
    "is", "it", "me", "my", "of", "on", "or", "the", "this", "to", "what", "when", "where", "which", "who",
    "why", "will", "with", "you", "your",
})


def sanitise(raw: str) -> str:
    """HTML a document may keep: formatting, links and images; scripts, handlers and styles removed."""
    return nh3.clean(raw or "", tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRIBUTES,
                     url_schemes={"http", "https", "mailto"}, link_rel="noopener noreferrer")


def plain_text(clean_html: str) -> str:
    """Readable text of sanitised HTML: blocks become paragraphs, entities are decoded."""
    text = _BLOCK.sub("\n\n", clean_html)
    text = html.unescape(_TAG.sub("", text))
    lines = [_SPACE.sub(" ", line).strip() for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def tokenize(text: str) -> list[str]:
    """Retrieval tokens of a text in any of the platform's languages."""
    out: list[str] = []
    for run in _TOKEN.findall(text.lower()):
        if _IS_CJK.match(run):
            out.extend(run)
            out.extend(run[i:i + 2] for i in range(len(run) - 1))
        elif run not in STOP_WORDS:
            out.append(_stem(run))
    return out


@dataclass(frozen=True, slots=True)
class Passage:
    """A retrievable piece of a document."""

    doc_key: str
    title: str
    text: str
    source: str
    locale: str
    url: str = ""


def passages(doc_key: str, title: str, text: str, source: str, locale: str, url: str = "") -> list[Passage]:
    """Split a document into passages of about PASSAGE_CHARS characters along paragraphs and sentences."""
    chunks: list[str] = []
    for para in _PARA.split(text):
        para = " ".join(para.split())
        if not para:
            continue
        if len(para) <= PASSAGE_CHARS:
            chunks.append(para)
            continue
        current = ""
        for sentence in _SENTENCE.split(para):
            if current and len(current) + len(sentence) > PASSAGE_CHARS:
                chunks.append(current.strip())
                current = ""
            current += sentence + ("" if _IS_CJK.search(sentence[-1:] or "") else " ")
        if current.strip():
            chunks.append(current.strip())
    merged: list[str] = []
    for chunk in chunks:  # short paragraphs (headings, one-liners) travel with the next one
        if merged and len(merged[-1]) < 80 and len(merged[-1]) + len(chunk) <= PASSAGE_CHARS:
            merged[-1] = f"{merged[-1]} {chunk}"
        else:
            merged.append(chunk)
    if not merged:
        merged = [title]
    return [Passage(doc_key, title, chunk, source, locale, url) for chunk in merged]
