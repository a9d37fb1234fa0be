"""The official MCP Python SDK (mcp==2.3.0) as the client of the demo server.

Every demo flow (tools, the prompts, the resource template) is called with
`mcp.Client`, whose callbacks answer deterministically, over stdio (the SDK
spawns the server) and over Streamable HTTP (the server on a free loopback
port); each final result's text is asserted exactly. A few flows drive the
loop by hand through `client.session` to check what the automatic loop
hides: a partial answer re-asks only the missing keys under a new
requestState, and a tampered requestState is refused with -32602.

The task tools (long_export, long_import) run here without a task: the SDK
2.3.0 has no client for either task dialect (no tasks/get, tasks/result,
tasks/update helpers), so their task flows are covered by the Rust tests of
the demo server instead.

Usage: python-client-vs-demo.py PATH/TO/mrtr-demo-server
Prints a table flow x transport and a closing line "N passed, M failed".
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
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
    ListRootsResult,
    Root,
    TextContent,
)

MODEL = "interop-model"
SUMMARY = "MRTR lets a server ask for input by returning instead of calling back."
ITINERARY = "Morning at the castle, afternoon by the river."
GREETING = "Good morning, team!"
ROOTS = [
    Root(uri="file:///home/user/project", name="project"),
    Root(uri="file:///home/user/trips", name="trips"),
]

# Form answers by the field the schema asks for.
FORM_ANSWERS: dict[str, Any] = {
    "resolution": "Duplicate",
    "duplicateOfId": 4301,
    "region": "eu-west-1",
    "travelers": 2,
    "name": "Alice",
    "level": "full",
    "context": "release notes",
    "ok": True,
    "color": "blue",
    "format": "csv",
    "policy": "skip",
}


class Answers:
    """The callbacks, counting what they were asked."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    async def elicit(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        if getattr(params, "mode", None) == "url":
            self.asked.append("url")
            return ElicitResult(action="accept")
        schema = getattr(params, "requested_schema", None) or {}
        props = schema.get("properties", {})
        self.asked.append("form:" + ",".join(props))
        content = {k: FORM_ANSWERS[k] for k in props if k in FORM_ANSWERS}
        return ElicitResult(action="accept", content=content)

    async def sample(self, context: ClientRequestContext, params: CreateMessageRequestParams) -> CreateMessageResult:
        prompt = " ".join(getattr(m.content, "text", "") for m in params.messages)
        self.asked.append("sampling")
        if prompt.startswith("Summarize"):
            reply = SUMMARY
        elif "itinerary" in prompt:
            reply = ITINERARY
        elif "capital of France" in prompt:
            reply = "The capital of France is Paris."
        else:
            reply = GREETING
        return CreateMessageResult(
            role="assistant", content=TextContent(type="text", text=reply), model=MODEL, stop_reason="endTurn"
        )

    async def roots(self, context: ClientRequestContext) -> ListRootsResult:
        self.asked.append("roots")
        return ListRootsResult(roots=ROOTS)


def text_of(result: CallToolResult) -> str:
    if result.is_error:
        raise AssertionError(f"tool reported an error: {result.content}")
    return "".join(c.text for c in result.content if isinstance(c, TextContent))


def expect(actual: str, wanted: str | re.Pattern[str]) -> None:
    ok = wanted.fullmatch(actual) is not None if isinstance(wanted, re.Pattern) else actual == wanted
    if not ok:
        raise AssertionError(f"got {actual!r}, want {wanted.pattern if isinstance(wanted, re.Pattern) else wanted!r}")


Flow = Callable[[Client, Answers], Awaitable[None]]


def tool(name: str, args: dict[str, Any] | None, wanted: str | re.Pattern[str], asked: list[str] | None = None) -> Flow:
    async def run(client: Client, answers: Answers) -> None:
        expect(text_of(await client.call_tool(name, args)), wanted)
        if asked is not None and answers.asked != asked:
            raise AssertionError(f"callbacks asked {answers.asked}, want {asked}")

    return run


async def prompt_team_greeting(client: Client, answers: Answers) -> None:
    result = await client.get_prompt("team_greeting", {"team": "platform"})
    expect(result.messages[0].content.text, "Write a short, warm greeting from Alice to the platform team.")


async def prompt_conformance(client: Client, answers: Answers) -> None:
    result = await client.get_prompt("test_input_required_result_prompt")
    expect(result.messages[0].content.text, "Use this context: release notes")


async def resource_notes(client: Client, answers: Answers) -> None:
    result = await client.read_resource("notes://mrtr")
    expect(result.contents[0].text, "# Notes on mrtr\n\nDetail level: full.")


