//! Target `json`: the reader against serde_json.
//!
//! Input: any bytes, read as one document with the default limits (depth
//! 32); a document refused only for its depth is read again at
//! [`MAX_DEPTH_LIMIT`] so the comparison still covers it.
//!
//! Properties (the same rule as `core/src/json/tests.rs`):
//! - what we accept, serde_json accepts, except numbers beyond the `f64`
//!   range (RFC 8259 allows them, serde_json refuses them) and nesting past
//!   serde_json's own recursion limit (128);
//! - what we refuse, serde_json refuses (the depth fallback above makes our
//!   depth limit the only allowed difference);
//! - the trees agree, and every nested value's `raw()` span re-parses (with
//!   serde_json) to the same value as its subtree; spans carry no outer
//!   whitespace; keys, strings and integers decode as serde_json reads them;
//!   `len`, `get`, `get_unique` and `check_unique_keys` agree with the
//!   members; `check_unique_keys_deep` on the document fails, with
//!   `DuplicateKey`, exactly when an object anywhere in it repeats a key
//!   (documents whose objects stay within `DEEP_MAX_MEMBERS` members);
//! - a skip index changes nothing: `parse_indexed` (with 0 to 6 slots, so
//!   some containers are recorded and some scanned, and with 64) and
//!   `Value::with_index` give the same outcome and the same span for every
//!   key and value of the tree.

use std::collections::HashMap;

use mrtr_core::json::{
    self, ErrorKind, Kind, ParseLimits, Value, DEEP_MAX_MEMBERS, DEFAULT_MAX_DEPTH, MAX_DEPTH_LIMIT,
};

use crate::oracle::to_serde;

/// The target.
pub fn run(data: &[u8]) {
    let mut ours = json::parse(data);
    let mut limits = ParseLimits::default();
    if matches!(ours, Err(e) if e.kind == ErrorKind::TooDeep) {
        let deep = ParseLimits {
            max_depth: MAX_DEPTH_LIMIT,
            max_bytes: usize::MAX,
        };
        limits = deep;
        ours = json::parse_with(data, &deep);
        if let Ok(v) = ours {
            assert!(
                depth(v) > DEFAULT_MAX_DEPTH,
                "TooDeep for a shallow document"
            );
        }
    } else if let Ok(v) = ours {
        assert!(depth(v) <= DEFAULT_MAX_DEPTH);
    }
    check_index(data, &limits, ours);
    let theirs = serde_json::from_slice::<serde_json::Value>(data);
    match (ours, theirs) {
        (Ok(v), Ok(t)) => {
            assert_eq!(to_serde(v), t, "trees differ");
            check_deep(v, check_spans(v, true));
        }
        (Ok(v), Err(e)) => {
            let msg = e.to_string();
            assert!(
                msg.starts_with("number out of range")
                    || (msg.starts_with("recursion limit exceeded") && depth(v) > 128),
                "we accept, serde_json refuses ({msg})"
            );
            check_deep(v, check_spans(v, false));
        }
        (Err(e), Ok(_)) => panic!("we refuse ({e}), serde_json accepts"),
        (Err(e), Err(_)) => {
            assert!(
                e.offset <= data.len(),
                "error offset {} past the input",
                e.offset
            );
        }
    }
}

/// Every key and value of the tree in document order, as raw spans.
fn spans<'a>(v: Value<'a>, out: &mut Vec<&'a [u8]>) {
    out.push(v.raw());
    if let Some(o) = v.as_object() {
        for (k, val) in o.iter() {
            out.push(k.raw_token());
            spans(val, out);
        }
    } else if let Some(a) = v.as_array() {
        for e in a.iter() {
            spans(e, out);
        }
    }
}

/// The skip index property (see the module comment).
fn check_index(data: &[u8], limits: &ParseLimits, ours: Result<Value<'_>, json::Error>) {
    let mut plain = Vec::new();
    if let Ok(v) = ours {
        spans(v, &mut plain);
    }
    for n in [data.len() % 7, 64] {
        let mut slots = [json::IndexSlot::EMPTY; 64];
        let indexed = json::parse_indexed(data, limits, &mut slots[..n]);
        assert_eq!(
            indexed.map(|v| v.raw()),
            ours.map(|v| v.raw()),
            "parse_indexed with {n} slots: another outcome"
        );
        let mut got = Vec::new();
        if let Ok(v) = indexed {
            spans(v, &mut got);
        }
        assert_eq!(got, plain, "parse_indexed with {n} slots: other spans");
        if let Ok(v) = ours {
            let mut slots = [json::IndexSlot::EMPTY; 64];
            let mut later = Vec::new();
            spans(v.with_index(&mut slots[..n]), &mut later);
            assert_eq!(later, plain, "with_index with {n} slots: other spans");
        }
    }
}

/// Nesting depth (the outermost container is 1, a scalar 0).
fn depth(v: Value<'_>) -> usize {
    match v.kind() {
        Kind::Array => 1 + v.as_array().unwrap().iter().map(depth).max().unwrap_or(0),
        Kind::Object => {
            1 + v
                .as_object()
                .unwrap()
                .iter()
                .map(|(_, v)| depth(v))
                .max()
                .unwrap_or(0)
        }
        _ => 0,
    }
}

