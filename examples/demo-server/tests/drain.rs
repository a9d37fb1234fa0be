//! The HTTP server drains on SIGTERM: the binary, over a real socket.
#![cfg(unix)]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStderr, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use common::{all_caps, request};
use serde_json::{json, Value};

/// Starts the binary on an ephemeral loopback port; returns it, its
/// address and its stderr (after the `listening on` line).
fn start() -> (Child, String, BufReader<ChildStderr>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mrtr-demo-server"))
        .args(["--http", "127.0.0.1:0"])
        .env(
            "MRTR_KEYS",
            "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        )
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn the demo server");
    let mut err = BufReader::new(child.stderr.take().expect("stderr"));
    let mut line = String::new();
    let addr = loop {
        line.clear();
        assert_ne!(err.read_line(&mut line).expect("stderr"), 0, "exited early");
        if let Some(rest) = line.split("listening on http://").nth(1) {
            break rest.trim().trim_end_matches("/mcp").to_string();
        }
    };
    (child, addr, err)
}

fn signal(child: &Child, sig: &str) {
    let ok = Command::new("kill")
        .args([sig, &child.id().to_string()])
        .status()
        .expect("run kill")
        .success();
    assert!(ok, "kill {sig} failed");
}

/// Waits for the exit (a hang is a failure, not a timing claim).
fn wait_exit(child: &mut Child) -> std::process::ExitStatus {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the server did not exit after the signal");
        }
        sleep(Duration::from_millis(20));
    }
}

fn rest_of(mut err: BufReader<ChildStderr>) -> String {
    let mut s = String::new();
    err.read_to_string(&mut s).expect("stderr");
    s
}

fn head(addr: &str, body_len: usize) -> String {
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: tools/list\r\nConnection: close\r\nContent-Length: {body_len}\r\n\r\n"
    )
}

#[test]
fn a_request_in_flight_at_sigterm_is_answered_then_the_server_exits_0() {
    let (mut child, addr, err) = start();
    // Over tiny_http's 1 KiB read-ahead, so the request reaches a worker
    // (which then reads the body) while half of it is still to come.
    let mut body = request(7, "tools/list", json!({}), &all_caps());
    body.resize(body.len() + 4096, b' ');
    let (first, second) = body.split_at(body.len() / 2);
    let mut conn = TcpStream::connect(&addr).expect("connect");
    conn.write_all(head(&addr, body.len()).as_bytes()).unwrap();
    conn.write_all(first).unwrap();
    conn.flush().unwrap();
    // The headers are in: the server has queued (or is reading) the request.
    sleep(Duration::from_millis(300));
    signal(&child, "-TERM");
    sleep(Duration::from_millis(300));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the server exited with a request half received"
    );
    conn.write_all(second).unwrap();
    let mut response = String::new();
    conn.read_to_string(&mut response).expect("response");
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    let json_body = response.split("\r\n\r\n").nth(1).expect("a body");
    let v: Value = serde_json::from_str(json_body).expect("a JSON body");
    assert_eq!(v["id"], 7);
    assert_eq!(v["result"]["resultType"], "complete");
    assert!(v["result"]["tools"]
        .as_array()
        .is_some_and(|t| !t.is_empty()));
    let status = wait_exit(&mut child);
    assert!(status.success(), "exit status {status}");
    let log = rest_of(err);
    assert!(log.contains("mrtr-demo-server: draining"), "{log}");
    assert!(log.contains("mrtr-demo-server: stopped"), "{log}");
}

#[test]
fn an_idle_server_exits_0_on_sigint() {
    let (mut child, _addr, err) = start();
    signal(&child, "-INT");
    let status = wait_exit(&mut child);
    assert!(status.success(), "exit status {status}");
    let log = rest_of(err);
    assert!(log.contains("draining"), "{log}");
}
