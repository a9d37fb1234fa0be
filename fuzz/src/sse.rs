//! Target `sse`: the SSE decoder under arbitrary chunk splits.
//!
//! Input: byte 0 = the data buffer size (`0..=191`: that many bytes; above:
//! 1 KiB, 4 KiB, 64 KiB, 1 MiB); byte 1 = number of cuts (mod 32); then two
//! bytes (LE) per cut, a position in the stream (mod its length + 1); the
//! rest is the stream.
//!
//! The stream is decoded three ways: in one chunk, in the chunks the cuts
//! make, and one byte at a time; each decoder then ends the stream and
//! decodes the same bytes again as a reconnection. Properties: the three
//! agree on every event (type, data, last event id) and every error, on
//! what `end_of_stream` reports, on the last event id and on the
//! reconnection time; `feed` consumes its whole input; an event's data fits
//! the buffer, its type and id their limits.
//!
//! And against a reference: a line-at-a-time transcription of the WHATWG
//! parsing rules over the whole stream ([`reference`]). For streams where
//! no value breaks our stricter rules (invalid UTF-8 in a value we keep, a
//! value over its limit), the decoder must give exactly the reference's
//! events, pending flag, last event id and reconnection time.

use mrtr_core::client::sse::{SseDecoder, SseError, MAX_EVENT_ID_BYTES, MAX_EVENT_TYPE_BYTES};

type Out = Result<(String, String, String), SseError>;

#[derive(Debug, PartialEq)]
struct Decoded {
    events: Vec<Out>,
    pending: bool,
    last_event_id: String,
    retry: Option<u64>,
}

fn decode(chunks: &[&[u8]], cap: usize, out: &mut Vec<Decoded>) {
    let mut buf = vec![0u8; cap];
    let mut dec = SseDecoder::new(&mut buf);
    for _stream in 0..2 {
        let mut events = Vec::new();
        for chunk in chunks {
            let mut input: &[u8] = chunk;
            while let Some(r) = dec.feed(&mut input) {
                events.push(r.map(|e| {
                    assert!(e.data.len() <= cap, "event larger than the buffer");
                    assert!(e.event_type.len() <= MAX_EVENT_TYPE_BYTES);
                    assert!(e.last_event_id.len() <= MAX_EVENT_ID_BYTES);
                    assert!(!e.last_event_id.contains('\0'));
                    (
                        e.event_type.to_string(),
                        e.data.to_string(),
                        e.last_event_id.to_string(),
                    )
                }));
            }
            assert!(input.is_empty(), "feed returned None with input left");
        }
        let pending = dec.end_of_stream();
        out.push(Decoded {
            events,
            pending,
            last_event_id: dec.last_event_id().to_string(),
            retry: dec.reconnection_time_ms(),
        });
    }
}

