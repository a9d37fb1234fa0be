#!/usr/bin/env python3
"""Writes the seed set of shared test vectors (tests/vectors/<group>/<name>.json).

Why a script: the seed cases wrap the official examples of the 2026-07-28
revision and build the malformed cases programmatically (65 input requests,
10,000-deep nesting, raw invalid UTF-8), which is error-prone by hand. The JSON
files it writes are the source of truth: runners in every language read those,
and cases added later may be written by hand. Re-running this script rewrites
the files it owns (`--out` to write elsewhere and diff).

The official examples are not part of this repository: `--examples DIR` names
a folder holding them as the MCP specification publishes them next to the
2026-07-28 schema, one folder per type (`DIR/CallToolRequest/
call-tool-request.json`, ...). The other groups are written from the texts
quoted in this file.

Usage: python3 tests/vectors/seed.py --examples DIR [--out DIR]
"""

import argparse
import base64
import copy
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

PV = "2026-07-28"
ALL_CAPS = {"elicitation": {"form": {}, "url": {}}, "sampling": {"tools": {}}, "roots": {}}

VECTORS = {}  # "group/name" -> dict


def add(group, name, description, direction, expect, *, method=None, message=None,
        message_text=None, message_base64=None, schema_valid=False, schema_def=None,
        schema_parts=None, client_capabilities=None, server_protocol_version=None):
    key = f"{group}/{name}"
    assert key not in VECTORS, key
    v = {"description": description, "direction": direction}
    if method is not None:
        v["method"] = method
    if server_protocol_version is not None:
        v["server_protocol_version"] = server_protocol_version
    if client_capabilities is not None:
        v["client_capabilities"] = client_capabilities
    given = [x is not None for x in (message, message_text, message_base64)]
    assert sum(given) == 1, key
    if message is not None:
        v["message"] = message
    if message_text is not None:
        v["message_text"] = message_text
    if message_base64 is not None:
        v["message_base64"] = base64.b64encode(message_base64).decode("ascii")
    v["schema_valid"] = schema_valid
    if schema_def is not None:
        v["schema_def"] = schema_def
    if schema_parts is not None:
        v["schema_parts"] = schema_parts
    v["expect"] = expect
    VECTORS[key] = v


# ---------------------------------------------------------------- builders

def meta(caps=None):
    return {
        "io.modelcontextprotocol/protocolVersion": PV,
        "io.modelcontextprotocol/clientInfo": {"name": "ExampleClient", "version": "1.0.0"},
        "io.modelcontextprotocol/clientCapabilities": {} if caps is None else caps,
    }


def request(rid, method, params):
    return {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}


def response(rid, result):
    return {"jsonrpc": "2.0", "id": rid, "result": result}


def error_response(rid, error):
    return {"jsonrpc": "2.0", "id": rid, "error": error}


def input_required(input_requests=None, request_state=None):
    r = {"resultType": "input_required"}
    if input_requests is not None:
        r["inputRequests"] = input_requests
    if request_state is not None:
        r["requestState"] = request_state
    return r


def elicit_form(message, props=None, mode=True):
    params = {}
    if mode:
        params["mode"] = "form"
    params["message"] = message
    params["requestedSchema"] = {
        "type": "object",
        "properties": props or {"name": {"type": "string"}},
        "required": list((props or {"name": None}).keys())[:1],
    }
    return {"method": "elicitation/create", "params": params}


def elicit_url(message, url):
    return {"method": "elicitation/create", "params": {"mode": "url", "message": message, "url": url}}


def sampling(text, max_tokens=100, system_prompt=None, tools=None):
    params = {"messages": [{"role": "user", "content": {"type": "text", "text": text}}]}
    if system_prompt is not None:
        params["systemPrompt"] = system_prompt
    if tools is not None:
        params["tools"] = tools
    params["maxTokens"] = max_tokens
    return {"method": "sampling/createMessage", "params": params}


def roots():
    return {"method": "roots/list"}


ACCEPT_NAME = {"action": "accept", "content": {"name": "octocat"}}


# ------------------------------------------------------------ expectations

def x_complete():
    return {"outcome": "complete"}


def x_error(code, message):
    return {"outcome": "rpc_error", "code": code, "message": message}


def x_invalid(category):
    assert category in ("json", "envelope", "protocol")
    return {"outcome": "invalid", "error": category}


def input_facts(key, req):
    """The facts a runner reports for one well-formed input request."""
    method = req["method"]
    params = req.get("params", {})
    if method == "elicitation/create":
        if params.get("mode", "form") == "url":
            return {"key": key, "kind": "elicit_url", "message": params["message"], "url": params["url"]}
        return {"key": key, "kind": "elicit_form", "message": params["message"]}
    if method == "sampling/createMessage":
        return {"key": key, "kind": "sampling", "maxTokens": params["maxTokens"],
                "systemPrompt": params.get("systemPrompt"), "hasTools": "tools" in params}
    if method == "roots/list":
        return {"key": key, "kind": "roots"}
    raise ValueError(method)


def x_input_required(result):
    return {
        "outcome": "input_required",
        "requestState": result.get("requestState"),
        "inputs": [input_facts(k, r) for k, r in result.get("inputRequests", {}).items()],
    }


def shape_of(value):
    if isinstance(value, dict) and list(value.keys()) == ["result"]:
        return "wrapped"
    return "bare"


def x_request(msg):
    params = msg["params"]
    x = {"outcome": "request", "method": msg["method"]}
    if msg["method"] in ("tools/call", "prompts/get"):
        x["name"] = params["name"]
    elif msg["method"] == "resources/read":
        x["uri"] = params["uri"]
    elif msg["method"] == "tasks/update":
        x["taskId"] = params["taskId"]
    elif msg["method"] == "tasks/input_response":
        x["taskId"] = params["_meta"]["io.modelcontextprotocol/related-task"]["taskId"]
    x["hasRequestState"] = "requestState" in params
    x["inputResponses"] = [{"key": k, "shape": shape_of(v)} for k, v in params.get("inputResponses", {}).items()]
    x["protocolVersion"] = params.get("_meta", {}).get("io.modelcontextprotocol/protocolVersion")
    return x


RESPONSE_DEF = {"tools/call": "CallToolResultResponse", "prompts/get": "GetPromptResultResponse",
                "resources/read": "ReadResourceResultResponse"}
REQUEST_DEF = {"tools/call": "CallToolRequest", "prompts/get": "GetPromptRequest",
               "resources/read": "ReadResourceRequest"}


def add_response(group, name, description, msg, *, method="tools/call", expect=None,
                 schema_valid=True, schema_def=None, schema_parts=None, **kw):
    """A server_response case given as a message object; expect derived for
    well-formed results unless given."""
    if expect is None:
        result = msg["result"]
        if result.get("resultType") == "input_required":
            expect = x_input_required(result)
        else:
            expect = x_complete()
    if schema_def is None:
        schema_def = RESPONSE_DEF.get(method, "JSONRPCResultResponse")
    if schema_parts is None and method not in RESPONSE_DEF and "result" in msg \
            and isinstance(msg["result"], dict) and msg["result"].get("resultType") == "input_required":
        schema_parts = {"/result": "InputRequiredResult"}
    add(group, name, description, "server_response", expect, method=method, message=msg,
        schema_valid=schema_valid, schema_def=schema_def, schema_parts=schema_parts, **kw)


def add_request(group, name, description, msg, *, expect=None, schema_valid=True, schema_def=None, **kw):
    if expect is None:
        expect = x_request(msg)
    if schema_def is None:
        schema_def = REQUEST_DEF.get(msg.get("method"), "JSONRPCRequest")
    add(group, name, description, "client_request", expect, message=msg,
        schema_valid=schema_valid, schema_def=schema_def, **kw)


def depth(v):
    if isinstance(v, dict):
        return 1 + max((depth(x) for x in v.values()), default=0)
    if isinstance(v, list):
        return 1 + max((depth(x) for x in v), default=0)
    return 0


# ------------------------------------------------------------- the groups

def load(examples, rel):
    with open(os.path.join(examples, rel), encoding="utf-8") as f:
        return json.load(f)


