//! `mrtr-load-driver`: MRTR flows on the Rust core, for the fleet test and
//! the hostile-peer suite.
//!
//! ```text
//! mrtr-load-driver run --url URL [--flows N] [--concurrency C] [--rate R]
//!     [--report-every K] [--think-ms MS] [--max-resends N] [--bearer TOKEN]
//!     [--timeout-ms MS] [--summary FILE] [--progress FILE] [--answer F=V]...
//!     [--replay-to HOST:PORT,... [--replay-every K]]
//! mrtr-load-driver probe --url URL [--bearer TOKEN]
//! mrtr-load-driver call [--http URL] [--max-rounds N] [--answer F=V]...
//!     (tool NAME ARGS_JSON | prompt NAME ARGS_JSON | resource URI) [-- CMD ARGS...]
//! ```
//! `call` exits like the C client: 0 complete (result on stdout), 2 JSON-RPC
//! error, 3 protocol violation or cap, 4 transport failure.

mod answer;
mod flow;
mod http;
mod load;
mod stdio;
mod transport;

use answer::Policy;
use flow::{End, FlowOpts};
use http::{HttpClient, Url};
use mrtr_core::client::{CallLimits, CallMethod};
use mrtr_core::wire::ClientCapabilities;
use std::process::ExitCode;
use std::time::Duration;

const USAGE: &str = "usage:
  mrtr-load-driver run --url URL [--flows N] [--concurrency C] [--rate FLOWS_PER_S]
      [--report-every K] [--think-ms MS] [--max-resends N] [--bearer TOKEN]
      [--timeout-ms MS] [--summary FILE] [--progress FILE] [--answer FIELD=VALUE]...
      [--replay-to HOST:PORT,... [--replay-every K]]
      (--timeout-ms: deadline of one leg's answer, default 10000;
       --replay-to: after one flow in K (default 1) completes, send its last
       token-carrying leg again, byte for byte, to each of these instances
       directly, and count how many refuse it)
  mrtr-load-driver probe --url URL [--bearer TOKEN]
  mrtr-load-driver call [--http URL] [--max-rounds N] [--answer FIELD=VALUE]...
      (tool NAME ARGS_JSON | prompt NAME ARGS_JSON | resource URI) [-- SERVER_CMD ARGS...]";

fn fail(msg: &str) -> ExitCode {
    eprintln!("mrtr-load-driver: {msg}\n{USAGE}");
    ExitCode::from(64)
}

fn caps() -> ClientCapabilities {
    ClientCapabilities {
        elicitation_form: true,
        roots: true,
        ..ClientCapabilities::default()
    }
}

struct Common {
    url: Option<String>,
    bearer: Option<String>,
    timeout: Duration,
    policy: Policy,
    limits: CallLimits,
    max_resends: u32,
    think: Duration,
}

fn parse_num<T: std::str::FromStr>(flag: &str, v: Option<String>) -> Result<T, String> {
    v.as_deref()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("{flag} needs a number"))
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        return fail("no command");
    }
    let cmd = args.remove(0);
    let server_cmd = match args.iter().position(|a| a == "--") {
        Some(i) => {
            let rest = args.split_off(i);
            rest[1..].to_vec()
        }
        None => Vec::new(),
    };
    let mut common = Common {
        url: None,
        bearer: None,
        timeout: Duration::from_secs(10),
        policy: Policy {
            prefer_option: Some("Duplicate".into()),
            overrides: Vec::new(),
        },
        limits: CallLimits::default(),
        max_resends: 8,
        think: Duration::ZERO,
    };
    let mut flows = 300usize;
    let mut concurrency = 8usize;
    let mut rate = 0.0f64;
    let mut report_every = 3usize;
    let mut summary_file = None;
    let mut progress = None;
    let mut replay_to: Vec<String> = Vec::new();
    let mut replay_every = 1usize;
    let mut positional = Vec::new();
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        let r: Result<(), String> = (|| {
            match a.as_str() {
                "--url" | "--http" => common.url = it.next(),
                "--bearer" => common.bearer = it.next(),
                "--timeout-ms" => common.timeout = Duration::from_millis(parse_num(&a, it.next())?),
                "--max-rounds" => common.limits.max_rounds = parse_num(&a, it.next())?,
                "--max-resends" => common.max_resends = parse_num(&a, it.next())?,
                "--think-ms" => common.think = Duration::from_millis(parse_num(&a, it.next())?),
                "--flows" => flows = parse_num(&a, it.next())?,
                "--concurrency" => concurrency = parse_num(&a, it.next())?,
                "--rate" => rate = parse_num(&a, it.next())?,
                "--report-every" => report_every = parse_num(&a, it.next())?,
                "--summary" => summary_file = it.next(),
                "--progress" => progress = it.next(),
                "--replay-to" => {
                    let v = it.next().ok_or("--replay-to needs HOST:PORT,...")?;
                    replay_to = v.split(',').map(|a| format!("http://{a}/mcp")).collect();
                }
                "--replay-every" => replay_every = parse_num(&a, it.next())?,
                "--answer" => {
                    let v = it.next().ok_or("--answer needs FIELD=VALUE")?;
                    let (k, val) = v.split_once('=').ok_or("--answer needs FIELD=VALUE")?;
                    common
                        .policy
                        .overrides
                        .push((k.to_string(), val.to_string()));
                }
                s if s.starts_with("--") => return Err(format!("unknown option {s}")),
                _ => positional.push(a.clone()),
            }
            Ok(())
        })();
        if let Err(e) = r {
            return fail(&e);
        }
    }
    match cmd.as_str() {
        "run" => {
            let Some(url) = common.url.as_deref() else {
                return fail("run needs --url");
            };
            let url = match Url::parse(url) {
                Ok(u) => u,
                Err(e) => return fail(&e),
            };
            let opts = load::LoadOpts {
                url,
                flows,
                concurrency,
                rate,
                report_every,
                bearer: common.bearer.clone(),
                timeout: common.timeout,
                flow: FlowOpts {
                    limits: common.limits,
                    caps: caps(),
                    policy: common.policy.clone(),
                    max_resends: common.max_resends,
                    resend_backoff: Duration::from_millis(20),
                    think: common.think,
                    epoch: std::time::Instant::now(),
                },
                progress,
                replay_every: if replay_to.is_empty() {
                    0
                } else {
                    replay_every
                },
                replay_to: match replay_to.iter().map(|u| Url::parse(u)).collect() {
                    Ok(v) => v,
                    Err(e) => return fail(&e),
                },
            };
            let s = load::run(&opts);
            print!("{}", s.text);
            if let Some(f) = summary_file {
                if let Err(e) = std::fs::write(&f, &s.kv) {
                    eprintln!("mrtr-load-driver: cannot write {f}: {e}");
                    return ExitCode::from(1);
                }
            }
            if s.ok {
                ExitCode::SUCCESS
            } else {
                eprintln!(
                    "mrtr-load-driver: FAILED: lost flows or rejected requestState (see above)"
                );
                ExitCode::from(1)
            }
        }
        "probe" => probe(&common),
        "call" => call(&common, &positional, &server_cmd),
        other => fail(&format!("unknown command {other}")),
    }
}