async def plan_trip_partial(client: Client, answers: Answers) -> None:
    """Answer only the form; the retry must ask only the other two, with state."""
    args = {"destination": "Porto"}
    first = await client.session.call_tool("plan_trip", args, allow_input_required=True)
    assert isinstance(first, InputRequiredResult), first
    assert sorted(first.input_requests or {}) == ["itinerary", "travelers", "workspace"], first.input_requests
    assert first.request_state is None, "nothing to keep yet"
    only_form = {"travelers": ElicitResult(action="accept", content={"travelers": 3})}
    second = await client.session.call_tool(
        "plan_trip", args, input_responses=only_form, allow_input_required=True
    )
    assert isinstance(second, InputRequiredResult), second
    assert sorted(second.input_requests or {}) == ["itinerary", "workspace"], second.input_requests
    assert second.request_state, "the given answer must ride in requestState"
    rest = {
        "itinerary": CreateMessageResult(
            role="assistant", content=TextContent(type="text", text=ITINERARY), model=MODEL
        ),
        "workspace": ListRootsResult(roots=ROOTS[1:]),
    }
    final = await client.session.call_tool(
        "plan_trip", args, input_responses=rest, request_state=second.request_state, allow_input_required=True
    )
    assert isinstance(final, CallToolResult), final
    expect(text_of(final), f"Trip to Porto for 3 traveler(s). Itinerary: {ITINERARY} Plan saved under file:///home/user/trips.")


async def tampered_state_rejected(client: Client, answers: Answers) -> None:
    name = "test_input_required_result_tampered_state"
    first = await client.session.call_tool(name, {}, allow_input_required=True)
    assert isinstance(first, InputRequiredResult) and first.request_state, first
    confirm = {"confirm": ElicitResult(action="accept", content={"ok": True})}
    try:
        await client.session.call_tool(
            name, {}, input_responses=confirm, request_state=first.request_state + "-TAMPERED",
            allow_input_required=True,
        )
    except MCPError as e:
        if e.code != -32602 or str(e.error.message) != "Invalid or expired requestState":
            raise AssertionError(f"wrong error {e.code} {e.error.message!r}") from e
        return
    raise AssertionError("tampered requestState was accepted")


async def state_replay_rejected(client: Client, answers: Answers) -> None:
    """A state minted for one request does not verify on another (arguments differ)."""
    args = {"workItemId": 4522, "fields": {"System.State": "Resolved"}}
    first = await client.session.call_tool(
        "update_work_item", args, allow_input_required=True,
        input_responses={"resolution": ElicitResult(action="accept", content={"resolution": "Duplicate"})},
    )
    assert isinstance(first, InputRequiredResult) and first.request_state, first
    other = {"workItemId": 9999, "fields": {"System.State": "Resolved"}}
    try:
        await client.session.call_tool(
            "update_work_item", other, request_state=first.request_state, allow_input_required=True,
            input_responses={"duplicate_of": ElicitResult(action="accept", content={"duplicateOfId": 4301})},
        )
    except MCPError as e:
        if e.code != -32602:
            raise AssertionError(f"wrong error {e.code}") from e
        return
    raise AssertionError("state replayed on other arguments was accepted")