def group_examples(examples):
    g = "examples"
    src = "official 2026-07-28 example "

    # InputRequiredResult: bare results, wrapped in a JSON-RPC response.
    rel = "InputRequiredResult/input-required-result-with-elicitation-and-sampling-and-request-state.json"
    add_response(g, "input-required-result-elicitation-sampling-state",
                 f"{src}{rel}, a bare result wrapped in a JSON-RPC response (id 1) to tools/call. "
                 "The elicitation omits `mode`, which means form mode.",
                 response(1, load(examples, rel)), schema_parts={"/result": "InputRequiredResult"})
    rel = "InputRequiredResult/input-required-result-with-request-state-only.json"
    add_response(g, "input-required-result-request-state-only",
                 f"{src}{rel}, wrapped in a JSON-RPC response (id 1) to tools/call. No inputRequests: "
                 "the client may retry at once, echoing requestState.",
                 response(1, load(examples, rel)), schema_parts={"/result": "InputRequiredResult"})

    rel = "InputRequests/elicitation-and-sampling-input-requests.json"
    add_response(g, "input-requests-elicitation-sampling",
                 f"{src}{rel}: the map placed as `inputRequests` of an InputRequiredResult (no requestState) "
                 "in a JSON-RPC response (id 1) to tools/call.",
                 response(1, input_required(load(examples, rel))), schema_parts={"/result": "InputRequiredResult"})

    rel = "InputResponses/elicitation-and-sampling-input-responses.json"
    call = load(examples, "CallToolRequest/call-tool-request.json")
    retry = copy.deepcopy(call)
    retry["id"] = "call-tool-example-2"
    retry["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] = {"elicitation": {"form": {}}, "sampling": {}}
    retry["params"]["inputResponses"] = load(examples, rel)
    retry["params"]["requestState"] = "eyJsb2NhdGlvbiI6Ik5ldyBZb3JrIn0"
    add_request(g, "input-responses-elicitation-sampling",
                f"{src}{rel}: the map placed as `inputResponses` of a retry of "
                "CallToolRequest/call-tool-request.json (new id, capabilities declaring elicitation and "
                "sampling, requestState echoed from the InputRequiredResult example). Bare shape.",
                retry, schema_parts={"/params/inputResponses": "InputResponses"})

    rel = "CallToolRequest/call-tool-request.json"
    add_request(g, "call-tool-request", f"{src}{rel}, as is: a first leg, no inputResponses, no requestState.",
                load(examples, rel))
    for stem in ("get-weather-tool-call-params", "tool-call-params-with-progress-token"):
        rel = f"CallToolRequestParams/{stem}.json"
        add_request(g, f"call-tool-request-params-{stem}",
                    f"{src}{rel}: params wrapped in a tools/call JSON-RPC request (id 7).",
                    request(7, "tools/call", load(examples, rel)))
    for stem in ("invalid-tool-input-error", "result-with-array-structured-content",
                 "result-with-structured-content", "result-with-unstructured-text"):
        rel = f"CallToolResult/{stem}.json"
        add_response(g, f"call-tool-result-{stem}",
                     f"{src}{rel}: a bare result wrapped in a JSON-RPC response (id 1) to tools/call. "
                     "resultType complete" + (" (isError true is still a complete result)." if "error" in stem else "."),
                     response(1, load(examples, rel)))
    rel = "CallToolResultResponse/call-tool-result-response.json"
    add_response(g, "call-tool-result-response", f"{src}{rel}, as is.", load(examples, rel))

    rel = "GetPromptRequest/get-prompt-request.json"
    add_request(g, "get-prompt-request", f"{src}{rel}, as is.", load(examples, rel))
    rel = "GetPromptRequestParams/get-code-review-prompt.json"
    add_request(g, "get-prompt-request-params", f"{src}{rel}: params wrapped in a prompts/get request (id 8).",
                request(8, "prompts/get", load(examples, rel)))
    rel = "GetPromptResult/code-review-prompt.json"
    add_response(g, "get-prompt-result", f"{src}{rel}: wrapped in a JSON-RPC response (id 1) to prompts/get.",
                 response(1, load(examples, rel)), method="prompts/get")
    rel = "GetPromptResultResponse/get-prompt-result-response.json"
    add_response(g, "get-prompt-result-response", f"{src}{rel}, as is.", load(examples, rel), method="prompts/get")

    rel = "ReadResourceRequest/read-resource-request.json"
    add_request(g, "read-resource-request", f"{src}{rel}, as is.", load(examples, rel))
    rel = "ReadResourceResult/file-resource-contents.json"
    add_response(g, "read-resource-result", f"{src}{rel}: wrapped in a JSON-RPC response (id 1) to resources/read.",
                 response(1, load(examples, rel)), method="resources/read")
    for stem in ("read-resource-result-response", "read-resource-result-response-with-ttl"):
        rel = f"ReadResourceResultResponse/{stem}.json"
        add_response(g, stem, f"{src}{rel}, as is.", load(examples, rel), method="resources/read")

    # Input request kinds, each as the one entry of an InputRequiredResult.
    def one_input(name, rel, req, note):
        add_response(g, name,
                     f"{src}{rel}{note}, as the only entry (key \"q\") of `inputRequests` in an "
                     "InputRequiredResult, in a JSON-RPC response (id 1) to tools/call.",
                     response(1, input_required({"q": req})), schema_parts={"/result": "InputRequiredResult"})

    rel = "ElicitRequest/elicitation-request.json"
    one_input("elicit-request", rel, load(examples, rel), "")
    for stem in ("elicit-multiple-fields", "elicit-single-field"):
        rel = f"ElicitRequestFormParams/{stem}.json"
        one_input(f"elicit-form-params-{stem}", rel,
                  {"method": "elicitation/create", "params": load(examples, rel)}, " (params of an elicitation/create)")
    rel = "ElicitRequestURLParams/elicit-sensitive-data.json"
    one_input("elicit-url-params-sensitive-data", rel,
              {"method": "elicitation/create", "params": load(examples, rel)}, " (params of a URL-mode elicitation/create)")
    rel = "CreateMessageRequest/sampling-request.json"
    one_input("create-message-request", rel, load(examples, rel), "")
    for stem in ("basic-request", "follow-up-with-tool-results", "request-with-tools"):
        rel = f"CreateMessageRequestParams/{stem}.json"
        one_input(f"create-message-params-{stem}", rel,
                  {"method": "sampling/createMessage", "params": load(examples, rel)},
                  " (params of a sampling/createMessage" + (", with tools: the client declared sampling.tools)"
                                                           if "tools" in load(examples, rel) else ")"))
    rel = "ListRootsRequest/list-roots-request.json"
    one_input("list-roots-request", rel, load(examples, rel),
              " (it carries a stray `id` member, which the client ignores: input requests have no JSON-RPC id)")

    # Input response kinds, each as the one entry of a retry's inputResponses.
    def one_response(name, rel, value, caps):
        msg = request(9, "tools/call", {
            "_meta": meta(caps), "name": "get_weather", "arguments": {"location": "New York"},
            "inputResponses": {"q": value}})
        add_request(g, name,
                    f"{src}{rel} as the only entry (key \"q\") of `inputResponses` in a tools/call retry "
                    "(id 9, no requestState). Bare shape.",
                    msg, schema_parts={"/params/inputResponses/q": "InputResponse"})

    for stem in ("multiple-root-directories", "single-root-directory"):
        rel = f"ListRootsResult/{stem}.json"
        one_response(f"list-roots-result-{stem}", rel, load(examples, rel), {"roots": {}})
    for stem in ("accept-url-mode-no-content", "input-multiple-fields", "input-single-field"):
        rel = f"ElicitResult/{stem}.json"
        one_response(f"elicit-result-{stem}", rel, load(examples, rel), {"elicitation": {"form": {}, "url": {}}})
    for stem in ("final-response", "text-response", "tool-use-response"):
        rel = f"CreateMessageResult/{stem}.json"
        one_response(f"create-message-result-{stem}", rel, load(examples, rel), {"sampling": {"tools": {}}})

    # Errors.
    for d, stem, code in (("HeaderMismatchError", "header-mismatch", -32020),
                          ("MissingRequiredClientCapabilityError", "missing-elicitation-capability", -32021),
                          ("UnsupportedProtocolVersionError", "unsupported-version", -32022)):
        rel = f"{d}/{stem}.json"
        msg = load(examples, rel)
        add_response(g, f"error-{stem}", f"{src}{rel}, as is: a JSON-RPC error response (code {code}).", msg,
                     expect=x_error(code, msg["error"]["message"]), schema_def=d)
    for d, stem in (("InvalidParamsError", "invalid-cursor"), ("InvalidParamsError", "invalid-tool-arguments"),
                    ("InvalidParamsError", "unknown-prompt"), ("InvalidParamsError", "unknown-tool"),
                    ("InternalError", "unexpected-error"), ("MethodNotFoundError", "prompts-not-supported"),
                    ("ParseError", "invalid-json")):
        rel = f"{d}/{stem}.json"
        err = load(examples, rel)
        add_response(g, f"error-{stem}",
                     f"{src}{rel}: a bare error object wrapped in a JSON-RPC error response (id 1) to tools/call.",
                     error_response(1, err), expect=x_error(err["code"], err["message"]),
                     schema_def="JSONRPCErrorResponse", schema_parts={"/error": d})


SPEC_INPUT_REQUESTS = {
    "github_login": {
        "method": "elicitation/create",
        "params": {
            "mode": "form",
            "message": "Please provide your GitHub username",
            "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
        },
    },
    "capital_of_france": {
        "method": "sampling/createMessage",
        "params": {
            "messages": [{"role": "user", "content": {"type": "text", "text": "What is the capital of France?"}}],
            "systemPrompt": "You are a helpful assistant.",
            "maxTokens": 100,
        },
    },
}

SPEC_INPUT_REQUIRED_TEXT = """{
  "jsonrpc": "2.0",
  "id": 1,
  "result": {
    "resultType": "input_required",
    "inputRequests": {
      // Elicitation request.
      "github_login": {
        "method": "elicitation/create",
        "params": {
          "mode": "form",
          "message": "Please provide your GitHub username",
          "requestedSchema": {
            "type": "object",
            "properties": {
              "name": { "type": "string" }
            },
            "required": ["name"]
          }
        }
      },
      // Sampling request.
      "capital_of_france": {
        "method": "sampling/createMessage",
        "params": {
          "messages": [
            {
              "role": "user",
              "content": {
                "type": "text",
                "text": "What is the capital of France?"
              }
            }
          ],
          "modelPreferences": {
            "hints": [{ "name": "claude-3-sonnet" }],
            "intelligencePriority": 0.8,
            "speedPriority": 0.5
          },
          "systemPrompt": "You are a helpful assistant.",
          "maxTokens": 100
        }
      }
    },
    "requestState": "AEAD-protected blob"
  }
}
"""


def strip_line_comments(text):
    return "\n".join(line for line in text.splitlines() if not line.strip().startswith("//")) + "\n"


def group_spec():
    g = "spec"
    src = "MRTR spec page (2026-07-28)"
    add_response(g, "input-requests-map",
                 f"{src}, section InputRequests: the github_login + capital_of_france map, placed as "
                 "`inputRequests` of an InputRequiredResult (no requestState) in a response (id 1) to tools/call.",
                 response(1, input_required(copy.deepcopy(SPEC_INPUT_REQUESTS))),
                 schema_parts={"/result": "InputRequiredResult"})
    responses = {
        "github_login": {"action": "accept", "content": {"name": "octocat"}},
        "capital_of_france": {"role": "assistant",
                              "content": {"type": "text", "text": "The capital of France is Paris."},
                              "model": "claude-3-sonnet-20240307", "stopReason": "endTurn"},
    }
    add_request(g, "input-responses-map",
                f"{src}, section InputResponses: the map as `inputResponses` of a tools/call retry (id 2) "
                "that echoes requestState \"AEAD-protected blob\" from the page's InputRequiredResult. Bare shape.",
                request(2, "tools/call", {"_meta": meta({"elicitation": {"form": {}}, "sampling": {}}),
                                          "name": "get_weather", "arguments": {"location": "New York"},
                                          "inputResponses": responses, "requestState": "AEAD-protected blob"}),
                schema_parts={"/params/inputResponses": "InputResponses"})
    add_response(g, "input-required-result",
                 f"{src}, section InputRequiredResult: the page's JSON-RPC response with its two `//` comment "
                 "lines removed (the page writes JSON5). Answers a tools/call.",
                 json.loads(strip_line_comments(SPEC_INPUT_REQUIRED_TEXT)),
                 schema_parts={"/result": "InputRequiredResult"})
    add(g, "input-required-result-verbatim-comments",
        f"{src}, section InputRequiredResult, verbatim: it contains `// Elicitation request.` comments, "
        "which JSON does not allow, so a strict reader rejects the bytes.",
        "server_response", x_invalid("json"), method="tools/call", message_text=SPEC_INPUT_REQUIRED_TEXT)


# The SEP's worked examples are written against the draft: results carry no
# resultType, requests carry no _meta, inputResponses values are wrapped in
# {"result": ...}, and some texts are not valid JSON.
SEP = "SEP-2322 draft (Multi Round-Trip Requests)"
SEP_NO_RESULT_TYPE = (
    "It has no `resultType`. A 2026-07-28 server MUST include it, and the revision treats a missing "
    "resultType as complete only for servers of an earlier revision; a client that negotiated "
    "2026-07-28 therefore rejects this result as a protocol violation instead of guessing "
    "(see the matching server_protocol_version 2025-11-25 case for the legacy reading)."
)
ABSENT_RESULT_TYPE_IS_COMPLETE = (
    "Expectation: complete. The schema says a client MUST treat an absent resultType as \"complete\", and "
    "the official conformance suite (client check sep-2322-default-result-type-complete) sends exactly such a "
    "result from a 2026-07-28 server and requires the client to accept it as complete without retrying."
)
SEP_REQUEST = (
    "SEP-era request: no `_meta`, so protocolVersion is null (schema-invalid for 2026-07-28, which "
    "requires `_meta` with protocolVersion and clientCapabilities). The server side still parses it "
    "and reports what is there; answering per its version policy is the application's call."
)

GITHUB_LOGIN_SEP = {
    "method": "elicitation/create",
    "params": {
        "mode": "form",
        "message": "Please provide your GitHub username",
        "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
    },
}
WEATHER_ARGS = {"location": "New York"}
WEATHER_TEXT = "Current weather in New York:\nTemperature: 72°F\nConditions: Partly cloudy"

SEP_WEATHER_RETRY_TEXT = """{
  "jsonrpc": "2.0",
  "id": 3,
  "method": "tools/call",
  "params": {
    "name": "get_weather",
    "arguments": {
      "location": "New York"
    }
    "inputResponses": {
      "github_login": {
        "result": {
          "action": "accept",
          "content": {
            "name": "octocat"
          }
        }
      }
    },
    "requestState": "foo"
  }
}
"""

SEP_ERROR_RETRY_TEXT = """{
  "jsonrpc": "2.0",
  "id": 3,
  "method": "tools/call",
  "params": {
    "name": "get_weather",
    "arguments": {
      "location": "New York"
    }
    "inputResponses": {
      "not_requested_info": {
        "result": {
          "action": "accept",
          "content": {
            "not_requested_param_name": "Information the server did not request"
          }
        }
      }
    }
  }
}
"""

ADO_ARGS = {"workItemId": 4522, "fields": {"System.State": "Resolved"}}
ADO_RESOLUTION = {
    "method": "elicitation/create",
    "params": {
        "message": "Resolving Bug #4522 requires a resolution. How was this bug resolved?",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "resolution": {
                    "type": "string",
                    "enum": ["Fixed", "Won't Fix", "Duplicate", "By Design"],
                    "description": "Resolution type for this bug",
                }
            },
            "required": ["resolution"],
        },
    },
}
ADO_DUPLICATE_OF = {
    "method": "elicitation/create",
    "params": {
        "message": "Since this is a duplicate, which work item is the original?",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "duplicateOfId": {"type": "number", "description": "Work item ID of the original bug"}
            },
            "required": ["duplicateOfId"],
        },
    },
}
ADO_STATE = "eyJyZXNvbHV0aW9uIjoiRHVwbGljYXRlIn0..."
ADO_DONE = "Bug #4522 resolved as Duplicate of Bug #4301. State set to Resolved and duplicate link created."


