"""The hook contract documents itself: a hook without its documentation fails here."""

from __future__ import annotations

import inspect

import pytest

from atrium.sdk import hookspecs

HOOKS = [(name, fn) for name, fn in vars(hookspecs).items() if name.startswith("atrium_") and callable(fn)]


def test_there_are_hooks() -> None:
    assert len(HOOKS) >= 14


@pytest.mark.parametrize(("name", "fn"), HOOKS, ids=[n for n, _ in HOOKS])
def test_hook_is_typed_and_documented(name: str, fn: object) -> None:
    doc = inspect.getdoc(fn) or ""
    sig = inspect.signature(fn)
    assert sig.return_annotation is not inspect.Signature.empty, f"{name} has no return type"
    for param in sig.parameters.values():
        assert param.annotation is not inspect.Parameter.empty, f"{name}({param.name}) has no type"
        assert f":param {param.name}:" in doc, f"{name} does not document {param.name}"
    assert "Called" in doc or "called" in doc, f"{name} does not say when it is called"
    assert "Example::" in doc, f"{name} has no example"
    if sig.return_annotation not in ("None", None):
        assert ":return:" in doc, f"{name} does not say what it returns"
    assert hasattr(fn, "atrium_spec"), f"{name} is not marked as a hookspec"
