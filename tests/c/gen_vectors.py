#!/usr/bin/env python3
"""Writes the shared vectors (tests/vectors/) as C tables: every
server_response vector for a client call, every client_request vector for
the server parser.

Usage: gen_vectors.py VECTOR_DIR OUTPUT_HEADER

Run by scripts/test-c at test time; the output is not committed. Each entry
gives the bytes to feed (the file's message text re-serialized in member
order, which the vector format allows; message_text as UTF-8;
message_base64 decoded), the call to set up (method, capabilities, request
id) and the expected outcome. A string id is replaced by the number 1:
mrtr calls use number ids, and the vectors do not test id matching.
Vectors a mrtr call cannot be set up for are listed as skipped with the
reason: a server of an earlier revision (a call speaks 2026-07-28 only),
or a method other than tools/call, prompts/get, resources/read (unless
the bytes are not JSON at all, where the method cannot matter).
"""
import base64
import json
import pathlib
import sys

CALL_METHODS = {"tools/call": 1, "prompts/get": 2, "resources/read": 3}
DEFAULT_CAPS = {"elicitation": {"form": {}, "url": {}}, "sampling": {"tools": {}}, "roots": {}}
KINDS = {"elicit_form": "F", "elicit_url": "U", "sampling": "S", "roots": "R"}
OUTCOMES = {"complete": 1, "input_required": 2, "rpc_error": 3, "invalid": 4}


def caps_mask(caps):
    m = 0
    e = caps.get("elicitation")
    if isinstance(e, dict):
        if "form" in e or ("url" not in e):
            m |= 1
        if "url" in e:
            m |= 2
    s = caps.get("sampling")
    if isinstance(s, dict):
        m |= 4
        if "tools" in s:
            m |= 8
        if "context" in s:
            m |= 16
    if isinstance(caps.get("roots"), dict):
        m |= 32
    ext = caps.get("extensions")
    if isinstance(ext, dict) and "io.modelcontextprotocol/tasks" in ext:
        m |= 64
    return m


def c_bytes(b):
    if not b:
        return "{0}"
    return "{" + ",".join(str(x) for x in b) + "}"


def c_str(s):
    return '"' + "".join(
        ch if 32 <= ord(ch) < 127 and ch not in '"\\?' else "\\%03o" % ord(ch)
        for ch in s
    ) + '"'


def message_bytes(v):
    """The bytes a vector feeds (and the call id its message names)."""
    call_id = 1
    if "message" in v:
        msg = v["message"]
        if isinstance(msg, dict) and "id" in msg:
            if isinstance(msg["id"], str) and v["direction"] == "server_response":
                msg = dict(msg)
                msg["id"] = 1
            elif isinstance(msg["id"], int) and not isinstance(msg["id"], bool):
                if abs(msg["id"]) <= (1 << 53) - 1:
                    call_id = msg["id"]
        return json.dumps(msg, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), call_id
    if "message_text" in v:
        return v["message_text"].encode("utf-8"), call_id
    return base64.b64decode(v["message_base64"]), call_id


def text_entry(arrays, name, value):
    """A `struct vector_text` initializer for an optional string."""
    if value is None:
        return "{NULL, 0, 0}"
    b = value.encode("utf-8")
    arrays.append(f"static const uint8_t {name}[] = {c_bytes(b)};")
    return f"{{{name}, {len(b)}, 1}}"


def client_request(i, name, v, arrays):
    """The C initializer of one client_request vector."""
    exp = v["expect"]
    data, _ = message_bytes(v)
    arrays.append(f"static const uint8_t R{i}_BYTES[] = {c_bytes(data)};")
    responses = exp.get("inputResponses", []) if exp["outcome"] == "request" else []
    keys = []
    for j, r in enumerate(responses):
        keys.append(text_entry(arrays, f"R{i}_K{j}", r["key"]))
    arrays.append(
        f"static const struct vector_text R{i}_KEYS[] = {{{','.join(keys) or '{NULL, 0, 0}'}}};"
    )
    req = exp["outcome"] == "request"
    return "{" + ", ".join([
        c_str(name),
        f"R{i}_BYTES",
        str(len(data)),
        "1" if req else "4",
        c_str(exp.get("error", "")),
        text_entry(arrays, f"R{i}_METHOD", exp.get("method") if req else None),
        "1" if exp.get("hasRequestState") else "0",
        str(len(responses)),
        f"R{i}_KEYS",
        c_str("".join("W" if r["shape"] == "wrapped" else "B" for r in responses)),
        text_entry(arrays, f"R{i}_VERSION", exp.get("protocolVersion") if req else None),
        text_entry(arrays, f"R{i}_NAME", exp.get("name")),
        text_entry(arrays, f"R{i}_URI", exp.get("uri")),
        text_entry(arrays, f"R{i}_TASK", exp.get("taskId")),
    ]) + "}"


