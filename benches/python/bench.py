"""The official Python SDK (mcp==2.3.0) on the same jobs and the same bytes.

Run by scripts/bench after `mrtr-callgrind dump DIR` wrote the inputs:

    python bench.py DIR OUT.json [--quick]

Jobs, as the SDK's client runs them (mcp/client/session.py, send_request):
- parse+classify: `jsonrpc_message_adapter.validate_json(bytes)` (pydantic,
  JSON-RPC envelope), `validate_server_result("tools/call", "2026-07-28",
  result)` (the version-surface check the session runs), then the session's
  tools/call result adapter (`CallToolResult | InputRequiredResult`), then
  each input request's key, kind and message.
- client leg: the above, answers as typed results (`ElicitResult`,
  `CreateMessageResult`, `ListRootsResult`), then the retry request as the
  session builds it (`CallToolRequest(...).model_dump(by_alias, mode=json,
  exclude_none)`) wrapped in a `JSONRPCRequest` and serialized to bytes.
- seal: `RequestStateBoundary._seal` + `._unseal` (every claim: request
  binding, audience, principal; AES-256-GCM codec) of a 0/64/256/1024-byte
  state, and the codec alone (`AESGCMRequestStateCodec.seal` + `unseal`).

Before timing, each job's output is checked against mrtr's (the summary in
the manifest; the retry request as a JSON value), so all contenders do the
same work. Times are per operation: the median of repeats of `timeit`.
"""

from __future__ import annotations

import json
import statistics
import sys
import timeit
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import mcp
import mcp_types as types
from mcp.client.session import _CallToolResultAdapter
from mcp.server.request_state import (
    AESGCMRequestStateCodec,
    RequestStateBoundary,
    RequestStateSecurity,
)
from mcp_types import jsonrpc
from mcp_types import methods as _methods

PROTOCOL = "2026-07-28"
TOOL_NAME = "deploy"
TOOL_ARGUMENTS = {"repo": "octocat/hello-world", "environment": "production", "replicas": 3}
KEY = bytes([0x42]) * 32
PRINCIPAL = "https://issuer.example|client-7|user-42"
AUDIENCE = "bench.example"
SEAL_SIZES = [0, 64, 256, 1024]


def classify(raw: bytes) -> Any:
    """Envelope, version surface, result union: the session's receive path."""
    msg = jsonrpc.jsonrpc_message_adapter.validate_json(raw)
    if not isinstance(msg, jsonrpc.JSONRPCResponse):
        raise ValueError("not a result response")
    result = msg.result
    _methods.validate_server_result("tools/call", PROTOCOL, result)
    return _CallToolResultAdapter.validate_python(result, by_name=False)


def kind_of(req: Any) -> tuple[str, str | None]:
    if isinstance(req, types.ElicitRequest):
        p = req.params
        if getattr(p, "mode", None) == "url":
            return "url", p.message
        return "form", p.message
    if isinstance(req, types.CreateMessageRequest):
        return "sampling", None
    if isinstance(req, types.ListRootsRequest):
        return "roots", None
    raise ValueError(f"unknown input request {type(req)}")


def parse(raw: bytes) -> dict[str, int]:
    result = classify(raw)
    s = {"inputs": 0, "forms": 0, "urls": 0, "samplings": 0, "roots": 0,
         "key_bytes": 0, "message_bytes": 0, "state_bytes": 0}
    if not isinstance(result, types.InputRequiredResult):
        return s
    for key, req in (result.input_requests or {}).items():
        kind, message = kind_of(req)
        s["inputs"] += 1
        s[{"form": "forms", "url": "urls", "sampling": "samplings", "roots": "roots"}[kind]] += 1
        s["key_bytes"] += len(key.encode())
        if message is not None:
            s["message_bytes"] += len(message.encode())
    if result.request_state is not None:
        s["state_bytes"] = len(result.request_state.encode())
    return s


def answer(req: Any) -> Any:
    kind, _ = kind_of(req)
    if kind == "form":
        return types.ElicitResult(action="accept", content={"name": "octocat"})
    if kind == "url":
        return types.ElicitResult(action="accept")
    if kind == "sampling":
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text="Paris"),
            model="claude-3-sonnet",
            stop_reason="endTurn",
        )
    return types.ListRootsResult(roots=[types.Root(uri="file:///home/user/project", name="project")])


