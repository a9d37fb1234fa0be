#!/usr/bin/env python3
"""Checks the shared test vectors (tests/vectors/) against their format and the
official 2026-07-28 JSON Schema, and optionally validates messages our
emitters wrote (--emitted DIR).

The schema is derived at run time from the pinned PyPI package `mcp-types`
(the official SDK's wire types; see mcp_schema.py); no copy of the schema text
is kept here. `--schema FILE` validates against a schema file instead (the
official schema-2026-07-28.json, say, to compare verdicts).

For every vector file:
  * the file is UTF-8 JSON with no duplicate keys and no lone surrogates
    (every language's JSON library must be able to read it);
  * it follows the format of tests/vectors/README.md (fields, outcomes, error
    categories, input kinds);
  * schema_valid is true exactly when the message validates against
    $defs[schema_def] and against every $defs[...] named in schema_parts;
  * an independent strict JSON reading (RFC 8259, depth limit 32) agrees with
    the vector on whether the bytes are JSON at all (`error: "json"`);
  * where the message is readable, the expectation matches what the message
    says (same keys in the same order, same requestState, same error code).
With --emitted DIR, each DIR/<SchemaDef>__<anything>.json must validate
against $defs[<SchemaDef>].

Prints `vectors: N passed, M failed` and exits non-zero if M > 0.
"""

import argparse
import base64
import json
import os
import re
import sys

from jsonschema import Draft202012Validator

import mcp_schema

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_VECTORS = os.path.join(REPO, "tests", "vectors")

MAX_DEPTH = 32  # the runners' default nesting limit; the outermost value counts as 1
MAX_MESSAGE_BYTES = 1 << 20

TOP_KEYS = {"description", "direction", "method", "server_protocol_version", "client_capabilities", "message",
            "message_text", "message_base64", "schema_valid", "schema_def", "schema_parts", "expect"}
MESSAGE_KEYS = ("message", "message_text", "message_base64")
DIRECTIONS = {"server_response", "client_request"}
CATEGORIES = {"json", "envelope", "protocol"}
SERVER_OUTCOMES = {"complete", "input_required", "rpc_error", "invalid"}
CLIENT_OUTCOMES = {"request", "invalid"}
KIND_FIELDS = {
    "elicit_form": {"key", "kind", "message"},
    "elicit_url": {"key", "kind", "message", "url"},
    "sampling": {"key", "kind", "maxTokens", "systemPrompt", "hasTools"},
    "roots": {"key", "kind"},
}
NAME_RE = re.compile(r"^[a-z0-9][a-z0-9.-]*\.json$")
ABSENT = object()


class VectorError(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise VectorError(msg)


# ------------------------------------------------------------------ JSON

def _no_duplicates(pairs):
    seen = set()
    for k, _ in pairs:
        if k in seen:
            raise VectorError(f"duplicate key {k!r}")
        seen.add(k)
    return dict(pairs)


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def _walk_strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from _walk_strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from _walk_strings(x)


def depth(v):
    """Container nesting depth: the outermost object or array counts as 1,
    scalars add nothing (`[[1]]` is 2), as in mrtr's reader."""
    best, stack = 0, [(v, 1)]
    while stack:
        x, d = stack.pop()
        if isinstance(x, (dict, list)):
            best = max(best, d)
            stack.extend((y, d + 1) for y in (x.values() if isinstance(x, dict) else x))
    return best


def strict_json(data, forbid_duplicates=False):
    """Parse bytes as RFC 8259 JSON with our limits; raise ValueError if not."""
    if len(data) > MAX_MESSAGE_BYTES:
        raise ValueError("larger than the message limit")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"invalid UTF-8: {e}") from None
    hook = _no_duplicates if forbid_duplicates else None
    try:
        value = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=hook)
    except RecursionError:
        raise ValueError("nesting too deep for the reference reader") from None
    except json.JSONDecodeError as e:
        raise ValueError(str(e)) from None
    for s in _walk_strings(value):
        try:
            s.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("lone surrogate escape") from None
    if depth(value) > MAX_DEPTH:
        raise ValueError(f"nesting deeper than {MAX_DEPTH}")
    return value


def message_bytes(v):
    if "message" in v:
        # The runners feed the exact text of the value in the file; any
        # compact re-serialization is equivalent JSON for these checks.
        return json.dumps(v["message"], ensure_ascii=False).encode("utf-8")
    if "message_text" in v:
        return v["message_text"].encode("utf-8", errors="surrogatepass")
    try:
        return base64.b64decode(v["message_base64"], validate=True)
    except ValueError as e:
        raise VectorError(f"message_base64 is not base64: {e}") from None


# ---------------------------------------------------------------- schema

