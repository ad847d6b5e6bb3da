"""Names in the reader's language.

Any BPMN element of a diagram (the process, events, tasks, gateways, flows) may carry one label per
language in its ``extensionElements``, as a start form's fields carry theirs inside the field::

    <bpmn:userTask id="approve" name="Supervisor approval">
      <bpmn:extensionElements>
        <atrium:label lang="zh-cn">主管审批</atrium:label>
      </bpmn:extensionElements>
    </bpmn:userTask>

The element's ``name`` stays the fallback: a language without a label reads it. The reader's language is the
request's (``current_context().locale``); rows that stored a name (tasks, history) keep their element's id,
so they are read in the reader's language too, whatever language the step that wrote them spoke.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from atrium.sdk.context import current_context

BPMN_NS = "http://www.omg.org/spec/BPMN/20100524/MODEL"
#: the longest label kept (the name columns' size)
MAX_LABEL = 100

#: an element's labels by language (``zh-cn``: ...)
Labels = dict[str, str]


def own(el: Any) -> Labels:
    """The ``<atrium:label lang>`` children of ``el`` by language (lower case; blank ones left out)."""
    found = {
        (child.get("lang") or "").strip().lower(): (child.text or "").strip()[:MAX_LABEL]
        for child in el
        if _is_label(child) and (child.text or "").strip()
    }
    found.pop("", None)
    return found


def _is_label(el: Any) -> bool:
    # by local name, as start form fields have always been read
    return isinstance(el.tag, str) and el.tag.rsplit("}", 1)[-1] == "label"


def of_element(el: Any) -> Labels:
    """A BPMN element's labels: those right under its ``extensionElements`` (not a form field's)."""
    found: Labels = {}
    for ext in el.findall(f"{{{BPMN_NS}}}extensionElements"):
        found.update(own(ext))
    return found


def collect(process: Any) -> dict[str, Labels]:
    """The labels of a ``bpmn:process`` and of every element in it, by element id (unlabelled ones left
    out)."""
    found: dict[str, Labels] = {}
    for el in process.iter(f"{{{BPMN_NS}}}*"):
        eid = el.get("id")
        labels = of_element(el) if eid else {}
        if labels:
            found[eid] = labels
    return found


def locale() -> str:
    """The reader's language: the request's."""
    return current_context().locale


def pick(labels: Mapping[str, str], fallback: str, lang: str | None = None) -> str:
    """The label in ``lang`` (the reader's by default), else ``fallback`` (the element's name)."""
    return labels.get(lang or locale()) or fallback