/// Whether an instance answers a first leg: exit 0 when it returns any
/// JSON-RPC answer to it.
fn probe(common: &Common) -> ExitCode {
    let Some(url) = common.url.as_deref().map(Url::parse) else {
        return fail("probe needs --url");
    };
    let url = match url {
        Ok(u) => u,
        Err(e) => return fail(&e),
    };
    let mut client = HttpClient::new(
        url,
        common.bearer.clone(),
        Duration::from_secs(2),
        common.limits.wire.json.max_bytes,
    );
    use transport::Transport;
    let body = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}},"name":"update_work_item","arguments":{"workItemId":1,"fields":{"System.State":"Resolved"}}}}"#;
    match client.exchange(body, &mut |_| true) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("probe: {e}");
            ExitCode::from(4)
        }
    }
}

fn call(common: &Common, positional: &[String], server_cmd: &[String]) -> ExitCode {
    let (method, params) = match positional {
        [kind, name, args] if kind == "tool" || kind == "prompt" => {
            let m = if kind == "tool" {
                CallMethod::ToolsCall
            } else {
                CallMethod::PromptsGet
            };
            let name_json = json_string(name);
            (m, format!(r#"{{"name":{name_json},"arguments":{args}}}"#))
        }
        [kind, uri] if kind == "resource" => (
            CallMethod::ResourcesRead,
            format!(r#"{{"uri":{}}}"#, json_string(uri)),
        ),
        _ => return fail("call needs: tool NAME ARGS_JSON | prompt NAME ARGS_JSON | resource URI"),
    };
    let max_message = common.limits.wire.json.max_bytes;
    let mut transport: Box<dyn transport::Transport> = match (&common.url, server_cmd) {
        (Some(url), []) => match Url::parse(url) {
            Ok(u) => Box::new(HttpClient::new(
                u,
                common.bearer.clone(),
                common.timeout,
                max_message,
            )),
            Err(e) => return fail(&e),
        },
        (None, [prog, rest @ ..]) => {
            match stdio::StdioServer::spawn(prog, rest, max_message, common.timeout) {
                Ok(s) => Box::new(s),
                Err(e) => {
                    eprintln!("mrtr-load-driver: error: cannot start the server: {e}");
                    return ExitCode::from(4);
                }
            }
        }
        _ => return fail("call needs exactly one of --http URL or -- SERVER_CMD"),
    };
    let opts = FlowOpts {
        limits: common.limits,
        caps: caps(),
        policy: common.policy.clone(),
        // One server, one connection: a resend would meet the same peer.
        max_resends: 0,
        resend_backoff: Duration::ZERO,
        think: Duration::ZERO,
        epoch: std::time::Instant::now(),
    };
    let mut id = 0i64;
    let mut next_id = || {
        id += 1;
        id
    };
    let r = flow::run_flow(
        method,
        params.as_bytes(),
        &opts,
        1,
        transport.as_mut(),
        &mut next_id,
    );
    drop(transport);
    match r.end {
        End::Complete(result) => {
            println!("{}", String::from_utf8_lossy(&result));
            ExitCode::SUCCESS
        }
        End::RpcError { code, message } => {
            eprintln!("mrtr-load-driver: error: server answered JSON-RPC error {code}: {message}");
            ExitCode::from(2)
        }
        End::Violation(why) | End::Answer(why) => {
            eprintln!("mrtr-load-driver: error: {why}");
            ExitCode::from(3)
        }
        End::Transport(why) => {
            eprintln!("mrtr-load-driver: error: transport: {why}");
            ExitCode::from(4)
        }
    }
}

/// `s` as a JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