class Schema:
    def __init__(self, root):
        self.root = root
        Draft202012Validator.check_schema(self.root)
        self.defs = self.root["$defs"]
        self._validators = {}

    def validator(self, name):
        if name not in self.defs:
            raise VectorError(f"schema has no $defs[{name!r}]")
        if name not in self._validators:
            # The whole schema is the referencing root, so "#/$defs/..." resolves.
            root = dict(self.root)
            root["$ref"] = f"#/$defs/{name}"
            self._validators[name] = Draft202012Validator(root)
        return self._validators[name]

    def errors(self, name, value):
        return [e.message for e in self.validator(name).iter_errors(value)]


def pointer_get(doc, pointer):
    if pointer == "":
        return doc
    check(pointer.startswith("/"), f"schema_parts key {pointer!r} is not a JSON pointer")
    cur = doc
    for raw in pointer[1:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(cur, dict) and part in cur:
            cur = cur[part]
        elif isinstance(cur, list) and part.isdigit() and int(part) < len(cur):
            cur = cur[int(part)]
        else:
            raise VectorError(f"schema_parts pointer {pointer!r} does not exist in the message")
    return cur


# ---------------------------------------------------------------- format

def check_format(v):
    check(isinstance(v, dict), "a vector is a JSON object")
    unknown = set(v) - TOP_KEYS
    check(not unknown, f"unknown fields {sorted(unknown)}")
    check(isinstance(v.get("description"), str) and len(v["description"]) >= 10, "description: a sentence")
    check(v.get("direction") in DIRECTIONS, f"direction: one of {sorted(DIRECTIONS)}")
    given = [k for k in MESSAGE_KEYS if k in v]
    check(len(given) == 1, f"exactly one of {MESSAGE_KEYS}, got {given}")
    if "message_text" in v:
        check(isinstance(v["message_text"], str), "message_text: a string")
    if "message_base64" in v:
        check(isinstance(v["message_base64"], str), "message_base64: a string")
    check(isinstance(v.get("schema_valid"), bool), "schema_valid: true or false")
    if "schema_def" in v:
        check(isinstance(v["schema_def"], str), "schema_def: a $defs name")
    if v["schema_valid"]:
        check("schema_def" in v, "schema_valid true needs schema_def")
    if "schema_parts" in v:
        check(isinstance(v["schema_parts"], dict) and v["schema_parts"], "schema_parts: a non-empty object")
        check(all(isinstance(x, str) for x in v["schema_parts"].values()), "schema_parts values: $defs names")
        check("schema_def" in v, "schema_parts needs schema_def")
    if "server_protocol_version" in v:
        check(v["direction"] == "server_response", "server_protocol_version is for server_response")
        check(isinstance(v["server_protocol_version"], str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}",
                                                                             v["server_protocol_version"]),
              "server_protocol_version: a revision date")
    if "client_capabilities" in v:
        check(v["direction"] == "server_response", "client_capabilities is for server_response")
        check(isinstance(v["client_capabilities"], dict), "client_capabilities: an object")
    if v["direction"] == "server_response":
        check(isinstance(v.get("method"), str) and v["method"], "server_response needs method")
    else:
        check("method" not in v, "client_request takes its method from the message")
    e = v.get("expect")
    check(isinstance(e, dict), "expect: an object")
    outcome = e.get("outcome")
    if outcome == "invalid":
        check(set(e) == {"outcome", "error"}, "invalid: fields outcome, error")
        check(e["error"] in CATEGORIES, f"invalid.error: one of {sorted(CATEGORIES)}")
    elif v["direction"] == "server_response":
        check(outcome in SERVER_OUTCOMES, f"server_response outcome: one of {sorted(SERVER_OUTCOMES)}")
        if outcome == "complete":
            check(set(e) == {"outcome"}, "complete: no other fields")
        elif outcome == "rpc_error":
            check(set(e) == {"outcome", "code", "message"}, "rpc_error: fields outcome, code, message")
            check(type(e["code"]) is int and isinstance(e["message"], str), "rpc_error: integer code, string message")
        else:
            check(set(e) == {"outcome", "requestState", "inputs"}, "input_required: fields outcome, requestState, inputs")
            check(e["requestState"] is None or isinstance(e["requestState"], str), "requestState: string or null")
            check(isinstance(e["inputs"], list), "inputs: a list")
            keys = []
            for i in e["inputs"]:
                check(isinstance(i, dict) and i.get("kind") in KIND_FIELDS,
                      f"input kind: one of {sorted(KIND_FIELDS)}")
                check(set(i) == KIND_FIELDS[i["kind"]], f"{i['kind']} input: fields {sorted(KIND_FIELDS[i['kind']])}")
                check(isinstance(i["key"], str), "input key: a string")
                for f in ("message", "url"):
                    if f in i:
                        check(isinstance(i[f], str), f"input {f}: a string")
                if i["kind"] == "sampling":
                    check(type(i["maxTokens"]) is int, "maxTokens: an integer")
                    check(i["systemPrompt"] is None or isinstance(i["systemPrompt"], str), "systemPrompt: string or null")
                    check(isinstance(i["hasTools"], bool), "hasTools: a boolean")
                keys.append(i["key"])
            check(len(keys) == len(set(keys)), "input keys are unique")
            check(e["requestState"] is not None or keys, "input_required with no inputs needs a requestState")
    else:
        check(outcome in CLIENT_OUTCOMES, f"client_request outcome: one of {sorted(CLIENT_OUTCOMES)}")
        allowed = {"outcome", "method", "name", "uri", "taskId", "hasRequestState", "inputResponses", "protocolVersion"}
        check(set(e) <= allowed, f"request: fields among {sorted(allowed)}")
        for f in ("method", "hasRequestState", "inputResponses", "protocolVersion"):
            check(f in e, f"request: needs {f}")
        check(isinstance(e["method"], str), "request.method: a string")
        target = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri",
                  "tasks/update": "taskId", "tasks/input_response": "taskId"}.get(e["method"])
        for f in ("name", "uri", "taskId"):
            check((f in e) == (f == target), f"request for {e['method']}: {'needs' if f == target else 'no'} {f}")
            if f in e:
                check(isinstance(e[f], str), f"request.{f}: a string")
        check(isinstance(e["hasRequestState"], bool), "hasRequestState: a boolean")
        check(e["protocolVersion"] is None or isinstance(e["protocolVersion"], str), "protocolVersion: string or null")
        check(isinstance(e["inputResponses"], list), "inputResponses: a list")
        for r in e["inputResponses"]:
            check(isinstance(r, dict) and set(r) == {"key", "shape"} and isinstance(r["key"], str)
                  and r["shape"] in ("bare", "wrapped"), "inputResponses entry: {key, shape: bare|wrapped}")


