//! stdio: newline-delimited JSON-RPC, one message per line, answers in
//! request order on stdout. The spawning client is the one caller, so there
//! is no principal.

use std::io::{self, BufRead, Write};

use mrtr_core::server::write_parse_error;

use crate::emit;
use crate::http::MAX_BODY_BYTES;
use crate::server::{Caller, Demo};

/// Longest line read, in bytes (the core's message limit). A longer line is
/// skipped to its end and answered with `-32700` (id `null`).
pub const MAX_LINE_BYTES: usize = MAX_BODY_BYTES;

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A complete line without its terminator.
    Message(Vec<u8>),
    /// A line longer than [`MAX_LINE_BYTES`], skipped.
    TooLong,
    /// End of input.
    End,
}

/// Reads one line, never holding more than [`MAX_LINE_BYTES`] of it.
pub fn read_line(input: &mut impl BufRead) -> io::Result<Line> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let (consumed, done) = {
            let buf = input.fill_buf()?;
            if buf.is_empty() {
                // EOF: a last line without a newline still counts.
                return Ok(match (too_long, line.is_empty()) {
                    (true, _) => Line::TooLong,
                    (false, true) => Line::End,
                    (false, false) => Line::Message(line),
                });
            }
            let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (buf.get(..i).unwrap_or(&[]), Some(i + 1)),
                None => (buf, None),
            };
            if !too_long {
                if line.len().saturating_add(chunk.len()) > MAX_LINE_BYTES {
                    too_long = true;
                    line = Vec::new();
                } else {
                    line.extend_from_slice(chunk);
                }
            }
            (done.unwrap_or(buf.len()), done.is_some())
        };
        input.consume(consumed);
        if done {
            if too_long {
                return Ok(Line::TooLong);
            }
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(Line::Message(line));
        }
    }
}

/// Serves `input` until it ends, writing answers to `output`.
pub fn serve(demo: &Demo, input: &mut impl BufRead, output: &mut impl Write) -> io::Result<()> {
    let caller = Caller::default();
    // Open subscriptions/listen streams: their notifications are written
    // after each answer (stdio has one channel; the subscription id tells
    // the streams apart).
    let mut listens: Vec<crate::subscriptions::Listen> = Vec::new();
    loop {
        let answer = match read_line(input)? {
            Line::End => return Ok(()),
            Line::TooLong => {
                eprintln!(
                    "[{}] stdin line longer than {MAX_LINE_BYTES} bytes skipped",
                    demo.name()
                );
                emit::grow(write_parse_error).ok()
            }
            Line::Message(m) if m.iter().all(u8::is_ascii_whitespace) => None,
            Line::Message(m) => demo.handle(&m, &caller, None).map(|r| {
                listens.extend(r.listen);
                r.body
            }),
        };
        if let Some(body) = answer {
            output.write_all(&body)?;
            output.write_all(b"\n")?;
        }
        for l in &listens {
            for n in l.drain() {
                output.write_all(&n)?;
                output.write_all(b"\n")?;
            }
        }
        output.flush()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_and_overlong_lines_are_skipped() {
        let mut big = vec![b'x'; MAX_LINE_BYTES + 1];
        big.extend_from_slice(b"\nok\r\nlast");
        let mut input = io::BufReader::with_capacity(4096, &big[..]);
        assert_eq!(read_line(&mut input).unwrap(), Line::TooLong);
        assert_eq!(
            read_line(&mut input).unwrap(),
            Line::Message(b"ok".to_vec())
        );
        assert_eq!(
            read_line(&mut input).unwrap(),
            Line::Message(b"last".to_vec())
        );
        assert_eq!(read_line(&mut input).unwrap(), Line::End);
    }
}
