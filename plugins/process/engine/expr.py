"""Gateway conditions and script-task lines: a small allow-listed expression language run by simpleeval.

A condition is one Python-style expression over the instance's variables: comparisons, ``and``/``or``/``not``,
arithmetic, literals, lists, subscripts and a few named functions. Attribute access, imports, lambdas,
comprehensions and any call outside ``FUNCTIONS`` are refused when the model is saved, before anything runs.
A script task holds lines ``name = expression``.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from simpleeval import EvalWithCompoundTypes

FUNCTIONS: dict[str, Any] = {
    "len": len,
    "int": int,
    "float": float,
    "str": str,
    "abs": abs,
    "min": min,
    "max": max,
    "round": round,
    "bool": bool,
}

_ALLOWED: tuple[type[ast.AST], ...] = (
    ast.Expression,
    ast.BoolOp,
    ast.And,
    ast.Or,
    ast.UnaryOp,
    ast.Not,
    ast.USub,
    ast.UAdd,
    ast.BinOp,
    ast.Add,
    ast.Sub,
    ast.Mult,
    ast.Div,
    ast.FloorDiv,
    ast.Mod,
    ast.Compare,
    ast.Eq,
    ast.NotEq,
    ast.Lt,
    ast.LtE,
    ast.Gt,
    ast.GtE,
    ast.In,
    ast.NotIn,
    ast.Is,
    ast.IsNot,
    ast.IfExp,
    ast.Name,
    ast.Load,
    ast.Constant,
    ast.List,
    ast.Tuple,
    ast.Dict,
    ast.Subscript,
    ast.Call,
)

MAX_LENGTH = 500
_CONSTANTS = {"True", "False", "None"}
_ASSIGN = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]{0,63})\s*=(?!=)(.*)$")


class UnsafeExpression(ValueError):
    """The expression uses something outside the allow-list (or is not an expression at all)."""


def check(expression: str) -> ast.Expression:
    """Parse and vet an expression; raises `UnsafeExpression` with the offending construct."""
    text = expression.strip()
    if not text or len(text) > MAX_LENGTH:
        raise UnsafeExpression("length")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise UnsafeExpression("syntax") from exc
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            raise UnsafeExpression(type(node).__name__)
        if isinstance(node, ast.Name) and node.id.startswith("_"):
            raise UnsafeExpression(node.id)
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
                raise UnsafeExpression("call")
            if node.keywords:
                raise UnsafeExpression("keywords")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) > 200:
            raise UnsafeExpression("length")
    return tree


def check_script(script: str) -> list[tuple[str, str]]:
    """Vet a script task's lines (``name = expression``); answers the (name, expression) pairs."""
    lines: list[tuple[str, str]] = []
    for raw in script.splitlines():
        if not raw.strip() or raw.strip().startswith("#"):
            continue
        m = _ASSIGN.match(raw)
        if m is None:
            raise UnsafeExpression("statement")
        check(m.group(2))
        lines.append((m.group(1), m.group(2).strip()))
    if not lines:
        raise UnsafeExpression("empty")
    return lines


def _evaluator(variables: dict[str, Any]) -> EvalWithCompoundTypes:
    names = dict(variables)
    names.setdefault("True", True)
    names.setdefault("False", False)
    names.setdefault("None", None)
    return EvalWithCompoundTypes(names=lambda node: names.get(node.id), functions=FUNCTIONS)


def evaluate(expression: str, variables: dict[str, Any]) -> Any:
    """The value of a vetted expression over ``variables`` (an unknown name reads as None)."""
    check(expression)
    return _evaluator(variables).eval(expression.strip())


def decide(expression: str, variables: dict[str, Any]) -> bool | None:
    """Whether a condition holds under ``variables``, or None when that cannot be told yet: a variable it
    reads is not set, or it fails on the values (a prediction, never the engine's own decision)."""
    try:
        tree = check(expression)
    except UnsafeExpression:
        return None
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - FUNCTIONS.keys() - _CONSTANTS
    if any(name not in variables for name in names):
        return None
    try:
        return bool(_evaluator(variables).eval(expression.strip()))
    except Exception:
        return None


def run_script(script: str, variables: dict[str, Any]) -> None:
    """Run a script task's lines in order, each assigning one variable."""
    for name, expression in check_script(script):
        variables[name] = _evaluator(variables).eval(expression)
