"""An MCP server built on the official Python SDK (mcp 2.3.0, MCPServer), the
peer of mrtr-client in tests/interop/run.

Every tool, prompt and resource template below answers its first request with
an InputRequiredResult and completes once the retry carries the answers: one
flow per kind of question MRTR has. The SDK seals every requestState these
functions return (process-local key), so the client sees opaque tokens, as it
would from any production server.

    python_server.py                           stdio, newline-delimited JSON
    python_server.py --http 127.0.0.1:PORT     streamable HTTP at /mcp
    python_server.py --notify ...              a notification before every answer

With --notify the server sends notifications/tools/list_changed on each
request's own stream before its answer: on stdio that is an extra line the
client must skip, over HTTP it turns the response into text/event-stream
(the SDK commits to SSE once a handler emits a notification).

Flows (the input keys are what tests/interop/answers.json answers):
    tool form_flow          one form with every field kind (key "profile")
    tool two_round_state    the SEP's work item: "resolution", then
                            "duplicate_of" with the first answer in state
    tool sampling_flow      one sampling request ("summary")
    tool roots_flow         one roots request ("workspace")
    tool url_flow           one URL-mode elicitation ("link")
    tool state_only         two rounds that carry only requestState
    tool multi_kind         form + sampling + roots in one round; usable
                            answers kept in state, the rest asked again
    prompt greeting         asks the name to greet ("who")
    resource notes://{topic} asks to confirm access ("access")
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from mcp_types import (
    CreateMessageRequest,
    CreateMessageRequestParams,
    CreateMessageResult,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitRequestURLParams,
    ElicitResult,
    InputRequiredResult,
    ListRootsRequest,
    ListRootsResult,
    SamplingMessage,
    TextContent,
    ToolListChangedNotification,
)

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("mrtr-interop-python", version="1.0.0", log_level="WARNING")


def form(message: str, properties: dict[str, Any], required: list[str]) -> ElicitRequest:
    schema = {"type": "object", "properties": properties, "required": required}
    return ElicitRequest(
        method="elicitation/create",
        params=ElicitRequestFormParams(message=message, requested_schema=schema),
    )


def answer(ctx: Context, key: str) -> Any:
    """The client's answer to input `key` on this leg, or None."""
    return (ctx.input_responses or {}).get(key)


def accepted(ctx: Context, key: str) -> dict[str, Any] | None:
    """The content of an accepted form answer to `key`, or None."""
    got = answer(ctx, key)
    if isinstance(got, ElicitResult) and got.action == "accept" and got.content is not None:
        return got.content
    return None


def text_of(result: CreateMessageResult) -> str | None:
    content = result.content
    if isinstance(content, TextContent):
        return content.text
    return None


PROFILE = form(
    "Create your profile",
    {
        "name": {"type": "string", "title": "Name", "minLength": 1, "maxLength": 40},
        "email": {"type": "string", "title": "Email", "format": "email"},
        "age": {"type": "integer", "title": "Age", "minimum": 0, "maximum": 150, "default": 30},
        "plan": {
            "type": "string",
            "title": "Plan",
            "oneOf": [
                {"const": "free", "title": "Free"},
                {"const": "pro", "title": "Pro"},
            ],
            "default": "free",
        },
        "newsletter": {"type": "boolean", "title": "Newsletter", "default": False},
    },
    ["name", "email"],
)


@mcp.tool()
async def form_flow(ctx: Context) -> str | InputRequiredResult:
    """Asks one form with text, email, integer, choice and boolean fields."""
    content = accepted(ctx, "profile")
    if content is None:
        return InputRequiredResult(input_requests={"profile": PROFILE})
    return (
        f"profile: name={content['name']} email={content['email']} age={content.get('age')} "
        f"plan={content.get('plan')} newsletter={content.get('newsletter')}"
    )


@mcp.tool()
async def two_round_state(work_item_id: int, ctx: Context) -> str | InputRequiredResult:
    """Resolves a bug: asks the resolution, then (Duplicate) the original."""
    state = json.loads(ctx.request_state) if ctx.request_state else {}
    resolution = state.get("resolution")
    if resolution is None:
        content = accepted(ctx, "resolution")
        if content is None:
            return InputRequiredResult(
                input_requests={
                    "resolution": form(
                        f"Resolving Bug #{work_item_id} requires a resolution.",
                        {
                            "resolution": {
                                "type": "string",
                                "enum": ["Fixed", "Won't Fix", "Duplicate", "By Design"],
                            }
                        },
                        ["resolution"],
                    )
                }
            )
        resolution = content["resolution"]
    if resolution != "Duplicate":
        return f"Bug #{work_item_id} resolved as {resolution}."
    dup = accepted(ctx, "duplicate_of")
    if dup is None:
        return InputRequiredResult(
            input_requests={
                "duplicate_of": form(
                    "Since this is a duplicate, which work item is the original?",
                    {"duplicateOfId": {"type": "number"}},
                    ["duplicateOfId"],
                )
            },
            request_state=json.dumps({"resolution": resolution}),
        )
    return f"Bug #{work_item_id} resolved as Duplicate of Bug #{int(dup['duplicateOfId'])}."


