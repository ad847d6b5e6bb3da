"""The OpenAPI document, generated from the routes' pydantic models."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, TypeAdapter

from atrium.sdk.routing import RouteSpec

REF = "#/components/schemas/{model}"


def _schema(model: Any, components: dict[str, Any]) -> dict[str, Any]:
    if isinstance(model, type) and issubclass(model, BaseModel):
        schema = model.model_json_schema(ref_template=REF, by_alias=True)
    else:
        schema = TypeAdapter(model).json_schema(ref_template=REF, by_alias=True)
    for name, sub in schema.pop("$defs", {}).items():
        components[name] = sub
    if isinstance(model, type) and issubclass(model, BaseModel):
        components[model.__name__] = schema
        return {"$ref": REF.format(model=model.__name__)}
    return schema


ERROR_ENVELOPE: dict[str, Any] = {
    "type": "object",
    "description": "a refusal or an error: its code (-1 signed out, 400 bad input, 403, 404, 413, 460 plugin "
    "off, 503 unavailable, ...) and the message in the request's language",
    "required": ["code", "msg", "data"],
    "properties": {
        "code": {"type": "integer", "not": {"const": 800}},
        "msg": {"type": "string"},
        "data": {},
    },
}


def _envelope(data_schema: dict[str, Any]) -> dict[str, Any]:
    """Every JSON answer is an envelope: code 800 with the route's data, or an error envelope (whose data
    is null or details of the error), so that generated clients read both."""
    success = {
        "type": "object",
        "required": ["code", "msg", "data"],
        "properties": {"code": {"const": 800}, "msg": {"type": "string"}, "data": data_schema},
    }
    return {
        "description": "the envelope: code 800 with the data, or an error code with its message",
        "content": {
            "application/json": {
                "schema": {
                    "anyOf": [success, {"$ref": "#/components/schemas/ErrorEnvelope"}],
                }
            }
        },
    }


def build_openapi(specs: list[RouteSpec]) -> dict[str, Any]:
    components: dict[str, Any] = {}
    paths: dict[str, Any] = {}
    for spec in specs:
        path = re.sub(r"\{(\w+)(:\w+)?\}", r"{\1}", spec.path)
        for method in spec.methods:
            op: dict[str, Any] = {
                "summary": spec.summary,
                "operationId": f"{method.lower()}_{re.sub(r'[^a-zA-Z0-9]+', '_', path).strip('_')}",
                "tags": [spec.plugin or "kernel"],
                "x-atrium-access": "public" if spec.public else spec.permission,
            }
            if spec.grant:
                op["x-atrium-grant"] = spec.grant
            params = [
                {"name": n, "in": "path", "required": True, "schema": {"type": "string"}}
                for n in re.findall(r"\{(\w+)\}", path)
            ]
            if spec.query is not None:
                qs = spec.query.model_json_schema(by_alias=True)
                required = set(qs.get("required", []))
                for name, prop in qs.get("properties", {}).items():
                    params.append({"name": name, "in": "query", "required": name in required, "schema": prop})
            if not spec.public:
                params += [
                    {"name": "authorization", "in": "header", "required": False, "schema": {"type": "string"}}
                ]
            op["parameters"] = params
            if spec.body is not None:
                ctype = "multipart/form-data" if spec.multipart else "application/json"
                op["requestBody"] = {
                    "required": True,
                    "content": {ctype: {"schema": _schema(spec.body, components)}},
                }
            data_schema: dict[str, Any] = (
                _schema(spec.response, components) if spec.response is not None else {}
            )
            op["responses"] = {"200": _envelope(data_schema)}
            paths.setdefault(path, {})[method.lower()] = op
    return {
        "openapi": "3.1.0",
        "info": {"title": "Atrium", "version": "1.0.0"},
        "paths": paths,
        "components": {"schemas": {**components, "ErrorEnvelope": ERROR_ENVELOPE}},
    }
