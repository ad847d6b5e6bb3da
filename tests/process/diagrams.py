"""BPMN diagrams the process tests deploy: built from a list of steps so each test reads what it draws."""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" '
    'xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" '
    'xmlns:atrium="http://atrium.dev/schema/bpmn" id="defs" targetNamespace="http://atrium.dev/bpmn">\n'
)


def diagram(process_id: str, body: str) -> str:
    process = f'<bpmn:process id="{process_id}" isExecutable="true">\n{body}\n</bpmn:process>'
    return f"{HEAD}{process}\n</bpmn:definitions>\n"


def flow(fid: str, src: str, dst: str, condition: str | None = None) -> str:
    if condition is None:
        return f'<bpmn:sequenceFlow id="{fid}" sourceRef="{src}" targetRef="{dst}"/>'
    return (
        f'<bpmn:sequenceFlow id="{fid}" sourceRef="{src}" targetRef="{dst}">'
        f"<bpmn:conditionExpression>{_esc(condition)}</bpmn:conditionExpression></bpmn:sequenceFlow>"
    )


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def user_task(
    tid: str, name: str, assignee: str = "", roles: str = "", kind: str = "", form: str = ""
) -> str:
    attrs = "".join(
        f" atrium:{k}={quoteattr(v)}"
        for k, v in (
            ("assignee", assignee),
            ("candidateRoles", roles),
            ("assigneeType", kind),
            ("formKey", form),
        )
        if v
    )
    return f'<bpmn:userTask id="{tid}" name="{name}"{attrs}/>'


def approval(process_id: str, manager: int, director: int, threshold: int = 1000) -> str:
    """Apply → manager approves → amount over the threshold goes to the director → end."""
    return diagram(
        process_id,
        "\n".join(
            [
                '<bpmn:startEvent id="start" name="Start"/>',
                user_task("apply", "Apply", kind="starter"),
                user_task("manager", "Manager approval", assignee=str(manager)),
                '<bpmn:exclusiveGateway id="gw" name="Amount?" default="small"/>',
                user_task("director", "Director approval", assignee=str(director)),
                '<bpmn:endEvent id="end" name="End"/>',
                flow("f1", "start", "apply"),
                flow("f2", "apply", "manager"),
                flow("f3", "manager", "gw"),
                flow("big", "gw", "director", f"amount > {threshold}"),
                flow("small", "gw", "end"),
                flow("f4", "director", "end"),
            ]
        ),
    )


def chain(process_id: str, steps: int, assignee: int) -> str:
    """start → ``steps`` user tasks for one user → end (the benchmark's approval)."""
    parts = ['<bpmn:startEvent id="start"/>', '<bpmn:endEvent id="end"/>']
    prev = "start"
    for i in range(1, steps + 1):
        parts.append(user_task(f"s{i}", f"Step {i}", assignee=str(assignee)))
        parts.append(flow(f"f{i}", prev, f"s{i}"))
        prev = f"s{i}"
    parts.append(flow("fend", prev, "end"))
    return diagram(process_id, "\n".join(parts))


def http_task(tid: str, name: str, url: str, **settings: str) -> str:
    """An HTTP service task: POST JSON expecting 200 unless ``settings`` say otherwise."""
    values = {
        "type": "http",
        "url": url,
        "method": "POST",
        "paramType": "json",
        "charset": "utf-8",
        "contentType": "application/json",
        "successCode": "200",
        **settings,
    }
    attrs = "".join(f" atrium:{k}={quoteattr(v)}" for k, v in values.items())
    return f'<bpmn:serviceTask id="{tid}" name="{name}"{attrs}/>'


def timer(tid: str, name: str, value: str, kind: str = "timeDuration", attached_to: str = "") -> str:
    """An intermediate timer catch event, or a boundary timer on ``attached_to``."""
    definition = (
        f"<bpmn:timerEventDefinition><bpmn:{kind}>{_esc(value)}</bpmn:{kind}></bpmn:timerEventDefinition>"
    )
    if attached_to:
        head = f'<bpmn:boundaryEvent id="{tid}" name="{name}" attachedToRef="{attached_to}">'
        return f"{head}{definition}</bpmn:boundaryEvent>"
    return f'<bpmn:intermediateCatchEvent id="{tid}" name="{name}">{definition}</bpmn:intermediateCatchEvent>'


def between(process_id: str, *middle: str, extra: tuple[str, ...] = ()) -> str:
    """start → the ``middle`` nodes in order (each ``id="..."`` first) → a starter's task "Look" → end."""
    ids = [m.split('id="', 1)[1].split('"', 1)[0] for m in middle]
    parts = ['<bpmn:startEvent id="start"/>', *middle, user_task("look", "Look", kind="starter")]
    parts += ['<bpmn:endEvent id="end"/>', *extra]
    chain_ids = ["start", *ids, "look", "end"]
    parts += [flow(f"f{i}", a, b) for i, (a, b) in enumerate(zip(chain_ids, chain_ids[1:], strict=False))]
    return diagram(process_id, "\n".join(parts))
