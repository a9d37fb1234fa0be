//! A scripted user: answers every form from its schema, so the driver needs
//! no per-tool knowledge. Single-selects pick the preferred option when the
//! form offers it (`Duplicate`, to take `update_work_item` through its
//! second round), else the first; text gets a value of the requested format;
//! numbers their minimum (or 1); booleans `true`. `--answer field=value`
//! overrides a text or select field by name.

use mrtr_core::client::form::{ContentWriter, ElicitForm, FieldKind, FieldValue, StringFormat};
use mrtr_core::client::Answer;
use mrtr_core::wire::{ElicitAction, InputRequest};

/// How the scripted user answers.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    /// Option to choose in a single-select when offered.
    pub prefer_option: Option<String>,
    /// `field=value` overrides for text and single-select fields.
    pub overrides: Vec<(String, String)>,
}

/// An owned answer, ready for `Call::answer_at`.
pub enum Owned {
    /// Accept with this content.
    Accept(Vec<u8>),
    /// Decline (URL elicitations: the driver never opens a URL).
    Decline,
    /// An empty roots list.
    NoRoots,
}

impl Owned {
    /// The borrowed form the call takes.
    pub fn as_answer(&self) -> Answer<'_> {
        match self {
            Owned::Accept(c) => Answer::Elicit {
                action: ElicitAction::Accept,
                content: Some(c),
            },
            Owned::Decline => Answer::Elicit {
                action: ElicitAction::Decline,
                content: None,
            },
            Owned::NoRoots => Answer::Roots(&[]),
        }
    }
}

fn text_for(format: Option<StringFormat>, min_len: Option<u64>) -> String {
    let mut s = match format {
        Some(StringFormat::Email) => "load@example.com".to_string(),
        Some(StringFormat::Uri) => "https://example.com/".to_string(),
        Some(StringFormat::Date) => "2026-07-28".to_string(),
        Some(StringFormat::DateTime) => "2026-07-28T00:00:00Z".to_string(),
        None => "WI-1".to_string(),
    };
    if format.is_none() {
        while (s.chars().count() as u64) < min_len.unwrap_or(0) {
            s.push('1');
        }
    }
    s
}

/// Answers one input request, or says why it cannot.
pub fn answer(req: &InputRequest<'_>, policy: &Policy) -> Result<Owned, String> {
    match req {
        InputRequest::ElicitForm {
            requested_schema, ..
        } => {
            let form = ElicitForm::parse(*requested_schema)
                .map_err(|e| format!("form schema refused: {e}"))?;
            let mut out = vec![0u8; 4096];
            loop {
                let mut w = ContentWriter::new(&form, &mut out);
                for field in form.fields() {
                    let mut name_buf = vec![0u8; field.name.decoded_len()];
                    let name = field
                        .name
                        .unescape_into(&mut name_buf)
                        .map_err(|e| format!("field name: {e}"))?;
                    let name = name.to_string();
                    let over = policy
                        .overrides
                        .iter()
                        .find(|(k, _)| *k == name)
                        .map(|(_, v)| v.as_str());
                    let text;
                    let choice;
                    let value = match field.kind {
                        FieldKind::Text {
                            format, min_length, ..
                        } => {
                            text = over
                                .map(str::to_string)
                                .unwrap_or_else(|| text_for(format, min_length));
                            FieldValue::Text(&text)
                        }
                        FieldKind::Number {
                            integer, minimum, ..
                        } => match (integer, minimum) {
                            (true, Some(m)) => m
                                .exact()
                                .map_or(FieldValue::Decimal(m.as_str()), FieldValue::Integer),
                            (true, None) => FieldValue::Integer(1),
                            (false, Some(m)) => FieldValue::Decimal(m.as_str()),
                            (false, None) => FieldValue::Integer(1),
                        },
                        FieldKind::Boolean => FieldValue::Bool(true),
                        FieldKind::SingleSelect { options } => {
                            let wanted = over.or(policy.prefer_option.as_deref());
                            choice = match wanted.filter(|w| options.contains(w)) {
                                Some(w) => w.to_string(),
                                None => {
                                    let first = options.values().next().ok_or("empty enum")?;
                                    let mut b = vec![0u8; first.decoded_len()];
                                    first
                                        .unescape_into(&mut b)
                                        .map_err(|e| format!("option: {e}"))?
                                        .to_string()
                                }
                            };
                            FieldValue::Text(&choice)
                        }
                        FieldKind::MultiSelect { .. } => {
                            if field.required {
                                return Err(format!("cannot answer multi-select field {name}"));
                            }
                            continue;
                        }
                    };
                    w.set(&name, value)
                        .map_err(|e| format!("field {name}: {e:?}"))?;
                }
                match w.finish() {
                    Ok(n) => {
                        out.truncate(n);
                        return Ok(Owned::Accept(out));
                    }
                    Err(mrtr_core::client::form::WriteError::BufferTooSmall { needed }) => {
                        out = vec![0u8; needed];
                    }
                    Err(e) => return Err(format!("form answer: {e:?}")),
                }
            }
        }
        InputRequest::ElicitUrl { .. } => Ok(Owned::Decline),
        InputRequest::Roots => Ok(Owned::NoRoots),
        InputRequest::Sampling { .. } => Err("sampling requested but not declared".into()),
    }
}
