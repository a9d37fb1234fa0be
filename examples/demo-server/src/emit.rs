//! Owned output over the core's caller-buffer writers.
//!
//! Every core writer reports the exact size it needs when the buffer is too
//! small; here the buffer is a `Vec` grown to that size and the write run
//! again (at most twice in practice: a first guess, then the exact size).

use mrtr_core::json::{BufferTooSmall, Writer};
use mrtr_core::server::{BuildError, CompleteError, TaskWriteError};

/// First guess for an output buffer; most demo messages fit.
const FIRST_GUESS_BYTES: usize = 2048;

/// An error that may say "the buffer was too small, this much is needed".
pub trait NeedsMore {
    /// The exact size needed, when that is the error.
    fn needed(&self) -> Option<usize>;
}

impl NeedsMore for BufferTooSmall {
    fn needed(&self) -> Option<usize> {
        Some(self.needed)
    }
}

impl NeedsMore for BuildError {
    fn needed(&self) -> Option<usize> {
        match self {
            BuildError::BufferTooSmall { needed } => Some(*needed),
            _ => None,
        }
    }
}

impl NeedsMore for CompleteError {
    fn needed(&self) -> Option<usize> {
        match self {
            CompleteError::BufferTooSmall { needed } => Some(*needed),
            _ => None,
        }
    }
}

impl NeedsMore for TaskWriteError {
    fn needed(&self) -> Option<usize> {
        match self {
            TaskWriteError::BufferTooSmall { needed } => Some(*needed),
            _ => None,
        }
    }
}

/// Runs `write` into a growing buffer until it fits; returns the bytes
/// written, or the writer's error when it is not a size problem.
pub fn grow<E: NeedsMore>(
    mut write: impl FnMut(&mut [u8]) -> Result<usize, E>,
) -> Result<Vec<u8>, E> {
    let mut buf = vec![0u8; FIRST_GUESS_BYTES];
    loop {
        match write(&mut buf) {
            Ok(n) => {
                buf.truncate(n);
                return Ok(buf);
            }
            // Only ever grows, so this ends: a writer that asks for no more
            // than it had is reporting something else.
            Err(e) => match e.needed() {
                Some(n) if n > buf.len() => buf.resize(n, 0),
                _ => return Err(e),
            },
        }
    }
}

/// Builds a JSON text with the core's [`Writer`] (escaping done there).
pub fn json(build: impl Fn(&mut Writer<'_>)) -> Vec<u8> {
    grow(|buf| {
        let mut w = Writer::new(buf);
        build(&mut w);
        w.finish()
    })
    // A plain writer fails only for size, which `grow` handles.
    .unwrap_or_default()
}

/// `{"content":[{"type":"text","text":..}],"isError":..}`: a tool result
/// with one text block.
pub fn text_result(text: &str, is_error: bool) -> Vec<u8> {
    json(|w| {
        w.raw(br#"{"content":[{"type":"text","text":"#)
            .str(text)
            .raw(br#"}],"isError":"#)
            .raw(if is_error { b"true" } else { b"false" })
            .byte(b'}');
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grow_retries_with_the_exact_size() {
        let long = "x".repeat(5000);
        let bytes = json(|w| {
            w.str(&long);
        });
        assert_eq!(bytes.len(), 5002);
        assert_eq!(bytes.first(), Some(&b'"'));
    }

    #[test]
    fn text_result_escapes_the_text() {
        assert_eq!(
            text_result("a \"b\"\n", true),
            br#"{"content":[{"type":"text","text":"a \"b\"\n"}],"isError":true}"#.to_vec()
        );
    }
}
