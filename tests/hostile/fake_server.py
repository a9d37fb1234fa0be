#!/usr/bin/env python3
"""A hostile MCP server over stdio (newline-delimited JSON-RPC).

    python3 fake_server.py MODE [ARG]

Reads requests line by line from stdin and answers every tools/call,
prompts/get and resources/read according to MODE (see MODES below). A
server/discover request gets a plain discover result, notifications are
ignored, any other request gets -32601. Every answer is written as raw
bytes, so the modes can send what no JSON library would produce.

Counters go to stderr ("fake_server: ..."), so a runner can see how far a
client let the server go. Only the standard library; nothing is buffered
beyond one chunk, so the 100 MB mode costs the server a few MB.
"""

import json
import os
import sys

OUT = sys.stdout.buffer
MIB = 1 << 20


def log(msg):
    sys.stderr.write("fake_server: %s\n" % msg)
    sys.stderr.flush()


def send(raw):
    """Writes one message (bytes, without its newline) and flushes."""
    OUT.write(raw + b"\n")
    OUT.flush()


def id_json(req):
    return json.dumps(req["id"]).encode()


def complete(req, text="done"):
    return (
        b'{"jsonrpc":"2.0","id":' + id_json(req)
        + b',"result":{"resultType":"complete","content":[{"type":"text","text":'
        + json.dumps(text).encode() + b"}]}}"
    )


def form_request(message):
    return {
        "method": "elicitation/create",
        "params": {
            "mode": "form",
            "message": message,
            "requestedSchema": {
                "type": "object",
                "properties": {"answer": {"type": "string"}},
                "required": ["answer"],
            },
        },
    }


def input_required(req, requests=None, state=None):
    result = {"resultType": "input_required"}
    if requests is not None:
        result["inputRequests"] = requests
    if state is not None:
        result["requestState"] = state
    return json.dumps({"jsonrpc": "2.0", "id": req["id"], "result": result},
                      separators=(",", ":")).encode()


