//! `--replay-store`: one-shot `requestState` across instances that share a
//! Redis-protocol store, and fail closed when the store cannot be reached.
//!
//! The store tests run a real `redis-server` (Debian's package; the fleet
//! stage installs it) on a free loopback port. Without one on PATH they say
//! so and pass, unless `MRTR_REQUIRE_REDIS=1` (set by tests/load/run.sh),
//! which makes a missing server a failure.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;
use mrtr_demo_server::replay_store::{ReplayStore, Spend, STORE_CLOCK_MARGIN_SECONDS};
use mrtr_demo_server::REPLAY_STORE_DOWN_MESSAGE;
use serde_json::{json, Value};

fn wi_args() -> Value {
    json!({"workItemId": 4522, "fields": {"System.State": "Resolved"}})
}

const DONE: &str = "Bug #4522 resolved as Duplicate of Bug #4301. State set to Resolved and duplicate link created.";

/// The last round of `update_work_item` carrying `state`.
fn last_round(id: i64, state: &str) -> Vec<u8> {
    tool_call(
        id,
        "update_work_item",
        &wi_args(),
        json!({
            "inputResponses": {"duplicate_of": accept(json!({"duplicateOfId": 4301}))},
            "requestState": state,
        }),
        &all_caps(),
    )
}

fn spent_token() -> String {
    token(
        "tools/call",
        "update_work_item",
        Some(&wi_args()),
        r#"{"t":"update_work_item","resolution":"Duplicate"}"#,
    )
}

fn store_down(id: i64) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32603,"message":"{REPLAY_STORE_DOWN_MESSAGE}"}}}}"#
    )
}

/// A loopback port nothing listens on (bound, then released).
fn closed_port() -> SocketAddr {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let a = l.local_addr().unwrap();
    drop(l);
    a
}

fn instance(store: SocketAddr) -> Harness {
    harness_with(|d| d.with_replay_store(ReplayStore::new(store, NAME)))
}

#[test]
fn a_replay_store_that_cannot_be_reached_fails_closed() {
    let h = instance(closed_port());
    // A round that carries no token needs no store.
    let first = tool_call(1, "update_work_item", &wi_args(), json!({}), &all_caps());
    assert_eq!(
        parsed(&h.send(&first))["result"]["resultType"],
        "input_required"
    );
    // A round that carries one is refused, every time: never accepted
    // unchecked.
    let token = spent_token();
    let r = h.send(&last_round(2, &token));
    assert_eq!(text(&r), store_down(2));
    assert_eq!(r.error, Some(-32603));
    assert_eq!(text(&h.send(&last_round(3, &token))), store_down(3));
}

