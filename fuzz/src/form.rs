//! Target `form`: `requestedSchema` parsing and answer validation.
//!
//! Input: `schema 0xFF content [0xFF choices]` (two JSON documents; a
//! missing content is `{}`).
//!
//! Properties: [`ElicitForm::parse`] never panics (nor do the `Display` of
//! its errors); a parsed form lists `len()` fields with their indices, finds
//! each by its name, iterates options consistently, and every default
//! passes its own field's check. For the content: `validate` is the first
//! of `errors`; a valid content has every required field and only fields
//! of the form; the typed check ([`Field::check`]) agrees with the JSON
//! check ([`Field::check_json`]) on the same value; every value the check
//! accepts is written by [`ContentWriter`] without error, `finish` fails
//! exactly when a required field is missing, and its output is JSON that
//! validates against the form and, for a valid content, holds the same
//! values.

use mrtr_core::client::form::{
    ContentWriter, ElicitForm, Field, FieldKind, FieldValue, WriteError,
};
use mrtr_core::json::{self, Kind, Object, Value};

use crate::oracle::to_serde;
use crate::{segments, Choices};

/// An owned typed value converted from a JSON value.
enum Typed {
    Text(String),
    Integer(i64),
    Number(String),
    Bool(bool),
    Choices(Vec<String>),
}

fn typed(v: Value<'_>) -> Option<Typed> {
    Some(match v.kind() {
        Kind::String => Typed::Text(v.as_str()?.chars().collect()),
        Kind::Bool => Typed::Bool(v.as_bool()?),
        Kind::Number => match v.as_i64() {
            Some(i) => Typed::Integer(i),
            None => Typed::Number(std::str::from_utf8(v.raw()).ok()?.into()),
        },
        Kind::Array => Typed::Choices(
            v.as_array()?
                .iter()
                .map(|e| e.as_str().map(|s| s.chars().collect()))
                .collect::<Option<Vec<String>>>()?,
        ),
        Kind::Object | Kind::Null => return None,
    })
}

