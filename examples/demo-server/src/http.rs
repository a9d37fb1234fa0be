//! Streamable HTTP: `POST /mcp` with one JSON body in, one JSON body out.
//!
//! [`respond`] is the whole HTTP behaviour as a pure function (tests call it
//! without sockets); [`serve`] runs it on `tiny_http` worker threads.
//!
//! Rules of the 2026-07-28 transport the demo enforces on every request:
//! `MCP-Protocol-Version` present and equal to `_meta`'s revision (or, for a
//! method without `_meta`, a supported revision), `Mcp-Method` present and
//! equal to the body's method, `Mcp-Name` present and equal to `name`/`uri`
//! on `tools/call`, `prompts/get`, `resources/read` (and equal to `taskId` on
//! task methods when sent); none of them twice. Failures are `-32020` with
//! HTTP 400. Status codes follow the error code: 400 for -32700, -32600,
//! -32602, -32020, -32021, -32022; 404 for -32601; 500 for -32603; 202 with
//! no body for notifications and responses.

use std::io::{self, Read, Write};
use std::net::SocketAddr;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use mrtr_core::json::{JsonStr, DEFAULT_MAX_MESSAGE_BYTES};
use mrtr_core::param_headers::{
    check_param_headers, decode_header_value, header_name_eq, Designations, MCP_PARAM_PREFIX,
};
use mrtr_core::server::{write_header_mismatch, Method, ServerRequest};
use mrtr_core::wire::{ErrorCode, Id, PROTOCOL_VERSION};
use sha2::{Digest, Sha256};

use crate::emit;
use crate::server::{Caller, Demo, Reply};
use crate::subscriptions::Next;

/// Largest request body read, in bytes (the core's message limit): a longer
/// one is refused with 413 before it is parsed.
pub const MAX_BODY_BYTES: usize = DEFAULT_MAX_MESSAGE_BYTES;

/// The endpoint path.
pub const ENDPOINT: &str = "/mcp";

/// The MCP routing headers of one request, values trimmed of optional
/// whitespace.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HttpHeaders {
    /// `MCP-Protocol-Version`.
    pub protocol_version: Option<String>,
    /// `Mcp-Method`.
    pub method: Option<String>,
    /// `Mcp-Name`, as sent (possibly `=?base64?..?=`).
    pub name: Option<String>,
    /// `Mcp-Param-*` (SEP-2243): the name after the prefix, and the value as
    /// sent (possibly `=?base64?..?=`).
    pub params: Vec<(String, String)>,
    /// The first routing header that appeared more than once.
    pub duplicated: Option<&'static str>,
}

impl HttpHeaders {
    /// Collects the routing headers from `(name, value)` pairs (names
    /// compared case-insensitively).
    pub fn from_pairs<'h>(pairs: impl IntoIterator<Item = (&'h str, &'h str)>) -> Self {
        let mut h = HttpHeaders::default();
        for (name, value) in pairs {
            let (slot, canonical) = if name.eq_ignore_ascii_case("mcp-protocol-version") {
                (&mut h.protocol_version, "MCP-Protocol-Version")
            } else if name.eq_ignore_ascii_case("mcp-method") {
                (&mut h.method, "Mcp-Method")
            } else if name.eq_ignore_ascii_case("mcp-name") {
                (&mut h.name, "Mcp-Name")
            } else if let Some(param) = name
                .get(..MCP_PARAM_PREFIX.len())
                .filter(|p| p.eq_ignore_ascii_case(MCP_PARAM_PREFIX))
                .and_then(|_| name.get(MCP_PARAM_PREFIX.len()..))
            {
                let value = value.trim_matches([' ', '\t']).to_string();
                if h.params.iter().any(|(n, _)| n.eq_ignore_ascii_case(param)) {
                    h.duplicated.get_or_insert("Mcp-Param-*");
                } else {
                    h.params.push((param.to_string(), value));
                }
                continue;
            } else {
                continue;
            };
            if slot
                .replace(value.trim_matches([' ', '\t']).to_string())
                .is_some()
                && h.duplicated.is_none()
            {
                h.duplicated = Some(canonical);
            }
        }
        h
    }
}

fn mismatch(id: Option<&Id<'_>>, message: &str) -> Reply {
    let body = emit::grow(|b| write_header_mismatch(b, id, message)).unwrap_or_default();
    Reply {
        body,
        error: Some(ErrorCode::HeaderMismatch.code()),
        summary: format!("header mismatch: {message}"),
        listen: None,
    }
}

