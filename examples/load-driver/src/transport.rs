//! What a leg needs from a transport: send one request, hand every message
//! that comes back to the caller until it says "that was my answer".

use mrtr_core::client::sse::SseError;
use std::fmt;
use std::io;

/// Why a leg got no answer.
#[derive(Debug)]
pub enum TransportError {
    /// The connection could not be opened.
    Connect(io::Error),
    /// Reading or writing failed (reset, timeout).
    Io(io::Error),
    /// The peer closed the stream before our answer came.
    Closed,
    /// An HTTP status that carries no JSON-RPC message (a proxy's 502).
    Status(u16),
    /// The response is not HTTP/1.1 we can read (head too long, bad
    /// framing, bad chunk size).
    BadResponse(String),
    /// One message is longer than the core's message limit: reading stopped
    /// at the limit instead of buffering the rest.
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// An SSE event the decoder refused (too large, not UTF-8).
    Sse(SseError),
    /// The response ended without a message for our request.
    NoAnswer,
    /// No answer within the per-leg deadline (a silent or trickling peer).
    Timeout {
        /// The deadline, in milliseconds.
        ms: u128,
    },
}

impl TransportError {
    /// Whether resending cannot help: the peer framed a message over our
    /// limit (it would send the same bytes again). Still a transport
    /// failure (exit 4, as the C client reports it): no message exists to
    /// hand to the core.
    pub fn is_final(&self) -> bool {
        matches!(
            self,
            TransportError::TooLarge { .. } | TransportError::Sse(_)
        )
    }
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TransportError::Connect(e) => write!(f, "cannot connect: {e}"),
            TransportError::Io(e) => write!(f, "i/o error: {e}"),
            TransportError::Closed => write!(f, "connection closed before the answer"),
            TransportError::Status(s) => write!(f, "HTTP status {s} without a JSON-RPC message"),
            TransportError::BadResponse(why) => write!(f, "unreadable HTTP response: {why}"),
            TransportError::TooLarge { limit } => {
                write!(f, "message exceeds the {limit}-byte message limit")
            }
            TransportError::Sse(e) => write!(f, "SSE stream refused: {e}"),
            TransportError::NoAnswer => write!(f, "response carried no answer to the request"),
            TransportError::Timeout { ms } => write!(f, "no answer within {ms} ms (timed out)"),
        }
    }
}

/// What the transport learned about the leg besides its messages.
#[derive(Debug, Clone, Default)]
pub struct LegInfo {
    /// The upstream that served the leg, as the balancer reported it (the
    /// last address of nginx's `$upstream_addr`, which lists every upstream
    /// tried).
    pub upstream: Option<String>,
    /// Every upstream the balancer tried for this leg (more than one when
    /// it skipped a dead instance).
    pub upstreams_tried: usize,
    /// The instance name the server reported itself, if it does.
    pub instance: Option<String>,
}

/// A way to exchange one request for its answer.
pub trait Transport {
    /// Sends `body` and passes each message that comes back to
    /// `on_message` until it returns `true` (the answer was found).
    fn exchange(
        &mut self,
        body: &[u8],
        on_message: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Result<LegInfo, TransportError>;

    /// Asks the balancer to send the next requests to an instance other
    /// than `upstream` (the one that served the previous leg of the flow),
    /// or lifts that with `None`. A transport without a balancer ignores it.
    fn avoid_next(&mut self, _upstream: Option<&str>) {}
}
