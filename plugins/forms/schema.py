"""The form definition is one JSON Schema: checking a design, compiling validators, cleaning and checking
submitted data, turning errors into field-level messages in the request's language.

Conventions on top of JSON Schema (keywords a validator ignores):

- ``x-kind`` on a property: text, textarea, number, select, radio, checkbox, date, daterange, user, member,
  file, image, table, section, divider (section and divider carry no data);
- ``x-i18n``: the label per locale (``title`` is the fallback);
- ``x-dict``: the dictionary type a select or radio takes its options from;
- ``x-visibleIf``: ``{"field": "other", "value": v}``: the field is shown (and kept) only when ``other``
  equals ``v`` (or contains it, for a list); required-when-visible is an ``allOf`` ``if``/``then`` rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Hashable
from typing import Any

import orjson
from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import SchemaError, ValidationError

from atrium.sdk import BadRequest, current_context
from atrium.sdk.kept import Kept
from atrium.sdk.services import services

FIELD_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
#: a dictionary type as the kernel keeps them (``x-dict``)
DICT_TYPE = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")
NO_DATA_KINDS = frozenset({"section", "divider"})
#: kinds whose choices may come from a dictionary
DICT_KINDS = frozenset({"select", "radio"})
#: kinds holding a person picked among the tenant's members: ``{"id", "name"}``
PERSON_KINDS = frozenset({"user", "member"})
MAX_SUBMISSION_BYTES = 1_000_000
MAX_TABLE_ROWS = 10_000
MAX_SCHEMA_BYTES = 512_000
MAX_FIELDS = 300
MAX_FILES = 20
IMAGE_TYPES = frozenset({"jpg", "jpeg", "png"})
IMAGE_MAX_BYTES = 2 * 1024 * 1024
IMAGE_MAX_COUNT = 5
FILE_MAX_BYTES = 100 * 1024 * 1024

_FORMATS = FormatChecker()


def label(schema: dict[str, Any], key: str, locale: str | None = None) -> str:
    """A field's label in the request's language (``x-i18n``, then ``title``, then its key)."""
    prop = schema.get("properties", {}).get(key)
    if not isinstance(prop, dict):
        return key
    loc = locale or current_context().locale
    found = prop.get("x-i18n")
    names: dict[str, Any] = found if isinstance(found, dict) else {}
    return str(names.get(loc) or prop.get("title") or names.get("en-us") or key)


def data_fields(schema: dict[str, Any]) -> list[str]:
    """The keys of the top-level properties that carry data, in schema order."""
    return [
        k
        for k, p in schema.get("properties", {}).items()
        if isinstance(p, dict) and p.get("x-kind") not in NO_DATA_KINDS
    ]


def check_design(schema: Any) -> dict[str, Any]:
    """Refuse a design that is not a valid JSON Schema object form; answers it unchanged."""
    if not isinstance(schema, dict):
        raise BadRequest("forms:schema.not_object")
    if len(orjson.dumps(schema)) > MAX_SCHEMA_BYTES:
        raise BadRequest("forms:schema.too_large", limit=MAX_SCHEMA_BYTES // 1000)
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        where = "/".join(str(p) for p in exc.path) or "/"
        raise BadRequest("forms:schema.invalid", where=where, reason=exc.message[:200]) from exc
    props = schema.get("properties")
    if schema.get("type") != "object" or not isinstance(props, dict) or not props:
        raise BadRequest("forms:schema.not_object")
    if len(props) > MAX_FIELDS:
        raise BadRequest("forms:schema.too_many_fields", limit=MAX_FIELDS)
    for key, prop in props.items():
        if not FIELD_KEY.match(key):
            raise BadRequest("forms:schema.bad_key", key=key[:80])
        if isinstance(prop, dict):
            _check_field(schema, key, prop)
    return schema


def _check_field(schema: dict[str, Any], key: str, prop: dict[str, Any]) -> None:
    """A field's own conventions: ``x-dict`` names a dictionary type on a select or radio field, and a
    default value fits the field (its type, range, length, pattern or choices)."""
    if "x-dict" in prop:
        kind = prop.get("x-kind")
        dic = prop["x-dict"]
        if kind not in DICT_KINDS or not isinstance(dic, str) or not DICT_TYPE.match(dic):
            raise BadRequest("forms:schema.bad_dict", field=label(schema, key))
    if "default" in prop:
        plain = {k: v for k, v in prop.items() if k != "default"}
        if not Draft202012Validator(plain, format_checker=_FORMATS).is_valid(prop["default"]):
            raise BadRequest("forms:schema.bad_default", field=label(schema, key))


def dict_fields(schema: dict[str, Any]) -> dict[str, str]:
    """The top-level fields whose choices come from a dictionary: field key to dictionary type."""
    return {
        k: str(p["x-dict"])
        for k, p in schema.get("properties", {}).items()
        if isinstance(p, dict) and p.get("x-dict") and p.get("x-kind") in DICT_KINDS
    }


def person_fields(schema: dict[str, Any]) -> list[str]:
    """The top-level fields holding a picked user or tenant member."""
    return [
        k
        for k, p in schema.get("properties", {}).items()
        if isinstance(p, dict) and p.get("x-kind") in PERSON_KINDS
    ]


class _Validators:
    """Compiled validators by version: a saved version never changes, but a row id alone does not name one
    (SQLite gives a deleted form's last ids out again, and a process may serve more than one database), so
    the key is the row's id with the moment it was saved."""

    def __init__(self, size: int = 256) -> None:
        self.kept: Kept[Draft202012Validator] = Kept(size)

    def get(self, version: Hashable, schema: dict[str, Any]) -> Draft202012Validator:
        found = self.kept.get(version)
        if found is None:
            found = Draft202012Validator(schema, format_checker=_FORMATS)
            self.kept.put(version, found)
        return found


validators = _Validators()


def _visible(prop: dict[str, Any], data: dict[str, Any]) -> bool:
    rule = prop.get("x-visibleIf")
    if not isinstance(rule, dict) or "field" not in rule:
        return True
    other = data.get(str(rule["field"]))
    want = rule.get("value")
    if isinstance(other, list):
        return want in other
    return bool(other == want)


def clean(schema: dict[str, Any], data: Any) -> dict[str, Any]:
    """Unknown fields dropped (top level and sub-table rows), hidden and no-data fields dropped."""
    if not isinstance(data, dict):
        raise BadRequest("forms:submission.not_object")
    if len(orjson.dumps(data)) > MAX_SUBMISSION_BYTES:
        raise BadRequest("forms:submission.too_large", limit=MAX_SUBMISSION_BYTES // 1000)
    props: dict[str, Any] = schema.get("properties", {})
    out: dict[str, Any] = {}
    for key, value in data.items():
        prop = props.get(key)
        if not isinstance(prop, dict) or prop.get("x-kind") in NO_DATA_KINDS:
            continue
        if isinstance(value, list) and prop.get("x-kind") == "table":
            if len(value) > MAX_TABLE_ROWS:
                raise BadRequest(
                    "forms:submission.too_many_rows", field=label(schema, key), limit=MAX_TABLE_ROWS
                )
            row_props = (prop.get("items") or {}).get("properties") or {}
            if row_props:
                value = [
                    {k: v for k, v in row.items() if k in row_props} if isinstance(row, dict) else row
                    for row in value
                ]
        out[key] = value
    for key in list(out):
        if not _visible(props[key], out):
            del out[key]
    _check_files(schema, out)
    return out


def _check_files(schema: dict[str, Any], data: dict[str, Any]) -> None:
    """The upload rules: images are JPEG or PNG, at most 2 MB and 5 per field; other files at most 100 MB."""
    props = schema.get("properties", {})
    for key, value in data.items():
        kind = props[key].get("x-kind")
        if kind not in ("file", "image") or not isinstance(value, list):
            continue
        name = label(schema, key)
        limit = IMAGE_MAX_COUNT if kind == "image" else MAX_FILES
        if len(value) > limit:
            raise BadRequest("forms:file.too_many", field=name, limit=limit)
        for item in value:
            if not isinstance(item, dict):
                continue
            fname = str(item.get("name") or "")
            size = item.get("size")
            ext = fname.rsplit(".", 1)[-1].lower() if "." in fname else ""
            if kind == "image" and ext not in IMAGE_TYPES:
                raise BadRequest("forms:file.image_type", field=name)
            max_bytes = IMAGE_MAX_BYTES if kind == "image" else FILE_MAX_BYTES
            if isinstance(size, int | float) and size > max_bytes:
                raise BadRequest("forms:file.too_big", field=name, limit=max_bytes // (1024 * 1024))


def _field_of(schema: dict[str, Any], error: ValidationError) -> str:
    path = [str(p) for p in error.absolute_path]
    if error.validator == "required" and isinstance(error.instance, dict):
        missing = re.match(r"'(.+?)' is a required property", error.message)
        if missing:
            path.append(missing.group(1))
    return path[0] if path else ""


def _message(schema: dict[str, Any], error: ValidationError, field: str) -> str:
    t = services().t
    name = label(schema, field) if field else t("forms:v.form")
    kind = str(error.validator)
    limit = error.validator_value if isinstance(error.validator_value, int | float | str) else ""
    inner = [str(p) for p in error.absolute_path][1:]
    if inner and error.validator != "required":
        name = f"{name} ({' / '.join(inner)})"
    if _not_a_number(error):
        key = f"forms:v.{error.validator_value}"
    else:
        key = f"forms:v.{kind}" if kind in MESSAGES else "forms:v.invalid"
    return t(key, field=name, limit=limit)


#: the JSON types of number fields: a value of another type is "not a number" (``v.number``, ``v.integer``)
NUMBER_TYPES = frozenset({"number", "integer"})


MESSAGES = frozenset(
    {
        "required",
        "type",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "pattern",
        "enum",
        "const",
        "format",
        "minItems",
        "maxItems",
        "uniqueItems",
    }
)


def errors_of(
    validator: Draft202012Validator, schema: dict[str, Any], data: dict[str, Any]
) -> list[dict[str, str]]:
    """Every failed rule as ``{field, message}`` (the first per field), in the request's language."""
    found: dict[str, str] = {}
    for error in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        field = _field_of(schema, error)
        if field not in found:
            found[field] = _message(schema, error, field)
    return [{"field": f, "message": m} for f, m in found.items()]


def _not_a_number(error: ValidationError) -> bool:
    """A number field (``type`` number or integer, not a list of types) holding something else."""
    kind = error.validator_value
    return error.validator == "type" and isinstance(kind, str) and kind in NUMBER_TYPES


def check_draft(validator: Draft202012Validator, schema: dict[str, Any], data: dict[str, Any]) -> None:
    """A draft may leave out anything, but what it holds in a number field (or sub-table cell) must be a
    number: a word there is refused with the field's ``v.number`` message, as a submission's would be."""
    found: dict[str, str] = {}
    for error in validator.iter_errors(data):
        if not _not_a_number(error):
            continue
        field = _field_of(schema, error)
        found.setdefault(field, _message(schema, error, field))
    if found:
        errors = [{"field": f, "message": m} for f, m in found.items()]
        raise BadRequest(
            "forms:submission.invalid",
            data={"errors": errors},
            detail="; ".join(e["message"] for e in errors[:5]),
        )


def reference_errors(
    schema: dict[str, Any],
    data: dict[str, Any],
    codes: Callable[[str], Collection[str]],
    members: Callable[[list[int]], dict[int, str]],
) -> list[dict[str, str]]:
    """What the schema alone cannot check, against the platform: a dictionary field's value must be an item
    of its dictionary type (``codes``: the item codes of a type), and a picked person a member of the
    tenant (``members``: id to name for those of the ids who are). A picked person's name is set to the
    directory's (``data`` changes in place). Answers the field-level messages, like `errors_of`."""
    t = services().t
    errors: list[dict[str, str]] = []
    for key, dic in dict_fields(schema).items():
        value = data.get(key)
        if isinstance(value, str) and value not in codes(dic):
            errors.append({"field": key, "message": t("forms:v.enum", field=label(schema, key), limit="")})
    people = {k: data[k] for k in person_fields(schema) if isinstance(data.get(k), dict)}
    wanted = [
        p["id"] for p in people.values() if isinstance(p.get("id"), int) and not isinstance(p["id"], bool)
    ]
    names = members(wanted) if wanted else {}
    for key, person in people.items():
        pid = person.get("id")
        if not isinstance(pid, int) or isinstance(pid, bool) or pid not in names:
            errors.append({"field": key, "message": t("forms:v.member", field=label(schema, key))})
        else:
            data[key] = {"id": pid, "name": names[pid]}
    return errors


def check(
    validator: Draft202012Validator,
    schema: dict[str, Any],
    data: dict[str, Any],
    more: list[dict[str, str]] | None = None,
) -> None:
    """Raise a 400 with the field-level messages when ``data`` breaks the schema (or ``more`` holds the
    messages of `reference_errors`)."""
    valid = validator.is_valid(data)
    if valid and not more:
        return
    errors = [] if valid else errors_of(validator, schema, data)
    seen = {e["field"] for e in errors}
    errors += [e for e in more or [] if e["field"] not in seen]
    raise BadRequest(
        "forms:submission.invalid",
        data={"errors": errors},
        detail="; ".join(e["message"] for e in errors[:5]),
    )


def index_text(value: Any) -> str | None:
    """The searchable text of a value (None: not indexed): scalars, lists of scalars, picked people, files."""
    if value is None or isinstance(value, dict | list) and not value:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | str):
        return str(value)[:200]
    if isinstance(value, dict):
        text = value.get("name") or value.get("label") or value.get("id")
        return None if text is None else str(text)[:200]
    if isinstance(value, list):
        parts = [index_text(v) for v in value if not isinstance(v, list)]
        joined = ",".join(p for p in parts if p)
        return joined[:200] or None
    return None
