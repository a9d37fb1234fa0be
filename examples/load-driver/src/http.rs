//! A minimal blocking HTTP/1.1 client: POST one JSON-RPC message, read back
//! `application/json` or a `text/event-stream`, with every read bounded.
//!
//! Bounds: the status line and headers together at most [`MAX_HEAD_BYTES`];
//! a JSON body or one SSE event at most the core's message limit (a
//! `Content-Length` above it is refused before a byte of the body is read);
//! chunk-size lines at most 64 bytes. Keep-alive is used when the server
//! allows it and the whole body was read; anything else drops the
//! connection.

use crate::transport::{LegInfo, Transport, TransportError};
use mrtr_core::client::http::RequestHeaders;
use mrtr_core::client::sse::SseDecoder;
use mrtr_core::wire::WireLimits;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Longest status line plus headers we read.
pub const MAX_HEAD_BYTES: usize = 16 * 1024;
/// Longest chunk-size line (hex digits, extensions, CRLF).
const MAX_CHUNK_LINE_BYTES: usize = 64;

/// An `http://host:port/path` URL.
#[derive(Debug, Clone)]
pub struct Url {
    /// `host:port` for `connect` and the `Host` header.
    pub authority: String,
    /// The request target.
    pub path: String,
}

impl Url {
    /// Parses `http://host[:port][/path]` (no TLS: the fleet is on loopback).
    pub fn parse(s: &str) -> Result<Url, String> {
        let rest = s
            .strip_prefix("http://")
            .ok_or_else(|| format!("not an http:// URL: {s}"))?;
        let (authority, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, "/"),
        };
        if authority.is_empty() {
            return Err(format!("no host in URL: {s}"));
        }
        let authority = if authority.contains(':') {
            authority.to_string()
        } else {
            format!("{authority}:80")
        };
        Ok(Url {
            authority,
            path: path.to_string(),
        })
    }
}

/// One HTTP client: a URL, a bearer token and at most one open connection.
pub struct HttpClient {
    url: Url,
    bearer: Option<String>,
    timeout: Duration,
    max_message: usize,
    conn: Option<BufReader<Timed>>,
    /// `X-Mrtr-Avoid` for the next requests: the upstream of the flow's
    /// previous leg (the fleet's nginx routes around it).
    avoid: Option<String>,
}

/// A socket whose reads share one deadline: a peer that trickles a byte at
/// a time cannot hold a leg longer than the timeout, as it could with a
/// per-read timeout alone.
struct Timed {
    s: TcpStream,
    deadline: Instant,
}

impl Read for Timed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::Error::from(io::ErrorKind::TimedOut));
        }
        self.s.set_read_timeout(Some(left))?;
        self.s.read(buf)
    }
}

/// How the body is delimited.
enum Framing {
    Length(u64),
    Chunked { left: u64, done: bool },
    UntilClose,
}

struct Head {
    status: u16,
    content_type: String,
    framing: Framing,
    close: bool,
    info: LegInfo,
}

impl HttpClient {
    /// A client for `url`; messages longer than `max_message` bytes are
    /// refused.
    pub fn new(url: Url, bearer: Option<String>, timeout: Duration, max_message: usize) -> Self {
        HttpClient {
            url,
            bearer,
            timeout,
            max_message,
            conn: None,
            avoid: None,
        }
    }

    fn connect(&self) -> Result<BufReader<Timed>, TransportError> {
        let s = TcpStream::connect(&self.url.authority).map_err(TransportError::Connect)?;
        s.set_nodelay(true).map_err(TransportError::Io)?;
        s.set_write_timeout(Some(self.timeout))
            .map_err(TransportError::Io)?;
        Ok(BufReader::with_capacity(
            16 * 1024,
            Timed {
                s,
                deadline: Instant::now() + self.timeout,
            },
        ))
    }

    fn request_bytes(&self, body: &[u8]) -> Result<Vec<u8>, TransportError> {
        let hdrs = RequestHeaders::for_message(body, &WireLimits::default())
            .map_err(|e| TransportError::BadResponse(format!("cannot write headers: {e}")))?;
        let mut hbuf = vec![0u8; hdrs.buffer_len()];
        let headers = hdrs
            .write(&mut hbuf)
            .map_err(|e| TransportError::BadResponse(format!("cannot write headers: {e}")))?;
        let mut req = Vec::with_capacity(body.len() + 512);
        write!(
            req,
            "POST {} HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\n",
            self.url.path,
            self.url.authority,
            body.len()
        )
        .map_err(TransportError::Io)?;
        for (name, value) in headers.iter() {
            write!(req, "{name}: {value}\r\n").map_err(TransportError::Io)?;
        }
        if let Some(token) = &self.bearer {
            write!(req, "Authorization: Bearer {token}\r\n").map_err(TransportError::Io)?;
        }
        if let Some(upstream) = &self.avoid {
            write!(req, "X-Mrtr-Avoid: {upstream}\r\n").map_err(TransportError::Io)?;
        }
        req.extend_from_slice(b"\r\n");
        req.extend_from_slice(body);
        Ok(req)
    }
}