# ----------------------------------------------------- message vs expect

def check_agreement(v, value):
    """Cross-check the expectation against what a readable message says."""
    e = v["expect"]
    if e["outcome"] == "invalid" or not isinstance(value, dict):
        return
    if v["direction"] == "server_response":
        if e["outcome"] == "rpc_error":
            err = value.get("error", {})
            check(err.get("code") == e["code"] and err.get("message") == e["message"],
                  "expect code/message differ from the message's error")
            return
        result = value.get("result")
        check(isinstance(result, dict), f"outcome {e['outcome']} but the message has no result object")
        rtype = result.get("resultType", ABSENT)
        if e["outcome"] == "complete":
            legacy = v.get("server_protocol_version", "2026-07-28") < "2026-07-28"
            # An absent resultType is complete (schema; conformance check
            # sep-2322-default-result-type-complete), unless a 2026-07-28
            # result carries MRTR fields: a SEP-draft IncompleteResult.
            mrtr_fields = "inputRequests" in result or "requestState" in result
            check(rtype == "complete" or (rtype is ABSENT and (legacy or not mrtr_fields)),
                  "outcome complete needs resultType complete or absent (absent with MRTR fields only from an earlier revision)")
            return
        check(rtype == "input_required", "outcome input_required needs resultType input_required")
        check(result.get("requestState") == e["requestState"], "requestState differs from the message")
        keys = list(result.get("inputRequests", {}).keys())
        check(keys == [i["key"] for i in e["inputs"]], "input keys differ from inputRequests (order matters)")
        for i in e["inputs"]:
            req = result["inputRequests"][i["key"]]
            params = req.get("params", {})
            for f in ("message", "url", "maxTokens"):
                if f in i:
                    check(params.get(f) == i[f], f"input {i['key']}: {f} differs from the message")
            if i["kind"] == "sampling":
                check(params.get("systemPrompt") == i["systemPrompt"], f"input {i['key']}: systemPrompt differs")
                check(("tools" in params) == i["hasTools"], f"input {i['key']}: hasTools differs")
    else:
        check(value.get("method") == e["method"], "request method differs from the message")
        params = value.get("params", {})
        for f in ("name", "uri"):
            if f in e:
                check(params.get(f) == e[f], f"request {f} differs from the message")
        check(("requestState" in params) == e["hasRequestState"], "hasRequestState differs from the message")
        responses = params.get("inputResponses", {})
        check([r["key"] for r in e["inputResponses"]] == list(responses.keys()),
              "inputResponses keys differ from the message (order matters)")
        for r in e["inputResponses"]:
            val = responses[r["key"]]
            wrapped = isinstance(val, dict) and list(val) == ["result"]
            check((r["shape"] == "wrapped") == wrapped, f"inputResponses {r['key']}: shape differs")
        pv = params.get("_meta", {}).get("io.modelcontextprotocol/protocolVersion")
        check(pv == e["protocolVersion"], "protocolVersion differs from the message")


