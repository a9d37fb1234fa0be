//! `--replay-store ADDR`: one-shot `requestState` across a fleet, with the
//! ids of spent tokens in a shared Redis (or Valkey) that every instance
//! asks.
//!
//! One command per token: `SET <prefix><token id> 1 NX EXAT <second>`, the
//! key set only if absent and dropped by the store itself when the token can
//! no longer be accepted anywhere. `+OK` means the token is spent now, by
//! this request; a null reply means another request (on any instance) spent
//! it first. Anything else — no connection, a timeout, an error reply, a
//! reply that is not RESP — is [`StoreError`], and the server refuses the
//! round (fail closed): a store it cannot ask never lets a token through
//! twice.
//!
//! The client is the few dozen lines of RESP2 this needs over
//! `std::net::TcpStream` (array of bulk strings out, one simple-string, null
//! bulk or error line back), with a small pool of open connections so a
//! round costs one loopback round trip, not a connect.

use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Mutex;
use std::time::Duration;

use mrtr_core::seal::TOKEN_ID_BYTES;

/// Seconds a spent id is kept past the token's last accepted second: room
/// for the store's clock to run ahead of the servers' (EXAT is read on the
/// store's clock). See docs/FLEET.md, "Clocks and skew".
pub const STORE_CLOCK_MARGIN_SECONDS: u64 = 60;

/// Longest wait for a connect, a write or a reply.
pub const STORE_TIMEOUT: Duration = Duration::from_millis(500);

/// Most idle connections kept open.
const POOL_MAX: usize = 64;

/// Longest reply line read (the replies this client expects are a few
/// bytes; an error line is short text).
const MAX_REPLY_LINE: usize = 1024;

/// What the store said about a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spend {
    /// Not seen before: recorded now, this request may use it.
    Fresh,
    /// Already recorded by some instance: a replay.
    Replayed,
}

/// The store could not be asked or did not answer as expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError(pub String);

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StoreError {}

/// A Redis-protocol replay store at one address.
#[derive(Debug)]
pub struct ReplayStore {
    addr: SocketAddr,
    prefix: String,
    idle: Mutex<Vec<BufReader<TcpStream>>>,
}

impl ReplayStore {
    /// A store at `addr` keying ids under `mrtr:replay:<audience>:`. Does not
    /// connect yet: the first token does (so an instance starts while the
    /// store is down, and refuses rounds until it is back).
    pub fn new(addr: SocketAddr, audience: &str) -> ReplayStore {
        ReplayStore {
            addr,
            prefix: format!("mrtr:replay:{audience}:"),
            idle: Mutex::new(Vec::new()),
        }
    }

    /// The store's address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The key of a token id.
    pub fn key(&self, id: &[u8; TOKEN_ID_BYTES]) -> String {
        format!("{}{}", self.prefix, crate::config::hex(id))
    }

    /// Spends the token `id`, accepted through unix second `expires_at`:
    /// [`Spend::Fresh`] exactly once per id over every instance sharing the
    /// store while the key lives.
    pub fn spend(&self, id: &[u8; TOKEN_ID_BYTES], expires_at: u64) -> Result<Spend, StoreError> {
        let until = expires_at
            .saturating_add(1)
            .saturating_add(STORE_CLOCK_MARGIN_SECONDS)
            .to_string();
        let cmd = command(&[
            b"SET",
            self.key(id).as_bytes(),
            b"1",
            b"NX",
            b"EXAT",
            until.as_bytes(),
        ]);
        // A pooled connection may have been closed by the store since (a
        // restart, an idle timeout): then one fresh connection is tried.
        // Both fail closed: if the SET ran and its reply was lost, the
        // second try finds the key and refuses the token.
        let pooled = self.idle.lock().ok().and_then(|mut v| v.pop());
        let (mut conn, reused) = match pooled {
            Some(c) => (c, true),
            None => (self.connect()?, false),
        };
        let reply = match exchange(&mut conn, &cmd) {
            Err(_) if reused => {
                conn = self.connect()?;
                exchange(&mut conn, &cmd)
            }
            r => r,
        }
        .map_err(|e| StoreError(format!("replay store {}: {e}", self.addr)))?;
        let spend = match reply {
            Reply::Simple(s) if s == "OK" => Spend::Fresh,
            Reply::Null => Spend::Replayed,
            Reply::Simple(s) => {
                return Err(StoreError(format!(
                    "replay store {}: unexpected reply +{s}",
                    self.addr
                )))
            }
            Reply::Error(e) => {
                // The connection is still in step: keep it.
                self.put_back(conn);
                return Err(StoreError(format!("replay store {}: -{e}", self.addr)));
            }
        };
        self.put_back(conn);
        Ok(spend)
    }