/// Reads one line ending in LF (CR stripped) of at most `max` bytes.
fn read_line(r: &mut impl BufRead, max: usize, what: &str) -> Result<String, TransportError> {
    let mut line = Vec::new();
    loop {
        let avail = r.fill_buf().map_err(TransportError::Io)?;
        if avail.is_empty() {
            return Err(if line.is_empty() {
                TransportError::Closed
            } else {
                TransportError::BadResponse(format!("stream ended inside the {what}"))
            });
        }
        let (take, end) = match avail.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (avail.len(), false),
        };
        if line.len() + take > max {
            return Err(TransportError::BadResponse(format!(
                "{what} longer than {max} bytes"
            )));
        }
        line.extend_from_slice(&avail[..take]);
        r.consume(take);
        if end {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return String::from_utf8(line)
                .map_err(|_| TransportError::BadResponse(format!("{what} is not UTF-8")));
        }
    }
}

fn read_head(r: &mut impl BufRead) -> Result<Head, TransportError> {
    let mut budget = MAX_HEAD_BYTES;
    let status_line = read_line(r, budget, "status line")?;
    budget = budget.saturating_sub(status_line.len() + 2);
    let mut parts = status_line.splitn(3, ' ');
    let version = parts.next().unwrap_or("");
    if !version.starts_with("HTTP/1.") {
        return Err(TransportError::BadResponse(format!(
            "not an HTTP/1.x status line: {status_line:.80}"
        )));
    }
    let status: u16 = parts
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| TransportError::BadResponse("bad status code".into()))?;
    let mut head = Head {
        status,
        content_type: String::new(),
        framing: Framing::UntilClose,
        close: version == "HTTP/1.0",
        info: LegInfo::default(),
    };
    let mut length = None;
    let mut chunked = false;
    loop {
        let line = read_line(r, budget, "response head")?;
        budget = budget.saturating_sub(line.len() + 2);
        if line.is_empty() {
            break;
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(TransportError::BadResponse(format!(
                "header without a colon: {line:.80}"
            )));
        };
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => {
                let n: u64 = value
                    .parse()
                    .map_err(|_| TransportError::BadResponse("bad Content-Length".into()))?;
                if length.is_some_and(|l| l != n) {
                    return Err(TransportError::BadResponse(
                        "conflicting Content-Length headers".into(),
                    ));
                }
                length = Some(n);
            }
            "transfer-encoding" => {
                chunked = value
                    .to_ascii_lowercase()
                    .split(',')
                    .any(|v| v.trim() == "chunked");
            }
            "content-type" => head.content_type = value.to_ascii_lowercase(),
            "connection" if value.to_ascii_lowercase().contains("close") => head.close = true,
            "x-mrtr-upstream" => {
                head.info.upstreams_tried =
                    value.split(',').filter(|s| !s.trim().is_empty()).count();
                head.info.upstream = value.rsplit(',').next().map(|s| s.trim().to_string());
            }
            "x-mrtr-instance" => head.info.instance = Some(value.to_string()),
            _ => {}
        }
    }
    head.framing = if chunked {
        // RFC 9112: Transfer-Encoding overrides Content-Length.
        Framing::Chunked {
            left: 0,
            done: false,
        }
    } else if let Some(n) = length {
        Framing::Length(n)
    } else if status == 204 || status == 304 || (100..200).contains(&status) {
        Framing::Length(0)
    } else {
        Framing::UntilClose
    };
    Ok(head)
}

