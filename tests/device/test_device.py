"""The device firmware (examples/device) against real peers, under QEMU.

    test_device.py --elf FW.elf --mrtr-client PATH --state DIR --log DIR

Server role (examples/device/run-server spawned as a stdio MCP server):
  - the official Python SDK client (mcp 2.3.0) completes every tool,
    answering the forms and the sampling request; decline, a missing
    capability and unknown tools end the way the spec says;
  - a tampered requestState, one replayed on other arguments or another
    tool, and one from before a restart are refused with the frozen error
    (-32602 "Invalid or expired requestState");
  - hostile lines on the UART get their exact error (or none), and the
    device keeps answering;
  - mrtr-client (the C terminal client on libmrtr) completes the tools.
Client role (examples/device/run-client): the firmware completes a
two-round flow against a server on the Python SDK (host_server.py) and ends
with the right exit code against tests/interop/hostile_server.py.

Prints a table (case, result) and "N passed, M failed"; exits 1 on any
failure. The console logs of the device go to --log (one file per case).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from mcp import Client
from mcp.client import ClientRequestContext
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_types import (
    CallToolResult,
    CreateMessageRequestParams,
    CreateMessageResult,
    ElicitRequestParams,
    ElicitResult,
    InputRequiredResult,
    TextContent,
)

ROOT = Path(__file__).resolve().parents[2]
RUN_SERVER = ROOT / "examples/device/run-server"
RUN_CLIENT = ROOT / "examples/device/run-client"
HOST_SERVER = ROOT / "examples/device/host_server.py"
HOSTILE_SERVER = ROOT / "tests/interop/hostile_server.py"
FROZEN = "Invalid or expired requestState"
SUMMARY = "Front door opened and closed in the morning; back door opened by code at 12:30."

ARGS: argparse.Namespace


def device_env(case: str, trace: bool = False) -> dict[str, str]:
    env = dict(os.environ)
    env["MRTR_DEVICE_ELF"] = ARGS.elf
    env["MRTR_DEVICE_STATE"] = ARGS.state
    env["MRTR_DEVICE_LOG"] = str(Path(ARGS.log) / f"{case}.log")
    if trace:
        env["MRTR_DEVICE_TRACE"] = "1"
    return env


class Answers:
    """The SDK callbacks: what the user would answer, counting the asks."""

    def __init__(self, confirm: str = "accept", celsius: int = 22, apply: bool = True) -> None:
        self.confirm = confirm
        self.celsius = celsius
        self.apply = apply
        self.asked: list[str] = []

    async def elicit(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        props = (getattr(params, "requested_schema", None) or {}).get("properties", {})
        self.asked.append(f"form:{','.join(props)}:{params.message}")
        if "confirm" in props:
            if self.confirm != "accept":
                return ElicitResult(action=self.confirm)
            return ElicitResult(action="accept", content={"confirm": True})
        if "celsius" in props:
            return ElicitResult(action="accept", content={"celsius": self.celsius})
        if "apply" in props:
            return ElicitResult(action="accept", content={"apply": self.apply})
        return ElicitResult(action="decline")

    async def sample(self, context: ClientRequestContext, params: CreateMessageRequestParams) -> CreateMessageResult:
        self.asked.append("sampling:" + " ".join(getattr(m.content, "text", "") for m in params.messages))
        return CreateMessageResult(
            role="assistant", content=TextContent(type="text", text=SUMMARY), model="test-model", stop_reason="endTurn"
        )


def text_of(result: CallToolResult) -> str:
    return "".join(c.text for c in result.content if isinstance(c, TextContent))


def expect(actual: Any, wanted: Any, what: str) -> None:
    if actual != wanted:
        raise AssertionError(f"{what}: got {actual!r}, want {wanted!r}")


async def with_client(case: str, answers: Answers | None, body: Callable[[Client], Awaitable[None]], **kw: Any) -> None:
    target = StdioServerParameters(command=str(RUN_SERVER), env=device_env(case, **kw))
    callbacks: dict[str, Any] = {}
    if answers is not None:
        callbacks = {"elicitation_callback": answers.elicit, "sampling_callback": answers.sample}
    async with Client(target, **callbacks) as client:
        expect(client.protocol_version, "2026-07-28", "negotiated version")
        await asyncio.wait_for(body(client), timeout=60)


async def frozen_error(coro: Awaitable[Any], what: str) -> None:
    try:
        got = await coro
    except MCPError as e:
        expect((e.code, str(e.error.message)), (-32602, FROZEN), what)
        return
    raise AssertionError(f"{what}: accepted ({got!r})")


# ---- server role: the Python SDK client ------------------------------------------


async def sdk_list_tools() -> None:
    async def body(client: Client) -> None:
        tools = await client.list_tools()
        expect([t.name for t in tools.tools], ["unlock_door", "calibrate_sensor", "summarize_log"], "tools")
        expect(tools.tools[0].input_schema["properties"]["door"]["enum"], ["front", "back", "garage"], "door enum")

    await with_client("sdk-list-tools", Answers(), body)


async def sdk_unlock_door() -> None:
    answers = Answers()

    async def body(client: Client) -> None:
        result = await client.call_tool("unlock_door", {"door": "front"})
        expect((text_of(result), result.is_error), ("Door front unlocked.", False), "result")
        expect(answers.asked, ["form:confirm:Really unlock the front door?"], "asked")

    await with_client("sdk-unlock-door", answers, body, trace=True)


async def sdk_unlock_door_declined() -> None:
    answers = Answers(confirm="decline")

    async def body(client: Client) -> None:
        result = await client.call_tool("unlock_door", {"door": "back"})
        expect((text_of(result), result.is_error), ("Door back stays locked: declined.", True), "result")
        expect(len(answers.asked), 1, "a decline is not asked again")

    await with_client("sdk-unlock-declined", answers, body)


async def sdk_unlock_door_cancelled() -> None:
    answers = Answers(confirm="cancel")

    async def body(client: Client) -> None:
        result = await client.call_tool("unlock_door", {"door": "garage"})
        expect((text_of(result), result.is_error), ("Door garage stays locked: cancelled.", True), "result")

    await with_client("sdk-unlock-cancelled", answers, body)


async def sdk_calibrate_sensor() -> None:
    answers = Answers(celsius=22, apply=True)

    async def body(client: Client) -> None:
        result = await client.call_tool("calibrate_sensor", {})
        expect(
            (text_of(result), result.is_error),
            ("Sensor calibrated: reference 22 \u00b0C, offset -1.10 \u00b0C.", False),
            "result",
        )
        expect(
            answers.asked,
            [
                "form:celsius:Measure the room with a reference thermometer: how warm is it?",
                "form:apply:The sensor reads 23.10 \u00b0C against your 22 \u00b0C: apply an offset of -1.10 \u00b0C?",
            ],
            "asked",
        )

    await with_client("sdk-calibrate", answers, body)


async def sdk_summarize_log() -> None:
    answers = Answers()

    async def body(client: Client) -> None:
        result = await client.call_tool("summarize_log", {})
        expect((text_of(result), result.is_error), (f"Door log: {SUMMARY}", False), "result")
        expect(
            answers.asked,
            ["sampling:Summarize these door events in one line: 08:02 front unlocked; 08:05 front locked; "
             "12:30 back unlocked by code."],
            "asked",
        )

    await with_client("sdk-summarize", answers, body)


async def sdk_missing_capability() -> None:
    async def body(client: Client) -> None:
        try:
            await client.call_tool("unlock_door", {"door": "front"})
        except MCPError as e:
            expect(e.code, -32021, "error code")
            return
        raise AssertionError("a client without elicitation was asked")

    await with_client("sdk-missing-capability", None, body)


async def sdk_unknown_tool_and_bad_args() -> None:
    async def body(client: Client) -> None:
        for name, args, message in [
            ("open_window", {}, "Unknown tool: open_window"),
            ("unlock_door", {"door": "cellar"}, "Invalid arguments: door must be front, back or garage"),
            ("unlock_door", {}, "Invalid arguments: door must be front, back or garage"),
        ]:
            try:
                await client.call_tool(name, args)
            except MCPError as e:
                expect((e.code, str(e.error.message)), (-32602, message), f"{name} {args}")
                continue
            raise AssertionError(f"{name} {args} accepted")

    await with_client("sdk-unknown-tool", Answers(), body)


# ---- server role: requestState attacks ----------------------------------------------


async def first_round(client: Client, name: str, args: dict[str, Any]) -> InputRequiredResult:
    first = await client.session.call_tool(name, args, allow_input_required=True)
    if not isinstance(first, InputRequiredResult) or not first.request_state:
        raise AssertionError(f"{name}: no input_required with state: {first!r}")
    return first


async def state_tampered() -> None:
    async def body(client: Client) -> None:
        first = await first_round(client, "unlock_door", {"door": "front"})
        yes = {"confirm": ElicitResult(action="accept", content={"confirm": True})}
        token = first.request_state
        assert token is not None
        # One character changed in the middle, one appended, one cut.
        mid = len(token) // 2
        flipped = token[:mid] + ("A" if token[mid] != "A" else "B") + token[mid + 1:]
        for bad in (flipped, token + "A", token[:-1], "m2.", "not-a-token"):
            await frozen_error(
                client.session.call_tool("unlock_door", {"door": "front"}, input_responses=yes,
                                         request_state=bad, allow_input_required=True),
                f"tampered {bad[:12]}...",
            )
        # The untouched token still works (nothing is kept per client).
        final = await client.session.call_tool("unlock_door", {"door": "front"}, input_responses=yes,
                                               request_state=token, allow_input_required=True)
        assert isinstance(final, CallToolResult), final
        expect(text_of(final), "Door front unlocked.", "the genuine token")

    await with_client("state-tampered", Answers(), body)


async def state_replayed() -> None:
    async def body(client: Client) -> None:
        first = await first_round(client, "unlock_door", {"door": "front"})
        yes = {"confirm": ElicitResult(action="accept", content={"confirm": True})}
        # The confirmation for the front door, replayed for the garage.
        await frozen_error(
            client.session.call_tool("unlock_door", {"door": "garage"}, input_responses=yes,
                                     request_state=first.request_state, allow_input_required=True),
            "replayed on other arguments",
        )
        # A calibration's state replayed on unlock_door.
        cal = await first_round(client, "calibrate_sensor", {})
        await frozen_error(
            client.session.call_tool("unlock_door", {"door": "front"}, input_responses=yes,
                                     request_state=cal.request_state, allow_input_required=True),
            "replayed on another tool",
        )
        # The sealed reference cannot be swapped: an answer to round 1 sent
        # with round 3's state is ignored, the sealed one is used.
        ref = {"reference": ElicitResult(action="accept", content={"celsius": 30})}
        second = await client.session.call_tool("calibrate_sensor", {}, input_responses=ref,
                                                request_state=cal.request_state, allow_input_required=True)
        assert isinstance(second, InputRequiredResult) and second.request_state, second
        forged = {
            "reference": ElicitResult(action="accept", content={"celsius": 99}),
            "apply": ElicitResult(action="accept", content={"apply": True}),
        }
        final = await client.session.call_tool("calibrate_sensor", {}, input_responses=forged,
                                               request_state=second.request_state, allow_input_required=True)
        assert isinstance(final, CallToolResult), final
        expect(text_of(final), "Sensor calibrated: reference 30 \u00b0C, offset 6.90 \u00b0C.", "sealed reference")

    await with_client("state-replayed", Answers(), body)


async def state_from_before_restart() -> None:
    """A restart starts a new epoch of device time: every earlier token expires."""
    holder: dict[str, str] = {}

    async def mint(client: Client) -> None:
        first = await first_round(client, "unlock_door", {"door": "front"})
        assert first.request_state is not None
        holder["token"] = first.request_state

    async def replay(client: Client) -> None:
        yes = {"confirm": ElicitResult(action="accept", content={"confirm": True})}
        await frozen_error(
            client.session.call_tool("unlock_door", {"door": "front"}, input_responses=yes,
                                     request_state=holder["token"], allow_input_required=True),
            "a token from before the restart",
        )

    await with_client("state-restart-1", Answers(), mint)
    await with_client("state-restart-2", Answers(), replay)
    log = (Path(ARGS.log) / "state-restart-2.log").read_text()
    if "requestState refused: token expired" not in log:
        raise AssertionError("the device did not refuse the old token as expired:\n" + log)


# ---- server role: hostile lines ---------------------------------------------------------

META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}}


def req(rid: Any, method: str, params: dict[str, Any] | None = None) -> str:
    p = {"_meta": META} if params is None else params
    return json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": p})


# (label, line sent, expected answer: None for no answer, else (id, code)
# of an error, or the string "ok" for a result with this id).
HOSTILE: list[tuple[str, bytes, Any]] = [
    ("not JSON", b"garbage", (None, -32700)),
    ("half an object", b'{"jsonrpc":"2.0","id":1,', (None, -32700)),
    ("a bare number", b"42", (None, -32600)),
    ("invalid UTF-8", b'{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"x":"\xff"}}', (None, -32700)),
    ("NUL bytes", b'{"jsonrpc":"2.0","id":3,\x00"method":"tools/list"}', (None, -32700)),
    ("deep nesting", b"[" * 5000 + b"]" * 5000, (None, -32700)),
    ("line over 8 KiB", b'{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"pad":"' + b"x" * 9000 + b'"}}',
     (None, -32700)),
    ("duplicate keys", b'{"jsonrpc":"2.0","id":5,"id":6,"method":"tools/list","params":{}}', (None, -32600)),
    ("wrong jsonrpc", b'{"jsonrpc":"1.0","id":7,"method":"tools/list","params":{}}', (7, -32600)),
    ("unsupported version", req(8, "tools/call", {"name": "unlock_door", "arguments": {"door": "front"},
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2024-11-05",
                  "io.modelcontextprotocol/clientCapabilities": {}}}).encode(), (8, -32022)),
    ("tools/call without _meta", req(9, "tools/call", {"name": "unlock_door", "arguments": {"door": "front"}}).encode(),
     (9, -32602)),
    ("unknown method", req(10, "sampling/createMessage").encode(), (10, -32601)),
    ("removed ping", req(11, "ping").encode(), (11, -32601)),
    ("a notification", b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}', None),
    ("a response", b'{"jsonrpc":"2.0","id":99,"result":{}}', None),
    ("terminal escapes in the tool name", req(12, "tools/call", {"name": "x\u001b]0;pwn\u0007\u202e", "arguments": {},
        "_meta": META}).encode(), (12, -32602)),
    ("huge id", b'{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"tools/list","params":{}}',
     (None, -32600)),
    ("requestState of 5 KiB", req(13, "tools/call", {"name": "unlock_door", "arguments": {"door": "front"},
        "requestState": "m2." + "A" * 5120, "_meta": META}).encode(), (13, -32602)),
    ("requestState not a string", req(14, "tools/call", {"name": "unlock_door", "arguments": {"door": "front"},
        "requestState": {"a": 1}, "_meta": META}).encode(), (14, -32602)),
    ("inputResponses not an object", req(15, "tools/call", {"name": "unlock_door", "arguments": {"door": "front"},
        "inputResponses": [1], "_meta": META}).encode(), (15, -32602)),
    ("arguments not an object", req(16, "tools/call", {"name": "unlock_door", "arguments": "front",
        "_meta": META}).encode(), (16, -32602)),
    ("empty line", b"", None),
]


def read_line(proc: subprocess.Popen[bytes], timeout: float) -> bytes | None:
    """One line from the device, or None when none comes within timeout."""
    assert proc.stdout is not None
    import select

    deadline = time.monotonic() + timeout
    buf = b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            break
        ch = os.read(proc.stdout.fileno(), 1)
        if not ch:
            break
        if ch == b"\n":
            return buf
        buf += ch
    return None


def hostile_lines() -> list[tuple[str, str]]:
    rows = []
    env = device_env("hostile-lines")
    proc = subprocess.Popen([str(RUN_SERVER)], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None
    try:
        for label, line, want in HOSTILE:
            ok = True
            detail = ""
            proc.stdin.write(line + b"\n")
            proc.stdin.flush()
            # Then a valid request: it must be answered whatever came before.
            proc.stdin.write(req(1000, "tools/list").encode() + b"\n")
            proc.stdin.flush()
            got = read_line(proc, 20)
            if want is not None:
                try:
                    msg = json.loads(got or b"null")
                    got_id = msg.get("id")
                    got_code = msg.get("error", {}).get("code")
                    if (got_id, got_code) != want:
                        ok, detail = False, f"got {(got_id, got_code)}, want {want}"
                except (ValueError, AttributeError):
                    ok, detail = False, f"not a response: {got!r:.120}"
                got = read_line(proc, 20)
            try:
                after = json.loads(got or b"null")
                if not (after.get("id") == 1000 and "tools" in after.get("result", {})):
                    ok, detail = False, f"then tools/list got {got!r:.120}"
            except (ValueError, AttributeError):
                ok, detail = False, f"then tools/list got {got!r:.120}"
            if not ok:
                print(f"FAIL hostile {label}: {detail}", file=sys.stderr)
            rows.append((f"hostile line: {label}", "pass" if ok else "FAIL"))
    finally:
        proc.kill()
        proc.wait()
    return rows


# ---- server role: mrtr-client ------------------------------------------------------------

MRTR_CLIENT_ANSWERS = {
    "confirm": {"action": "accept", "content": {"confirm": True}},
    "reference": {"action": "accept", "content": {"celsius": 19}},
    "apply": {"action": "accept", "content": {"apply": True}},
    "summary": {"role": "assistant", "content": {"type": "text", "text": SUMMARY}, "model": "test-model"},
}


def mrtr_client_cases() -> list[tuple[str, str]]:
    rows = []
    answers = Path(ARGS.log) / "mrtr-client-answers.json"
    answers.write_text(json.dumps(MRTR_CLIENT_ANSWERS))
    cases = [
        ("unlock_door", '{"door":"back"}', "Door back unlocked."),
        ("calibrate_sensor", "{}", "Sensor calibrated: reference 19 \u00b0C, offset -4.10 \u00b0C."),
        ("summarize_log", "{}", f"Door log: {SUMMARY}"),
    ]
    for tool, args, want in cases:
        label = f"mrtr-client: {tool}"
        proc = subprocess.run(
            [ARGS.mrtr_client, "--answers", str(answers), "--no-input", "tool", tool, args, "--", str(RUN_SERVER)],
            env=device_env(f"mrtr-client-{tool}"), capture_output=True, timeout=120,
        )
        ok = proc.returncode == 0
        try:
            result = json.loads(proc.stdout)
            got = "".join(c.get("text", "") for c in result.get("content", []))
            ok = ok and got == want and result.get("isError") is False
        except ValueError:
            ok, got = False, proc.stdout.decode(errors="replace")[:200]
        if not ok:
            print(f"FAIL {label}: exit {proc.returncode}, got {got!r}\n{proc.stderr.decode(errors='replace')[-2000:]}",
                  file=sys.stderr)
        rows.append((label, "pass" if ok else "FAIL"))
    return rows


# ---- client role ------------------------------------------------------------------------------


def run_client(case: str, tool: str, args: str, server: list[str], want_code: int, want_log: str) -> tuple[str, str]:
    env = device_env(case)
    env.pop("MRTR_DEVICE_LOG")
    proc = subprocess.run([str(RUN_CLIENT), tool, args, "--", *server], env=env, capture_output=True, timeout=120)
    console = proc.stderr.decode(errors="replace")
    (Path(ARGS.log) / f"{case}.log").write_text(console)
    ok = proc.returncode == want_code and re.search(want_log, console) is not None
    if not ok:
        print(f"FAIL {case}: exit {proc.returncode} (want {want_code}), want /{want_log}/ in\n{console[-3000:]}",
              file=sys.stderr)
    return (f"device client: {case}", "pass" if ok else "FAIL")


def client_cases() -> list[tuple[str, str]]:
    py = sys.executable
    rows = [
        run_client(
            "python-sdk-server", "log_reading", '{"sensor":"hall"}', [py, str(HOST_SERVER)], 0,
            r'answering reading with \{"celsius":23\.10\}\n'
            r'device: answering store with \{"store":true\}\n'
            r'device: rounds 2, .*\n'
            r'device: result \{"content":\[\{"text":"Stored 23\.10 C from sensor hall\.","type":"text"\}\],'
            r'"isError":false,',
        )
    ]
    # The hostile server's modes that end the call, with the exit code the
    # firmware gives each (see run-client).
    for mode, code, text in [
        ("garbage", 3, "MRTR_ERR_JSON"),
        ("bad-result-type", 3, "MRTR_ERR_PROTOCOL_VIOLATION"),
        ("empty-input", 3, "MRTR_ERR_PROTOCOL_VIOLATION"),
        ("unknown-method", 3, "MRTR_ERR_PROTOCOL_VIOLATION"),
        ("huge-state", 3, "MRTR_ERR_LIMIT_EXCEEDED|MRTR_ERR_PROTOCOL_VIOLATION"),
        ("long-line", 4, "longer than the buffer"),
        ("flood", 3, "MRTR_ERR_LIMIT_EXCEEDED"),
        ("silent", 4, "no answer within 30 s"),
        ("server-request", 0, "server-request-ok"),
        ("state-echo", 0, "state-echo-ok"),
    ]:
        rows.append(run_client(f"hostile-{mode}", "x", "{}", [py, str(HOSTILE_SERVER), mode], code, text))
    # A host that exits without a word: run-client stops the device.
    rows.append(run_client("host-exits", "x", "{}", ["false"], 4, "the host server exited; stopping the device"))
    return rows


# ---- main ------------------------------------------------------------------------------------

SDK_CASES: list[tuple[str, Callable[[], Awaitable[None]]]] = [
    ("python sdk: tools/list", sdk_list_tools),
    ("python sdk: unlock_door (accept)", sdk_unlock_door),
    ("python sdk: unlock_door (decline)", sdk_unlock_door_declined),
    ("python sdk: unlock_door (cancel)", sdk_unlock_door_cancelled),
    ("python sdk: calibrate_sensor (2 rounds)", sdk_calibrate_sensor),
    ("python sdk: summarize_log (sampling)", sdk_summarize_log),
    ("python sdk: missing capability -> -32021", sdk_missing_capability),
    ("python sdk: unknown tool, bad arguments", sdk_unknown_tool_and_bad_args),
    ("requestState tampered -> frozen error", state_tampered),
    ("requestState replayed -> frozen error", state_replayed),
    ("requestState from before a restart -> expired", state_from_before_restart),
]


async def sdk_rows() -> list[tuple[str, str]]:
    rows = []
    for label, case in SDK_CASES:
        try:
            await case()
            rows.append((label, "pass"))
        except BaseException as e:  # noqa: BLE001 - every failure is a row
            if isinstance(e, KeyboardInterrupt):
                raise
            print(f"FAIL {label}: {type(e).__name__}: {e}", file=sys.stderr)
            rows.append((label, "FAIL"))
    return rows


def run_server_cases() -> list[tuple[str, str]]:
    """run-server builds nothing: without a firmware it exits 1 at once and
    names the command that builds one (an MCP client that spawned it sees
    the end of the stream, not a silent build)."""
    env = device_env("run-server-no-firmware")
    env["MRTR_DEVICE_ELF"] = str(Path(ARGS.state) / "no-such-firmware.elf")
    env.pop("MRTR_DEVICE_LOG")
    label = "run-server without a firmware: exit 1 naming examples/device/build"
    try:
        p = subprocess.run([str(RUN_SERVER)], env=env, input=b"", capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        print(f"FAIL {label}: still running after 60 s", file=sys.stderr)
        return [(label, "FAIL")]
    err = p.stderr.decode(errors="replace")
    if p.returncode == 1 and "run examples/device/build first" in err and p.stdout == b"":
        return [(label, "pass")]
    print(f"FAIL {label}: exit {p.returncode}, stderr {err!r}", file=sys.stderr)
    return [(label, "FAIL")]


def main() -> int:
    global ARGS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--elf", required=True)
    parser.add_argument("--mrtr-client", required=True)
    parser.add_argument("--state", required=True)
    parser.add_argument("--log", required=True)
    ARGS = parser.parse_args()
    rows = asyncio.run(sdk_rows())
    rows += hostile_lines()
    rows += mrtr_client_cases()
    rows += client_cases()
    rows += run_server_cases()
    width = max(len(r[0]) for r in rows)
    for label, verdict in rows:
        print(f"{label:<{width}}  {verdict}")
    failed = sum(1 for r in rows if r[1] != "pass")
    print(f"{len(rows) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