SUMMARY = CreateMessageRequest(
    method="sampling/createMessage",
    params=CreateMessageRequestParams(
        messages=[
            SamplingMessage(role="user", content=TextContent(type="text", text="Summarize: MRTR retries requests."))
        ],
        system_prompt="You write one-line summaries.",
        max_tokens=64,
    ),
)


@mcp.tool()
async def sampling_flow(ctx: Context) -> str | InputRequiredResult:
    """Asks the client's model for a one-line summary."""
    got = answer(ctx, "summary")
    if not isinstance(got, CreateMessageResult) or text_of(got) is None:
        return InputRequiredResult(input_requests={"summary": SUMMARY})
    return f"summary by {got.model}: {text_of(got)}"


ROOTS = ListRootsRequest(method="roots/list")


@mcp.tool()
async def roots_flow(ctx: Context) -> str | InputRequiredResult:
    """Asks the client's roots and lists them."""
    got = answer(ctx, "workspace")
    if not isinstance(got, ListRootsResult):
        return InputRequiredResult(input_requests={"workspace": ROOTS})
    return "roots: " + ", ".join(str(root.uri) for root in got.roots)


@mcp.tool()
async def url_flow(ctx: Context) -> str | InputRequiredResult:
    """Sends the user to a URL, then completes when the client retries."""
    got = answer(ctx, "link")
    if not isinstance(got, ElicitResult):
        return InputRequiredResult(
            input_requests={
                "link": ElicitRequest(
                    method="elicitation/create",
                    params=ElicitRequestURLParams(
                        mode="url",
                        message="Link your example.com account",
                        url="https://auth.example.com/authorize?client=mrtr&state=xyz",
                    ),
                )
            }
        )
    return f"link: {got.action}"


@mcp.tool()
async def state_only(ctx: Context) -> str | InputRequiredResult:
    """Two state-only rounds: "not done yet" without a question."""
    step = int(ctx.request_state or "0")
    if step < 2:
        return InputRequiredResult(request_state=str(step + 1))
    return f"state-only: done after {step} state-only rounds"


@mcp.tool()
async def multi_kind(ctx: Context) -> str | InputRequiredResult:
    """Asks a form, a sampling request and roots in one round. Usable
    answers are kept in requestState; whatever is still missing (declined,
    absent) is asked again in the next round."""
    state = json.loads(ctx.request_state) if ctx.request_state else {}
    city = accepted(ctx, "city")
    if city is not None:
        state["city"] = city["city"]
    idea = answer(ctx, "idea")
    if isinstance(idea, CreateMessageResult) and text_of(idea) is not None:
        state["idea"] = text_of(idea)
    roots = answer(ctx, "folders")
    if isinstance(roots, ListRootsResult):
        state["roots"] = len(roots.roots)
    missing: dict[str, Any] = {}
    if "city" not in state:
        missing["city"] = form("Where to?", {"city": {"type": "string"}}, ["city"])
    if "idea" not in state:
        missing["idea"] = SUMMARY
    if "roots" not in state:
        missing["folders"] = ROOTS
    if missing:
        return InputRequiredResult(input_requests=missing, request_state=json.dumps(state) if state else None)
    return f"multi: city={state['city']} idea={state['idea']} roots={state['roots']}"


@mcp.prompt()
async def greeting(style: str, ctx: Context) -> str | InputRequiredResult:
    """A greeting prompt that asks whom to greet."""
    who = accepted(ctx, "who")
    if who is None:
        return InputRequiredResult(
            input_requests={"who": form("Whom should I greet?", {"name": {"type": "string"}}, ["name"])}
        )
    return f"Write a {style} greeting for {who['name']}."


@mcp.resource("notes://{topic}")
async def notes(topic: str, ctx: Context) -> str | InputRequiredResult:
    """Notes on a topic, after the user confirms access."""
    ok = accepted(ctx, "access")
    if ok is None or ok.get("confirm") is not True:
        return InputRequiredResult(
            input_requests={
                "access": form(f"Share your notes on {topic}?", {"confirm": {"type": "boolean"}}, ["confirm"])
            }
        )
    return f"notes on {topic}: MRTR keeps servers stateless."


MRTR_METHODS = ("tools/call", "prompts/get", "resources/read")


async def notify_first(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Middleware of --notify: an unrelated notification on the request's
    stream ahead of the answer."""
    if ctx.method in MRTR_METHODS and ctx.request_id is not None:
        await ctx.session.send_notification(ToolListChangedNotification(), related_request_id=ctx.request_id)
    return await call_next(ctx)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--http", metavar="HOST:PORT", help="serve streamable HTTP at /mcp instead of stdio")
    parser.add_argument("--notify", action="store_true", help="send a notification before every answer")
    args = parser.parse_args()
    if args.notify:
        mcp.middleware.append(notify_first)
    if args.http:
        host, _, port = args.http.rpartition(":")
        mcp.run("streamable-http", host=host, port=int(port), stateless_http=True)
    else:
        mcp.run()


if __name__ == "__main__":
    sys.exit(main())