/// Reads the next piece of the body into `buf`; 0 at its end.
fn read_body(
    r: &mut impl BufRead,
    framing: &mut Framing,
    buf: &mut [u8],
) -> Result<usize, TransportError> {
    loop {
        match framing {
            Framing::Length(0) => return Ok(0),
            Framing::Length(left) => {
                let want = buf.len().min(usize::try_from(*left).unwrap_or(usize::MAX));
                let n = r.read(&mut buf[..want]).map_err(TransportError::Io)?;
                if n == 0 {
                    return Err(TransportError::Closed);
                }
                *left -= n as u64;
                return Ok(n);
            }
            Framing::UntilClose => return r.read(buf).map_err(TransportError::Io),
            Framing::Chunked { done: true, .. } => return Ok(0),
            Framing::Chunked { left, done } => {
                if *left == 0 {
                    let line = read_line(r, MAX_CHUNK_LINE_BYTES, "chunk size line")?;
                    let hex = line.split(';').next().unwrap_or("").trim();
                    let size = u64::from_str_radix(hex, 16).map_err(|_| {
                        TransportError::BadResponse(format!("bad chunk size {hex:.20}"))
                    })?;
                    if size == 0 {
                        // Trailers: skip to the blank line.
                        loop {
                            let t = read_line(r, MAX_HEAD_BYTES, "trailer")?;
                            if t.is_empty() {
                                break;
                            }
                        }
                        *done = true;
                        return Ok(0);
                    }
                    *left = size;
                    continue;
                }
                let want = buf.len().min(usize::try_from(*left).unwrap_or(usize::MAX));
                let n = r.read(&mut buf[..want]).map_err(TransportError::Io)?;
                if n == 0 {
                    return Err(TransportError::Closed);
                }
                *left -= n as u64;
                if *left == 0 {
                    let crlf = read_line(r, 2, "chunk end")?;
                    if !crlf.is_empty() {
                        return Err(TransportError::BadResponse(
                            "chunk not followed by CRLF".into(),
                        ));
                    }
                }
                return Ok(n);
            }
        }
    }
}

fn body_done(framing: &Framing) -> bool {
    matches!(
        framing,
        Framing::Length(0) | Framing::Chunked { done: true, .. }
    )
}

impl Transport for HttpClient {
    fn avoid_next(&mut self, upstream: Option<&str>) {
        // Only a plain host:port can name an upstream (it becomes a header).
        self.avoid = upstream
            .filter(|u| {
                !u.is_empty()
                    && u.bytes().all(|b| {
                        b.is_ascii_alphanumeric() || matches!(b, b'.' | b':' | b'[' | b']')
                    })
            })
            .map(str::to_string);
    }

