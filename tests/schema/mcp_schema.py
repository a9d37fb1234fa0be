"""The official MCP 2026-07-28 JSON Schema, derived at run time from a pinned
registry package instead of a copy of the schema text.

The package is PyPI `mcp-types` (pinned in scripts/python-requirements.txt):
the official Python SDK's wire types. Its module `mcp_types._v2026_07_28` is
generated from the official `schema/2026-07-28.json` (see its docstring), one
pydantic model or type alias per `$defs` entry, under the same names. This
module turns those back into a JSON Schema (draft 2020-12) whose `$defs` carry
the official names, so `validate.py` can check messages against
`$defs[<name>]` as it did against the schema file.

pydantic's rendering differs from the official text in a few places; each
difference that changes which messages validate is undone here:

  * Optional members: pydantic renders `x: T | None = None` as
    `anyOf: [T, {type: null}]`; the official schema has `T` and leaves the
    member out of `required` (an explicit `null` is invalid). `_strip_nulls`
    drops the null branch of every optional member whose default is `null`
    (after it, no `null` type is left anywhere: no required member is
    nullable).
  * Type aliases (`RequestId`, `InputRequests`, `JSONRPCResponse`, ...) are
    inlined by pydantic; they get their own `$defs` entry here, so a vector can
    name them.
  * `CORRECTIONS` (below): where the generated Python types are looser than the
    official schema. Each one first checks that the derived subschema is
    exactly what it expects, so a new `mcp-types` release that changes it
    stops the checks instead of silently changing what they accept.
  * `_compose`: the two official definitions the package has no type for.

Left as pydantic renders them, because they validate the same messages:
`format` annotations missing (`uri`, `byte`, `uri-template`: annotations only
under draft 2020-12, as the official schema is used), enum members in another
order, `additionalProperties: true` for `{}`, `anyOf` of types for a type
list, `["integer", "number"]` for `number`, and the `-320xx` errors written
out in full rather than as `allOf` with `Error`.

Checked against the official schema file (not in the repository) when
written, with mcp-types 2.3.0: all 155 official definitions present and, with
annotations dropped and the spellings above normalized, structurally the same;
and the same verdict in 144,163 of 144,163 validations: the 217 readable
vectors and 88 emitted messages against each of the 155 definitions (47,275),
and mutations of them (a member removed, given another type, or added)
against their own definitions (96,888). Without CORRECTIONS, 1,418 differ.
"""

import copy
import types
import typing

import mcp_types._v2026_07_28 as wire
from pydantic import BaseModel, TypeAdapter
from typing_extensions import TypeAliasType

# The version whose generated module this file was checked against. schema()
# refuses another one, so a bump of the pin in scripts/python-requirements.txt
# comes with a review of CORRECTIONS.
MCP_TYPES_VERSION = "2.3.0"
REVISION = "2026-07-28"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
REF = "#/$defs/{model}"


def _ref(name):
    return {"$ref": REF.format(model=name)}