def group_sep():
    g = "sep"
    m = "2026-07-28 rendering of the SEP's "
    modern_note = (" Rendered for 2026-07-28: resultType added, requests carry `_meta`, inputResponses "
                   "values are bare; everything else as in the SEP.")

    # Ephemeral weather flow.
    add_request(g, "weather-1-call", f"{SEP}, ephemeral example step 1: the initial get_weather call. {SEP_REQUEST}",
                request(2, "tools/call", {"name": "get_weather", "arguments": WEATHER_ARGS}), schema_valid=False)
    sep_ir = {"inputRequests": {"github_login": copy.deepcopy(GITHUB_LOGIN_SEP)}, "requestState": "foo"}
    add_response(g, "weather-2-incomplete",
                 f"{SEP}, ephemeral example step 2: the incomplete response asking github_login, requestState "
                 f"\"foo\". {SEP_NO_RESULT_TYPE}",
                 response(2, sep_ir), expect=x_invalid("protocol"), schema_valid=False)
    add(g, "weather-3-retry-verbatim",
        f"{SEP}, ephemeral example step 3, verbatim: a comma is missing between `arguments` and "
        "`inputResponses`, so the text is not JSON.",
        "client_request", x_invalid("json"), message_text=SEP_WEATHER_RETRY_TEXT)
    sep_retry = request(3, "tools/call", {"name": "get_weather", "arguments": WEATHER_ARGS,
                                          "inputResponses": {"github_login": {"result": ACCEPT_NAME}},
                                          "requestState": "foo"})
    add_request(g, "weather-3-retry",
                f"{SEP}, ephemeral example step 3 with the missing comma restored: the retry echoing requestState "
                f"\"foo\" with the SEP's wrapped `{{\"result\": ...}}` inputResponses, which a mrtr server accepts. "
                f"{SEP_REQUEST}", sep_retry, schema_valid=False)
    sep_done = {"content": [{"type": "text", "text": WEATHER_TEXT}], "isError": False}
    add_response(g, "weather-4-result", f"{SEP}, ephemeral example step 4: the final result, which has no "
                 f"`resultType`. {ABSENT_RESULT_TYPE_IS_COMPLETE}", response(3, sep_done), schema_valid=False)
    add_response(g, "weather-4-result-from-2025-11-25-server",
                 f"{SEP}, ephemeral example step 4, received from a server that negotiated 2025-11-25: the "
                 "revision says a client MUST treat an absent resultType from an earlier-revision server as "
                 "\"complete\".", response(3, sep_done), expect=x_complete(), schema_valid=False,
                 server_protocol_version="2025-11-25")
    add_response(g, "weather-2-incomplete-from-2025-11-25-server",
                 f"{SEP}, ephemeral example step 2, received from a server that negotiated 2025-11-25. The "
                 "backward-compatibility rule is literal: no resultType from an earlier-revision server means "
                 "\"complete\"; MRTR does not exist before 2026-07-28, so `inputRequests` is just an unknown "
                 "member and the client must not start a round.",
                 response(2, sep_ir), expect=x_complete(), schema_valid=False, server_protocol_version="2025-11-25")

    add_response(g, "weather-2026-2-input-required", f"{m}ephemeral example step 2.{modern_note}",
                 response(2, input_required({"github_login": copy.deepcopy(GITHUB_LOGIN_SEP)}, "foo")))
    add_request(g, "weather-2026-3-retry", f"{m}ephemeral example step 3.{modern_note}",
                request(3, "tools/call", {"_meta": meta({"elicitation": {"form": {}}}), "name": "get_weather",
                                          "arguments": WEATHER_ARGS,
                                          "inputResponses": {"github_login": ACCEPT_NAME}, "requestState": "foo"}))
    add_response(g, "weather-2026-4-result", f"{m}ephemeral example step 4.{modern_note}",
                 response(3, dict({"resultType": "complete"}, **sep_done)))

    # Azure DevOps work item flow.
    ado = f"{SEP}, real-world example (Azure DevOps update_work_item)"
    add_request(g, "ado-round1-call", f"{ado}, round 1 step 1: the call resolving Bug #4522. {SEP_REQUEST}",
                request(1, "tools/call", {"name": "update_work_item", "arguments": ADO_ARGS}), schema_valid=False)
    add_response(g, "ado-round1-incomplete",
                 f"{ado}, round 1 step 2: elicits the resolution (no `mode`: form), no requestState. "
                 f"{SEP_NO_RESULT_TYPE}",
                 response(1, {"inputRequests": {"resolution": copy.deepcopy(ADO_RESOLUTION)}}),
                 expect=x_invalid("protocol"), schema_valid=False)
    add_request(g, "ado-round1-retry",
                f"{ado}, round 1 step 3: the retry with the wrapped resolution answer and no requestState. "
                f"{SEP_REQUEST}",
                request(2, "tools/call", {"name": "update_work_item", "arguments": ADO_ARGS, "inputResponses": {
                    "resolution": {"result": {"action": "accept", "content": {"resolution": "Duplicate"}}}}}),
                schema_valid=False)
    add_response(g, "ado-round2-incomplete",
                 f"{ado}, round 2 step 4: elicits duplicate_of and carries the gathered resolution in "
                 f"requestState. {SEP_NO_RESULT_TYPE}",
                 response(2, {"inputRequests": {"duplicate_of": copy.deepcopy(ADO_DUPLICATE_OF)},
                              "requestState": ADO_STATE}),
                 expect=x_invalid("protocol"), schema_valid=False)
    add_request(g, "ado-round2-retry",
                f"{ado}, round 2 step 5: the retry echoing requestState with the wrapped duplicate_of answer. "
                f"{SEP_REQUEST}",
                request(3, "tools/call", {"name": "update_work_item", "arguments": ADO_ARGS, "inputResponses": {
                    "duplicate_of": {"result": {"action": "accept", "content": {"duplicateOfId": 4301}}}},
                    "requestState": ADO_STATE}),
                schema_valid=False)
    ado_done = {"content": [{"type": "text", "text": ADO_DONE}], "isError": False}
    add_response(g, "ado-final-result", f"{ado}, final step 6: the completed update, which has no `resultType`. "
                 f"{ABSENT_RESULT_TYPE_IS_COMPLETE}", response(3, ado_done), schema_valid=False)

    add_response(g, "ado-2026-round1-input-required", f"{m}Azure DevOps round 1 step 2.{modern_note}",
                 response(1, input_required({"resolution": copy.deepcopy(ADO_RESOLUTION)})))
    add_request(g, "ado-2026-round1-retry", f"{m}Azure DevOps round 1 step 3.{modern_note}",
                request(2, "tools/call", {"_meta": meta({"elicitation": {"form": {}}}), "name": "update_work_item",
                                          "arguments": ADO_ARGS, "inputResponses": {
                                              "resolution": {"action": "accept", "content": {"resolution": "Duplicate"}}}}))
    add_response(g, "ado-2026-round2-input-required", f"{m}Azure DevOps round 2 step 4.{modern_note}",
                 response(2, input_required({"duplicate_of": copy.deepcopy(ADO_DUPLICATE_OF)}, ADO_STATE)))
    add_request(g, "ado-2026-round2-retry", f"{m}Azure DevOps round 2 step 5.{modern_note}",
                request(3, "tools/call", {"_meta": meta({"elicitation": {"form": {}}}), "name": "update_work_item",
                                          "arguments": ADO_ARGS, "inputResponses": {
                                              "duplicate_of": {"action": "accept", "content": {"duplicateOfId": 4301}}},
                                          "requestState": ADO_STATE}))
    add_response(g, "ado-2026-final-result", f"{m}Azure DevOps final step 6.{modern_note}",
                 response(3, dict({"resultType": "complete"}, **ado_done)))

    # Error-handling guidance (ephemeral).
    eh = f"{SEP}, guidance for error handling (ephemeral workflow)"
    add(g, "error-handling-retry-verbatim",
        f"{eh}, step 1 verbatim: the same missing comma after `arguments`, so not JSON.",
        "client_request", x_invalid("json"), message_text=SEP_ERROR_RETRY_TEXT)
    add_request(g, "error-handling-retry-unrequested",
                f"{eh}, step 1 with the comma restored: a retry answering a key the server never asked "
                f"(not_requested_info). The parser reports it; the server ignores what it does not need and "
                f"asks again. {SEP_REQUEST}",
                request(3, "tools/call", {"name": "get_weather", "arguments": WEATHER_ARGS, "inputResponses": {
                    "not_requested_info": {"result": {"action": "accept", "content": {
                        "not_requested_param_name": "Information the server did not request"}}}}}),
                schema_valid=False)
    add_response(g, "error-handling-asks-again",
                 f"{eh}, step 2: the server asks github_login again instead of failing. {SEP_NO_RESULT_TYPE}",
                 response(2, {"inputRequests": {"github_login": copy.deepcopy(GITHUB_LOGIN_SEP)}}),
                 expect=x_invalid("protocol"), schema_valid=False)

    # Use cases described in prose (rolling upgrade, load shedding), written out for 2026-07-28.
    ru = f"{SEP}, use case 1 (rolling upgrade), written out as 2026-07-28 messages (the SEP gives prose only)"
    add_request(g, "rolling-upgrade-retry-to-new-version",
                f"{ru}: step 3, the retry answering github_login and google_login reaches a new server that "
                "no longer needs google_login; the parser reports both keys in document order.",
                request(5, "tools/call", {"_meta": meta({"elicitation": {"form": {}}}), "name": "get_weather",
                                          "arguments": WEATHER_ARGS, "inputResponses": {
                                              "github_login": ACCEPT_NAME,
                                              "google_login": {"action": "accept", "content": {"name": "octo@example.com"}}}}))
    add_response(g, "rolling-upgrade-asks-microsoft-login",
                 f"{ru}: step 4, the new server asks microsoft_login and keeps the github_login answer in "
                 "requestState.",
                 response(5, input_required({"microsoft_login": elicit_form(
                     "Please provide your Microsoft account", {"email": {"type": "string", "format": "email"}})},
                     "c3RhdGU6Z2l0aHViX2xvZ2luPW9jdG9jYXQ")))
    ls = f"{SEP}, use case 2 (load shedding), written out as 2026-07-28 messages (the SEP gives prose only)"
    add_response(g, "load-shedding-state-only",
                 f"{ls}: step 2, an overloaded instance hands its progress back in requestState with no "
                 "inputRequests; the client may retry at once.",
                 response(6, input_required(None, "c2hlZDpzdGVwPTQyO3BhcnRpYWw9MTI4")))
    add_request(g, "load-shedding-retry",
                f"{ls}: step 3, the retry carries only the echoed requestState (no inputResponses).",
                request(7, "tools/call", {"_meta": meta(), "name": "get_weather", "arguments": WEATHER_ARGS,
                                          "requestState": "c2hlZDpzdGVwPTQyO3BhcnRpYWw9MTI4"}))


