//! Loads the shared test vectors (`tests/vectors/<group>/<name>.json`, format in
//! `tests/vectors/README.md`) with mrtr's own JSON reader, so the message bytes
//! are exactly the bytes in the file. Shared by the `vectors_json` test and the
//! `show_vectors` example.

use std::fs;
use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::vec::Vec;

use mrtr_core::json::{self, JsonStr, ParseLimits, MAX_DEPTH_LIMIT};

/// One vector, as far as the JSON layer cares.
pub struct Vector {
    /// `<group>/<name>`, without `.json`.
    pub name: String,
    /// The bytes a runner feeds: the raw `message` text, the decoded
    /// `message_text`, or the decoded `message_base64`.
    pub message: Vec<u8>,
    /// `expect.outcome`.
    pub outcome: String,
    /// `expect.error` when the outcome is `invalid`.
    pub error: Option<String>,
}

impl Vector {
    /// Whether the vector says the bytes are not JSON at all.
    pub fn expects_json_error(&self) -> bool {
        self.error.as_deref() == Some("json")
    }
}

/// The vector directory of this repository.
#[allow(dead_code)]
pub fn default_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors")
}

/// Every vector under `dir`, sorted by name.
pub fn load_all(dir: &Path) -> Result<Vec<Vector>, String> {
    let mut files = Vec::new();
    let groups = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for group in groups {
        let group = group.map_err(|e| e.to_string())?.path();
        if !group.is_dir() {
            continue;
        }
        for file in fs::read_dir(&group).map_err(|e| e.to_string())? {
            let file = file.map_err(|e| e.to_string())?.path();
            if file.extension().is_some_and(|x| x == "json") {
                files.push(file);
            }
        }
    }
    files.sort();
    files
        .iter()
        .map(|path| {
            let name = path
                .strip_prefix(dir)
                .unwrap_or(path)
                .with_extension("")
                .to_string_lossy()
                .replace('\\', "/");
            let bytes = fs::read(path).map_err(|e| format!("{name}: {e}"))?;
            load(name.clone(), &bytes).map_err(|e| format!("{name}: {e}"))
        })
        .collect()
}

fn load(name: String, file: &[u8]) -> Result<Vector, String> {
    // The file wraps the message, so it may nest one level deeper than the
    // message's own limit allows.
    let limits = ParseLimits {
        max_depth: MAX_DEPTH_LIMIT,
        max_bytes: usize::MAX,
    };
    let root = json::parse_with(file, &limits).map_err(|e| format!("vector file: {e}"))?;
    let vector = root.as_object().ok_or("vector file: not an object")?;
    let message = if let Some(m) = vector.get("message") {
        m.raw().to_vec()
    } else if let Some(t) = vector.get("message_text") {
        decode(t.as_str().ok_or("message_text: not a string")?)?.into_bytes()
    } else if let Some(b) = vector.get("message_base64") {
        base64_decode(&decode(b.as_str().ok_or("message_base64: not a string")?)?)?
    } else {
        return Err("no message, message_text or message_base64".into());
    };
    let expect = vector
        .get("expect")
        .and_then(|e| e.as_object())
        .ok_or("expect: missing")?;
    let field = |key: &str| -> Result<Option<String>, String> {
        expect
            .get(key)
            .map(|v| decode(v.as_str().ok_or(format!("expect.{key}: not a string"))?))
            .transpose()
    };
    Ok(Vector {
        name,
        message,
        outcome: field("outcome")?.ok_or("expect.outcome: missing")?,
        error: field("error")?,
    })
}

fn decode(s: JsonStr<'_>) -> Result<String, String> {
    let mut buf = std::vec![0u8; s.decoded_len()];
    s.unescape_into(&mut buf)
        .map(|t| t.to_string())
        .map_err(|e| e.to_string())
}

/// Standard base64 with padding (RFC 4648 section 4).
fn base64_decode(text: &str) -> Result<Vec<u8>, String> {
    fn sextet(c: u8) -> Option<u32> {
        match c {
            b'A'..=b'Z' => Some(u32::from(c - b'A')),
            b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
            b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
            b'+' => Some(62),
            b'/' => Some(63),
            _ => None,
        }
    }
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return Err("message_base64: length is not a multiple of 4".into());
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    for chunk in bytes.chunks(4) {
        let pad = chunk.iter().rev().take_while(|&&c| c == b'=').count();
        let mut n = 0u32;
        for &c in &chunk[..4 - pad] {
            n = n << 6 | sextet(c).ok_or("message_base64: not base64")?;
        }
        n <<= 6 * pad as u32;
        let three = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&three[..3 - pad.min(2)]);
    }
    Ok(out)
}