class Server:
    def __init__(self, mode, arg):
        self.mode = mode
        self.arg = arg
        self.calls = 0

    # -- modes: each gets the parsed request and writes whatever it wants.

    def forever_input(self, req):
        """input_required every round, forever: the same question (key "q")
        with a new requestState each time."""
        send(input_required(req, {"q": form_request("Again?")}, "round-%d" % self.calls))

    def forever_state(self, req):
        """State-only input_required (no questions), forever."""
        send(input_required(req, None, "poll-%d" % self.calls))

    def deep_nesting(self, req):
        """A result whose structuredContent nests 10,000 arrays deep."""
        depth = int(self.arg or 10000)
        send(b'{"jsonrpc":"2.0","id":' + id_json(req)
             + b',"result":{"resultType":"complete","content":[],"structuredContent":{"deep":'
             + b"[" * depth + b"]" * depth + b"}}}")

    def huge_string(self, req):
        """A 100 MB string in one line, streamed 1 MiB at a time."""
        total = int(self.arg or 100 * MIB)
        head = (b'{"jsonrpc":"2.0","id":' + id_json(req)
                + b',"result":{"resultType":"complete","content":[{"type":"text","text":"')
        chunk = b"A" * MIB
        sent = 0
        try:
            OUT.write(head)
            while sent < total:
                piece = chunk[: min(MIB, total - sent)]
                OUT.write(piece)
                sent += len(piece)
            OUT.write(b'"}]}}\n')
            OUT.flush()
            log("huge_string: wrote all %d bytes" % sent)
        except BrokenPipeError:
            log("huge_string: client closed the pipe after %d MiB of the string" % (sent // MIB))
            os._exit(0)  # stdout is gone: skip the interpreter's final flush

    def invalid_utf8(self, req):
        """Raw bytes 0xFF 0xFE inside a string."""
        send(b'{"jsonrpc":"2.0","id":' + id_json(req)
             + b',"result":{"resultType":"complete","content":[{"type":"text","text":"bad \xff\xfe here"}]}}')

    def overlong_utf8(self, req):
        """An overlong encoding of '/' (C0 AF) inside a string."""
        send(b'{"jsonrpc":"2.0","id":' + id_json(req)
             + b',"result":{"resultType":"complete","content":[{"type":"text","text":"a\xc0\xafb"}]}}')

    def lone_surrogate(self, req):
        """An escaped high surrogate with no low surrogate after it."""
        send(b'{"jsonrpc":"2.0","id":' + id_json(req)
             + b',"result":{"resultType":"complete","content":[{"type":"text","text":"x\\ud800y"}]}}')

    def lone_low_surrogate(self, req):
        """An escaped low surrogate first."""
        send(b'{"jsonrpc":"2.0","id":' + id_json(req)
             + b',"result":{"resultType":"complete","content":[{"type":"text","text":"\\udc00"}]}}')

    def raw_surrogate(self, req):
        """A surrogate encoded directly in UTF-8 (ED A0 80): not UTF-8."""
        send(b'{"jsonrpc":"2.0","id":' + id_json(req)
             + b',"result":{"resultType":"complete","content":[{"type":"text","text":"\xed\xa0\x80"}]}}')

    def duplicate_result_type(self, req):
        """resultType twice: input_required then complete."""
        send(b'{"jsonrpc":"2.0","id":' + id_json(req)
             + b',"result":{"resultType":"input_required","resultType":"complete","content":[]}}')

    def duplicate_id(self, req):
        """Two ids: another call's first, ours second."""
        send(b'{"jsonrpc":"2.0","id":999,"id":' + id_json(req)
             + b',"result":{"resultType":"complete","content":[]}}')

    def duplicate_input_key(self, req):
        """The same inputRequests key twice, with different questions."""
        q1 = json.dumps(form_request("first")).encode()
        q2 = json.dumps(form_request("second")).encode()
        send(b'{"jsonrpc":"2.0","id":' + id_json(req)
             + b',"result":{"resultType":"input_required","inputRequests":{"k":' + q1
             + b',"k":' + q2 + b'},"requestState":"s"}}')

    def bad_number(self, req):
        """A number token from ARG (NaN, Infinity, 01, 1e400, ...)."""
        token = (self.arg or "NaN").encode()
        send(b'{"jsonrpc":"2.0","id":' + id_json(req)
             + b',"result":{"resultType":"complete","content":[],"structuredContent":{"score":'
             + token + b"}}}")

    def other_ids(self, req):
        """Answers for other calls, a notification, a server request and an
        error with a null id come first; then the real answer."""
        rid = req["id"]
        send(b'{"jsonrpc":"2.0","id":999,"result":{"resultType":"complete","content":[{"type":"text","text":"NOT YOURS"}]}}')
        send(b'{"jsonrpc":"2.0","id":' + json.dumps(str(rid)).encode()
             + b',"result":{"resultType":"complete","content":[{"type":"text","text":"STRING ID"}]}}')
        send(b'{"jsonrpc":"2.0","id":' + json.dumps(rid + 1000).encode()
             + b',"error":{"code":-32603,"message":"NOT YOURS EITHER"}}')
        send(b'{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}')
        send(b'{"jsonrpc":"2.0","id":77,"method":"ping"}')
        send(b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}')
        send(complete(req, "the real answer"))

    def huge_state(self, req):
        """input_required with a 1 MB requestState."""
        size = int(self.arg or 1000000)
        send(input_required(req, {"q": form_request("Continue?")}, "S" * size))

    def too_many_inputs(self, req):
        """65 input requests (the default cap is 64)."""
        send(input_required(req, {"k%d" % i: form_request("q") for i in range(65)}, "s"))

    def undeclared_sampling(self, req):
        """A sampling request with tools: it needs sampling.tools, which no
        client here declares (the C client declares plain sampling)."""
        send(input_required(req, {"s": {"method": "sampling/createMessage", "params": {
            "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
            "tools": [{"name": "t", "inputSchema": {"type": "object"}}],
            "maxTokens": 10}}}, "s"))

    def empty_input_required(self, req):
        """input_required with neither inputRequests nor requestState."""
        send(input_required(req))

    def unknown_result_type(self, req):
        send(b'{"jsonrpc":"2.0","id":' + id_json(req)
             + b',"result":{"resultType":"partial","content":[]}}')

    def garbage(self, req):
        """A line that is not JSON, where the answer should be."""
        send(b"HTTP/1.1 200 OK this is not json")

    def silent(self, req):
        """Reads the request and never answers (keeps the pipe open)."""
        import time
        time.sleep(3600)

    def endless_line(self, req):
        """One line that never ends, 1 MiB a write, until the client hangs up."""
        chunk = b"A" * MIB
        sent = 0
        try:
            OUT.write(b'{"jsonrpc":"2.0","id":' + id_json(req) + b',"result":{"text":"')
            while True:
                OUT.write(chunk)
                sent += 1
        except BrokenPipeError:
            log("endless_line: client closed the pipe after %d MiB" % sent)
            os._exit(0)

    def eof(self, req):
        """Exits without answering."""
        log("eof: exiting without an answer")
        raise SystemExit(0)

    def two_rounds(self, req):
        """A well-behaved server: one question, then complete (sanity)."""
        params = req.get("params", {})
        if "inputResponses" in params:
            ans = params["inputResponses"].get("q", {})
            if params.get("requestState") != "st-1" or ans.get("action") != "accept":
                send(b'{"jsonrpc":"2.0","id":' + id_json(req)
                     + b',"error":{"code":-32602,"message":"Invalid or expired requestState"}}')
                return
            send(complete(req, "answered " + json.dumps(ans.get("content"))))
        else:
            send(input_required(req, {"q": form_request("Name?")}, "st-1"))

    def handle(self, req):
        method = req.get("method")
        if "id" not in req:
            return
        if method == "server/discover":
            send(b'{"jsonrpc":"2.0","id":' + id_json(req)
                 + b',"result":{"resultType":"complete","cacheScope":"public","capabilities":{"tools":{}},'
                 b'"serverInfo":{"name":"hostile","version":"0"},"supportedVersions":["2026-07-28"]}}')
            return
        if method not in ("tools/call", "prompts/get", "resources/read"):
            send(b'{"jsonrpc":"2.0","id":' + id_json(req)
                 + b',"error":{"code":-32601,"message":"Method not found"}}')
            return
        self.calls += 1
        getattr(self, self.mode)(req)


MODES = [name for name, f in vars(Server).items()
         if callable(f) and not name.startswith("_") and name != "handle"]


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in MODES:
        sys.stderr.write("usage: fake_server.py MODE [ARG]\nmodes: %s\n" % " ".join(MODES))
        return 64
    server = Server(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
    try:
        for line in sys.stdin.buffer:
            if not line.strip():
                continue
            try:
                req = json.loads(line)
            except ValueError:
                log("client sent a line that is not JSON: %r" % line[:200])
                continue
            server.handle(req)
    except BrokenPipeError:
        pass
    finally:
        log("%s: %d calls answered" % (server.mode, server.calls))
    return 0


if __name__ == "__main__":
    sys.exit(main())