TASK_ID = "echo_dc792e24-01b5-4c0a-abcb-0559848ca3c5"
RELATED = {"io.modelcontextprotocol/related-task": {"taskId": TASK_ID}}
ECHO_INPUT = {
    "method": "elicitation/create",
    "params": {
        "mode": "form",
        "message": "Please provide the input string to echo back",
        "requestedSchema": {"type": "object", "properties": {"input": {"type": "string"}}, "required": ["input"]},
    },
}

SEP_TASK_GET_TEXT = """{
    "id": 2,
    "jsonrpc": "2.0",
    "result":{
      "taskId": "echo_dc792e24-01b5-4c0a-abcb-0559848ca3c5",
      "status": "input_required",
      "statusMessage": "Input Required to Proceed call tasks/result",
      "createdAt": "2026-01-27T03:38:07.7534643Z",
      "ttl": 60000,
      "pollInterval": 100
    },
}
"""
SEP_TASK_RESULT_REQUEST_TEXT = """{
  "id": 6,
  "jsonrpc": "2.0",
  "method": "tasks/result",
  "params":{
    "taskId":  "echo_dc792e24-01b5-4c0a-abcb-0559848ca3c5"
  },
}
"""
SEP_TASK_FINAL_TEXT = """{
  "id": 6,
  "jsonrpc": "2.0",
  "result":{
    "isError": false,
    "content":[{
        "type": "text",
        "text": "Echo: Hello World!"
    }],
    "_meta":{
      "io.modelcontextprotocol/related-task":{
        "taskId": "echo_dc792e24-01b5-4c0a-abcb-0559848ca3c5"
      }
    }
  },
}
"""


def group_tasks():
    g = "tasks"
    pt = f"{SEP}, persistent (Tasks) example"
    add_request(g, "sep-1-call-with-task",
                f"{pt}, step 1: tools/call asking for a task (ttl 60000). {SEP_REQUEST}",
                request(1, "tools/call", {"name": "echo", "task": {"ttl": 60000}}), schema_valid=False)
    add(g, "sep-4-get-verbatim",
        f"{pt}, step 4 verbatim: tasks/get answered with status input_required; the text ends in `}},\\n}}`, a "
        "trailing comma, so it is not JSON.",
        "server_response", x_invalid("json"), method="tasks/get", message_text=SEP_TASK_GET_TEXT)
    sep_result = {"inputRequests": {"echo_input": copy.deepcopy(ECHO_INPUT)}, "_meta": copy.deepcopy(RELATED)}
    add_response(g, "sep-6-result-input-requests",
                 f"{pt}, step 6: tasks/result answered with inputRequests (echo_input). {SEP_NO_RESULT_TYPE}",
                 response(3, sep_result), method="tasks/result", expect=x_invalid("protocol"), schema_valid=False)
    add_response(g, "sep-2026-6-result-input-requests",
                 f"2026-07-28 rendering of the SEP's persistent example step 6 (resultType input_required added): "
                 "the spec page lists tasks/result among the requests that may answer with an InputRequiredResult.",
                 response(3, dict({"resultType": "input_required"}, **sep_result)), method="tasks/result")
    sep_answer = request(4, "tasks/input_response", {
        "inputResponses": {"echo_input": {"result": {"action": "accept", "content": {"input": "Hello World!"}}}},
        "_meta": copy.deepcopy(RELATED)})
    add_request(g, "sep-7-input-response",
                f"{pt}, step 7: tasks/input_response carrying the wrapped echo_input answer; the task id travels "
                "in `_meta` io.modelcontextprotocol/related-task. No protocolVersion in `_meta` (SEP-era). "
                "The 2026-07-28 schema has no tasks/input_response, so this is checked as a plain JSONRPCRequest.",
                sep_answer)
    add_request(g, "sep-7-input-response-unexpected-content",
                f"{SEP}, guidance for error handling (persistent workflow), step 7: well-formed but with content "
                "the server did not ask for; the parser accepts it, the server leaves the task input_required.",
                request(4, "tasks/input_response", {
                    "inputResponses": {"echo_input": {"result": {"action": "accept", "content": {
                        "not_requested_parameter": "Information the server did not request."}}}},
                    "_meta": copy.deepcopy(RELATED)}))
    add(g, "sep-11-result-request-verbatim",
        f"{pt}, step 11 verbatim: the tasks/result request ends in a trailing comma, so it is not JSON.",
        "client_request", x_invalid("json"), message_text=SEP_TASK_RESULT_REQUEST_TEXT)
    add(g, "sep-12-final-verbatim",
        f"{pt}, step 12 verbatim: the final result ends in a trailing comma, so it is not JSON.",
        "server_response", x_invalid("json"), method="tasks/result", message_text=SEP_TASK_FINAL_TEXT)
    add_request(g, "ext-update-input-responses",
                "Tasks extension draft schema (UpdateTaskRequest): tasks/update with taskId and "
                "bare inputResponses, the extension's way of answering a task in status input_required. "
                "Checked against the core schema as a plain JSONRPCRequest.",
                request(10, "tasks/update", {"_meta": meta({"elicitation": {"form": {}}}), "taskId": TASK_ID,
                                             "inputResponses": {"echo_input": {"action": "accept",
                                                                               "content": {"input": "Hello World!"}}}}))


# --------------------------------------------------------- malformed: json

OK_RESULT_TEXT = '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}}'


