"""Text handling for help documents: HTML sanitising, plain text, passages and the retrieval tokenizers.

Documents are indexed as lower-cased words of Latin-script languages (accents kept, a light plural stem,
a short stop list of the platform's languages) and, for CJK runs, which carry no spaces between words,
overlapping character pairs plus single characters. A question is cut the same way, then trimmed to what
says what it is about (``question_tokens``): Chinese question words and particles are dropped, and in a
CJK run the character pairs the index knows stand for the words, single characters only where no known
pair covers them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Container
from dataclasses import dataclass

import nh3

ALLOWED_TAGS = {
    "a",
    "b",
    "blockquote",
    "br",
    "code",
    "div",
    "em",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "img",
    "li",
    "ol",
    "p",
    "pre",
    "span",
    "strong",
    "sub",
    "sup",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
    "u",
    "ul",
}
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title"},
    "td": {"colspan", "rowspan"},
    "th": {"colspan", "rowspan"},
}
PASSAGE_CHARS = 480

_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]+|[^\W_]+", re.UNICODE)
_IS_CJK = re.compile(rf"[{_CJK}]")
_BLOCK = re.compile(r"</?(p|div|li|h[1-6]|br|tr|pre|blockquote|table|ul|ol)\b[^>]*>", re.IGNORECASE)
_TAG = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"[ \t\r\f\v]+")
_PARA = re.compile(r"\n\s*\n+")
_SENTENCE = re.compile(r"(?<=[.!?。！？；;])\s*")

_STOP_EN = (
    "a about am an and another any are as at be been by can could did do does for from get got had has have "
    "he her his how i if in into is it its me my of on or our she should so that the their them there these "
    "they this those to us was we were what when where which who why will with would you your"
)
_STOP_VI = "bạn các cho có của gì không là này nào những sao thế tôi và với để đâu"
_STOP_HU = "az egy és hogy hogyan hol miért mi mit mikor nem van vagy meg"
STOP_WORDS = frozenset(f"{_STOP_EN} {_STOP_VI} {_STOP_HU}".split())
# Chinese question words and particles: they say that something is asked, not what about.
_QUESTION_WORDS = re.compile(
    "为什么|為什麼|如何|怎么|怎麼|怎样|怎樣|什么|什麼|哪里|哪裡|是否|可以|能否|吗|嗎|呢|吧"
)
# Characters that carry no topic on their own (they still count inside a known pair).
_FUNCTION_CHARS = frozenset("的了么麼从從把并並在和与與或及对對到被将將是也都就我您你他她它们們这這那个個")


def sanitise(raw: str) -> str:
    """HTML a document may keep: formatting, links and images; scripts, handlers and styles removed."""
    return nh3.clean(
        raw or "",
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer",
    )


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
            out.extend(run[i : i + 2] for i in range(len(run) - 1))
        elif run not in STOP_WORDS:
            out.append(_stem(run))
    return out


def question_tokens(question: str, known: Container[str]) -> list[str]:
    """The distinct tokens of a question that an index with vocabulary ``known`` can match, in order.

    A CJK run counts by its known character pairs; a character only where no known pair covers it and it
    carries a topic of its own, so that "如何导出报表" asks for 导出 and 报表, not for 如, 何, 导 or 表.
    """
    out: dict[str, None] = {}
    for run in _TOKEN.findall(_QUESTION_WORDS.sub(" ", question.lower())):
        if not _IS_CJK.match(run):
            word = _stem(run)
            if run not in STOP_WORDS and word in known:
                out[word] = None
            continue
        covered = [False] * len(run)
        for i in range(len(run) - 1):
            if run[i : i + 2] in known:
                out[run[i : i + 2]] = None
                covered[i] = covered[i + 1] = True
        for char, done in zip(run, covered, strict=True):
            if not done and char not in _FUNCTION_CHARS and char in known:
                out[char] = None
    return list(out)


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
