#!/usr/bin/env python3
"""A hostile MCP server over Streamable HTTP (POST only), on loopback.

    python3 fake_http_server.py MODE PORT_FILE

Listens on 127.0.0.1 on a free port, writes the port to PORT_FILE, and
answers every POST according to MODE (tools/list, which the terminal
client reads before its call, is answered honestly). Responses are written on the raw
socket (TCP_NODELAY, one send per byte where the mode says so), so a
client sees the stream split exactly as the mode intends. Stops by itself
after 120 s or when killed.

Modes:
  sse_bytes     text/event-stream, Connection: close, written 1 byte per
                send with a comment, a priming event (id, empty data), the
                JSON split over two data lines, CRLF line ends
  sse_chunked   the same stream in Transfer-Encoding: chunked, one chunk per
                byte
  sse_other_ids an event answering another id and a notification first
  sse_huge      one event whose data line is 100 MB, streamed 1 MiB a send
  sse_endless   one event whose data line never ends (1 MiB a send until the
                client hangs up)
  trickle       an SSE head, then one byte every 100 ms, forever
  json          a plain application/json answer (sanity)
"""

import json
import os
import socket
import socketserver
import sys
import threading
import time

MIB = 1 << 20


def result_for(rid, text):
    return json.dumps({"jsonrpc": "2.0", "id": rid,
                       "result": {"resultType": "complete",
                                  "content": [{"type": "text", "text": text}]}},
                      separators=(",", ":")).encode()


def sse_event(data, crlf=True):
    """One SSE event whose data is split over two data lines (a JSON text
    stays valid: the join inserts a newline, which JSON treats as space)."""
    nl = b"\r\n" if crlf else b"\n"
    cut = data.index(b',"result"') + 1
    return (b"event: message" + nl + b"data: " + data[:cut] + nl
            + b"data: " + data[cut:] + nl + nl)


class Handler(socketserver.BaseRequestHandler):
    def read_request(self):
        buf = b""
        while b"\r\n\r\n" not in buf:
            chunk = self.request.recv(65536)
            if not chunk:
                return None
            buf += chunk
            if len(buf) > 1 << 16:
                return None
        head, body = buf.split(b"\r\n\r\n", 1)
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        while len(body) < length:
            chunk = self.request.recv(65536)
            if not chunk:
                return None
            body += chunk
        return json.loads(body[:length])

    def send_bytewise(self, data, chunked=False):
        for i in range(len(data)):
            b = data[i:i + 1]
            self.request.sendall(b"1\r\n" + b + b"\r\n" if chunked else b)
            time.sleep(0.0002)
        if chunked:
            self.request.sendall(b"0\r\n\r\n")

    def handle(self):
        try:
            self.serve()
        except OSError:
            pass  # the client hung up, which is its right

    def serve(self):
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        mode = self.server.mode
        while True:
            req = self.read_request()
            if req is None:
                return
            rid = req.get("id")
            if req.get("method") == "tools/list":
                # Honest: the client reads the list before the call the mode is about.
                body = json.dumps({"jsonrpc": "2.0", "id": rid, "result": {
                    "resultType": "complete",
                    "tools": [{"name": "hostile", "inputSchema": {"type": "object"}}]}},
                    separators=(",", ":")).encode()
                self.request.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                     b"Content-Length: %d\r\n\r\n" % len(body) + body)
                continue
            if mode == "json":
                body = result_for(rid, "plain json")
                self.request.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                     b"Content-Length: %d\r\n\r\n" % len(body) + body)
                continue
            if mode == "trickle":
                self.request.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                                     b"Connection: close\r\n\r\ndata: ")
                while True:
                    self.request.sendall(b"a")
                    time.sleep(0.1)
            if mode == "sse_endless":
                self.request.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                                     b"Connection: close\r\n\r\ndata: ")
                sent = 0
                chunk = b"A" * MIB
                try:
                    while True:
                        self.request.sendall(chunk)
                        sent += MIB
                except OSError:
                    sys.stderr.write("fake_http_server: sse_endless: client hung up after %d MiB\n"
                                     % (sent // MIB))
                return
            if mode == "sse_huge":
                self.request.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                                     b"Connection: close\r\n\r\ndata: ")
                head = b'{"jsonrpc":"2.0","id":%d,"result":{"resultType":"complete","content":[{"type":"text","text":"' % rid
                sent = 0
                try:
                    self.request.sendall(head)
                    chunk = b"A" * MIB
                    while sent < 100 * MIB:
                        self.request.sendall(chunk)
                        sent += MIB
                    self.request.sendall(b'"}]}}\n\n')
                    sys.stderr.write("fake_http_server: sse_huge: sent all 100 MiB\n")
                except OSError:
                    sys.stderr.write("fake_http_server: sse_huge: client hung up after %d MiB\n"
                                     % (sent // MIB))
                return
            chunked = mode == "sse_chunked"
            framing = b"Transfer-Encoding: chunked\r\n" if chunked else b"Connection: close\r\n"
            self.request.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                                 b"Cache-Control: no-cache\r\n" + framing + b"\r\n")
            stream = b": hostile stream\r\n\r\nid: prime-1\r\ndata:\r\n\r\n"
            if mode == "sse_other_ids":
                stream += sse_event(result_for(rid + 1000, "NOT YOURS"))
                stream += (b"data: " + json.dumps({"jsonrpc": "2.0", "method": "notifications/message",
                                                   "params": {"level": "info", "data": "x"}}).encode()
                           + b"\r\n\r\n")
            stream += sse_event(result_for(rid, "streamed answer"))
            self.send_bytewise(stream, chunked)
            if not chunked:
                return


class Server(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        return 64
    server = Server(("127.0.0.1", 0), Handler)
    server.mode = sys.argv[1]
    with open(sys.argv[2] + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(sys.argv[2] + ".tmp", sys.argv[2])
    threading.Timer(120, server.shutdown).start()
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
