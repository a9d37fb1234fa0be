//! Command line and `MRTR_KEYS`.

use std::fmt;
use std::net::SocketAddr;

use mrtr_core::seal::{MAX_KEYS, MIN_KEY_BYTES};

/// Default server name, which is also the `requestState` audience.
pub const DEFAULT_NAME: &str = "mrtr-demo-server";

/// The usage text of `--help`.
pub const USAGE: &str = "\
usage: mrtr-demo-server [--http ADDR] [--audience NAME] [--log] [--workers N]
                       [--replay-cache N | --replay-store ADDR] [--seed-tasks]

  (no --http)      serve newline-delimited JSON-RPC on stdin/stdout
  --http ADDR      serve Streamable HTTP on ADDR (e.g. 127.0.0.1:8080), POST /mcp
  --audience NAME  server name and requestState audience (default mrtr-demo-server)
  --log            one readable line per request on stderr
  --workers N      HTTP worker threads (default 4, at most 64)
  --replay-cache N one-shot requestState: refuse a token seen before, keeping
                   up to N live token ids (1 to 1000000; when full of live
                   ids, new tokens are refused: fail closed)
  --replay-store ADDR
                   one-shot requestState across a fleet: spent token ids go
                   to the Redis/Valkey at ADDR (e.g. 127.0.0.1:6379), shared
                   by every instance; when it cannot be reached, rounds that
                   carry a token are refused (-32603): fail closed
  --seed-tasks     also serve the seed task dialect (long_export with
                   params.task; tasks/result, tasks/input_response) to
                   requests that do not declare the Tasks extension

environment:
  MRTR_KEYS        requestState keys, hex, comma separated, each >= 32 bytes;
                   the first seals, all unseal. Unset: a random per-process key.
";

/// Most HTTP worker threads.
pub const MAX_WORKERS: usize = 64;
/// Default HTTP worker threads.
pub const DEFAULT_WORKERS: usize = 4;

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Serve HTTP on this address; `None`: stdio.
    pub http: Option<SocketAddr>,
    /// Server name and audience.
    pub audience: String,
    /// Per-request trace on stderr.
    pub log: bool,
    /// HTTP worker threads.
    pub workers: usize,
    /// `--help` was given.
    pub help: bool,
    /// `--replay-cache N`: refuse a `requestState` token presented twice,
    /// remembering up to N live tokens; `None`: tokens may be replayed
    /// within their lifetime.
    pub replay_cache: Option<usize>,
    /// `--replay-store ADDR`: refuse a `requestState` token presented twice
    /// to any instance sharing the Redis-protocol store at ADDR.
    pub replay_store: Option<SocketAddr>,
    /// `--seed-tasks`: serve the seed task dialect too.
    pub seed_tasks: bool,
}

/// Most entries `--replay-cache` accepts.
pub const MAX_REPLAY_CACHE: usize = 1_000_000;

/// A startup error: the process prints it and exits with status 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

fn err<T>(msg: impl Into<String>) -> Result<T, ConfigError> {
    Err(ConfigError(msg.into()))
}

/// Parses the arguments (without the program name).
pub fn parse_args<I: IntoIterator<Item = String>>(args: I) -> Result<Options, ConfigError> {
    let mut opts = Options {
        http: None,
        audience: DEFAULT_NAME.to_string(),
        log: false,
        workers: DEFAULT_WORKERS,
        help: false,
        replay_cache: None,
        replay_store: None,
        seed_tasks: false,
    };
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .ok_or_else(|| ConfigError(format!("{name} needs a value")))
        };
        match arg.as_str() {
            "--http" => {
                let v = value("--http")?;
                opts.http = Some(
                    v.parse()
                        .map_err(|_| ConfigError(format!("--http: not an address: {v:?}")))?,
                );
            }
            "--audience" => {
                let v = value("--audience")?;
                if v.is_empty() || v.len() > mrtr_core::seal::MAX_AUDIENCE_BYTES {
                    return err("--audience: 1 to 256 bytes");
                }
                opts.audience = v;
            }
            "--workers" => {
                let v = value("--workers")?;
                match v.parse::<usize>() {
                    Ok(n) if (1..=MAX_WORKERS).contains(&n) => opts.workers = n,
                    _ => return err(format!("--workers: 1 to {MAX_WORKERS}")),
                }
            }
            "--replay-cache" => {
                let v = value("--replay-cache")?;
                match v.parse::<usize>() {
                    Ok(n) if (1..=MAX_REPLAY_CACHE).contains(&n) => opts.replay_cache = Some(n),
                    _ => return err(format!("--replay-cache: 1 to {MAX_REPLAY_CACHE}")),
                }
            }
            "--replay-store" => {
                let v = value("--replay-store")?;
                opts.replay_store =
                    Some(v.parse().map_err(|_| {
                        ConfigError(format!("--replay-store: not an address: {v:?}"))
                    })?);
            }
            "--log" => opts.log = true,
            "--seed-tasks" => opts.seed_tasks = true,
            "-h" | "--help" => opts.help = true,
            other => return err(format!("unknown argument {other:?} (see --help)")),
        }
    }
    if opts.replay_cache.is_some() && opts.replay_store.is_some() {
        return err("--replay-cache and --replay-store: choose one");
    }
    Ok(opts)
}