fn unsupported_version(id: &Id<'_>, requested: &str) -> Reply {
    let body = emit::json(|w| {
        w.raw(br#"{"jsonrpc":"2.0","id":"#);
        id.write(w);
        w.raw(br#","error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"#)
            .str(requested)
            .raw(br#","supported":["#)
            .str(PROTOCOL_VERSION)
            .raw(b"]}}}");
    });
    Reply {
        body,
        error: Some(ErrorCode::UnsupportedProtocolVersion.code()),
        summary: format!("unsupported protocol version {requested:?}"),
        listen: None,
    }
}

/// When the body names a revision the server does not speak: `-32020` if the
/// header says something else (the client disagrees with itself), else
/// `None` (the caller answers `-32022`).
pub fn version_mismatch(
    h: &HttpHeaders,
    requested: &JsonStr<'_>,
    id: Option<&Id<'_>>,
) -> Option<Reply> {
    match &h.protocol_version {
        None => Some(mismatch(id, "Missing MCP-Protocol-Version header")),
        Some(v) if !requested.eq_str(v) => Some(mismatch(
            id,
            "MCP-Protocol-Version header does not match params._meta protocolVersion",
        )),
        Some(_) => None,
    }
}

/// Decodes an `Mcp-Name` value: verbatim, or the UTF-8 inside a canonical
/// `=?base64?...?=` wrapper (`None` when the wrapper is malformed, so it
/// matches nothing).
pub fn decode_name(value: &str) -> Option<String> {
    let bytes = decode_header_value(value.as_bytes()).ok()?.collect();
    String::from_utf8(bytes).ok()
}

/// Checks the routing headers against a parsed request.
pub fn check_headers(req: &ServerRequest<'_>, h: &HttpHeaders) -> Option<Reply> {
    let id = Some(&req.id);
    if let Some(name) = h.duplicated {
        return Some(mismatch(
            id,
            &format!("{name} header appears more than once"),
        ));
    }
    let Some(version) = &h.protocol_version else {
        return Some(mismatch(id, "Missing MCP-Protocol-Version header"));
    };
    match req.meta.and_then(|m| m.protocol_version) {
        Some(body) if !body.eq_str(version) => {
            return Some(mismatch(
                id,
                "MCP-Protocol-Version header does not match params._meta protocolVersion",
            ))
        }
        Some(_) => {}
        None if version != PROTOCOL_VERSION => return Some(unsupported_version(&req.id, version)),
        None => {}
    }
    let body_method = crate::state::method_name(req);
    match &h.method {
        None => return Some(mismatch(id, "Missing Mcp-Method header")),
        Some(m) if *m != body_method => {
            return Some(mismatch(
                id,
                "Mcp-Method header does not match the request body's method",
            ))
        }
        Some(_) => {}
    }
    let (body_name, required) = match req.method {
        Method::ToolsCall | Method::PromptsGet => (req.name, true),
        Method::ResourcesRead => (req.uri, true),
        _ => (req.task_id, false),
    };
    if let Some(body_name) = body_name {
        match h.name.as_deref().map(decode_name) {
            None if required => return Some(mismatch(id, "Missing Mcp-Name header")),
            None => {}
            Some(Some(n)) if body_name.eq_str(&n) => {}
            Some(_) => {
                return Some(mismatch(
                    id,
                    "Mcp-Name header does not match the request body's name, uri or taskId",
                ))
            }
        }
    }
    if req.method == Method::ToolsCall {
        return check_params(req, h);
    }
    None
}

/// SEP-2243: the `Mcp-Param-*` headers of a `tools/call` against the
/// arguments the called tool designates (a tool the demo does not have is
/// left to the flow, which answers it).
fn check_params(req: &ServerRequest<'_>, h: &HttpHeaders) -> Option<Reply> {
    let name = req.name?;
    let tool = crate::flows::TOOLS.iter().find(|t| name.eq_str(t.name))?;
    let designations = Designations::parse(tool.input_schema.as_bytes()).ok()?;
    let checked = check_param_headers(&designations, req.arguments, |header| {
        h.params
            .iter()
            .find(|(n, _)| header_name_eq(n, header))
            .map(|(_, v)| v.as_bytes())
    });
    let (why, d) = checked.err()?;
    let header: String = d.header.chars().collect();
    Some(mismatch(
        Some(&req.id),
        &format!("{MCP_PARAM_PREFIX}{header}: {why}"),
    ))
}

/// The HTTP status for a reply: by error code, 200 for results.
pub fn status_for(reply: &Reply) -> u16 {
    match reply.error {
        None => 200,
        Some(-32601) => 404,
        Some(-32603) => 500,
        Some(_) => 400,
    }
}

/// An HTTP answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpResponse {
    /// Status code.
    pub status: u16,
    /// Body (empty for 202, 404, 405, ...).
    pub body: Vec<u8>,
    /// `Content-Type`, when there is a body.
    pub content_type: Option<&'static str>,
    /// `Allow`, on 405.
    pub allow: Option<&'static str>,
    /// A `subscriptions/listen` stream: `body` holds its first event (the
    /// acknowledgement), and the notifications follow as SSE events for as
    /// long as the client stays connected.
    pub listen: Option<crate::subscriptions::Listen>,
}

impl HttpResponse {
    fn bare(status: u16) -> Self {
        HttpResponse {
            status,
            body: Vec::new(),
            content_type: None,
            allow: None,
            listen: None,
        }
    }
}

/// Whether a `Host` or `Origin` value names this machine: host `localhost`,
/// an address in 127.0.0.0/8 or `[::1]`, with an optional decimal port;
/// an `Origin` is `http://` or `https://` followed by such an authority.
/// Anything else (another host, `null`, a malformed port, text after an
/// IPv6 literal) does not.
fn is_loopback_authority(value: &str) -> bool {
    let authority = value
        .strip_prefix("http://")
        .or_else(|| value.strip_prefix("https://"))
        .unwrap_or(value);
    let authority = authority.split('/').next().unwrap_or("");
    let (host_ok, port) = if let Some(rest) = authority.strip_prefix('[') {
        let Some((inside, after)) = rest.split_once(']') else {
            return false;
        };
        let ip = inside.parse::<std::net::Ipv6Addr>();
        (ip.is_ok_and(|ip| ip.is_loopback()), after)
    } else {
        let (host, port) = match authority.find(':') {
            Some(i) => authority.split_at_checked(i).unwrap_or((authority, "")),
            None => (authority, ""),
        };
        let ok = host.eq_ignore_ascii_case("localhost")
            || host
                .parse::<std::net::Ipv4Addr>()
                .is_ok_and(|ip| ip.is_loopback());
        (ok, port)
    };
    let port_ok = port.is_empty()
        || port.strip_prefix(':').is_some_and(|p| {
            !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit())
        });
    host_ok && port_ok
}

/// The principal of a request: SHA-256 of its bearer token, if any.
pub fn principal(authorization: Option<&str>) -> Option<[u8; 32]> {
    let value = authorization?.trim();
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
        return None;
    }
    Some(Sha256::digest(token.as_bytes()).into())
}