fn with_value<R>(t: &Typed, f: impl FnOnce(FieldValue<'_>) -> R) -> R {
    match t {
        Typed::Text(s) => f(FieldValue::Text(s)),
        Typed::Integer(i) => f(FieldValue::Integer(*i)),
        Typed::Number(x) => f(FieldValue::Decimal(x)),
        Typed::Bool(b) => f(FieldValue::Bool(*b)),
        Typed::Choices(c) => {
            let refs: Vec<&str> = c.iter().map(String::as_str).collect();
            f(FieldValue::Choices(&refs))
        }
    }
}

/// serde_json values equal, numbers compared by value.
fn same(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value as V;
    match (a, b) {
        (V::Number(x), V::Number(y)) => x.as_f64() == y.as_f64(),
        (V::Array(x), V::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (V::Object(x), V::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn check_form(form: &ElicitForm<'_>) {
    let fields: Vec<Field<'_>> = form.fields().collect();
    assert_eq!(fields.len(), form.len());
    assert_eq!(form.is_empty(), fields.is_empty());
    for (i, f) in fields.iter().enumerate() {
        assert_eq!(f.index, i);
        assert_eq!(form.field_json(&f.name), Some(*f));
        let name: String = f.name.chars().collect();
        assert_eq!(form.field(&name), Some(*f));
        if let Some(d) = f.default {
            assert_eq!(f.check_json(d), Ok(()), "a default breaks its own field");
        }
        let options = match f.kind {
            FieldKind::SingleSelect { options } | FieldKind::MultiSelect { options, .. } => options,
            _ => continue,
        };
        assert!(!options.is_empty());
        assert_eq!(options.iter().count(), options.len());
        assert_eq!(options.values().count(), options.len());
        for o in options.iter() {
            assert!(options.contains_json(&o.value));
            let text: String = o.value.chars().collect();
            assert!(options.contains(&text));
        }
    }
}

/// The target.
pub fn run(data: &[u8]) {
    let (schema, rest) = segments(data);
    let content = rest.first().copied().unwrap_or(b"{}");
    let mut ch = Choices::new(rest.get(1).copied().unwrap_or(&[]));
    let Some(schema) = json::parse(schema).ok().and_then(|v| v.as_object()) else {
        return;
    };
    let form = match ElicitForm::parse(schema) {
        Ok(f) => f,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    check_form(&form);
    let Some(content) = json::parse(content).ok().and_then(|v| v.as_object()) else {
        return;
    };
    check_content(&form, content, &mut ch);
}

fn check_content(form: &ElicitForm<'_>, content: Object<'_>, ch: &mut Choices<'_>) {
    let errors: Vec<_> = form.errors(content).collect();
    for e in &errors {
        let _ = e.error.to_string();
    }
    let valid = form.validate(content);
    assert_eq!(valid.err(), errors.first().copied());
    if valid.is_ok() {
        for f in form.fields() {
            let given: Vec<_> = content
                .iter()
                .filter(|(k, _)| k.eq_json_str(&f.name))
                .collect();
            assert!(given.len() <= 1);
            assert!(
                !f.required || given.len() == 1,
                "valid without a required field"
            );
            if let Some((_, v)) = given.first() {
                assert_eq!(f.check_json(*v), Ok(()));
            }
        }
        for (k, _) in content.iter() {
            assert!(form.field_json(&k).is_some(), "valid with an unknown field");
        }
    }

    // Build the answer with the typed writer from the values the check takes.
    let wrapped = ch.flag();
    let (n, out, set_required) = match write_answer(form, content, wrapped, 256) {
        (Finish::TooSmall(needed), _, _) => {
            let (r, out, set) = write_answer(form, content, wrapped, needed);
            assert!(
                matches!(r, Finish::Written(n) if n == needed),
                "needed size is exact"
            );
            (needed, out, set)
        }
        (Finish::Written(n), out, set) => (n, out, set),
        (Finish::Missing, _, set) => {
            assert!(!set, "MissingRequired though every required field was set");
            return;
        }
    };
    assert!(set_required, "finish without a required field");
    let doc = json::parse(&out[..n]).expect("the writer writes JSON");
    let written = if wrapped {
        let o = doc.as_object().expect("an object");
        assert_eq!(
            o.get("action")
                .and_then(|a| a.as_str())
                .map(|a| a.eq_str("accept")),
            Some(true)
        );
        o.get("content")
            .and_then(|c| c.as_object())
            .expect("content")
    } else {
        doc.as_object().expect("an object")
    };
    assert_eq!(
        form.validate(written),
        Ok(()),
        "written content does not validate: {}",
        String::from_utf8_lossy(&out[..n])
    );
    if valid.is_ok() {
        let a: serde_json::Value = serde_json::from_slice(written.raw()).expect("serde reads it");
        let b = to_serde(json::parse(content.raw()).expect("content"));
        assert!(same(&a, &b), "written {a} != given {b}");
    }
}

/// Writes every field whose given value passes its check; returns
/// `finish`'s result, the buffer, and whether every required field was set.
fn write_answer(
    form: &ElicitForm<'_>,
    content: Object<'_>,
    wrapped: bool,
    size: usize,
) -> (Finish, Vec<u8>, bool) {
    let mut out = vec![0u8; size];
    let mut w = if wrapped {
        ContentWriter::accept_result(form, &mut out)
    } else {
        ContentWriter::new(form, &mut out)
    };
    let mut set_required = true;
    for f in form.fields() {
        let given: Vec<_> = content
            .iter()
            .filter(|(k, _)| k.eq_json_str(&f.name))
            .collect();
        let value = match given.as_slice() {
            [(_, v)] => typed(*v).map(|t| (*v, t)),
            _ => None,
        };
        let name: String = f.name.chars().collect();
        let set = match value {
            Some((v, t)) => {
                let by_json = f.check_json(v);
                let by_type = with_value(&t, |fv| f.check(&fv));
                assert_eq!(by_type, by_json, "typed and JSON checks disagree");
                if by_json.is_ok() {
                    assert_eq!(
                        with_value(&t, |fv| w.set(&name, fv)),
                        Ok(()),
                        "writer refused a checked value"
                    );
                    assert_eq!(
                        with_value(&t, |fv| w.set(&name, fv)),
                        Err(WriteError::AlreadySet)
                    );
                }
                by_json.is_ok()
            }
            None => false,
        };
        if !set && f.required {
            set_required = false;
        }
    }
    let stranger = "\u{0}not a field";
    if form.field(stranger).is_none() {
        assert_eq!(
            w.set(stranger, FieldValue::Bool(true)),
            Err(WriteError::UnknownField)
        );
    }
    let r = match w.finish() {
        Ok(n) => Finish::Written(n),
        Err(WriteError::BufferTooSmall { needed }) => Finish::TooSmall(needed),
        Err(WriteError::MissingRequired(name)) => {
            assert!(form.field_json(&name).is_some_and(|f| f.required));
            Finish::Missing
        }
        Err(e) => panic!("finish: {e:?}"),
    };
    (r, out, set_required)
}

/// What `ContentWriter::finish` said.
enum Finish {
    Written(usize),
    TooSmall(usize),
    Missing,
}
