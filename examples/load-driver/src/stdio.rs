//! The stdio transport: newline-delimited JSON-RPC with a child process.
//!
//! A reader thread splits the child's stdout into lines, each read at most
//! up to the message limit: a longer line ends the reading with
//! [`TransportError::TooLarge`] after `limit` bytes, whatever the peer keeps
//! writing (the child is then killed). At most [`QUEUED_LINES`] lines wait
//! in the channel, so memory stays bounded by about that many messages.
//! Every leg has a deadline: a silent or trickling server times out.

use crate::transport::{LegInfo, Transport, TransportError};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};

/// Lines read ahead of the caller, at most.
const QUEUED_LINES: usize = 4;

/// A server spawned as a child process.
pub struct StdioServer {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Result<Vec<u8>, TransportError>>,
    timeout: Duration,
}

/// Reads non-blank lines into the channel until EOF, an error or a line
/// over `max` bytes.
fn read_lines(
    mut out: BufReader<ChildStdout>,
    max: usize,
    tx: SyncSender<Result<Vec<u8>, TransportError>>,
) {
    loop {
        let mut line = Vec::new();
        let end = loop {
            let avail = match out.fill_buf() {
                Ok(a) => a,
                Err(e) => break Err(TransportError::Io(e)),
            };
            if avail.is_empty() {
                break Err(TransportError::Closed);
            }
            let (take, end) = match avail.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (avail.len(), false),
            };
            if line.len() + take > max {
                break Err(TransportError::TooLarge { limit: max });
            }
            line.extend_from_slice(&avail[..take]);
            out.consume(if end { take + 1 } else { take });
            if end {
                break Ok(());
            }
        };
        let item = match end {
            Ok(()) if line.iter().all(|b| b" \t\r".contains(b)) => continue,
            Ok(()) => Ok(line),
            Err(e) => Err(e),
        };
        let last = item.is_err();
        if tx.send(item).is_err() || last {
            return;
        }
    }
}

impl StdioServer {
    /// Spawns `program args...` with piped stdin/stdout (stderr inherited).
    pub fn spawn(
        program: &str,
        args: &[String],
        max_message: usize,
        timeout: Duration,
    ) -> Result<Self, TransportError> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(TransportError::Connect)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(TransportError::Closed);
        };
        let (tx, lines) = sync_channel(QUEUED_LINES);
        let reader = BufReader::with_capacity(64 * 1024, stdout);
        std::thread::spawn(move || read_lines(reader, max_message, tx));
        Ok(StdioServer {
            child,
            stdin,
            lines,
            timeout,
        })
    }
}

impl Transport for StdioServer {
    fn exchange(
        &mut self,
        body: &[u8],
        on_message: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Result<LegInfo, TransportError> {
        self.stdin
            .write_all(body)
            .and_then(|()| self.stdin.write_all(b"\n"))
            .and_then(|()| self.stdin.flush())
            .map_err(TransportError::Io)?;
        let deadline = Instant::now() + self.timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(Ok(line)) => {
                    if on_message(&line) {
                        return Ok(LegInfo::default());
                    }
                }
                Ok(Err(e)) => return Err(e),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(TransportError::Timeout {
                        ms: self.timeout.as_millis(),
                    })
                }
                Err(RecvTimeoutError::Disconnected) => return Err(TransportError::Closed),
            }
        }
    }
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        // Our own child, by its handle: a hostile server may never exit.
        // Killing it also ends the reader thread (EOF on the pipe).
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