/// One HTTP exchange. `loopback_only`: the server listens on a loopback
/// address, so requests whose `Host` or `Origin` names another host are
/// refused with 403 (DNS rebinding).
pub fn respond(
    demo: &Demo,
    method: &str,
    url: &str,
    headers: &[(String, String)],
    body: &[u8],
    loopback_only: bool,
) -> HttpResponse {
    let header = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    let path = url.split('?').next().unwrap_or("");
    if path != ENDPOINT {
        return HttpResponse::bare(404);
    }
    if loopback_only {
        let foreign = |name: &str| header(name).is_some_and(|v| !is_loopback_authority(v));
        if foreign("host") || foreign("origin") {
            return HttpResponse::bare(403);
        }
    }
    if method != "POST" {
        return HttpResponse {
            allow: Some("POST"),
            ..HttpResponse::bare(405)
        };
    }
    let is_json = header("content-type").is_some_and(|ct| {
        ct.split(';')
            .next()
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
    });
    if !is_json {
        return HttpResponse::bare(415);
    }
    if let Some(accept) = header("accept") {
        let a = accept.to_ascii_lowercase();
        if !(a.contains("application/json") || a.contains("application/*") || a.contains("*/*")) {
            return HttpResponse::bare(406);
        }
    }
    if body.len() > MAX_BODY_BYTES {
        return HttpResponse::bare(413);
    }
    let routing = HttpHeaders::from_pairs(headers.iter().map(|(n, v)| (n.as_str(), v.as_str())));
    let caller = Caller {
        principal: principal(header("authorization")),
    };
    match demo.handle(body, &caller, Some(&routing)) {
        None => HttpResponse::bare(202),
        Some(reply) if reply.listen.is_some() => HttpResponse {
            status: 200,
            body: sse_event(&reply.body),
            content_type: Some("text/event-stream"),
            allow: None,
            listen: reply.listen,
        },
        Some(reply) => HttpResponse {
            status: status_for(&reply),
            body: reply.body,
            content_type: Some("application/json"),
            allow: None,
            listen: None,
        },
    }
}