# ---------------------------------------------------------------- driver

def check_vector(path, schema):
    with open(path, "rb") as f:
        raw = f.read()
    try:
        v = json.loads(raw.decode("utf-8"), object_pairs_hook=_no_duplicates)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise VectorError(f"the file is not UTF-8 JSON: {e}") from None
    for s in _walk_strings(v):
        try:
            s.encode("utf-8")
        except UnicodeEncodeError:
            raise VectorError("the file holds a lone surrogate; put such text in message_text as an escape") from None
    check_format(v)

    data = message_bytes(v)
    try:
        value = strict_json(data)
        json_error = None
    except ValueError as e:
        value, json_error = None, str(e)
    is_json_case = v["expect"] == {"outcome": "invalid", "error": "json"}
    if is_json_case:
        check(json_error is not None, "expects a JSON error, but the bytes are strict JSON")
    else:
        check(json_error is None, f"the bytes are not strict JSON ({json_error}), so expect error must be json")

    # Schema agreement. Messages with duplicate keys have no single JSON value
    # to validate, so they cannot claim a schema result.
    has_dups = False
    if value is not None:
        try:
            strict_json(data, forbid_duplicates=True)
        except VectorError:
            has_dups = True
    if "schema_def" in v:
        check(value is not None and not has_dups, "schema_def given, but the message is not one JSON value")
        failures = [f"{v['schema_def']}: {m}" for m in schema.errors(v["schema_def"], value)]
        for pointer, name in v.get("schema_parts", {}).items():
            failures += [f"{name} at {pointer}: {m}" for m in schema.errors(name, pointer_get(value, pointer))]
        if v["schema_valid"]:
            check(not failures, "claims schema_valid but: " + "; ".join(failures[:3]))
        else:
            check(failures, f"claims schema_valid false, but it validates as {v['schema_def']}"
                            + (" and its schema_parts" if "schema_parts" in v else ""))
    if value is not None and not has_dups:
        check_agreement(v, value)


def check_emitted(path, schema):
    name = os.path.basename(path)
    check("__" in name and name.endswith(".json"), "emitted files are named <SchemaDef>__<anything>.json")
    with open(path, "rb") as f:
        try:
            value = strict_json(f.read(), forbid_duplicates=True)
        except ValueError as e:
            raise VectorError(f"not strict JSON: {e}") from None
    failures = schema.errors(name.split("__", 1)[0], value)
    check(not failures, "; ".join(failures[:3]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--schema", metavar="FILE",
                    help="validate against this JSON Schema file (default: the schema derived from mcp-types)")
    ap.add_argument("--vectors", default=DEFAULT_VECTORS, help="vector directory (default: tests/vectors)")
    ap.add_argument("--emitted", metavar="DIR", help="also validate DIR/<SchemaDef>__*.json")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every file")
    args = ap.parse_args()

    if args.schema:
        with open(args.schema, encoding="utf-8") as f:
            schema = Schema(json.load(f))
        print(f"schema: {args.schema}")
    else:
        schema = Schema(mcp_schema.schema())
        print(f"schema: {mcp_schema.REVISION}, derived from mcp-types {mcp_schema.MCP_TYPES_VERSION} "
              f"({len(schema.defs)} definitions)")
    jobs = []
    for dirpath, dirnames, filenames in os.walk(args.vectors):
        dirnames.sort()
        for fn in sorted(filenames):
            if fn.endswith(".json"):
                jobs.append((os.path.join(dirpath, fn), check_vector))
    if args.emitted:
        if not os.path.isdir(args.emitted):
            print(f"FAIL {args.emitted}: --emitted directory does not exist")
            print("vectors: 0 passed, 1 failed")
            return 1
        jobs += [(os.path.join(args.emitted, fn), check_emitted)
                 for fn in sorted(os.listdir(args.emitted)) if fn.endswith(".json")]

    passed = failed = 0
    groups = {}
    for path, fn in jobs:
        rel = os.path.relpath(path, args.vectors) if fn is check_vector else path
        try:
            if fn is check_vector:
                parts = rel.split(os.sep)
                check(len(parts) == 2, "vectors live in tests/vectors/<group>/<name>.json")
                check(NAME_RE.match(parts[1]), "file name: lower-case letters, digits, '-' and '.'")
                groups[parts[0]] = groups.get(parts[0], 0) + 1
            fn(path, schema)
        except VectorError as e:
            failed += 1
            print(f"FAIL {rel}: {e}")
        else:
            passed += 1
            if args.verbose:
                print(f"ok   {rel}")
    if groups:
        print("groups: " + ", ".join(f"{g} {n}" for g, n in sorted(groups.items())))
    if passed + failed == 0:
        print("FAIL: no vectors found")
        failed = 1
    print(f"vectors: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
