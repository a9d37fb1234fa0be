//! The stdio transport: newline-delimited JSON-RPC with a child process.
//!
//! A line is read at most up to the message limit: a longer line fails the
//! leg with [`TransportError::TooLarge`] after `limit + 1` bytes, whatever
//! the peer keeps writing, and the child is killed.

use crate::transport::{LegInfo, Transport, TransportError};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A server spawned as a child process.
pub struct StdioServer {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    max_message: usize,
    line: Vec<u8>,
}

impl StdioServer {
    /// Spawns `program args...` with piped stdin/stdout (stderr inherited).
    pub fn spawn(
        program: &str,
        args: &[String],
        max_message: usize,
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
        Ok(StdioServer {
            child,
            stdin,
            stdout: BufReader::with_capacity(64 * 1024, stdout),
            max_message,
            line: Vec::new(),
        })
    }

    /// Reads the next non-blank line into `self.line`.
    fn next_line(&mut self) -> Result<(), TransportError> {
        loop {
            self.line.clear();
            loop {
                let avail = self.stdout.fill_buf().map_err(TransportError::Io)?;
                if avail.is_empty() {
                    return Err(TransportError::Closed);
                }
                let (take, end) = match avail.iter().position(|&b| b == b'\n') {
                    Some(i) => (i, true),
                    None => (avail.len(), false),
                };
                if self.line.len() + take > self.max_message {
                    return Err(TransportError::TooLarge {
                        limit: self.max_message,
                    });
                }
                self.line.extend_from_slice(&avail[..take]);
                self.stdout.consume(if end { take + 1 } else { take });
                if end {
                    break;
                }
            }
            if self.line.iter().any(|b| !b" \t\r".contains(b)) {
                return Ok(());
            }
        }
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
        loop {
            self.next_line()?;
            let line = std::mem::take(&mut self.line);
            let done = on_message(&line);
            self.line = line;
            if done {
                return Ok(LegInfo::default());
            }
        }
    }
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        // Our own child, by its handle: a hostile server may never exit.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
