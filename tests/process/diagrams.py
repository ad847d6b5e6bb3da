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