def main():
    src, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    arrays, entries, skipped, requests = [], [], [], []
    for i, path in enumerate(sorted(src.glob("*/*.json"))):
        v = json.loads(path.read_text(encoding="utf-8"))
        if v["direction"] == "client_request":
            requests.append(client_request(i, f"{path.parent.name}/{path.stem}", v, arrays))
            continue
        if v["direction"] != "server_response":
            continue
        name = f"{path.parent.name}/{path.stem}"
        exp = v["expect"]
        method = v["method"]
        not_json = exp["outcome"] == "invalid" and exp.get("error") == "json"
        if v.get("server_protocol_version", "2026-07-28") != "2026-07-28":
            skipped.append((name, "server of an earlier revision"))
            continue
        if method not in CALL_METHODS:
            if not not_json:
                skipped.append((name, f"method {method} is not a call"))
                continue
            method = "tools/call"
        data, call_id = message_bytes(v)
        arrays.append(f"static const uint8_t V{i}_BYTES[] = {c_bytes(data)};")
        inputs = exp.get("inputs", []) if exp["outcome"] == "input_required" else []
        keys = [x["key"].encode("utf-8") for x in inputs]
        for j, k in enumerate(keys):
            arrays.append(f"static const uint8_t V{i}_K{j}[] = {c_bytes(k)};")
        arrays.append(
            f"static const struct vector_key V{i}_KEYS[] = {{"
            + ",".join(f"{{V{i}_K{j}, {len(k)}}}" for j, k in enumerate(keys))
            + ("{NULL, 0}" if not keys else "")
            + "};"
        )
        state = exp.get("requestState") if exp["outcome"] == "input_required" else None
        sb = state.encode("utf-8") if state is not None else b""
        arrays.append(f"static const uint8_t V{i}_STATE[] = {c_bytes(sb)};")
        message = exp.get("message", "").encode("utf-8") if exp["outcome"] == "rpc_error" else b""
        arrays.append(f"static const uint8_t V{i}_MSG[] = {c_bytes(message)};")
        entries.append(
            "{"
            + ", ".join(
                [
                    c_str(name),
                    str(CALL_METHODS[method]),
                    str(caps_mask(v.get("client_capabilities", DEFAULT_CAPS))),
                    f"INT64_C({call_id})",
                    f"V{i}_BYTES",
                    str(len(data)),
                    str(OUTCOMES[exp["outcome"]]),
                    c_str(exp.get("error", "")),
                    f"INT64_C({exp.get('code', 0)})",
                    str(len(inputs)),
                    c_str("".join(KINDS[x["kind"]] for x in inputs)),
                    f"V{i}_KEYS",
                    "1" if state is not None else "0",
                    f"V{i}_STATE",
                    str(len(sb)),
                    f"V{i}_MSG",
                    str(len(message)),
                ]
            )
            + "}"
        )
    lines = [
        "/* Generated by tests/c/gen_vectors.py from tests/vectors/. Do not edit. */",
        "#include <stddef.h>",
        "#include <stdint.h>",
        "struct vector_key { const uint8_t *bytes; size_t len; };",
        "struct vector {",
        "    const char *name; uint32_t method; uint32_t caps; int64_t id;",
        "    const uint8_t *bytes; size_t len;",
        "    int outcome; /* 1 complete, 2 input_required, 3 rpc_error, 4 invalid */",
        "    const char *error; int64_t code;",
        "    size_t inputs; const char *kinds; const struct vector_key *keys;",
        "    int has_state; const uint8_t *state; size_t state_len;",
        "    const uint8_t *message; size_t message_len;",
        "};",
        "struct vector_skip { const char *name; const char *why; };",
        "struct vector_text { const uint8_t *bytes; size_t len; int present; };",
        "struct request_vector {",
        "    const char *name; const uint8_t *bytes; size_t len;",
        "    int outcome; /* 1 request, 4 invalid */ const char *error;",
        "    struct vector_text method; int has_state;",
        "    size_t responses; const struct vector_text *keys; const char *shapes;",
        "    struct vector_text version, target_name, uri, task_id;",
        "};",
        *arrays,
        "static const struct vector VECTORS[] = {",
        ",\n".join(entries),
        "};",
        "static const struct vector_skip VECTORS_SKIPPED[] = {",
        ",\n".join(f"{{{c_str(n)}, {c_str(w)}}}" for n, w in skipped) or '{"", ""}',
        "};",
        f"#define VECTORS_SKIPPED_COUNT {len(skipped)}",
        "static const struct request_vector REQUEST_VECTORS[] = {",
        ",\n".join(requests),
        "};",
        "",
    ]
    out.write_text("\n".join(lines), encoding="utf-8")
    print(
        f"gen_vectors: {len(entries)} server_response vectors ({len(skipped)} skipped), "
        f"{len(requests)} client_request vectors -> {out}"
    )


if __name__ == "__main__":
    main()
