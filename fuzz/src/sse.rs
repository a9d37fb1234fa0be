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
}