def group_json():
    g = "json"

    def bad(name, text, what, direction="server_response"):
        method = "tools/call" if direction == "server_response" else None
        if isinstance(text, bytes):
            add(g, name, what, direction, x_invalid("json"), method=method, message_base64=text)
        else:
            add(g, name, what, direction, x_invalid("json"), method=method, message_text=text)

    ir = '{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":%s}}'
    bad("trailing-comma-object", '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[],}}',
        "Trailing comma before `}` inside the result (RFC 8259 has no trailing commas).")
    bad("trailing-comma-array",
        '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"x"},]}}',
        "Trailing comma before `]` in content.")
    bad("trailing-comma-top-level", '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]},}',
        "Trailing comma after the last member of the envelope.")
    bad("lone-high-surrogate", ir % '"abc\\ud800"',
        "requestState holds the escape \\ud800, a high surrogate with no low surrogate after it.")
    bad("lone-low-surrogate", ir % '"\\udc00abc"', "requestState holds \\udc00, a low surrogate with nothing before it.")
    bad("high-surrogate-then-bmp-escape", ir % '"\\ud800\\u0041"',
        "A high surrogate followed by \\u0041, which is not a low surrogate.")
    bad("high-surrogate-at-string-end", ir % '"x\\ud83d"', "A high surrogate as the last escape of the string.")
    bad("reversed-surrogate-pair", ir % '"\\ude00\\ud83d"', "A surrogate pair in the wrong order (low, then high).")
    env = b'{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"%s"}}'
    bad("invalid-utf8-byte-ff", env.replace(b"%s", b"ab\xffcd"), "Raw byte 0xFF inside a string: never valid UTF-8.")
    bad("invalid-utf8-overlong-slash", env.replace(b"%s", b"a\xc0\xafb"),
        "Overlong two-byte encoding C0 AF of '/': invalid UTF-8.")
    bad("invalid-utf8-truncated-sequence", env.replace(b"%s", b"euro\xe2\x82"),
        "A three-byte sequence cut after two bytes (E2 82) before the closing quote.")
    bad("invalid-utf8-encoded-surrogate", env.replace(b"%s", b"\xed\xa0\x80"),
        "ED A0 80, the UTF-8 form of the surrogate U+D800: invalid UTF-8 (CESU-8).")
    bad("invalid-utf8-above-max", env.replace(b"%s", b"\xf4\x90\x80\x80"),
        "F4 90 80 80 would encode U+110000, beyond the last code point.")
    bad("invalid-utf8-lone-continuation", env.replace(b"%s", b"a\x80b"), "A continuation byte 0x80 with no lead byte.")
    bad("invalid-utf8-outside-string",
        b'{"jsonrpc":"2.0","id":1,\xff"result":{"resultType":"complete","content":[]}}',
        "Byte 0xFF between members, outside any string.")
    bad("invalid-utf8-in-key",
        b'{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"k\xfe":'
        b'{"method":"roots/list"}}}}', "Byte 0xFE inside an inputRequests key.")
    bad("leading-zero-id", '{"jsonrpc":"2.0","id":01,"result":{"resultType":"complete","content":[]}}',
        "The id is written 01: JSON numbers have no leading zeros.")
    bad("leading-zero-negative",
        '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[],"structuredContent":{"t":-012}}}',
        "The number -012 (leading zero after the sign).")
    bad("nan", '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[],"structuredContent":{"t":NaN}}}',
        "NaN is not JSON.")
    bad("infinity",
        '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[],"structuredContent":{"t":Infinity}}}',
        "Infinity is not JSON.")
    bad("negative-infinity",
        '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[],"structuredContent":{"t":-Infinity}}}',
        "-Infinity is not JSON.")
    bad("number-trailing-dot", '{"jsonrpc":"2.0","id":1.,"result":{"resultType":"complete","content":[]}}',
        "The number `1.` (a fraction needs digits).")
    bad("number-leading-dot",
        '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[],"structuredContent":{"t":.5}}}',
        "The number `.5` (needs an integer part).")
    bad("number-plus-sign", '{"jsonrpc":"2.0","id":+1,"result":{"resultType":"complete","content":[]}}',
        "The number `+1` (JSON has no plus sign).")
    bad("number-hex", '{"jsonrpc":"2.0","id":0x10,"result":{"resultType":"complete","content":[]}}',
        "The number `0x10` (no hex in JSON).")
    bad("number-exponent-without-digits",
        '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[],"structuredContent":{"t":1e}}}',
        "The number `1e` (an exponent needs digits).")
    bad("single-quoted-string", "{\"jsonrpc\":'2.0',\"id\":1,\"result\":{\"resultType\":\"complete\",\"content\":[]}}",
        "A single-quoted string.")
    bad("unquoted-key", '{"jsonrpc":"2.0",id:1,"result":{"resultType":"complete","content":[]}}', "An unquoted key.")
    bad("line-comment", '{"jsonrpc":"2.0", // version\n"id":1,"result":{"resultType":"complete","content":[]}}',
        "A // comment.")
    bad("block-comment", '{"jsonrpc":"2.0",/* id */"id":1,"result":{"resultType":"complete","content":[]}}',
        "A /* */ comment.")
    bad("raw-newline-in-string",
        '{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"line1\nline2"}}',
        "A raw line feed (U+000A) inside a string: control characters must be escaped.")
    bad("raw-tab-in-string",
        '{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"a\tb"}}',
        "A raw tab (U+0009) inside a string.")
    bad("raw-nul-in-string",
        '{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"a\u0000b"}}',
        "A raw NUL (U+0000) inside a string.")
    bad("invalid-escape", ir % '"\\x41"', "The escape \\x41 is not one of JSON's escapes.")
    bad("short-unicode-escape", ir % '"\\u12G4"', "\\u12G4: a \\u escape needs four hex digits.")
    bad("truncated-document", '{"jsonrpc":"2.0","id":1,"result":{"resultType":"comp',
        "The document ends inside a string.")
    bad("unclosed-object", '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}',
        "One closing brace missing.")
    bad("empty-input", "", "No bytes at all.")
    bad("whitespace-only", " \r\n\t ", "Only whitespace.")
    bad("trailing-garbage", OK_RESULT_TEXT + " x", "A valid response followed by ` x`.")
    bad("two-documents", OK_RESULT_TEXT + OK_RESULT_TEXT, "Two responses back to back in one message.")
    bad("missing-colon", '{"jsonrpc" "2.0","id":1,"result":{"resultType":"complete","content":[]}}',
        "A member without its colon.")
    bad("missing-comma", '{"jsonrpc":"2.0" "id":1,"result":{"resultType":"complete","content":[]}}',
        "Two members without a comma between them.")
    bad("misspelled-literal",
        '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[],"isError":tru}}', "`tru` for true.")
    bad("capitalized-literal",
        '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[],"isError":False}}',
        "`False`: JSON literals are lower case.")
    deep_a = "[" * 10000 + "]" * 10000
    bad("nesting-10000-arrays",
        '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[],"structuredContent":%s}}' % deep_a,
        "structuredContent nests 10,000 arrays: beyond any sane depth limit; a reader must fail cleanly, "
        "without recursion on attacker-controlled depth.")
    deep_o = '{"a":' * 10000 + "1" + "}" * 10000
    bad("nesting-10000-objects",
        '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[],"structuredContent":%s}}' % deep_o,
        "structuredContent nests 10,000 objects.")
    d = 33 - 3  # envelope (1) > result (2) > structuredContent (3 ...)
    bad("nesting-depth-33",
        '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[],"structuredContent":%s}}'
        % ("[" * (d + 1) + "]" * (d + 1)),
        "Nesting depth 33, one more than the default limit of 32 (the outermost value counts as 1); "
        "see edge/nesting-depth-32 for the largest accepted depth.")

    # The server side parses client requests with the same reader.
    bad("request-trailing-comma-params",
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather",}}',
        "A client request whose params end in a trailing comma.", "client_request")
    bad("request-lone-surrogate-request-state",
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","requestState":"\\udbff"}}',
        "A retry whose requestState holds a lone surrogate escape.", "client_request")
    bad("request-invalid-utf8-argument",
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather",'
        b'"arguments":{"location":"New \xc3York"}}}',
        "A tool argument with a two-byte lead byte C3 followed by an ASCII letter.", "client_request")
    bad("request-nesting-10000-arrays",
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"x":%s}}}'
        % deep_a, "A tool argument nested 10,000 arrays deep.", "client_request")


# ----------------------------------------------------- malformed: envelope