/// A `redis-server` on a free loopback port, ended on drop.
struct Redis {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn redis() -> Option<Redis> {
    let bin = std::env::var("MRTR_REDIS_SERVER").unwrap_or_else(|_| "redis-server".into());
    let addr = closed_port();
    let spawned = Command::new(&bin)
        .args(["--bind", "127.0.0.1", "--port"])
        .arg(addr.port().to_string())
        .args([
            "--save",
            "",
            "--appendonly",
            "no",
            "--protected-mode",
            "yes",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let child = match spawned {
        Ok(c) => c,
        Err(e) => {
            assert!(
                std::env::var("MRTR_REQUIRE_REDIS").as_deref() != Ok("1"),
                "MRTR_REQUIRE_REDIS=1 but {bin} cannot start: {e}"
            );
            eprintln!("skipped: {bin} cannot start ({e}); install redis-server to run this test");
            return None;
        }
    };
    let r = Redis { child, addr };
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if let Ok(reply) = raw(addr, &["PING"]) {
            if reply == "+PONG" {
                return Some(r);
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("redis-server on {addr} did not answer PING within 10 s");
}

/// One command, one reply line (for the test's own look at the store).
fn raw(addr: SocketAddr, parts: &[&str]) -> std::io::Result<String> {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(1))?;
    s.set_read_timeout(Some(Duration::from_secs(2)))?;
    let mut cmd = format!("*{}\r\n", parts.len());
    for p in parts {
        cmd.push_str(&format!("${}\r\n{p}\r\n", p.len()));
    }
    s.write_all(cmd.as_bytes())?;
    let mut line = String::new();
    BufReader::new(s).read_line(&mut line)?;
    Ok(line.trim_end().to_string())
}

#[test]
fn a_token_spent_on_one_instance_is_refused_by_every_instance_sharing_the_store() {
    let Some(redis) = redis() else { return };
    // Two instances: same key ring and audience, one store.
    let a = instance(redis.addr);
    let b = instance(redis.addr);
    let token = spent_token();
    assert_eq!(result_text(&b.send(&last_round(1, &token))), DONE);
    assert_eq!(text(&a.send(&last_round(2, &token))), invalid_state(2));
    assert_eq!(text(&b.send(&last_round(3, &token))), invalid_state(3));
    // Another token (another state) is its own: accepted once.
    let other = token_at(
        NOW + 1,
        "tools/call",
        "update_work_item",
        Some(&wi_args()),
        None,
        r#"{"t":"update_work_item","resolution":"Duplicate"}"#,
    );
    a.set_now(NOW + 1);
    b.set_now(NOW + 1);
    assert_eq!(result_text(&a.send(&last_round(4, &other))), DONE);
    assert_eq!(text(&b.send(&last_round(5, &other))), invalid_state(5));
}

#[test]
fn a_spent_token_id_expires_in_the_store_with_the_token() {
    let Some(redis) = redis() else { return };
    let store = ReplayStore::new(redis.addr, NAME);
    let id = [7u8; 16];
    let expires_at = NOW + 660;
    assert_eq!(store.spend(&id, expires_at), Ok(Spend::Fresh));
    assert_eq!(store.spend(&id, expires_at), Ok(Spend::Replayed));
    // The key lives through the token's last accepted second, plus the
    // clock margin, and not longer.
    assert_eq!(
        raw(redis.addr, &["EXPIRETIME", &store.key(&id)]).unwrap(),
        format!(":{}", expires_at + 1 + STORE_CLOCK_MARGIN_SECONDS)
    );
    // A token whose last second has passed on the store's clock leaves no
    // key behind (EXAT in the past deletes at once).
    let gone = [8u8; 16];
    assert_eq!(store.spend(&gone, 1_000_000_000), Ok(Spend::Fresh));
    assert_eq!(
        raw(redis.addr, &["EXISTS", &store.key(&gone)]).unwrap(),
        ":0"
    );
}

#[test]
fn a_replay_store_that_goes_away_fails_closed_and_recovers_when_it_is_back() {
    let Some(redis) = redis() else { return };
    let h = instance(redis.addr);
    let token = spent_token();
    let addr = redis.addr;
    drop(redis);
    // The pooled connection (none yet) and a fresh one both fail.
    assert_eq!(text(&h.send(&last_round(1, &token))), store_down(1));
    // A new store on the same port: the token was never spent, so it is
    // accepted now, once.
    let bin = std::env::var("MRTR_REDIS_SERVER").unwrap_or_else(|_| "redis-server".into());
    let child = Command::new(&bin)
        .args(["--bind", "127.0.0.1", "--port"])
        .arg(addr.port().to_string())
        .args(["--save", "", "--appendonly", "no"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let again = Redis { child, addr };
    let deadline = Instant::now() + Duration::from_secs(10);
    while raw(again.addr, &["PING"]).map_or(true, |r| r != "+PONG") {
        assert!(Instant::now() < deadline, "redis did not come back");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(result_text(&h.send(&last_round(2, &token))), DONE);
    assert_eq!(text(&h.send(&last_round(3, &token))), invalid_state(3));
    // The store restarts empty (no persistence here): its pooled
    // connection is now stale, and the next round reconnects.
    drop(again);
    assert_eq!(text(&h.send(&last_round(4, &token))), store_down(4));
}