/// Parses `MRTR_KEYS`: hex keys separated by commas (spaces around them
/// allowed), each at least [`MIN_KEY_BYTES`] bytes, at most [`MAX_KEYS`].
pub fn parse_keys(value: &str) -> Result<Vec<Vec<u8>>, ConfigError> {
    let parts: Vec<&str> = value.split(',').map(str::trim).collect();
    if parts.len() > MAX_KEYS {
        return err(format!("MRTR_KEYS: at most {MAX_KEYS} keys"));
    }
    let mut keys = Vec::with_capacity(parts.len());
    for (i, part) in parts.iter().enumerate() {
        let key = decode_hex(part)
            .ok_or_else(|| ConfigError(format!("MRTR_KEYS: key {i} is not hex")))?;
        if key.len() < MIN_KEY_BYTES {
            return err(format!(
                "MRTR_KEYS: key {i} has {} bytes, at least {MIN_KEY_BYTES} needed",
                key.len()
            ));
        }
        keys.push(key);
    }
    Ok(keys)
}

/// Decodes an even-length hex string (either case).
pub fn decode_hex(s: &str) -> Option<Vec<u8>> {
    let digits = s.as_bytes();
    if digits.is_empty() || !digits.len().is_multiple_of(2) {
        return None;
    }
    let nibble = |c: u8| (c as char).to_digit(16).and_then(|d| u8::try_from(d).ok());
    digits
        .chunks_exact(2)
        .map(|pair| match pair {
            [hi, lo] => Some(nibble(*hi)? << 4 | nibble(*lo)?),
            _ => None,
        })
        .collect()
}

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_parse_and_fail_precisely() {
        let k = "ab".repeat(32);
        let keys = parse_keys(&format!("{k}, {}", "CD".repeat(40))).unwrap();
        assert_eq!(keys.len(), 2);
        assert_eq!(keys[0], vec![0xab; 32]);
        assert_eq!(keys[1], vec![0xcd; 40]);
        assert_eq!(
            parse_keys(&"ab".repeat(31)).unwrap_err().0,
            "MRTR_KEYS: key 0 has 31 bytes, at least 32 needed"
        );
        assert_eq!(
            parse_keys(&format!("{k},zz")).unwrap_err().0,
            "MRTR_KEYS: key 1 is not hex"
        );
        assert_eq!(parse_keys("").unwrap_err().0, "MRTR_KEYS: key 0 is not hex");
        assert_eq!(
            parse_keys("abc").unwrap_err().0,
            "MRTR_KEYS: key 0 is not hex"
        );
        let nine = vec![k.clone(); 9].join(",");
        assert_eq!(
            parse_keys(&nine).unwrap_err().0,
            "MRTR_KEYS: at most 8 keys"
        );
    }

    #[test]
    fn args_parse() {
        let o = parse_args(
            ["--http", "127.0.0.1:8080", "--log", "--audience", "fleet"].map(String::from),
        )
        .unwrap();
        assert_eq!(o.http, Some("127.0.0.1:8080".parse().unwrap()));
        assert!(o.log);
        assert!(!o.seed_tasks);
        assert_eq!(o.audience, "fleet");
        assert!(parse_args(["--seed-tasks".to_string()]).unwrap().seed_tasks);
        assert_eq!(
            parse_args(["--http".to_string()]).unwrap_err().0,
            "--http needs a value"
        );
        assert_eq!(
            parse_args(["--bogus".to_string()]).unwrap_err().0,
            "unknown argument \"--bogus\" (see --help)"
        );
    }
    #[test]
    fn replay_store_takes_an_address_and_excludes_the_replay_cache() {
        let parse = |a: &[&str]| parse_args(a.iter().map(|s| s.to_string()));
        assert_eq!(
            parse(&["--replay-store", "127.0.0.1:6379"])
                .unwrap()
                .replay_store,
            Some("127.0.0.1:6379".parse().unwrap())
        );
        assert_eq!(
            parse(&["--replay-store", "localhost"]).unwrap_err().0,
            "--replay-store: not an address: \"localhost\""
        );
        assert_eq!(
            parse(&["--replay-store", "127.0.0.1:6379", "--replay-cache", "10"])
                .unwrap_err()
                .0,
            "--replay-cache and --replay-store: choose one"
        );
    }

    #[test]
    fn replay_cache_takes_1_to_a_million() {
        let parse = |v: &str| parse_args(["--replay-cache", v].map(String::from));
        assert_eq!(parse("1").unwrap().replay_cache, Some(1));
        assert_eq!(parse("1000000").unwrap().replay_cache, Some(1_000_000));
        assert_eq!(parse_args(Vec::<String>::new()).unwrap().replay_cache, None);
        for bad in ["0", "1000001", "-1", "x", "18446744073709551616"] {
            assert_eq!(
                parse(bad).unwrap_err().0,
                "--replay-cache: 1 to 1000000",
                "{bad}"
            );
        }
    }
}