/// The WHATWG event stream parser, transcribed line by line over one whole
/// stream (`streams` times the same bytes, as [`decode`] does). `None` when
/// the stream breaks one of our stricter rules somewhere (the decoder then
/// reports errors the standard does not know).
fn reference(stream: &[u8], cap: usize, streams: usize) -> Option<Vec<Decoded>> {
    let mut out = Vec::new();
    let mut last_event_id = String::new();
    let mut retry = None;
    for _ in 0..streams {
        let body = stream.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(stream);
        // Lines end at CRLF, LF or CR; the last, unterminated one is not
        // processed.
        let mut lines = Vec::new();
        let mut start = 0;
        let mut i = 0;
        while i < body.len() {
            match body[i] {
                b'\r' => {
                    lines.push(&body[start..i]);
                    i += if body.get(i + 1) == Some(&b'\n') {
                        2
                    } else {
                        1
                    };
                    start = i;
                }
                b'\n' => {
                    lines.push(&body[start..i]);
                    i += 1;
                    start = i;
                }
                _ => i += 1,
            }
        }
        let unfinished = start < body.len();
        // The decoder fails values over their limits as it reads them, so
        // an unterminated last line can fail its event too: not compared.
        let tail = &body[start..];
        let (mut data, mut data_lines, mut event_type) =
            (Vec::<u8>::new(), 0usize, Vec::<u8>::new());
        let mut id_buffer: Vec<u8> = Vec::new();
        let mut events = Vec::new();
        for line in lines {
            if line.is_empty() {
                last_event_id = String::from_utf8(id_buffer.clone()).ok()?;
                if data_lines > 0 {
                    let t = String::from_utf8(event_type.clone()).ok()?;
                    events.push(Ok((
                        if t.is_empty() {
                            "message".to_string()
                        } else {
                            t
                        },
                        String::from_utf8(data.clone()).ok()?,
                        last_event_id.clone(),
                    )));
                }
                data.clear();
                data_lines = 0;
                event_type.clear();
                continue;
            }
            if line[0] == b':' {
                continue;
            }
            let (name, value) = match line.iter().position(|&b| b == b':') {
                Some(c) => {
                    let v = &line[c + 1..];
                    (&line[..c], v.strip_prefix(b" ").unwrap_or(v))
                }
                None => (line, &[][..]),
            };
            match name {
                b"data" => {
                    if data_lines > 0 {
                        data.push(b'\n');
                    }
                    data.extend_from_slice(value);
                    data_lines += 1;
                    if data.len() > cap || std::str::from_utf8(&data).is_err() {
                        return None;
                    }
                }
                b"event" => {
                    if value.len() > MAX_EVENT_TYPE_BYTES || std::str::from_utf8(value).is_err() {
                        return None;
                    }
                    event_type = value.to_vec();
                }
                b"id" => {
                    if value.len() > MAX_EVENT_ID_BYTES || std::str::from_utf8(value).is_err() {
                        return None;
                    }
                    if !value.contains(&0) {
                        id_buffer = value.to_vec();
                    }
                }
                b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                    retry = Some(value.iter().fold(0u64, |n, &d| {
                        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
                    }));
                }
                _ => {}
            }
        }
        if let Some(c) = tail.iter().position(|&b| b == b':') {
            let v = &tail[c + 1..];
            let v = v.strip_prefix(b" ").unwrap_or(v);
            let over = match &tail[..c] {
                b"data" => data.len() + usize::from(data_lines > 0) + v.len() > cap,
                b"event" => v.len() > MAX_EVENT_TYPE_BYTES,
                b"id" => v.len() > MAX_EVENT_ID_BYTES,
                _ => false,
            };
            if over {
                return None;
            }
        } else if tail == b"data" && data_lines > 0 && data.len() + 1 > cap {
            return None;
        }
        let bom_prefix =
            !stream.is_empty() && stream.len() < 3 && b"\xEF\xBB\xBF".starts_with(stream);
        out.push(Decoded {
            events,
            pending: unfinished || data_lines > 0 || !event_type.is_empty() || bom_prefix,
            last_event_id: last_event_id.clone(),
            retry,
        });
    }
    Some(out)
}

/// The target.
pub fn run(data: &[u8]) {
    let [size, ncuts, rest @ ..] = data else {
        return;
    };
    let cap = match *size {
        s @ 0..=191 => usize::from(s),
        192..=223 => 1 << 10,
        224..=239 => 1 << 12,
        240..=254 => 1 << 16,
        255 => 1 << 20,
    };
    let ncuts = usize::from(*ncuts % 32);
    let (cuts, stream) = rest.split_at((2 * ncuts).min(rest.len()));
    let mut points: Vec<usize> = cuts
        .chunks_exact(2)
        .map(|c| usize::from(u16::from_le_bytes([c[0], c[1]])) % (stream.len() + 1))
        .collect();
    points.sort_unstable();
    let mut chunks = Vec::new();
    let mut last = 0;
    for p in points {
        chunks.push(&stream[last..p]);
        last = p;
    }
    chunks.push(&stream[last..]);

    let mut whole = Vec::new();
    decode(&[stream], cap, &mut whole);
    let mut split = Vec::new();
    decode(&chunks, cap, &mut split);
    assert_eq!(split, whole, "chunk splits changed the events");
    let bytes: Vec<&[u8]> = stream.chunks(1).collect();
    let mut single = Vec::new();
    decode(&bytes, cap, &mut single);
    assert_eq!(single, whole, "1-byte chunks changed the events");
    if let Some(want) = reference(stream, cap, 2) {
        assert_eq!(whole, want, "the decoder departs from the WHATWG rules");
    }
}