/// `check_unique_keys_deep` on the whole document against the reference
/// [`check_spans`] returns: whether an object anywhere repeats a key
/// (compared decoded), and the most members any object has.
fn check_deep(v: Value<'_>, (dup, most): (bool, usize)) {
    if most <= DEEP_MAX_MEMBERS {
        let deep = v.check_unique_keys_deep();
        assert_eq!(deep.is_err(), dup, "check_unique_keys_deep");
        if let Err(e) = deep {
            assert_eq!(e.kind, ErrorKind::DuplicateKey);
        }
    }
}

/// Checks `v` and every value under it. `comparable`: serde_json accepted
/// the whole document, so every part must re-parse. Returns whether an
/// object anywhere in `v` repeats a key (compared decoded) and the most
/// members any object in it has (the reference for [`check_deep`]).
fn check_spans(v: Value<'_>, comparable: bool) -> (bool, usize) {
    let raw = v.raw();
    assert!(!raw.is_empty());

    assert!(!matches!(raw.first(), Some(b' ' | b'\t' | b'\n' | b'\r')));
    assert!(!matches!(raw.last(), Some(b' ' | b'\t' | b'\n' | b'\r')));
    // The span is a document of its own.
    let again = json::parse_with(
        raw,
        &ParseLimits {
            max_depth: MAX_DEPTH_LIMIT,
            max_bytes: usize::MAX,
        },
    )
    .expect("a span of a valid document is valid");
    assert_eq!(again.raw(), raw);
    if comparable {
        let theirs: serde_json::Value = match serde_json::from_slice(raw) {
            Ok(t) => t,
            // Within serde_json's depth only: below that, the reference
            // for the deep check is still needed.
            Err(e) if e.to_string().starts_with("recursion limit") => {
                return check_spans(v, false);
            }
            Err(e) => panic!("span does not re-parse with serde_json: {e}"),
        };
        assert_eq!(to_serde(v), theirs, "span re-parses to another value");
    }
    match v.kind() {
        Kind::String => check_string(v.as_str().unwrap()),
        Kind::Number => check_number(v),
        Kind::Bool | Kind::Null => {}
        Kind::Array => {
            let a = v.as_array().unwrap();
            assert_eq!(a.len(), a.iter().count());
            assert_eq!(a.is_empty(), a.iter().next().is_none());
            return a
                .iter()
                .map(|e| check_spans(e, comparable))
                .fold((false, 0), |(a, m), (b, n)| (a || b, m.max(n)));
        }
        Kind::Object => {
            let o = v.as_object().unwrap();
            let members: Vec<_> = o.iter().collect();
            assert_eq!(o.len(), members.len());
            let mut seen: HashMap<String, usize> = HashMap::new();
            for (k, _) in &members {
                check_string(*k);
                *seen.entry(k.chars().collect()).or_default() += 1;
            }
            let mut dup = seen.values().any(|&n| n > 1);
            assert_eq!(
                o.check_unique_keys(usize::MAX).is_err(),
                dup,
                "check_unique_keys"
            );
            if !dup {
                assert_eq!(o.check_unique_keys(members.len()), Ok(members.len()));
            }
            let mut most = members.len();
            for (k, val) in &members {
                let key: String = k.chars().collect();
                let first = members.iter().find(|(k2, _)| k2.eq_json_str(k)).unwrap().1;
                assert_eq!(o.get(&key), Some(first));
                match o.get_unique(&key) {
                    Ok(found) => {
                        assert_eq!(seen[&key], 1);
                        assert_eq!(found, Some(*val));
                    }
                    Err(e) => {
                        assert_eq!(e.kind, ErrorKind::DuplicateKey);
                        assert!(seen[&key] > 1);
                    }
                }
                let (d, m) = check_spans(*val, comparable);
                dup |= d;
                most = most.max(m);
            }
            return (dup, most);
        }
    }
    (false, 0)
}

fn check_string(s: json::JsonStr<'_>) {
    let text: String = serde_json::from_slice(s.raw_token()).expect("a string token re-parses");
    let chars: String = s.chars().collect();
    assert_eq!(chars, text, "decoded text");
    assert_eq!(s.decoded_len(), text.len());
    assert!(s.eq_str(&text));
    assert_eq!(s.has_escapes(), s.raw_inner().contains(&b'\\'));
    if let Some(b) = s.as_borrowed() {
        assert_eq!(b, text);
    }
    let mut buf = vec![0u8; text.len()];
    assert_eq!(s.unescape_into(&mut buf).unwrap(), text);
    if !text.is_empty() {
        let mut short = vec![0u8; text.len() - 1];
        let e = s.unescape_into(&mut short).unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::BufferTooSmall, text.len()));
    }
}

fn check_number(v: Value<'_>) {
    let raw = std::str::from_utf8(v.raw()).expect("numbers are ASCII");
    let integer = !raw.contains(['.', 'e', 'E']);
    let want_i64 = if integer {
        raw.parse::<i64>().ok()
    } else {
        None
    };
    let want_u64 = if integer {
        raw.parse::<u64>().ok()
    } else {
        None
    };
    assert_eq!(v.as_i64(), want_i64, "as_i64({raw})");
    assert_eq!(v.as_u64(), want_u64, "as_u64({raw})");
    assert!(v.is_number());
}