# JSON scalars as the official schema has them: its JSONValue (and the values of
# an elicitation's submitted content) have no `number` and no `null` branch;
# Python's `float | None` adds both (pydantic flattens them into the union).
_PY_SCALARS = [{"type": "string"}, {"type": "integer"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"}]
_OFFICIAL_SCALARS = [{"type": ["string", "integer", "boolean"]}]
_JSON_OBJECT = {"additionalProperties": _ref("JSONValue"), "type": "object"}
_JSON_ARRAY = {"items": _ref("JSONValue"), "type": "array"}
_STRINGS = {"items": {"type": "string"}, "type": "array"}

# (definition, JSON Pointer inside it, the subschema pydantic gives there, the
# official one). Each rule is applied after _strip_nulls.
CORRECTIONS = [
    # JSONValue = JSONObject | JSONValue[] | string | integer | boolean (no
    # number, no null); the SDK's alias is Python's
    # `dict | list | str | int | float | bool | None`.
    ("JSONValue", "/anyOf", [_JSON_OBJECT, _JSON_ARRAY] + _PY_SCALARS, [_JSON_OBJECT, _JSON_ARRAY] + _OFFICIAL_SCALARS),
    # ElicitResult.content: values are string[] | string | integer | boolean.
    ("ElicitResult", "/properties/content/additionalProperties/anyOf", [_STRINGS] + _PY_SCALARS,
     [_STRINGS] + _OFFICIAL_SCALARS),
    # The form's requestedSchema.properties values are PrimitiveSchemaDefinition
    # (the SDK types them `Any`).
    ("RequestedSchema", "/properties/properties/additionalProperties", True, _ref("PrimitiveSchemaDefinition")),
    # `_meta` of a result: io.modelcontextprotocol/serverInfo is an
    # Implementation (the SDK types it `Any`).
    ("ResultMetaObject", "/properties/io.modelcontextprotocol~1serverInfo", {}, _ref("Implementation")),
    ("SubscriptionsListenResultMeta", "/properties/io.modelcontextprotocol~1serverInfo", {}, _ref("Implementation")),
]


def _names():
    """The module's wire definitions: its models and its type aliases, in
    source order. Names it only imports (typing's Any, Literal, ...) are not
    definitions."""
    out = []
    for name, obj in vars(wire).items():
        if name.startswith("_") or not name[0].isupper() or getattr(typing, name, None) is obj:
            continue
        if isinstance(obj, type) and issubclass(obj, BaseModel):
            if obj.__module__ == wire.__name__:
                out.append(name)
        elif isinstance(obj, (types.UnionType, types.GenericAlias, TypeAliasType)) or obj in (str, int):
            out.append(name)
        elif type(obj).__module__ == "typing":  # Literal[...] and Union[...] aliases
            out.append(name)
    return out


def _strip_nulls(s):
    """Optional members (`= None` in the model) lose their `null` branch."""
    if isinstance(s, list):
        return [_strip_nulls(x) for x in s]
    if not isinstance(s, dict):
        return s
    s = {k: _strip_nulls(v) for k, v in s.items()}
    props = s.get("properties")
    if isinstance(props, dict) and s.get("type") == "object":
        required = set(s.get("required", []))
        for member, ps in props.items():
            if member in required or not isinstance(ps, dict) or "anyOf" not in ps or ps.get("default", 0) is not None:
                continue
            rest = [b for b in ps["anyOf"] if b != {"type": "null"}]
            if len(rest) == len(ps["anyOf"]):
                continue
            ps = {k: v for k, v in ps.items() if k not in ("anyOf", "default")}
            if len(rest) == 1:
                ps.update(rest[0])
            else:
                ps["anyOf"] = rest
            props[member] = ps
    return s


def _locate(doc, pointer):
    """(parent, key) of a JSON Pointer inside doc."""
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer[1:].split("/")]
    cur = doc
    for p in parts[:-1]:
        cur = cur[int(p)] if isinstance(cur, list) else cur[p]
    last = parts[-1]
    return cur, (int(last) if isinstance(cur, list) else last)


def _correct(defs):
    for name, pointer, derived, official in CORRECTIONS:
        parent, key = _locate(defs[name], pointer)
        have = parent[key]
        if isinstance(have, dict):
            # Compare without annotations (titles, descriptions).
            have = {k: v for k, v in have.items() if k not in ("title", "description")}
        if have != derived:
            raise RuntimeError(
                f"mcp-types changed $defs/{name}{pointer}: expected {derived!r}, got {have!r}; "
                "review CORRECTIONS in tests/schema/mcp_schema.py")
        parent[key] = copy.deepcopy(official)


def _compose(defs):
    """The official definitions mcp-types has no type for."""
    # The `_meta` of a SubscriptionsListenResult: the SDK nests it as a model of
    # its own; the official schema names it.
    assert "SubscriptionsListenResultMetaObject" not in defs
    defs["SubscriptionsListenResultMetaObject"] = _ref("SubscriptionsListenResultMeta")
    # A JSON-RPC result response whose result is a SubscriptionsListenResult.
    assert "SubscriptionsListenResultResponse" not in defs
    response = copy.deepcopy(defs["JSONRPCResultResponse"])
    if response.get("properties", {}).get("result") != _ref("Result"):
        raise RuntimeError("mcp-types changed $defs/JSONRPCResultResponse; review _compose in tests/schema/mcp_schema.py")
    response["properties"]["result"] = _ref("SubscriptionsListenResult")
    response["title"] = "SubscriptionsListenResultResponse"
    response.pop("description", None)
    defs["SubscriptionsListenResultResponse"] = response


def _installed_version():
    from importlib.metadata import version
    return version("mcp-types")


def schema():
    """The schema as one JSON value: {"$schema": ..., "$defs": {...}}."""
    installed = _installed_version()
    if installed != MCP_TYPES_VERSION:
        raise RuntimeError(f"mcp-types {installed} is installed, tests/schema/mcp_schema.py was checked against "
                           f"{MCP_TYPES_VERSION}: review its corrections, then change MCP_TYPES_VERSION")
    if f"schema/{REVISION}.json" not in (wire.__doc__ or ""):
        raise RuntimeError(f"mcp_types._v2026_07_28 no longer says it is generated from schema/{REVISION}.json")
    names = _names()
    inputs = [(name, "validation", TypeAdapter(getattr(wire, name))) for name in names]
    tops, shared = TypeAdapter.json_schemas(inputs, ref_template=REF)
    defs = shared.get("$defs", {})
    for (name, _mode), top in tops.items():
        if top == _ref(name):
            continue  # a model: pydantic put it in $defs under its own name
        # A type alias (or a model pydantic renamed): its own definition.
        assert name not in defs, name
        defs[name] = top
    defs = _strip_nulls(defs)
    _correct(defs)
    _compose(defs)
    return {"$schema": DRAFT, "$defs": defs}