FLOWS: list[tuple[str, Flow]] = [
    ("update_work_item (2 rounds)", tool(
        "update_work_item", {"workItemId": 4522, "fields": {"System.State": "Resolved"}},
        "Bug #4522 resolved as Duplicate of Bug #4301. State set to Resolved and duplicate link created.",
        ["form:resolution", "form:duplicateOfId"])),
    ("provision_database", tool(
        "provision_database", {"name": "orders"}, "Provisioned database 'orders' in eu-west-1.", ["form:region"])),
    ("summarize (sampling)", tool(
        "summarize", {"text": "A long design document."}, f'Summary by {MODEL}: "{SUMMARY}"', ["sampling"])),
    ("scan_project (roots)", tool(
        "scan_project", {},
        "Scanned 2 root(s): file:///home/user/project (project), file:///home/user/trips (trips).", ["roots"])),
    ("link_account (URL mode)", tool(
        "link_account", {"service": "github"}, re.compile(r"Account github linked \(session [0-9a-f]{16}\)\."),
        ["url"])),
    ("generate_report (2 state-only)", tool(
        "generate_report", {"topic": "Q3"},
        "Report on Q3: 3 sections (Summary, Trends, Outlook), compiled over 3 requests.", [])),
    ("plan_trip (3 kinds)", tool(
        "plan_trip", {"destination": "Lisbon"},
        f"Trip to Lisbon for 2 traveler(s). Itinerary: {ITINERARY} Plan saved under file:///home/user/project.")),
    ("plan_trip (partial answer)", plan_trip_partial),
    ("long_export (inline)", tool(
        "long_export", {"dataset": "customers"}, "Exported dataset 'customers' (1204 rows) as csv.")),
    ("long_import (inline)", tool(
        "long_import", {"source": "orders.csv"},
        "Imported 'orders.csv': 873 rows, existing rows handled with policy 'skip'.")),
    ("prompt team_greeting", prompt_team_greeting),
    ("resource notes://mrtr", resource_notes),
    ("conf elicitation", tool("test_input_required_result_elicitation", {}, "Hello, Alice!")),
    ("conf sampling", tool("test_input_required_result_sampling", {}, "The capital of France is Paris.")),
    ("conf list_roots", tool(
        "test_input_required_result_list_roots", {},
        "Client roots: file:///home/user/project (project), file:///home/user/trips (trips)")),
    ("conf request_state", tool(
        "test_input_required_result_request_state", {}, "state-ok: requestState verified; confirmed=true")),
    ("conf multiple_inputs", tool(
        "test_input_required_result_multiple_inputs", {},
        f"Hello, Alice! Greeting: {GREETING} Roots: file:///home/user/project, file:///home/user/trips.")),
    ("conf multi_round", tool(
        "test_input_required_result_multi_round", {}, "Hello, Alice! Your favorite color is blue.")),
    ("conf tampered_state (intact)", tool(
        "test_input_required_result_tampered_state", {},
        "state-ok: requestState integrity verified; confirmed=true")),
    ("conf capabilities", tool(
        "test_input_required_result_capabilities", {}, "Answers received for: elicitation, sampling, roots.")),
    ("conf prompt", prompt_conformance),
    ("conf missing_capability", tool(
        "test_missing_capability", {}, "Sampling answered: The capital of France is Paris.", ["sampling"])),
    ("tampered requestState -> -32602", tampered_state_rejected),
    ("replayed requestState -> -32602", state_replay_rejected),
]


async def run_all(transport: str, target: Any) -> list[tuple[str, str, str]]:
    rows = []
    for label, flow in FLOWS:
        answers = Answers()
        try:
            async with Client(
                target,
                elicitation_callback=answers.elicit,
                sampling_callback=answers.sample,
                list_roots_callback=answers.roots,
            ) as client:
                if client.protocol_version != "2026-07-28":
                    raise AssertionError(f"negotiated {client.protocol_version}")
                await asyncio.wait_for(flow(client, answers), timeout=30)
            rows.append((label, transport, "pass"))
        except BaseException as e:  # noqa: BLE001 - every failure is a row
            if isinstance(e, KeyboardInterrupt):
                raise
            detail = f"{type(e).__name__}: {e}".splitlines()[0][:200]
            print(f"FAIL {label} over {transport}: {detail}", file=sys.stderr)
            rows.append((label, transport, "FAIL"))
    return rows


def start_http(binary: str, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    proc = subprocess.Popen(
        [binary, "--http", "127.0.0.1:0"], env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL
    )
    assert proc.stderr is not None
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        line = proc.stderr.readline().decode("utf-8", "replace")
        if not line:
            break
        m = re.search(r"listening on (http://127\.0\.0\.1:\d+/mcp)$", line.strip())
        if m:
            # Keep draining stderr so the server never blocks on a full pipe.
            stream = proc.stderr
            asyncio.get_event_loop().run_in_executor(None, lambda: [None for _ in stream])
            return proc, m.group(1)
    proc.kill()
    raise SystemExit("demo server did not report its address")


async def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = sys.argv[1]
    env = dict(os.environ)
    env.setdefault("MRTR_KEYS", os.urandom(32).hex())
    rows = await run_all("stdio", StdioServerParameters(command=binary, args=[], env={"MRTR_KEYS": env["MRTR_KEYS"]}))
    proc, url = start_http(binary, env)
    try:
        rows += await run_all("http", url)
    finally:
        proc.terminate()
        proc.wait(timeout=5)

    labels = [label for label, _ in FLOWS]
    verdict = {(label, t): v for label, t, v in rows}
    width = max(len(label) for label in labels)
    print(f"\n| {'flow':<{width}} | stdio | http |")
    print(f"| {'-' * width} | ----- | ---- |")
    for label in labels:
        print(f"| {label:<{width}} | {verdict[(label, 'stdio')]:<5} | {verdict[(label, 'http')]:<4} |")
    passed = sum(v == "pass" for _, _, v in rows)
    failed = len(rows) - passed
    print(f"\ninterop: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
