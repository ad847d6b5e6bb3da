"""BPMN 2.0 XML: hostile-input-safe parsing, the designer's rules (spec reports.md 5) and what the engine
needs to know of each node (assignees, forms, HTTP settings, timers) beyond what SpiffWorkflow reads."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import defusedxml.ElementTree as DefusedET
from defusedxml import DefusedXmlException
from lxml import etree
from SpiffWorkflow.bpmn.specs.event_definitions.timer import TimerEventDefinition

from atrium.plugins.process.engine import expr, labels, startform
from atrium.plugins.process.engine.labels import Labels
from atrium.plugins.process.engine.startform import StartField
from atrium.sdk import BadRequest
from atrium.sdk.services import services

BPMN_NS = "http://www.omg.org/spec/BPMN/20100524/MODEL"
ATRIUM_NS = "http://atrium.dev/schema/bpmn"
XSI_NS = "http://www.w3.org/2001/XMLSchema-instance"
MAX_XML_BYTES = 1_000_000
MAX_NODES = 500
FILE_TYPES = (".bpmn", ".xml")
KEY_FORMAT = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")
PARAM_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
ISO_DURATION = re.compile(r"^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$")
ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$")
MAX_HTTP_ATTEMPTS = 10
DEFAULT_HTTP_ATTEMPTS = 3

GATEWAYS = {"exclusiveGateway", "inclusiveGateway"}
TIMER_EVENTS = {"intermediateCatchEvent", "boundaryEvent"}
TIMER_KINDS = ("timeDuration", "timeDate")
SUPPORTED = {
    "startEvent",
    "endEvent",
    "userTask",
    "manualTask",
    "task",
    "scriptTask",
    "serviceTask",
    "intermediateCatchEvent",
    "boundaryEvent",
    "timerEventDefinition",
    "timeDuration",
    "timeDate",
    "exclusiveGateway",
    "inclusiveGateway",
    "parallelGateway",
    "sequenceFlow",
    "textAnnotation",
    "association",
    "laneSet",
    "lane",
    "flowNodeRef",
    "childLaneSet",
    "incoming",
    "outgoing",
    "conditionExpression",
    "script",
    "documentation",
    "extensionElements",
    "text",
}
#: children of the process that are no flow nodes (the process's own labels and documentation among them)
PROCESS_PARTS = {"textAnnotation", "association", "laneSet", "extensionElements", "documentation"}
HTTP_FIELDS = (
    ("url", "http_url"),
    ("method", "http_method"),
    ("paramType", "http_param_type"),
    ("charset", "http_charset"),
    ("contentType", "http_content_type"),
    ("successCode", "http_success_code"),
)
_PARSER = etree.XMLParser(
    resolve_entities=False, no_network=True, huge_tree=False, remove_comments=True, load_dtd=False
)


@dataclass
class Node:
    """What the engine keeps of one flow node: its kind, name, assignment and form."""

    id: str
    kind: str
    name: str
    users: list[int] = field(default_factory=list)
    roles: list[int] = field(default_factory=list)
    supervisor: bool = False
    starter: bool = False
    form_key: str = ""
    http: dict[str, str] = field(default_factory=dict)
    timer: str = ""
    #: a start event's form (`startform`)
    fields: list[StartField] = field(default_factory=list)
    #: a user task of the starter's done as the instance starts (``atrium:completeOnStart="true"``)
    complete_on_start: bool = False


@dataclass
class Design:
    """A checked diagram: its root element, the executable process id, its nodes, and the labels of its
    elements (the process's among them) by element id."""

    root: Any
    process_id: str
    nodes: dict[str, Node]
    labels: dict[str, Labels] = field(default_factory=dict)


@dataclass
class Problem:
    key: str
    element: str = ""
    params: dict[str, Any] = field(default_factory=dict)


def _local(el: Any) -> str:
    tag = el.tag
    return tag.split("}", 1)[1] if isinstance(tag, str) and "}" in tag else str(tag)


def _attr(el: Any, name: str) -> str:
    value = el.get(f"{{{ATRIUM_NS}}}{name}")
    return value.strip() if isinstance(value, str) else ""


def fail(problems: list[Problem]) -> BadRequest:
    """The error answered for a design: the first problem's message, all problems in ``data.errors``."""
    t = services().t
    errors = [
        {"element": p.element, "rule": p.key, "message": t(f"process:rule.{p.key}", **p.params)}
        for p in problems
    ]
    first = problems[0]
    return BadRequest(f"process:rule.{first.key}", data={"errors": errors}, **first.params)


def check_key(key: str) -> list[Problem]:
    text = key.strip()
    if not text:
        return [Problem("key_required", "key")]
    if not text[0].isascii() or not text[0].isalpha():
        return [Problem("key_letter", "key")]
    if not KEY_FORMAT.match(text):
        return [Problem("key_format", "key")]
    return []


def check_file_name(name: str) -> None:
    if not name.lower().endswith(FILE_TYPES):
        raise fail([Problem("file_type", "file", {"types": ", ".join(FILE_TYPES)})])


def parse(xml: str | bytes) -> Any:
    """Parse untrusted XML: size-limited, no DTD, no entities, no network; a clear error otherwise."""
    data = xml.encode("utf-8") if isinstance(xml, str) else xml
    if len(data) > MAX_XML_BYTES:
        raise fail([Problem("xml_too_large", "xml", {"limit": MAX_XML_BYTES // 1000})])
    if not data.strip():
        raise fail([Problem("xml_invalid", "xml", {"reason": "empty"})])
    try:
        DefusedET.fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException:
        raise fail([Problem("xml_forbidden", "xml")]) from None
    except Exception as exc:
        raise fail([Problem("xml_invalid", "xml", {"reason": str(exc)[:120]})]) from None
    try:
        return etree.fromstring(data, _PARSER)
    except etree.XMLSyntaxError as exc:
        raise fail([Problem("xml_invalid", "xml", {"reason": str(exc)[:120]})]) from None


def _ints(text: str) -> list[int] | None:
    out: list[int] = []
    for part in text.split(","):
        p = part.strip()
        if not p:
            continue
        if not p.isdigit():
            return None
        out.append(int(p))
    return out


def _check_properties(el: Any, eid: str, problems: list[Problem]) -> None:
    for ext in el.findall(f"{{{BPMN_NS}}}extensionElements"):
        for prop in ext:
            tag = _local(prop)
            if tag == "property":
                name = (prop.get("name") or "").strip()
                value = (prop.get("value") or "").strip()
                if not name or not value:
                    problems.append(Problem("kv_required", eid))
                elif not PARAM_NAME.match(name):
                    problems.append(Problem("param_name", eid, {"name": name[:64]}))
                elif prop.get("type") == "number" and not NUMBER.match(value):
                    problems.append(Problem("value_numeric", eid, {"name": name[:64]}))
            elif tag == "range":
                lo, hi = (prop.get("min") or "").strip(), (prop.get("max") or "").strip()
                if not NUMBER.match(lo) or not NUMBER.match(hi):
                    problems.append(Problem("value_numeric", eid, {"name": "range"}))
                elif float(hi) < float(lo):
                    problems.append(Problem("range_order", eid))


def _check_json(el: Any, eid: str, names: tuple[str, ...], problems: list[Problem]) -> None:
    for name in names:
        raw = el.get(f"{{{ATRIUM_NS}}}{name}")
        if raw is None:
            continue
        try:
            value = json.loads(raw)
        except ValueError:
            problems.append(Problem("json_invalid", eid, {"field": name}))
            continue
        if value in ({}, [], None, ""):
            problems.append(Problem("json_invalid", eid, {"field": name}))


def check_design(key: str, xml: str | bytes) -> Design:
    """Apply every designer rule to a model id and its diagram; raises with all problems found."""
    problems = check_key(key)
    root = parse(xml)
    if _local(root) != "definitions" or root.nsmap.get(root.prefix) != BPMN_NS:
        raise fail([*problems, Problem("xml_not_bpmn", "xml")])
    processes = root.findall(f"{{{BPMN_NS}}}process")
    if len(processes) != 1:
        raise fail([*problems, Problem("one_process", "xml")])
    proc = processes[0]
    pid = proc.get("id") or ""
    if not KEY_FORMAT.match(pid):
        problems.append(Problem("key_format", "process"))
    nodes: dict[str, Node] = {}
    flows: list[tuple[Any, str, str]] = []
    count = 0
    for el in proc.iter():
        if not isinstance(el.tag, str):
            continue
        count += 1
        if count > MAX_NODES * 4:
            raise fail([Problem("too_many_nodes", "xml", {"limit": MAX_NODES})])
        if el is proc:
            continue
        tag = _local(el)
        ns = el.tag[1:].split("}", 1)[0] if el.tag.startswith("{") else ""
        if ns == ATRIUM_NS:
            continue
        if ns != BPMN_NS or tag not in SUPPORTED:
            problems.append(Problem("unsupported", el.get("id") or tag, {"element": tag[:40]}))
            continue
        eid = el.get("id") or ""
        if tag == "timerEventDefinition" and _local(el.getparent()) not in TIMER_EVENTS:
            problems.append(Problem("unsupported", eid or tag, {"element": tag}))
            continue
        if tag == "sequenceFlow":
            flows.append((el, el.get("sourceRef") or "", el.get("targetRef") or ""))
            continue
        if el.getparent() is not proc or tag in PROCESS_PARTS:
            continue
        if not KEY_FORMAT.match(eid):
            problems.append(Problem("node_id", eid[:64] or tag))
            continue
        node = Node(eid, tag, (el.get("name") or tag)[:100])
        nodes[eid] = node
        _check_properties(el, eid, problems)
        node.form_key = _attr(el, "formKey")[:64]
        if tag == "userTask":
            users, roles = _ints(_attr(el, "assignee")), _ints(_attr(el, "candidateRoles"))
            kind = _attr(el, "assigneeType")
            if users is None or roles is None:
                problems.append(Problem("assignee", eid, {"name": node.name}))
                continue
            node.users, node.roles = users, roles
            node.supervisor, node.starter = kind == "supervisor", kind == "starter"
            node.complete_on_start = _attr(el, "completeOnStart").lower() in startform.TRUE
            if not (users or roles or node.supervisor or node.starter):
                problems.append(Problem("assignee", eid, {"name": node.name}))
        elif tag == "startEvent":
            node.fields, refused = startform.parse(el)
            problems.extend(Problem(rule, eid, params) for rule, params in refused)
        elif tag == "scriptTask":
            fmt = (el.get("scriptFormat") or "").strip()
            script_el = el.find(f"{{{BPMN_NS}}}script")
            content = (script_el.text or "").strip() if script_el is not None else ""
            if not fmt:
                problems.append(Problem("script_language", eid, {"name": node.name}))
            if not content:
                problems.append(Problem("script_content", eid, {"name": node.name}))
            elif fmt:
                try:
                    expr.check_script(content)
                except expr.UnsafeExpression:
                    problems.append(Problem("script_unsafe", eid, {"name": node.name}))
        elif tag == "serviceTask":
            if _attr(el, "type") != "http":
                problems.append(Problem("unsupported", eid, {"element": tag}))
                continue
            _check_http(el, node, problems)
        elif tag in TIMER_EVENTS:
            _check_timer(el, node, problems)
    if not any(n.kind == "startEvent" for n in nodes.values()):
        problems.append(Problem("no_start", "process"))
    if not any(n.kind == "endEvent" for n in nodes.values()):
        problems.append(Problem("no_end", "process"))
    _check_flows(flows, nodes, proc, problems)
    if problems:
        raise fail(problems)
    return Design(root, pid, nodes, labels.collect(proc))


def localized(xml: str, found: dict[str, Labels], lang: str | None = None) -> str:
    """A copy of a diagram to *view* (not to edit): each labelled element's ``name`` is its label in ``lang``
    (the reader's by default), so the drawing reads in her language. ``found`` are the diagram's labels by
    element id (`Design.labels`); without one in that language the diagram is answered as saved."""
    lang = lang or labels.locale()
    if not any(lang in each for each in found.values()):
        return xml
    root = parse(xml)
    for el in root.iter(f"{{{BPMN_NS}}}*"):
        text = found.get(el.get("id") or "", {}).get(lang)
        if text:
            el.set("name", text)
    return str(etree.tostring(root, encoding="unicode"))


def _check_http(el: Any, node: Node, problems: list[Problem]) -> None:
    eid = node.id
    for attr, rule in HTTP_FIELDS:
        value = _attr(el, attr)
        if not value:
            problems.append(Problem(rule, eid, {"name": node.name}))
        node.http[attr] = value[:500]
    url = node.http.get("url", "")
    if url and not url.lower().startswith(("http://", "https://")):
        problems.append(Problem("http_url_scheme", eid, {"name": node.name}))
    code = node.http.get("successCode", "")
    if code and not (code.isdigit() and 100 <= int(code) <= 599):
        problems.append(Problem("http_success_code", eid, {"name": node.name}))
    attempts = _attr(el, "attempts") or str(DEFAULT_HTTP_ATTEMPTS)
    if not (attempts.isdigit() and 1 <= int(attempts) <= MAX_HTTP_ATTEMPTS):
        problems.append(Problem("http_attempts", eid, {"name": node.name, "limit": MAX_HTTP_ATTEMPTS}))
    node.http["attempts"] = attempts[:2]
    result = _attr(el, "resultVariable") or "response"
    if not PARAM_NAME.match(result):
        problems.append(Problem("param_name", eid, {"name": result[:64]}))
    node.http["resultVariable"] = result[:64]
    _check_json(el, eid, ("headers", "body"), problems)
    for name in ("headers", "body"):
        node.http[name] = _attr(el, name)


def timer_literal(kind: str, text: str) -> bool:
    """True when a timer's text is a bare ISO 8601 duration (``PT5M``) or date, not an expression."""
    try:
        if kind == "timeDuration":
            return (
                bool(ISO_DURATION.match(text)) and TimerEventDefinition.parse_iso_duration(text) is not None
            )
        return bool(ISO_DATE.match(text)) and TimerEventDefinition.get_datetime(text) is not None
    except Exception:
        return False


def _check_timer(el: Any, node: Node, problems: list[Problem]) -> None:
    """A timer event waits for one duration or date: a bare ISO 8601 value, or an expression (a quoted
    value, a variable) evaluated when the event is reached. Cycles are not supported."""
    definitions = el.findall(f"{{{BPMN_NS}}}timerEventDefinition")
    values = [
        (_local(child), (child.text or "").strip())
        for d in definitions
        for child in d
        if isinstance(child.tag, str) and _local(child) in TIMER_KINDS
    ]
    if len(definitions) != 1 or len(values) != 1 or not values[0][1]:
        problems.append(Problem("timer_required", node.id, {"name": node.name}))
        return
    kind, text = values[0]
    if not timer_literal(kind, text):
        try:
            expr.check(text)
        except expr.UnsafeExpression:
            problems.append(Problem("timer_invalid", node.id, {"name": node.name, "value": text[:64]}))
            return
    node.timer = text[:200]


def _check_flows(
    flows: list[tuple[Any, str, str]], nodes: dict[str, Node], proc: Any, problems: list[Problem]
) -> None:
    seen: set[tuple[str, str]] = set()
    for el, src, dst in flows:
        fid = el.get("id") or ""
        if src not in nodes or dst not in nodes:
            problems.append(Problem("dangling", fid or "flow"))
            continue
        if src == dst:
            problems.append(Problem("self_connect", fid))
        elif (src, dst) in seen:
            problems.append(Problem("duplicate", fid))
        elif (dst, src) in seen:
            problems.append(Problem("loopback", fid))
        seen.add((src, dst))
    for gid, node in nodes.items():
        if node.kind not in GATEWAYS:
            continue
        outgoing = [el for el, src, _ in flows if src == gid]
        if len(outgoing) < 2:
            continue
        gateway = proc.find(f"{{{BPMN_NS}}}{node.kind}[@id='{gid}']")
        default = gateway.get("default") if gateway is not None else None
        for el in outgoing:
            if el.get("id") == default:
                continue
            cond = el.find(f"{{{BPMN_NS}}}conditionExpression")
            fid = el.get("id") or ""
            if cond is None:
                problems.append(Problem("gateway_branch", fid))
            elif not (cond.text or "").strip():
                problems.append(Problem("gateway_condition", fid))
            else:
                try:
                    expr.check(cond.text or "")
                except expr.UnsafeExpression:
                    problems.append(Problem("condition_unsafe", fid, {"condition": (cond.text or "")[:80]}))