    fn connect(&self) -> Result<BufReader<TcpStream>, StoreError> {
        let s = TcpStream::connect_timeout(&self.addr, STORE_TIMEOUT)
            .map_err(|e| StoreError(format!("replay store {}: connect: {e}", self.addr)))?;
        let setup = s
            .set_read_timeout(Some(STORE_TIMEOUT))
            .and_then(|()| s.set_write_timeout(Some(STORE_TIMEOUT)))
            .and_then(|()| s.set_nodelay(true));
        setup.map_err(|e| StoreError(format!("replay store {}: {e}", self.addr)))?;
        Ok(BufReader::new(s))
    }

    fn put_back(&self, conn: BufReader<TcpStream>) {
        if let Ok(mut idle) = self.idle.lock() {
            if idle.len() < POOL_MAX {
                idle.push(conn);
            }
        }
    }
}

/// One RESP reply of the kinds `SET ... NX` gives.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Reply {
    /// `+text`
    Simple(String),
    /// `$-1` (RESP2) or `_` (RESP3): the key existed.
    Null,
    /// `-text`
    Error(String),
}

/// A RESP array of bulk strings.
fn command(parts: &[&[u8]]) -> Vec<u8> {
    let mut out = format!("*{}\r\n", parts.len()).into_bytes();
    for p in parts {
        out.extend_from_slice(format!("${}\r\n", p.len()).as_bytes());
        out.extend_from_slice(p);
        out.extend_from_slice(b"\r\n");
    }
    out
}

/// Sends `cmd` and reads one reply line.
fn exchange(conn: &mut BufReader<TcpStream>, cmd: &[u8]) -> io::Result<Reply> {
    conn.get_mut().write_all(cmd)?;
    let mut line = Vec::new();
    let n = conn
        .by_ref()
        .take(MAX_REPLY_LINE as u64)
        .read_until(b'\n', &mut line)?;
    if n == 0 {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "connection closed",
        ));
    }
    parse_reply(&line)
}

fn parse_reply(line: &[u8]) -> io::Result<Reply> {
    let bad = |why: &str| io::Error::new(io::ErrorKind::InvalidData, why.to_string());
    let body = line
        .strip_suffix(b"\r\n")
        .ok_or_else(|| bad("reply line not ended by CRLF"))?;
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    match body.split_first() {
        Some((b'+', rest)) => Ok(Reply::Simple(text(rest))),
        Some((b'-', rest)) => Ok(Reply::Error(text(rest))),
        Some((b'$', b"-1")) | Some((b'_', b"")) => Ok(Reply::Null),
        _ => Err(bad("not a reply SET NX gives")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_nx_exat_command_is_an_array_of_bulk_strings() {
        assert_eq!(
            command(&[b"SET", b"k", b"1", b"NX", b"EXAT", b"1800000061"]),
            b"*6\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\n1\r\n$2\r\nNX\r\n$4\r\nEXAT\r\n$10\r\n1800000061\r\n"
                .to_vec()
        );
    }

    #[test]
    fn replies_ok_null_and_error_are_told_apart_and_anything_else_is_refused() {
        assert_eq!(parse_reply(b"+OK\r\n").unwrap(), Reply::Simple("OK".into()));
        assert_eq!(parse_reply(b"$-1\r\n").unwrap(), Reply::Null);
        assert_eq!(parse_reply(b"_\r\n").unwrap(), Reply::Null);
        assert_eq!(
            parse_reply(b"-READONLY You can't write against a read only replica.\r\n").unwrap(),
            Reply::Error("READONLY You can't write against a read only replica.".into())
        );
        assert!(parse_reply(b"+OK").is_err());
        assert!(parse_reply(b"$1\r\n").is_err());
        assert!(parse_reply(b":1\r\n").is_err());
    }

    #[test]
    fn keys_name_the_audience_and_the_token_id_in_hex() {
        let s = ReplayStore::new("127.0.0.1:9".parse().unwrap(), "svc");
        assert_eq!(
            s.key(&[0xab; TOKEN_ID_BYTES]),
            "mrtr:replay:svc:abababababababababababababababab"
        );
    }
}