/// Serves `demo` on `addr` with `workers` threads until SIGTERM or SIGINT.
/// Prints `listening on http://ADDR/mcp` (with the real port when `addr`
/// asked for port 0) on stderr once bound.
///
/// Shutdown drains: on the first SIGTERM or SIGINT the server prints
/// `draining`, every worker finishes the request it holds (and any request
/// already received and queued ahead of the stop), then the listener closes
/// and `serve` returns `Ok`. A load balancer's rolling restart therefore
/// loses no request an instance has accepted.
pub fn serve(demo: Arc<Demo>, addr: SocketAddr, workers: usize) -> io::Result<()> {
    let mut signals = signal_hook::iterator::Signals::new([
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGINT,
    ])?;
    let server = tiny_http::Server::http(addr).map_err(|e| io::Error::other(e.to_string()))?;
    let bound = server
        .server_addr()
        .to_ip()
        .ok_or_else(|| io::Error::other("not an IP listener"))?;
    eprintln!("{}: listening on http://{bound}{ENDPOINT}", demo.name());
    let server = Arc::new(server);
    let loopback_only = bound.ip().is_loopback();
    let workers = workers.max(1);
    {
        let server = Arc::clone(&server);
        let name = demo.name().to_string();
        thread::spawn(move || {
            if signals.forever().next().is_some() {
                eprintln!("{name}: draining");
                // One wake-up per worker: each `recv` returns an error once,
                // after the requests queued before it.
                for _ in 0..workers {
                    server.unblock();
                }
            }
        });
    }
    let handles: Vec<_> = (0..workers)
        .map(|_| {
            let server = Arc::clone(&server);
            let demo = Arc::clone(&demo);
            thread::spawn(move || {
                while let Ok(request) = server.recv() {
                    serve_one(&demo, request, loopback_only);
                }
            })
        })
        .collect();
    for h in handles {
        let _ = h.join();
    }
    eprintln!("{}: stopped", demo.name());
    Ok(())
}

/// One SSE event carrying `message`.
fn sse_event(message: &[u8]) -> Vec<u8> {
    let mut e = Vec::with_capacity(message.len() + 8);
    e.extend_from_slice(b"data: ");
    e.extend_from_slice(message);
    e.extend_from_slice(b"\n\n");
    e
}

/// How long a listen stream stays open at most (the client reconnects).
const LISTEN_MAX: Duration = Duration::from_secs(300);
/// How often an idle listen stream sends a keep-alive comment, which also
/// tells the worker when the client has gone.
const LISTEN_KEEPALIVE: Duration = Duration::from_millis(500);

/// Streams a listen response on the raw connection: tiny_http buffers
/// chunked bodies in 8 KiB chunks, and each event must reach the client
/// when it happens. The body ends with the connection.
fn stream_listen(request: tiny_http::Request, first: &[u8], listen: &crate::subscriptions::Listen) {
    let mut w = request.into_writer();
    let head = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n";
    if w.write_all(head)
        .and_then(|()| w.write_all(first))
        .and_then(|()| w.flush())
        .is_err()
    {
        return;
    }
    let started = Instant::now();
    while started.elapsed() < LISTEN_MAX {
        let chunk = match listen.next(LISTEN_KEEPALIVE) {
            Next::Message(m) => sse_event(&m),
            Next::Idle => b": keep-alive\n\n".to_vec(),
            Next::Closed => break,
        };
        if w.write_all(&chunk).and_then(|()| w.flush()).is_err() {
            break;
        }
    }
}

