//! `subscriptions/listen` (SEP-2575): long-lived streams of list-changed
//! notifications. A listen registers a subscriber with the notification
//! types it asked for (and the demo supports: `toolsListChanged`,
//! `promptsListChanged`); a change is delivered to every subscriber that
//! asked for its type, tagged with the subscription id (the JSON-RPC id of
//! the listen request). Over HTTP the stream is the listen request's SSE
//! response; over stdio the notifications are lines between answers.
//!
//! The demo's lists are static: the conformance tools
//! `test_trigger_tool_change` and `test_trigger_prompt_change` announce a
//! change so a client can see the stream work.

use std::fmt;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::emit;

/// The most open subscriptions; one more is refused (`-32603`).
pub const MAX_SUBSCRIPTIONS: usize = 64;

/// A list that changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// `notifications/tools/list_changed`.
    Tools,
    /// `notifications/prompts/list_changed`.
    Prompts,
}

impl Change {
    fn method(self) -> &'static str {
        match self {
            Change::Tools => "notifications/tools/list_changed",
            Change::Prompts => "notifications/prompts/list_changed",
        }
    }
}

struct Subscriber {
    tools: bool,
    prompts: bool,
    id: Vec<u8>,
    tx: Sender<Vec<u8>>,
}

/// The open subscriptions of one server.
#[derive(Default)]
pub struct Hub {
    subs: Mutex<Vec<Subscriber>>,
}

impl fmt::Debug for Hub {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.subs.lock().map(|s| s.len()).unwrap_or(0);
        write!(f, "Hub({n} subscriptions)")
    }
}

/// The notifications still to send on one listen stream.
#[derive(Clone)]
pub struct Listen(Arc<Mutex<Receiver<Vec<u8>>>>);

impl fmt::Debug for Listen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Listen")
    }
}

impl PartialEq for Listen {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Listen {}

/// What a listen stream has next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// A notification to send.
    Message(Vec<u8>),
    /// Nothing within the wait.
    Idle,
    /// The hub dropped the subscription: the stream ends.
    Closed,
}

impl Listen {
    /// The next notification, waiting at most `timeout`.
    pub fn next(&self, timeout: Duration) -> Next {
        let Ok(rx) = self.0.lock() else {
            return Next::Closed;
        };
        loop {
            match rx.recv_timeout(timeout) {
                // An empty message is the hub's liveness probe: skipped.
                Ok(m) if m.is_empty() => continue,
                Ok(m) => return Next::Message(m),
                Err(RecvTimeoutError::Timeout) => return Next::Idle,
                Err(RecvTimeoutError::Disconnected) => return Next::Closed,
            }
        }
    }

    /// Every notification already waiting, without blocking.
    pub fn drain(&self) -> Vec<Vec<u8>> {
        match self.0.lock() {
            Ok(rx) => rx.try_iter().filter(|m| !m.is_empty()).collect(),
            Err(_) => Vec::new(),
        }
    }
}

/// A notification on subscription `id` (its JSON token).
fn notification(method: &str, id: &[u8], extra: &[u8]) -> Vec<u8> {
    emit::json(|w| {
        w.raw(br#"{"jsonrpc":"2.0","method":"#)
            .str(method)
            .raw(br#","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"#)
            .raw(id)
            .raw(b"}")
            .raw(extra)
            .raw(b"}}");
    })
}

impl Hub {
    /// Opens a subscription with id `id` (the listen request's JSON-RPC id,
    /// as its JSON token) for the types asked: returns the acknowledgement
    /// (the first message of the stream, naming the types honored) and the
    /// stream, or `None` when [`MAX_SUBSCRIPTIONS`] are open.
    pub fn listen(&self, id: &[u8], tools: bool, prompts: bool) -> Option<(Vec<u8>, Listen)> {
        let mut subs = self.subs.lock().ok()?;
        // Streams whose reader is gone make room first.
        subs.retain(|s| s.tx.send(Vec::new()).is_ok());
        if subs.len() >= MAX_SUBSCRIPTIONS {
            return None;
        }
        let (tx, rx) = mpsc::channel();
        subs.push(Subscriber {
            tools,
            prompts,
            id: id.to_vec(),
            tx,
        });
        let mut honored = Vec::new();
        if tools {
            honored.push(r#""toolsListChanged":true"#);
        }
        if prompts {
            honored.push(r#""promptsListChanged":true"#);
        }
        let extra = format!(r#","notifications":{{{}}}"#, honored.join(","));
        let ack = notification(
            "notifications/subscriptions/acknowledged",
            id,
            extra.as_bytes(),
        );
        Some((ack, Listen(Arc::new(Mutex::new(rx)))))
    }

    /// Delivers `change` to every subscriber that asked for it; returns how
    /// many. Subscribers whose stream is gone are dropped.
    pub fn notify(&self, change: Change) -> usize {
        let Ok(mut subs) = self.subs.lock() else {
            return 0;
        };
        let mut sent = 0;
        subs.retain(|s| {
            let wants = match change {
                Change::Tools => s.tools,
                Change::Prompts => s.prompts,
            };
            if !wants {
                return true;
            }
            let ok = s.tx.send(notification(change.method(), &s.id, b"")).is_ok();
            sent += usize::from(ok);
            ok
        });
        sent
    }
}
