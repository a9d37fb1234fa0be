//! Target `canon`: the binding digest's canonical form.
//!
//! Input: `json [0xFF choices]`. The JSON is the tool arguments; the
//! choices drive a re-spelling of the same value: members shuffled, every
//! character of every string (keys too) spelled raw, as a short escape or
//! as `\uXXXX` (surrogate pairs above the BMP), whitespace added between
//! tokens. Numbers keep their literal (the canonical form keeps it too).
//!
//! Properties:
//! - [`binding_digest`] and [`write_canonical`] never panic and agree on
//!   success or the error;
//! - the re-spelled value gives the same result: the same digest and the
//!   same canonical text, or an error (which defect is met first depends on
//!   the member order);
//! - the canonical text is a fixed point (its canonical form is itself, its
//!   digest the same), reads back as the same value with serde_json, and
//!   has no whitespace outside strings;
//! - method and target are part of the digest.

use mrtr_core::json::{self, Kind, Value, Writer};
use mrtr_core::seal::{binding_digest, write_canonical, CanonError};

use crate::oracle::to_serde;
use crate::{Choices, SEP};

/// The canonical text of `v` (or why there is none).
fn canonical(v: Value<'_>) -> Result<Vec<u8>, CanonError> {
    let mut buf = vec![0u8; 256];
    loop {
        let mut w = Writer::new(&mut buf);
        write_canonical(v, &mut w)?;
        match w.finish() {
            Ok(n) => {
                buf.truncate(n);
                return Ok(buf);
            }
            Err(e) => buf = vec![0u8; e.needed],
        }
    }
}

fn ws(out: &mut Vec<u8>, ch: &mut Choices<'_>) {
    let b = ch.byte();
    if b & 0x80 != 0 {
        out.extend_from_slice(match b & 3 {
            0 => &b" "[..],
            1 => b"\n",
            2 => b"\t \r\n",
            _ => b"\r",
        });
    }
}

fn respell_str(s: &str, out: &mut Vec<u8>, ch: &mut Choices<'_>) {
    out.push(b'"');
    for c in s.chars() {
        let short: Option<&[u8]> = match c {
            '"' => Some(b"\\\""),
            '\\' => Some(b"\\\\"),
            '/' => Some(b"\\/"),
            '\u{8}' => Some(b"\\b"),
            '\u{c}' => Some(b"\\f"),
            '\n' => Some(b"\\n"),
            '\r' => Some(b"\\r"),
            '\t' => Some(b"\\t"),
            _ => None,
        };
        let raw_ok = !matches!(c, '"' | '\\') && u32::from(c) >= 0x20;
        let pick = ch.byte() % 3;
        if pick == 0 && raw_ok {
            let mut tmp = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
        } else if let (1, Some(e)) = (pick, short) {
            out.extend_from_slice(e);
        } else {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                let hex = if ch.flag() {
                    format!("\\u{u:04X}")
                } else {
                    format!("\\u{u:04x}")
                };
                out.extend_from_slice(hex.as_bytes());
            }
        }
    }
    out.push(b'"');
}

/// Writes `v` spelled another way (same value).
fn respell(v: Value<'_>, out: &mut Vec<u8>, ch: &mut Choices<'_>) {
    match v.kind() {
        Kind::Null | Kind::Bool | Kind::Number => out.extend_from_slice(v.raw()),
        Kind::String => {
            let s: String = v.as_str().unwrap().chars().collect();
            respell_str(&s, out, ch);
        }
        Kind::Array => {
            out.push(b'[');
            for (i, e) in v.as_array().unwrap().iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                ws(out, ch);
                respell(e, out, ch);
                ws(out, ch);
            }
            out.push(b']');
        }
        Kind::Object => {
            let mut members: Vec<_> = v.as_object().unwrap().iter().collect();
            // Fisher-Yates driven by the choices.
            for i in (1..members.len()).rev() {
                let j = usize::from(ch.byte()) % (i + 1);
                members.swap(i, j);
            }
            out.push(b'{');
            for (i, (k, val)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                ws(out, ch);
                let key: String = k.chars().collect();
                respell_str(&key, out, ch);
                ws(out, ch);
                out.push(b':');
                ws(out, ch);
                respell(val, out, ch);
                ws(out, ch);
            }
            out.push(b'}');
        }
    }
}

/// No whitespace outside strings.
fn compact(text: &[u8]) -> bool {
    let (mut in_str, mut esc) = (false, false);
    for &b in text {
        if in_str {
            match (esc, b) {
                (true, _) => esc = false,
                (false, b'\\') => esc = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
        } else if b == b'"' {
            in_str = true;
        } else if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            return false;
        }
    }
    true
}

/// The target.
pub fn run(data: &[u8]) {
    let (doc, choices) = match data.iter().position(|&b| b == SEP) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let Ok(v) = json::parse(doc) else { return };
    let digest = binding_digest("tools/call", "t", Some(v));
    let canon = canonical(v);
    assert_eq!(digest.is_ok(), canon.is_ok());
    if let (Err(a), Err(b)) = (&digest, &canon) {
        assert_eq!(a, b);
    }

    // The same value spelled another way.
    let default_choices: Vec<u8> = (0u8..=255).map(|i| i.wrapping_mul(167) ^ 0x5A).collect();
    let mut ch = Choices::new(if choices.is_empty() {
        &default_choices
    } else {
        choices
    });
    let mut other = Vec::new();
    respell(v, &mut other, &mut ch);
    let w = json::parse_with(
        &other,
        &json::ParseLimits {
            max_depth: json::DEFAULT_MAX_DEPTH,
            max_bytes: usize::MAX,
        },
    )
    .unwrap_or_else(|e| {
        panic!(
            "respelled document does not parse ({e}): {}",
            String::from_utf8_lossy(&other)
        )
    });
    if digest.is_ok() {
        // (Without duplicate keys: which duplicate wins depends on order.)
        assert_eq!(to_serde(w), to_serde(v), "the respelling changed the value");
    }
    // Which defect is met first depends on the member order, so errors are
    // compared by presence only.
    let respelled = binding_digest("tools/call", "t", Some(w));
    assert_eq!(
        respelled.ok(),
        digest.ok(),
        "respelled: {}",
        String::from_utf8_lossy(&other)
    );
    assert_eq!(canonical(w).ok(), canon.as_ref().ok().cloned());

    let Ok(c) = canon else { return };
    let digest = digest.unwrap();
    assert!(compact(&c), "whitespace in {}", String::from_utf8_lossy(&c));
    let cv = json::parse(&c).unwrap_or_else(|e| {
        panic!(
            "canonical text does not parse ({e}): {}",
            String::from_utf8_lossy(&c)
        )
    });
    assert_eq!(
        canonical(cv).as_deref(),
        Ok(&c[..]),
        "canonical is a fixed point"
    );
    assert_eq!(binding_digest("tools/call", "t", Some(cv)), Ok(digest));
    if let Ok(theirs) = serde_json::from_slice::<serde_json::Value>(doc) {
        let back: serde_json::Value = serde_json::from_slice(&c).expect("serde reads canonical");
        assert_eq!(back, theirs, "canonical text is another value");
    }
    // Method, target and absence of arguments are bound too.
    assert_ne!(binding_digest("tools/call", "u", Some(v)), Ok(digest));
    assert_ne!(binding_digest("prompts/get", "t", Some(v)), Ok(digest));
    assert_ne!(binding_digest("tools/call", "t", None), Ok(digest));
}