fn serve_one(demo: &Demo, mut request: tiny_http::Request, loopback_only: bool) {
    let method = request.method().as_str().to_string();
    let url = request.url().to_string();
    let headers: Vec<(String, String)> = request
        .headers()
        .iter()
        .map(|h| {
            (
                h.field.as_str().as_str().to_string(),
                h.value.as_str().to_string(),
            )
        })
        .collect();
    let mut body = Vec::new();
    let limit = u64::try_from(MAX_BODY_BYTES)
        .unwrap_or(u64::MAX)
        .saturating_add(1);
    let answer = match request.as_reader().take(limit).read_to_end(&mut body) {
        Ok(_) => respond(demo, &method, &url, &headers, &body, loopback_only),
        Err(_) => HttpResponse::bare(400),
    };
    if let Some(listen) = &answer.listen {
        stream_listen(request, &answer.body, listen);
        return;
    }
    let mut response = tiny_http::Response::from_data(answer.body).with_status_code(answer.status);
    if let Some(ct) = answer.content_type {
        if let Ok(h) = tiny_http::Header::from_bytes("Content-Type", ct) {
            response.add_header(h);
        }
    }
    if let Some(allow) = answer.allow {
        if let Ok(h) = tiny_http::Header::from_bytes("Allow", allow) {
            response.add_header(h);
        }
    }
    // The client may have gone; nothing to do about it.
    let _ = request.respond(response);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_decode_verbatim_or_from_base64() {
        assert_eq!(decode_name("plan_trip").as_deref(), Some("plan_trip"));
        assert_eq!(decode_name("=?base64?w6k=?=").as_deref(), Some("é"));
        assert_eq!(decode_name("=?base64?aGk=?=").as_deref(), Some("hi"));
        assert_eq!(decode_name("=?base64?aGl=?="), None); // non-canonical
        assert_eq!(decode_name("=?base64?a?="), None);
        assert_eq!(decode_name("=?base64?@@@@?="), None);
    }

    #[test]
    fn loopback_authorities() {
        for ok in [
            "localhost",
            "localhost:8080",
            "127.0.0.1:1",
            "[::1]:80",
            "http://127.0.0.5:9",
            "LOCALHOST",
            "127.0.0.1",
            "[::1]",
            "[0:0:0:0:0:0:0:1]:443",
            "https://localhost",
            "https://[::1]:8443",
            "http://127.0.0.1:65535",
        ] {
            assert!(is_loopback_authority(ok), "{ok}");
        }
        for bad in [
            "evil.example.com",
            "http://evil.example.com",
            "10.0.0.1:80",
            "localhost.evil.com",
            "localhost:80.evil.com",
            "localhost@evil.com",
            "[::1]evil.com",
            "[::2]:80",
            "[::1",
            "localhost:",
            "localhost:123456",
            "null",
            "",
            "ftp://localhost",
            "http://evil.example.com:80",
        ] {
            assert!(!is_loopback_authority(bad), "{bad}");
        }
    }

    #[test]
    fn bearer_principal() {
        assert_eq!(principal(None), None);
        assert_eq!(principal(Some("Basic abc")), None);
        assert_eq!(principal(Some("Bearer ")), None);
        let p = principal(Some("Bearer alice")).unwrap();
        assert_eq!(p, <[u8; 32]>::from(Sha256::digest(b"alice")));
        assert_eq!(principal(Some("bearer  alice ")), Some(p));
    }

    #[test]
    fn mcp_param_headers_are_collected_once_each() {
        let h = HttpHeaders::from_pairs([
            ("Mcp-Param-Region", " eu "),
            ("mcp-param-priority", "3"),
            ("Mcp-Paramx", "ignored"),
        ]);
        assert_eq!(
            h.params,
            vec![
                ("Region".to_string(), "eu".to_string()),
                ("priority".to_string(), "3".to_string())
            ]
        );
        assert_eq!(h.duplicated, None);
        let h = HttpHeaders::from_pairs([("Mcp-Param-Region", "eu"), ("MCP-PARAM-REGION", "us")]);
        assert_eq!(h.duplicated, Some("Mcp-Param-*"));
        assert_eq!(h.params, vec![("Region".to_string(), "eu".to_string())]);
    }

    #[test]
    fn routing_headers_collect_and_flag_duplicates() {
        let h = HttpHeaders::from_pairs([
            ("mcp-protocol-version", " 2026-07-28 "),
            ("MCP-METHOD", "tools/list"),
            ("Other", "x"),
        ]);
        assert_eq!(h.protocol_version.as_deref(), Some("2026-07-28"));
        assert_eq!(h.method.as_deref(), Some("tools/list"));
        assert_eq!(h.duplicated, None);
        let h = HttpHeaders::from_pairs([("Mcp-Name", "a"), ("mcp-name", "a")]);
        assert_eq!(h.duplicated, Some("Mcp-Name"));
    }
}
