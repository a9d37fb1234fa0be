//! A first program on mrtr-core: one `tools/call` of the demo server's
//! `update_work_item`, the SEP's two-round example, over stdio. Resolving
//! Bug #4522 asks for a resolution ("Duplicate"), then for the original
//! (4301); the second round carries the first answer in `requestState`.
//!
//! ```text
//! cargo run -- SERVER_CMD [ARGS...]    e.g. target/release/mrtr-demo-server
//! ```
//!
//! `run` drives the call; this file is the application's half: a stdio
//! transport (the server is a child process, one JSON-RPC message per line)
//! and an answerer that answers each form from a table. Prints each
//! question, then the result's text, as `examples/newcomer/workitem.c` does.

use std::error::Error;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use mrtr_core::client::run::{run, Answerer, Outcome, Reply, RunConfig, Transport};
use mrtr_core::json;
use mrtr_core::prelude::*;

/// The server's stdin and stdout.
struct StdioLink {
    to_server: ChildStdin,
    from_server: BufReader<ChildStdout>,
}

impl Transport for StdioLink {
    type Error = std::io::Error;

    fn exchange(&mut self, request: Option<&[u8]>, out: &mut [u8]) -> Result<usize, Self::Error> {
        if let Some(request) = request {
            self.to_server.write_all(request)?;
            self.to_server.write_all(b"\n")?;
            self.to_server.flush()?;
        }
        let mut line = Vec::new();
        if self.from_server.read_until(b'\n', &mut line)? == 0 {
            return Err(std::io::Error::other("the server closed stdout"));
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        let dst = out
            .get_mut(..line.len())
            .ok_or_else(|| std::io::Error::other("message larger than the buffer"))?;
        dst.copy_from_slice(&line);
        Ok(line.len())
    }
}

/// The answers, by input key (a real client asks its user).
const ANSWERS: [(&str, &[u8]); 2] = [
    ("resolution", br#"{"resolution":"Duplicate"}"#),
    ("duplicate_of", br#"{"duplicateOfId":4301}"#),
];

struct User;

impl Answerer for User {
    fn answer(&mut self, m: &mut Machine<'_>, index: usize) -> Reply {
        let Some((key, request)) = m.input_at(index) else {
            return Reply::Abort;
        };
        let key = key.to_string();
        if let InputRequest::ElicitForm { message, .. } = request {
            println!("question {key}: {message}");
        }
        let Some(&(_, content)) = ANSWERS.iter().find(|(k, _)| *k == key) else {
            return Reply::Abort;
        };
        println!("answer   {}", String::from_utf8_lossy(content));
        let accept = Answer::Elicit {
            action: ElicitAction::Accept,
            content: Some(content),
        };
        match m.answer_at(index, accept) {
            Ok(()) => Reply::Answered,
            Err(_) => Reply::Abort,
        }
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (program, rest) = args
        .split_first()
        .ok_or("usage: mrtr-newcomer SERVER_CMD [ARGS...]")?;
    let mut server: Child = Command::new(program)
        .args(rest)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let mut transport = StdioLink {
        to_server: server.stdin.take().ok_or("no stdin")?,
        from_server: BufReader::new(server.stdout.take().ok_or("no stdout")?),
    };

    let params = br#"{"name":"update_work_item","arguments":{"workItemId":4522,"fields":{"System.State":"Resolved"}}}"#;
    let config = MachineConfig {
        caps: ClientCapabilities {
            elicitation_form: true,
            ..Default::default()
        },
        ..MachineConfig::call(CallMethod::ToolsCall, params)
    };
    let mut slot = MachineSlot::default();
    let mut workspace = vec![0u8; Machine::workspace_size(&config.limits)];
    let mut m = Machine::init(&mut slot, &mut workspace, &config)?;
    // One buffer for the request written and the message received.
    let mut io = vec![0u8; 2 * config.limits.max_message_bytes()];
    let end = run(
        &mut m,
        &mut transport,
        &mut User,
        &RunConfig::default(),
        &mut io,
    )?;
    if end.outcome != Outcome::Complete {
        return Err(format!("the call ended {:?}", end.outcome).into());
    }
    let message = &io[end.offset..end.offset + end.len];
    let result = m.result(message).ok_or("no result")?;
    // The first content item's text.
    let text = json::parse(result)
        .map_err(|e| format!("result: {e:?}"))?
        .as_object()
        .and_then(|o| o.get("content"))
        .and_then(|c| c.as_array())
        .and_then(|a| a.iter().next())
        .and_then(|item| item.as_object())
        .and_then(|item| item.get("text"))
        .and_then(|t| t.as_str())
        .ok_or("no text in the result")?;
    println!("result   {text}");

    drop(transport); // EOF: the server exits
    server.wait()?;
    Ok(())
}