def group_envelope():
    g = "envelope"
    ok = {"resultType": "complete", "content": []}

    def bad(name, what, *, msg=None, text=None, direction="server_response", schema_def="JSONRPCResultResponse"):
        method = "tools/call" if direction == "server_response" else None
        if msg is not None:
            add(g, name, what, direction, x_invalid("envelope"), method=method, message=msg,
                schema_valid=False, schema_def=schema_def)
        else:
            add(g, name, what, direction, x_invalid("envelope"), method=method, message_text=text)

    bad("jsonrpc-1.0", "jsonrpc is \"1.0\"; only \"2.0\" is JSON-RPC 2.0.", msg={"jsonrpc": "1.0", "id": 1, "result": ok})
    bad("jsonrpc-missing", "No jsonrpc member.", msg={"id": 1, "result": ok})
    bad("jsonrpc-number", "jsonrpc is the number 2.0, not the string.", msg={"jsonrpc": 2.0, "id": 1, "result": ok})
    bad("id-missing", "A result response without id.", msg={"jsonrpc": "2.0", "result": ok})
    bad("id-null", "A result response with id null (RequestId is a string or an integer).",
        msg={"jsonrpc": "2.0", "id": None, "result": ok})
    bad("id-fraction", "id 1.5: not an integer.", msg={"jsonrpc": "2.0", "id": 1.5, "result": ok})
    bad("id-boolean", "id is the boolean true.", msg={"jsonrpc": "2.0", "id": True, "result": ok})
    bad("id-object", "id is an object.", msg={"jsonrpc": "2.0", "id": {"n": 1}, "result": ok})
    bad("id-array", "id is an array holding 1.", msg={"jsonrpc": "2.0", "id": [1], "result": ok})
    bad("neither-result-nor-error", "A response with neither result nor error.", msg={"jsonrpc": "2.0", "id": 1},
        schema_def="JSONRPCResponse")
    bad("both-result-and-error", "A response with both result and error.",
        msg={"jsonrpc": "2.0", "id": 1, "result": ok, "error": {"code": -32603, "message": "Internal error"}},
        schema_def=None)
    bad("duplicate-id", "The member id appears twice (1, then 2): which request it answers is ambiguous, so "
        "the message is rejected rather than resolved first-wins or last-wins.",
        text='{"jsonrpc":"2.0","id":1,"id":2,"result":{"resultType":"complete","content":[]}}')
    bad("duplicate-result", "The member result appears twice (input_required, then complete).",
        text='{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"s"},'
             '"result":{"resultType":"complete","content":[]}}')
    bad("duplicate-jsonrpc", "The member jsonrpc appears twice.",
        text='{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}}')
    bad("duplicate-error", "The member error appears twice.",
        text='{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"a"},"error":{"code":-32603,"message":"b"}}')
    bad("error-code-string", "error.code is a string.",
        msg={"jsonrpc": "2.0", "id": 1, "error": {"code": "-32602", "message": "Invalid params"}},
        schema_def="JSONRPCErrorResponse")
    bad("error-code-fraction", "error.code is -32602.5.",
        msg={"jsonrpc": "2.0", "id": 1, "error": {"code": -32602.5, "message": "Invalid params"}},
        schema_def="JSONRPCErrorResponse")
    bad("error-message-missing", "error has no message.",
        msg={"jsonrpc": "2.0", "id": 1, "error": {"code": -32602}}, schema_def="JSONRPCErrorResponse")
    bad("error-not-object", "error is a string.", msg={"jsonrpc": "2.0", "id": 1, "error": "Invalid params"},
        schema_def="JSONRPCErrorResponse")
    bad("batch-array", "A JSON array of responses: MCP does not use JSON-RPC batches.",
        msg=[{"jsonrpc": "2.0", "id": 1, "result": ok}])
    bad("top-level-string", "The message is a JSON string.", msg="complete")
    bad("top-level-null", "The message is the literal null.", text="null")

    req = {"name": "get_weather", "arguments": {"location": "New York"}}
    bad("request-jsonrpc-missing", "A tools/call request without jsonrpc.",
        msg={"id": 1, "method": "tools/call", "params": req}, direction="client_request", schema_def="JSONRPCRequest")
    bad("request-id-missing", "tools/call without id is a notification, which cannot carry a call.",
        msg={"jsonrpc": "2.0", "method": "tools/call", "params": req}, direction="client_request",
        schema_def="JSONRPCRequest")
    bad("request-id-null", "A request with id null.", msg={"jsonrpc": "2.0", "id": None, "method": "tools/call",
                                                            "params": req},
        direction="client_request", schema_def="JSONRPCRequest")
    bad("request-id-fraction", "A request with id 2.5.",
        msg={"jsonrpc": "2.0", "id": 2.5, "method": "tools/call", "params": req}, direction="client_request",
        schema_def="JSONRPCRequest")
    bad("request-method-missing", "A request without method.", msg={"jsonrpc": "2.0", "id": 1, "params": req},
        direction="client_request", schema_def="JSONRPCRequest")
    bad("request-method-number", "method is a number.", msg={"jsonrpc": "2.0", "id": 1, "method": 7, "params": req},
        direction="client_request", schema_def="JSONRPCRequest")
    bad("request-duplicate-method", "The member method appears twice (tools/call, then prompts/get).",
        text='{"jsonrpc":"2.0","id":1,"method":"tools/call","method":"prompts/get","params":{"name":"x"}}',
        direction="client_request")
    bad("request-duplicate-params", "The member params appears twice.",
        text='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"},"params":{"name":"b"}}',
        direction="client_request")
    bad("request-batch-array", "A JSON array of requests (batch).",
        msg=[{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": req}], direction="client_request",
        schema_def="JSONRPCRequest")


# ----------------------------------------------------- malformed: protocol

MAX_INPUTS = 64
MAX_KEY_BYTES = 256


def group_protocol():
    g = "protocol"

    def bad(name, what, result=None, *, msg=None, text=None, method="tools/call", caps=None, schema_def=None,
            schema_valid=None, schema_parts=None):
        if text is not None:
            add(g, name, what, "server_response", x_invalid("protocol"), method=method, message_text=text,
                client_capabilities=caps)
            return
        if msg is None:
            msg = response(1, result)
        if schema_def is None:
            schema_def = RESPONSE_DEF.get(method, "JSONRPCResultResponse")
        assert schema_valid is not None, name
        add(g, name, what, "server_response", x_invalid("protocol"), method=method, message=msg,
            schema_valid=schema_valid, schema_def=schema_def, schema_parts=schema_parts, client_capabilities=caps)

    form = elicit_form("Please provide your GitHub username")
    bad("input-required-neither-field", "resultType input_required with neither inputRequests nor requestState: "
        "the revision requires at least one.", {"resultType": "input_required"}, schema_valid=True)
    bad("input-required-empty-map-no-state",
        "input_required whose inputRequests is an empty object and which has no requestState: nothing to answer "
        "and nothing to echo, so a retry would repeat the first request unchanged. mrtr reads an empty map as "
        "absent and rejects the result like one with neither field.",
        {"resultType": "input_required", "inputRequests": {}}, schema_valid=True)
    bad("result-type-unknown", "resultType \"partial\" is neither complete nor input_required.",
        {"resultType": "partial", "content": []}, schema_valid=True)
    bad("result-type-wrong-case", "resultType \"Complete\": values are case-sensitive.",
        {"resultType": "Complete", "content": []}, schema_valid=True)
    bad("result-type-number", "resultType is the number 1.", {"resultType": 1, "content": []}, schema_valid=False)
    bad("result-type-null", "resultType is null.", {"resultType": None, "content": []}, schema_valid=False)
    bad("result-not-object", "result is a string: MCP results are objects.", msg={"jsonrpc": "2.0", "id": 1,
                                                                                   "result": "done"},
        schema_valid=False)
    bad("result-null", "result is null.", msg={"jsonrpc": "2.0", "id": 1, "result": None}, schema_valid=False)
    bad("input-required-on-tools-list", "An InputRequiredResult answering tools/list: servers MUST NOT send one "
        "except on tools/call, prompts/get, resources/read (and tasks/result).",
        input_required({"q": form}), method="tools/list", schema_def="ListToolsResultResponse", schema_valid=False)
    bad("input-request-method-unknown", "An input request with method tools/call, which is not a server-to-client "
        "request.", input_required({"q": {"method": "tools/call", "params": {"name": "x"}}}), schema_valid=False)
    bad("input-request-method-ping", "An input request with method ping: only elicitation/create, "
        "sampling/createMessage and roots/list may ride in inputRequests.",
        input_required({"q": {"method": "ping"}}), schema_valid=False)
    bad("input-request-method-missing", "An input request without method.",
        input_required({"q": {"params": form["params"]}}), schema_valid=False)
    bad("input-request-method-not-string", "An input request whose method is a number.",
        input_required({"q": {"method": 3, "params": {}}}), schema_valid=False)
    bad("input-request-not-object", "An inputRequests value that is a string, not a request object.",
        input_required({"q": "elicitation/create"}), schema_valid=False)
    bad("input-request-null", "An inputRequests value that is null.", input_required({"q": None}), schema_valid=False)
    bad("elicit-mode-unknown", "Elicitation mode \"modal\": neither form nor url.",
        input_required({"q": {"method": "elicitation/create", "params": dict(form["params"], mode="modal")}}),
        schema_valid=False)
    bad("elicit-mode-not-string", "Elicitation mode is the number 1.",
        input_required({"q": {"method": "elicitation/create", "params": dict(form["params"], mode=1)}}),
        schema_valid=False)
    bad("elicit-url-missing-url", "URL-mode elicitation without url.",
        input_required({"q": {"method": "elicitation/create", "params": {"mode": "url", "message": "Sign in"}}}),
        schema_valid=False)
    bad("elicit-url-url-not-string", "URL-mode elicitation whose url is an object.",
        input_required({"q": {"method": "elicitation/create",
                              "params": {"mode": "url", "message": "Sign in", "url": {"href": "https://x.example"}}}}),
        schema_valid=False)
    bad("elicit-url-missing-message", "URL-mode elicitation without message (required: the consent screen shows it).",
        input_required({"q": {"method": "elicitation/create",
                              "params": {"mode": "url", "url": "https://mcp.example.com/ui/set_api_key"}}}),
        schema_valid=False)
    bad("elicit-form-missing-message", "Form elicitation without message.",
        input_required({"q": {"method": "elicitation/create", "params": {
            "mode": "form", "requestedSchema": form["params"]["requestedSchema"]}}}), schema_valid=False)
    bad("elicit-form-missing-schema", "Form elicitation without requestedSchema.",
        input_required({"q": {"method": "elicitation/create", "params": {"mode": "form", "message": "Name?"}}}),
        schema_valid=False)
    bad("elicit-params-missing", "elicitation/create without params.",
        input_required({"q": {"method": "elicitation/create"}}), schema_valid=False)
    bad("elicit-params-not-object", "elicitation/create whose params is an array.",
        input_required({"q": {"method": "elicitation/create", "params": ["form"]}}), schema_valid=False)
    bad("sampling-params-missing", "sampling/createMessage without params.",
        input_required({"q": {"method": "sampling/createMessage"}}), schema_valid=False)
    bad("sampling-max-tokens-missing", "sampling/createMessage without maxTokens (required).",
        input_required({"q": {"method": "sampling/createMessage", "params": {"messages": []}}}), schema_valid=False)
    bad("sampling-max-tokens-string", "sampling/createMessage whose maxTokens is the string \"100\".",
        input_required({"q": {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": "100"}}}),
        schema_valid=False)
    bad("sampling-messages-missing", "sampling/createMessage without messages (required).",
        input_required({"q": {"method": "sampling/createMessage", "params": {"maxTokens": 100}}}),
        schema_valid=False)
    bad("roots-params-not-object", "roots/list whose params is a number.",
        input_required({"q": {"method": "roots/list", "params": 5}}), schema_valid=False)
    bad("request-state-number", "requestState is a number, not a string.",
        {"resultType": "input_required", "requestState": 42}, schema_valid=False)
    bad("request-state-object", "requestState is an object: the client cannot echo it as the opaque string.",
        {"resultType": "input_required", "requestState": {"step": 2}}, schema_valid=False)
    bad("request-state-null", "requestState is null (absent is the way to send none).",
        {"resultType": "input_required", "inputRequests": {"q": form}, "requestState": None}, schema_valid=False)
    bad("input-requests-array", "inputRequests is an array, not a map.",
        {"resultType": "input_required", "inputRequests": [form]}, schema_valid=False)
    bad("input-requests-string", "inputRequests is a string.",
        {"resultType": "input_required", "inputRequests": "github_login"}, schema_valid=False)
    bad("input-requests-null", "inputRequests is null, and there is no requestState.",
        {"resultType": "input_required", "inputRequests": None}, schema_valid=False)
    bad("input-requests-duplicate-key", "The key github_login appears twice in inputRequests: the map's keys must "
        "be unique (the SEP chose a map for that guarantee).",
        text='{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{'
             '"github_login":{"method":"roots/list"},"github_login":{"method":"roots/list"}}}}')
    many = {f"root_{i:02d}": roots() for i in range(MAX_INPUTS + 1)}
    bad("too-many-input-requests", f"{MAX_INPUTS + 1} input requests; mrtr's limit is {MAX_INPUTS} per result "
        "(see edge/input-requests-64).", input_required(many), schema_valid=True)
    bad("input-key-too-long", f"An inputRequests key of {MAX_KEY_BYTES + 1} ASCII bytes; mrtr's limit is "
        f"{MAX_KEY_BYTES} bytes (see edge/input-key-256-bytes).",
        input_required({"k" * (MAX_KEY_BYTES + 1): roots()}), schema_valid=True)
    bad("input-key-too-long-multibyte", f"An inputRequests key of 129 'é' (U+00E9, 2 bytes each in UTF-8): "
        f"258 bytes > {MAX_KEY_BYTES}, though only 129 characters.",
        input_required({"é" * 129: roots()}), schema_valid=True)

    # Capability checks: the client declared less than the server asks for.
    bad("capability-sampling-undeclared", "A sampling request to a client that declared only elicitation: servers "
        "MUST NOT send input requests the client has not declared.",
        input_required({"q": sampling("Hi")}), caps={"elicitation": {"form": {}}}, schema_valid=True)
    bad("capability-roots-undeclared", "A roots/list request to a client that declared only sampling.",
        input_required({"q": roots()}), caps={"sampling": {}}, schema_valid=True)
    bad("capability-elicitation-undeclared", "A form elicitation to a client that declared no capabilities.",
        input_required({"q": form}), caps={}, schema_valid=True)
    bad("capability-url-with-empty-elicitation", "A URL elicitation to a client that declared `elicitation: {}`, "
        "which means form mode only (client features 2025-11-25, backwards compatibility).",
        input_required({"q": elicit_url("Sign in", "https://mcp.example.com/login")}), caps={"elicitation": {}},
        schema_valid=True)
    bad("capability-url-form-only", "A URL elicitation to a client that declared elicitation.form only.",
        input_required({"q": elicit_url("Sign in", "https://mcp.example.com/login")}),
        caps={"elicitation": {"form": {}}}, schema_valid=True)
    bad("capability-form-url-only", "A form elicitation to a client that declared elicitation.url only.",
        input_required({"q": form}), caps={"elicitation": {"url": {}}}, schema_valid=True)
    bad("capability-sampling-tools-undeclared", "A sampling request with tools to a client that declared sampling "
        "without sampling.tools.",
        input_required({"q": sampling("Weather?", 500, tools=[{"name": "get_weather", "inputSchema": {
            "type": "object"}}])}), caps={"sampling": {}}, schema_valid=True)
    bad("capability-one-of-two-undeclared", "Two requests, one declared (form) and one not (roots): the whole "
        "result is rejected, not just the second entry.",
        input_required({"a": form, "b": roots()}), caps={"elicitation": {"form": {}}}, schema_valid=True)

    # Server side: requests the parser rejects.
    def badreq(name, what, *, msg=None, text=None, schema_valid=False, schema_def=None):
        if text is not None:
            add(g, name, what, "client_request", x_invalid("protocol"), message_text=text)
            return
        add(g, name, what, "client_request", x_invalid("protocol"), message=msg, schema_valid=schema_valid,
            schema_def=schema_def or REQUEST_DEF.get(msg.get("method"), "JSONRPCRequest"))

    def call(**extra):
        p = {"_meta": meta({"elicitation": {"form": {}}}), "name": "get_weather", "arguments": WEATHER_ARGS}
        p.update(extra)
        return request(11, "tools/call", p)

    badreq("request-input-responses-array", "inputResponses is an array.",
           msg=call(inputResponses=[ACCEPT_NAME]))
    badreq("request-input-responses-string", "inputResponses is a string.", msg=call(inputResponses="accept"))
    badreq("request-input-response-string", "An inputResponses value that is a string.",
           msg=call(inputResponses={"github_login": "octocat"}))
    badreq("request-input-response-null", "An inputResponses value that is null.",
           msg=call(inputResponses={"github_login": None}))
    badreq("request-input-response-wrapped-non-object",
           "An inputResponses value {\"result\": 5}: the wrapped shape needs an object inside.",
           msg=call(inputResponses={"github_login": {"result": 5}}))
    badreq("request-input-responses-duplicate-key", "The key github_login appears twice in inputResponses.",
           text='{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"_meta":{'
                '"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
                '"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}},"name":"get_weather",'
                '"inputResponses":{"github_login":{"action":"decline"},"github_login":{"action":"accept",'
                '"content":{"name":"octocat"}}}}}')
    badreq("request-too-many-input-responses", f"{MAX_INPUTS + 1} inputResponses; the limit is {MAX_INPUTS}.",
           msg=call(inputResponses={f"k{i:02d}": {"action": "cancel"} for i in range(MAX_INPUTS + 1)}),
           schema_valid=True)
    badreq("request-input-response-key-too-long", f"An inputResponses key of {MAX_KEY_BYTES + 1} bytes.",
           msg=call(inputResponses={"k" * (MAX_KEY_BYTES + 1): {"action": "cancel"}}), schema_valid=True)
    badreq("request-request-state-number", "requestState is a number.", msg=call(requestState=7))
    badreq("request-request-state-null", "requestState is null.", msg=call(requestState=None))
    badreq("request-request-state-object", "requestState is an object (a client that parsed the opaque string).",
           msg=call(requestState={"location": "New York"}))
    bad_name = call()
    del bad_name["params"]["name"]
    badreq("request-tools-call-name-missing", "tools/call without name.", msg=bad_name)
    badreq("request-tools-call-name-number", "tools/call whose name is a number.", msg=call(name=12))
    badreq("request-prompts-get-name-missing", "prompts/get without name.",
           msg=request(12, "prompts/get", {"_meta": meta(), "arguments": {"code": "x"}}))
    badreq("request-resources-read-uri-missing", "resources/read without uri.",
           msg=request(13, "resources/read", {"_meta": meta()}))
    badreq("request-resources-read-uri-number", "resources/read whose uri is a number.",
           msg=request(13, "resources/read", {"_meta": meta(), "uri": 5}))
    badreq("request-params-array", "tools/call whose params is an array (MCP params are objects).",
           msg={"jsonrpc": "2.0", "id": 14, "method": "tools/call", "params": ["get_weather"]})
    badreq("request-params-missing", "tools/call without params.",
           msg={"jsonrpc": "2.0", "id": 14, "method": "tools/call"})
    badreq("request-meta-not-object", "params._meta is a string.", msg=call(_meta="2026-07-28"))
    badreq("request-protocol-version-number", "_meta protocolVersion is a number.",
           msg=call(_meta={"io.modelcontextprotocol/protocolVersion": 20260728,
                           "io.modelcontextprotocol/clientCapabilities": {}}))


# -------------------------------------------------------- valid edge cases

def group_edge():
    g = "edge"
    form = elicit_form("Please provide your GitHub username")

    add_response(g, "request-state-empty-string", "requestState \"\" is present (and must be echoed as \"\"), "
                 "so this input_required is valid with no inputRequests.",
                 response(1, input_required(None, "")))
    add(g, "request-state-escapes", "requestState written with escapes: \\\" \\\\ \\/ \\u00e9 and the pair "
        "\\ud83d\\ude00. The expected value is the decoded string; the client echoes that value.",
        "server_response",
        {"outcome": "input_required", "requestState": "a\"b\\c/d\u00e9\U0001F600", "inputs": []},
        method="tools/call",
        message_text='{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required",'
                     '"requestState":"a\\"b\\\\c\\/d\\u00e9\\ud83d\\ude00"}}',
        schema_valid=True, schema_def="CallToolResultResponse")
    add(g, "request-state-raw-utf8", "requestState with raw (unescaped) multi-byte UTF-8: é, 中, 😀.",
        "server_response", {"outcome": "input_required", "requestState": "é中😀", "inputs": []}, method="tools/call",
        message_text='{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"é中😀"}}',
        schema_valid=True, schema_def="CallToolResultResponse")
    add_response(g, "request-state-long", "A 3000-character requestState (base64url alphabet); well under the "
                 "1 MiB message limit.", response(1, input_required(None, ("AbC-_09xyz" * 300))))
    add_response(g, "result-type-missing-means-complete", "A tools/call result without resultType from a server "
                 "that negotiated 2026-07-28 (servers of this revision MUST include it, but clients must still "
                 f"read it). {ABSENT_RESULT_TYPE_IS_COMPLETE}",
                 response(1, {"content": [{"type": "text", "text": "done"}]}), schema_valid=False)
    add_response(g, "input-requests-empty-with-state", "inputRequests {} next to a requestState: nothing to "
                 "answer, but a state to echo, so it reads like a state-only result.",
                 response(1, input_required({}, "st-empty")))
    add_response(g, "input-key-256-bytes", f"An inputRequests key of exactly {MAX_KEY_BYTES} ASCII bytes: at the "
                 "limit, accepted.", response(1, input_required({"k" * MAX_KEY_BYTES: roots()})))
    add_response(g, "input-key-256-bytes-multibyte", f"A key of 128 'é' = {MAX_KEY_BYTES} UTF-8 bytes: at the "
                 "limit, accepted.", response(1, input_required({"é" * 128: roots()})))
    add(g, "input-key-escaped-short-when-decoded", "A key written as 100 escapes \\u00e9 (600 bytes on the wire) "
        "that decodes to 200 bytes: the limit applies to the decoded key.", "server_response",
        {"outcome": "input_required", "requestState": None, "inputs": [{"key": "é" * 100, "kind": "roots"}]},
        method="tools/call",
        message_text='{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"%s":'
                     '{"method":"roots/list"}}}}' % ("\\u00e9" * 100),
        schema_valid=True, schema_def="CallToolResultResponse")
    add(g, "input-key-escaped", "The key written gith\\u0075b_login decodes to github_login.", "server_response",
        {"outcome": "input_required", "requestState": None,
         "inputs": [{"key": "github_login", "kind": "elicit_form", "message": "Name?"}]},
        method="tools/call",
        message_text='{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{'
                     '"gith\\u0075b_login":{"method":"elicitation/create","params":{"message":"Name?",'
                     '"requestedSchema":{"type":"object","properties":{}}}}}}}',
        schema_valid=True, schema_def="CallToolResultResponse")
    add_response(g, "input-requests-64", f"Exactly {MAX_INPUTS} input requests: at the limit, accepted, reported in "
                 "document order.", response(1, input_required({f"root_{i:02d}": roots() for i in range(MAX_INPUTS)})))
    add_response(g, "all-four-kinds", "One result asking all four kinds (form, url, sampling with tools, roots) "
                 "plus requestState; inputs are reported in document order.",
                 response(1, input_required({
                     "login": form,
                     "api_key": elicit_url("Please provide your API key to continue.",
                                           "https://mcp.example.com/ui/set_api_key"),
                     "summary": sampling("Summarize the forecast.", 250, "Be brief.",
                                         tools=[{"name": "get_weather", "inputSchema": {"type": "object"}}]),
                     "workspace": roots()}, "st-4")))
    add_response(g, "roots-empty-params", "roots/list with params {}.",
                 response(1, input_required({"r": {"method": "roots/list", "params": {}}})))
    add_response(g, "roots-params-meta", "roots/list with params carrying only _meta.",
                 response(1, input_required({"r": {"method": "roots/list", "params": {"_meta": {"com.example/t": 1}}}})))
    add_response(g, "unknown-members-ignored", "Unknown members in the result, an input request and its params are "
                 "ignored (forward compatibility).",
                 response(1, dict(input_required({"q": {"method": "elicitation/create", "x-extra": True, "params": dict(
                     form["params"], **{"com.example/hint": "ignored"})}}, "s"),
                     **{"_meta": {"io.modelcontextprotocol/serverInfo": {"name": "ex", "version": "1"}},
                        "futureField": [1, 2, 3]})))
    add_response(g, "complete-with-stray-input-requests", "resultType complete that also carries an inputRequests "
                 "member: the result is complete; the client must not act on the stray member.",
                 response(1, {"resultType": "complete", "content": [], "inputRequests": {"q": form},
                              "requestState": "ignored"}))
    add_response(g, "sampling-system-prompt-empty", "A sampling request with systemPrompt \"\" (present, empty: "
                 "reported as \"\", not null).", response(1, input_required({"s": sampling("Hi", 5, "")})))
    add_response(g, "elicit-message-with-nul", "An elicitation message containing an escaped NUL (\\u0000): a "
                 "runner must carry strings by length, not NUL-terminated.",
                 response(1, input_required({"q": elicit_form("before\u0000after")})))
    add_response(g, "elicit-message-unicode", "An elicitation message with non-ASCII text and an astral emoji.",
                 response(1, input_required({"q": elicit_form("Connexion à GitHub \u2014 nom d'utilisateur ? \U0001F511")})))
    add_response(g, "elicit-form-explicit-and-implicit", "Two form elicitations, one with mode \"form\" and one "
                 "without mode (which means form).",
                 response(1, input_required({"explicit": form, "implicit": elicit_form("Email?", mode=False)})))
    add_response(g, "input-required-prompts-get", "An InputRequiredResult answering prompts/get.",
                 response(1, input_required({"q": form}, "p1")), method="prompts/get")
    add_response(g, "input-required-resources-read", "An InputRequiredResult answering resources/read.",
                 response(1, input_required({"q": roots()})), method="resources/read")
    add_response(g, "id-string", "A response whose id is a string.", response("req-7f3a", {"resultType": "complete", "content": []}))
    add_response(g, "id-zero", "A response whose id is 0, a valid integer id.", response(0, {"resultType": "complete", "content": []}))
    add_response(g, "id-negative", "A negative integer id.", response(-5, {"resultType": "complete", "content": []}))
    add_response(g, "id-max-safe-integer", "id 9007199254740991 (2^53-1).",
                 response(9007199254740991, {"resultType": "complete", "content": []}))
    add(g, "numbers-valid-forms", "structuredContent with valid number forms the reader must accept: -0, 0.5, "
        "1E+2, 1e-7, -12.5e3 and a 30-digit integer (carried, never converted).", "server_response", x_complete(),
        method="tools/call",
        message_text='{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[],"structuredContent":'
                     '[-0,0.5,1E+2,1e-7,-12.5e3,123456789012345678901234567890]}}',
        schema_valid=True, schema_def="CallToolResultResponse")
    add(g, "whitespace-everywhere", "Legal whitespace (space, tab, CR, LF) around every token.", "server_response",
        x_complete(), method="tools/call",
        message_text=' \r\n{ "jsonrpc" :\t"2.0" ,\n "id" : 1 ,\r\n "result" : { "resultType" : "complete" , '
                     '"content" : [ ] } }\n ',
        schema_valid=True, schema_def="CallToolResultResponse")
    add(g, "duplicate-keys-in-carried-values", "Duplicate keys inside structuredContent, a value the client only "
        "carries: the result is complete and the value is passed through as it came (only protocol members "
        "must be unique).", "server_response", x_complete(), method="tools/call",
        message_text='{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[],'
                     '"structuredContent":{"t":1,"t":2}}}')
    d = 32 - 3
    nested = 1
    for _ in range(d + 1):
        nested = [nested]
    msg = response(1, {"resultType": "complete", "content": [], "structuredContent": nested})
    assert depth(msg) == 32, depth(msg)
    add_response(g, "nesting-depth-32", "Nesting depth exactly 32, the default limit (the outermost value counts "
                 "as 1): accepted. json/nesting-depth-33 is one deeper.", msg)
    add_response(g, "error-invalid-request-state", "The one error a server sends for any requestState that fails "
                 "verification (-32602, \"Invalid or expired requestState\").",
                 error_response(1, {"code": -32602, "message": "Invalid or expired requestState"}),
                 expect=x_error(-32602, "Invalid or expired requestState"), schema_def="JSONRPCErrorResponse",
                 schema_parts={"/error": "InvalidParamsError"})
    add_response(g, "error-with-data-and-string-id", "An error response with a string id and a data member.",
                 error_response("req-9", {"code": -32603, "message": "Internal error", "data": {"trace": "abc"}}),
                 expect=x_error(-32603, "Internal error"), schema_def="JSONRPCErrorResponse")
    add_response(g, "error-message-escaped", "An error message with escapes, reported decoded.",
                 error_response(1, {"code": -32602, "message": "Unknown tool: \"w\u00e9ather\"\n"}),
                 expect=x_error(-32602, "Unknown tool: \"w\u00e9ather\"\n"), schema_def="JSONRPCErrorResponse")
    add_response(g, "capability-form-with-empty-elicitation", "A form elicitation to a client that declared "
                 "`elicitation: {}` (form only): allowed.", response(1, input_required({"q": form})),
                 client_capabilities={"elicitation": {}})
    add_response(g, "capability-url-declared", "A URL elicitation to a client that declared elicitation.url only.",
                 response(1, input_required({"q": elicit_url("Sign in", "https://mcp.example.com/login")})),
                 client_capabilities={"elicitation": {"url": {}}})
    add_response(g, "capability-sampling-basic", "A sampling request without tools to a client that declared "
                 "`sampling: {}`.", response(1, input_required({"q": sampling("Hi")})),
                 client_capabilities={"sampling": {}})

    # Server side.
    def call(rid, caps=None, **extra):
        p = {"_meta": meta(caps if caps is not None else {"elicitation": {"form": {}, "url": {}}, "sampling": {},
                                                          "roots": {}}),
             "name": "get_weather", "arguments": WEATHER_ARGS}
        p.update(extra)
        return request(rid, "tools/call", p)

    add_request(g, "request-mixed-shapes", "A retry mixing the bare (2026-07-28) and wrapped (SEP) shapes; the "
                "server accepts both and reports each shape.",
                call(20, inputResponses={"a": ACCEPT_NAME, "b": {"result": {"action": "decline"}}},
                     requestState="s1"), schema_valid=False)
    add_request(g, "request-decline-and-cancel", "A retry whose answers are decline and cancel (still answers).",
                call(21, inputResponses={"a": {"action": "decline"}, "b": {"action": "cancel"}}))
    add_request(g, "request-empty-input-responses", "A retry with inputResponses {} and a requestState.",
                call(22, inputResponses={}, requestState="s2"))
    add_request(g, "request-request-state-empty", "A retry echoing requestState \"\" (present, so "
                "hasRequestState is true).", call(23, requestState=""))
    add_request(g, "request-unknown-params-member", "A request with an unknown params member (ignored).",
                call(24, **{"com.example/trace": "t-1"}))
    add_request(g, "request-resources-read-retry", "A resources/read retry with a roots answer and requestState.",
                request(25, "resources/read", {"_meta": meta({"roots": {}}), "uri": "file:///project/src/main.rs",
                                               "inputResponses": {"ws": {"roots": [{"uri": "file:///project"}]}},
                                               "requestState": "r1"}))
    add_request(g, "request-prompts-get-retry", "A prompts/get retry with a sampling answer.",
                request(26, "prompts/get", {"_meta": meta({"sampling": {}}), "name": "code_review",
                                            "arguments": {"code": "x = 1"}, "inputResponses": {
                                                "s": {"role": "assistant", "content": {"type": "text", "text": "ok"},
                                                      "model": "m"}}}))
    add_request(g, "request-string-id", "A request with a string id.", dict(call(0), id="leg-2"))
    add_request(g, "request-wrapped-with-extra-member", "An inputResponses value with `result` and another member is "
                "not the wrapped shape (wrapped means `result` is the only member): reported as bare.",
                call(27, inputResponses={"a": {"result": {"action": "accept"}, "action": "accept"}}))
    add_request(g, "request-input-responses-64", f"A retry with exactly {MAX_INPUTS} inputResponses: accepted.",
                call(28, inputResponses={f"k{i:02d}": {"action": "cancel"} for i in range(MAX_INPUTS)}))


def write(out):
    for key, v in sorted(VECTORS.items()):
        path = os.path.join(out, key + ".json")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            json.dump(v, f, indent=2, ensure_ascii=False)
            f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--examples", metavar="DIR", required=True,
                    help="the official 2026-07-28 examples, one folder per type")
    ap.add_argument("--out", metavar="DIR", default=HERE, help="where to write (default: tests/vectors)")
    args = ap.parse_args()
    if not os.path.isfile(os.path.join(args.examples, "CallToolRequest", "call-tool-request.json")):
        ap.error(f"{args.examples}: not the official examples (no CallToolRequest/call-tool-request.json)")
    group_examples(args.examples)
    group_spec()
    group_sep()
    group_tasks()
    group_json()
    group_envelope()
    group_protocol()
    group_edge()
    write(args.out)
    counts = {}
    for key in VECTORS:
        counts[key.split("/")[0]] = counts.get(key.split("/")[0], 0) + 1
    print(", ".join(f"{g}: {n}" for g, n in sorted(counts.items())), f"(total {len(VECTORS)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