    fn exchange(
        &mut self,
        body: &[u8],
        on_message: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Result<LegInfo, TransportError> {
        let ms = self.timeout.as_millis();
        self.exchange_within(body, on_message).map_err(|e| match e {
            TransportError::Io(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
                ) =>
            {
                TransportError::Timeout { ms }
            }
            e => e,
        })
    }
}

impl HttpClient {
    /// One exchange, every read under one deadline `timeout` from now.
    fn exchange_within(
        &mut self,
        body: &[u8],
        on_message: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Result<LegInfo, TransportError> {
        let req = self.request_bytes(body)?;
        let mut conn = match self.conn.take() {
            Some(c) => c,
            None => self.connect()?,
        };
        conn.get_mut().deadline = Instant::now() + self.timeout;
        conn.get_mut()
            .s
            .write_all(&req)
            .map_err(TransportError::Io)?;
        let mut head = read_head(&mut conn)?;
        let mut piece = vec![0u8; 64 * 1024];
        let answered;
        if head.content_type.starts_with("text/event-stream") {
            let mut data = vec![0u8; self.max_message];
            let mut dec = SseDecoder::new(&mut data);
            let mut found = false;
            'stream: loop {
                let n = read_body(&mut conn, &mut head.framing, &mut piece)?;
                if n == 0 {
                    break;
                }
                let mut input = &piece[..n];
                while let Some(ev) = dec.feed(&mut input) {
                    let ev = ev.map_err(TransportError::Sse)?;
                    if ev.is_message() && !ev.data.is_empty() && on_message(ev.data.as_bytes()) {
                        found = true;
                        break 'stream;
                    }
                }
            }
            answered = found;
        } else if head.content_type.starts_with("application/json") {
            if let Framing::Length(n) = head.framing {
                if n > self.max_message as u64 {
                    return Err(TransportError::TooLarge {
                        limit: self.max_message,
                    });
                }
            }
            let mut msg = Vec::new();
            loop {
                let n = read_body(&mut conn, &mut head.framing, &mut piece)?;
                if n == 0 {
                    break;
                }
                if msg.len() + n > self.max_message {
                    return Err(TransportError::TooLarge {
                        limit: self.max_message,
                    });
                }
                msg.extend_from_slice(&piece[..n]);
            }
            answered = !msg.is_empty() && on_message(&msg);
        } else if !(200..300).contains(&head.status) {
            return Err(TransportError::Status(head.status));
        } else {
            answered = false;
        }
        if !head.close && body_done(&head.framing) {
            self.conn = Some(conn);
        }
        if answered {
            Ok(head.info)
        } else if !(200..300).contains(&head.status) {
            Err(TransportError::Status(head.status))
        } else {
            Err(TransportError::NoAnswer)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;
    use std::net::TcpListener;

    fn body_of(raw: &[u8]) -> (Head, Vec<u8>) {
        let mut r = BufReader::with_capacity(7, Cursor::new(raw.to_vec()));
        let mut head = read_head(&mut r).unwrap();
        let mut body = Vec::new();
        let mut piece = [0u8; 5];
        loop {
            let n = read_body(&mut r, &mut head.framing, &mut piece).unwrap();
            if n == 0 {
                break;
            }
            body.extend_from_slice(&piece[..n]);
        }
        (head, body)
    }

    #[test]
    fn chunked_body_and_the_upstream_nginx_reports() {
        let (head, body) = body_of(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\
              Transfer-Encoding: chunked\r\nX-Mrtr-Upstream: 127.0.0.1:1, 127.0.0.1:2\r\n\r\n\
              3\r\nabc\r\nA;ext=1\r\n0123456789\r\n0\r\nTrailer: x\r\n\r\n",
        );
        assert_eq!(body, b"abc0123456789");
        assert_eq!(head.status, 200);
        assert_eq!(head.info.upstream.as_deref(), Some("127.0.0.1:2"));
        assert_eq!(head.info.upstreams_tried, 2);
        assert!(matches!(head.framing, Framing::Chunked { done: true, .. }));
    }

    #[test]
    fn content_length_body_stops_at_its_length() {
        let (head, body) = body_of(b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nabcdEXTRA");
        assert_eq!(body, b"abcd");
        assert!(!head.close);
    }

    #[test]
    fn a_head_longer_than_its_bound_is_refused() {
        let mut raw = b"HTTP/1.1 200 OK\r\nX-Pad: ".to_vec();
        raw.extend(std::iter::repeat_n(b'a', MAX_HEAD_BYTES));
        raw.extend_from_slice(b"\r\n\r\n");
        let mut r = BufReader::new(Cursor::new(raw));
        match read_head(&mut r) {
            Err(TransportError::BadResponse(why)) => {
                // The budget left after the 17-byte status line.
                assert_eq!(why, "response head longer than 16367 bytes")
            }
            Err(e) => panic!("{e}"),
            Ok(_) => panic!("accepted"),
        }
    }

    #[test]
    fn conflicting_lengths_and_bad_chunk_sizes_are_refused() {
        let mut r = BufReader::new(Cursor::new(
            b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n".to_vec(),
        ));
        assert!(matches!(
            read_head(&mut r),
            Err(TransportError::BadResponse(_))
        ));
        let mut r = BufReader::new(Cursor::new(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".to_vec(),
        ));
        let mut head = read_head(&mut r).unwrap();
        let mut piece = [0u8; 8];
        match read_body(&mut r, &mut head.framing, &mut piece) {
            Err(TransportError::BadResponse(why)) => assert_eq!(why, "bad chunk size zz"),
            other => panic!("{other:?}"),
        }
    }

    /// Serves one canned response on a loopback port; returns the URL.
    fn serve_once(response: Vec<u8>) -> Url {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        std::thread::spawn(move || {
            let (mut s, _) = l.accept().unwrap();
            let mut buf = [0u8; 4096];
            let _ = std::io::Read::read(&mut s, &mut buf);
            // One byte per write: the client must reassemble anything.
            for b in response {
                if s.write_all(&[b]).is_err() {
                    return;
                }
            }
            // Hold the connection open a moment: the client must not need EOF.
            std::thread::sleep(Duration::from_millis(200));
        });
        Url::parse(&format!("http://127.0.0.1:{port}/mcp")).unwrap()
    }

    const BODY: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}"#;

    fn client(url: Url, max: usize) -> HttpClient {
        HttpClient::new(url, Some("alice".into()), Duration::from_secs(5), max)
    }

    #[test]
    fn the_previous_upstream_is_sent_as_x_mrtr_avoid() {
        let url = Url::parse("http://127.0.0.1:9/mcp").unwrap();
        let mut c = client(url, 1 << 20);
        let text = |c: &HttpClient| String::from_utf8(c.request_bytes(BODY).unwrap()).unwrap();
        assert!(!text(&c).contains("X-Mrtr-Avoid"));
        c.avoid_next(Some("127.0.0.1:40001"));
        assert!(text(&c).contains("\r\nX-Mrtr-Avoid: 127.0.0.1:40001\r\n"));
        // Anything that is not a plain host:port never becomes a header.
        c.avoid_next(Some("127.0.0.1:1\r\nX-Evil: 1"));
        assert!(!text(&c).contains("X-Mrtr-Avoid") && !text(&c).contains("X-Evil"));
        c.avoid_next(Some("[::1]:40002"));
        assert!(text(&c).contains("\r\nX-Mrtr-Avoid: [::1]:40002\r\n"));
        c.avoid_next(None);
        assert!(!text(&c).contains("X-Mrtr-Avoid"));
    }

    #[test]
    fn sse_answer_split_into_single_bytes_is_reassembled() {
        let url = serve_once(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n\
              : comment\r\n\r\nid: 1\r\ndata:\r\n\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\n"
                .to_vec(),
        );
        let mut got = Vec::new();
        let info = client(url, 1024)
            .exchange(BODY, &mut |m| {
                got.push(m.to_vec());
                true
            })
            .unwrap();
        assert_eq!(got, vec![b"{\"a\":\n1}".to_vec()]);
        assert_eq!(info.upstream, None);
    }

    #[test]
    fn a_content_length_over_the_limit_is_refused_before_the_body() {
        // The server announces 2 MiB and sends none of it: the client must
        // answer at once, from the header alone.
        let url = serve_once(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2097152\r\n\r\n"
                .to_vec(),
        );
        let mut called = false;
        let r = client(url, 1 << 20).exchange(BODY, &mut |_| {
            called = true;
            true
        });
        assert!(
            matches!(r, Err(TransportError::TooLarge { limit: 1048576 })),
            "{r:?}"
        );
        assert!(!called);
    }

    #[test]
    fn a_chunked_json_body_over_the_limit_is_refused() {
        let mut resp =
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                .to_vec();
        for _ in 0..3 {
            resp.extend_from_slice(b"10\r\n0123456789abcdef\r\n");
        }
        resp.extend_from_slice(b"0\r\n\r\n");
        let r = client(serve_once(resp), 40).exchange(BODY, &mut |_| true);
        assert!(
            matches!(r, Err(TransportError::TooLarge { limit: 40 })),
            "{r:?}"
        );
    }

    #[test]
    fn a_proxy_error_page_is_a_status_error() {
        let url = serve_once(
            b"HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nContent-Length: 5\r\n\r\n<h1/>"
                .to_vec(),
        );
        let r = client(url, 1024).exchange(BODY, &mut |_| true);
        assert!(matches!(r, Err(TransportError::Status(502))), "{r:?}");
    }

    #[test]
    fn a_json_rpc_error_with_an_error_status_is_still_the_answer() {
        let body = br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"m"}}"#;
        let mut resp = format!(
            "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        resp.extend_from_slice(body);
        let mut got = Vec::new();
        client(serve_once(resp), 1024)
            .exchange(BODY, &mut |m| {
                got = m.to_vec();
                true
            })
            .unwrap();
        assert_eq!(got, body);
    }

    #[test]
    fn a_trickling_peer_cannot_hold_a_leg_past_the_deadline() {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        std::thread::spawn(move || {
            let (mut s, _) = l.accept().unwrap();
            let mut buf = [0u8; 4096];
            let _ = std::io::Read::read(&mut s, &mut buf);
            let _ =
                s.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: ");
            // A byte every 20 ms, for longer than the test would ever wait.
            for _ in 0..500 {
                if s.write_all(b"a").is_err() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        let url = Url::parse(&format!("http://127.0.0.1:{port}/mcp")).unwrap();
        let mut c = HttpClient::new(url, None, Duration::from_millis(300), 1 << 20);
        let t0 = Instant::now();
        let r = c.exchange(BODY, &mut |_| true);
        let took = t0.elapsed();
        assert!(
            matches!(r, Err(TransportError::Timeout { ms: 300 })),
            "{r:?}"
        );
        assert!(took < Duration::from_secs(2), "took {took:?}");
    }

    #[test]
    fn urls() {
        let u = Url::parse("http://127.0.0.1:8080/mcp").unwrap();
        assert_eq!(
            (u.authority.as_str(), u.path.as_str()),
            ("127.0.0.1:8080", "/mcp")
        );
        let u = Url::parse("http://localhost").unwrap();
        assert_eq!(
            (u.authority.as_str(), u.path.as_str()),
            ("localhost:80", "/")
        );
        assert!(Url::parse("https://x/").is_err());
    }
}