def leg(raw: bytes, meta: dict[str, Any]) -> bytes:
    result = classify(raw)
    responses = {key: answer(req) for key, req in (result.input_requests or {}).items()}
    request = types.CallToolRequest(
        params=types.CallToolRequestParams(
            name=TOOL_NAME,
            arguments=TOOL_ARGUMENTS,
            input_responses=responses,
            request_state=result.request_state,
            _meta=meta,
        )
    )
    data = request.model_dump(by_alias=True, mode="json", exclude_none=True)
    envelope = jsonrpc.JSONRPCRequest(jsonrpc="2.0", id=2, method=data["method"], params=data["params"])
    return envelope.model_dump_json(by_alias=True, exclude_none=True).encode()


def per_op(fn: Any, quick: bool) -> tuple[float, int]:
    """Median seconds per call over repeats of ~0.2 s (0.05 s when quick)."""
    timer = timeit.Timer(fn)
    number, t = timer.autorange()
    target = 0.05 if quick else 0.2
    number = max(1, int(number * target / max(t, 1e-9)))
    repeats = timer.repeat(repeat=3 if quick else 7, number=number)
    return statistics.median(repeats) / number, number


class Boundary:
    """The SDK's server boundary with every claim: binding, audience, principal."""

    def __init__(self) -> None:
        security = RequestStateSecurity(keys=[KEY], bind_principal=lambda ctx: PRINCIPAL, audience=AUDIENCE)
        self.boundary = RequestStateBoundary(security, default_audience=AUDIENCE)
        self.codec = AESGCMRequestStateCodec([KEY])

    def seal_unseal(self, state: str) -> int:
        ctx = SimpleNamespace(method="tools/call", params={"name": TOOL_NAME, "arguments": TOOL_ARGUMENTS})
        token = self.boundary._seal(ctx, state)
        echo = SimpleNamespace(
            method="tools/call",
            params={"name": TOOL_NAME, "arguments": TOOL_ARGUMENTS, "requestState": token},
        )
        inner, _ = self.boundary._unseal(echo)
        if inner != state:
            raise AssertionError("round trip changed the state")
        return len(token)

    def codec_only(self, payload: bytes) -> int:
        token = self.codec.seal(payload)
        if self.codec.unseal(token) != payload:
            raise AssertionError("round trip changed the payload")
        return len(token)


def main() -> None:
    dump = Path(sys.argv[1])
    out = Path(sys.argv[2])
    quick = "--quick" in sys.argv
    manifest = json.loads((dump / "manifest.json").read_text())
    meta = json.loads((dump / "meta.json").read_text())
    rows: list[dict[str, Any]] = []
    version = f"mcp {getattr(mcp, '__version__', '2.3.0')}"
    for entry in manifest:
        raw = (dump / entry["file"]).read_bytes()
        expected = {k: entry[k] for k in
                    ("inputs", "forms", "urls", "samplings", "roots", "key_bytes", "message_bytes", "state_bytes")}
        got = parse(raw)
        if got != expected:
            raise SystemExit(f"{entry['name']}: SDK summary {got} != mrtr {expected}")
        retry = json.loads(leg(raw, meta))
        want = json.loads((dump / f"{entry['name']}.retry.json").read_bytes())
        if retry != want:
            raise SystemExit(f"{entry['name']}: SDK retry differs from mrtr's:\n{retry}\n{want}")
        for job, fn in (("parse+classify", lambda: parse(raw)), ("client leg", lambda: leg(raw, meta))):
            t, n = per_op(fn, quick)
            rows.append({"contender": "Python SDK", "job": job, "input": entry["name"],
                         "bytes": entry["bytes"], "seconds": t, "number": n})
            print(f"python {job:15} {entry['name']:>6}: {t * 1e6:10.2f} us", file=sys.stderr)
    b = Boundary()
    for size in SEAL_SIZES:
        state = "s" * size
        b.seal_unseal(state)
        for job, fn in (("Python boundary seal+unseal", lambda: b.seal_unseal(state)),
                        ("Python AES-GCM codec seal+unseal", lambda: b.codec_only(state.encode()))):
            t, n = per_op(fn, quick)
            rows.append({"contender": job, "job": "seal", "input": f"{size}B", "bytes": size,
                         "seconds": t, "number": n})
            print(f"python {job} {size}B: {t * 1e6:.2f} us", file=sys.stderr)
    out.write_text(json.dumps({"sdk": version, "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
