"""A host MCP server for the device's client role, on the official Python SDK
(mcp 2.3.0, MCPServer, stdio). run-client starts it by default.

    tool log_reading(sensor)   two rounds: asks the reading ("reading",
                               a number), then whether to store it
                               ("store", a boolean) with the first answer
                               carried in requestState (the SDK seals it)
"""

from __future__ import annotations

import json
import sys
from typing import Any

from mcp_types import ElicitRequest, ElicitRequestFormParams, ElicitResult, InputRequiredResult

from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("mrtr-device-host", version="1.0.0", log_level="WARNING")


def form(message: str, properties: dict[str, Any], required: list[str]) -> ElicitRequest:
    schema = {"type": "object", "properties": properties, "required": required}
    return ElicitRequest(
        method="elicitation/create",
        params=ElicitRequestFormParams(message=message, requested_schema=schema),
    )


def accepted(ctx: Context, key: str) -> dict[str, Any] | None:
    got = (ctx.input_responses or {}).get(key)
    if isinstance(got, ElicitResult) and got.action == "accept" and got.content is not None:
        return got.content
    return None


@mcp.tool()
async def log_reading(sensor: str, ctx: Context) -> str | InputRequiredResult:
    """Logs a temperature reading: asks the value, then whether to store it."""
    state = json.loads(ctx.request_state) if ctx.request_state else {}
    celsius = state.get("celsius")
    if celsius is None:
        reading = accepted(ctx, "reading")
        if reading is None:
            return InputRequiredResult(
                input_requests={
                    "reading": form(
                        f"What does sensor {sensor} read?",
                        {"celsius": {"type": "number", "title": "Temperature (C)", "minimum": -40, "maximum": 125}},
                        ["celsius"],
                    )
                }
            )
        celsius = float(reading["celsius"])
    store = accepted(ctx, "store")
    if store is None:
        return InputRequiredResult(
            input_requests={
                "store": form(
                    f"Store {celsius:.2f} C from sensor {sensor}?",
                    {"store": {"type": "boolean", "title": "Store it"}},
                    ["store"],
                )
            },
            request_state=json.dumps({"celsius": celsius}),
        )
    if store.get("store") is not True:
        return f"Reading of sensor {sensor} discarded."
    return f"Stored {celsius:.2f} C from sensor {sensor}."


if __name__ == "__main__":
    mcp.run()
    sys.exit(0)
