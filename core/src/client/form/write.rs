//! Building the accept `content` object from typed values, so a UI never
//! writes JSON by hand.

use super::{ElicitForm, FieldError};
use crate::json::{JsonStr, Writer};

/// A typed answer for one field.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FieldValue<'v> {
    /// Text, or the chosen option of a single-select.
    Text(&'v str),
    /// A whole number.
    Integer(i64),
    /// A number as its decimal text in the JSON number grammar (`2.5`,
    /// `-0.125`, `6.02e23`), written exactly as given; text outside the
    /// grammar (`+1`, `.5`, `NaN`, spaces) is refused as the wrong type.
    Decimal(&'v str),
    /// A boolean.
    Bool(bool),
    /// The chosen options of a multi-select.
    Choices(&'v [&'v str]),
}

/// Why [`ContentWriter`] refused a value or could not finish.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteError<'a> {
    /// The form has no field of that name.
    UnknownField,
    /// The field was already set.
    AlreadySet,
    /// The value breaks the field's rules.
    Invalid(FieldError),
    /// A required field was never set.
    MissingRequired(JsonStr<'a>),
    /// The output buffer is too small; `needed` is the exact size.
    BufferTooSmall {
        /// Bytes the output needs.
        needed: usize,
    },
}

impl core::fmt::Display for WriteError<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            WriteError::UnknownField => write!(f, "not a field of this form"),
            WriteError::AlreadySet => write!(f, "field already set"),
            WriteError::Invalid(e) => write!(f, "invalid value: {e}"),
            WriteError::MissingRequired(name) => {
                f.write_str("required field \"")?;
                name.write_chars(f)?;
                f.write_str("\" not set")
            }
            WriteError::BufferTooSmall { needed } => {
                write!(f, "output buffer too small: needs {needed} bytes")
            }
        }
    }
}

impl core::error::Error for WriteError<'_> {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            WriteError::Invalid(e) => Some(e),
            _ => None,
        }
    }
}

/// Writes an answer `content` object field by field, checking each value
/// against the form as it goes; nothing invalid is ever written.
///
/// Keys are the schema's property names exactly as the server spelled
/// them; values come out as JSON strings (escaped), numbers, booleans or
/// string arrays.
#[derive(Debug)]
pub struct ContentWriter<'a, 'b> {
    form: ElicitForm<'a>,
    w: Writer<'b>,
    /// One bit per field index (MAX_FORM_FIELDS = 64).
    set: u64,
    first: bool,
    wrapped: bool,
}

impl<'a, 'b> ContentWriter<'a, 'b> {
    /// Starts a bare `content` object in `out`.
    pub fn new(form: &ElicitForm<'a>, out: &'b mut [u8]) -> Self {
        let mut w = Writer::new(out);
        w.byte(b'{');
        ContentWriter {
            form: *form,
            w,
            set: 0,
            first: true,
            wrapped: false,
        }
    }

    /// Starts a whole accept result, `{"action":"accept","content":{...}}`,
    /// ready to go into `inputResponses`.
    pub fn accept_result(form: &ElicitForm<'a>, out: &'b mut [u8]) -> Self {
        let mut w = Writer::new(out);
        w.raw(b"{\"action\":\"accept\",\"content\":{");
        ContentWriter {
            form: *form,
            w,
            set: 0,
            first: true,
            wrapped: true,
        }
    }

    /// Checks `value` against the field `name` and appends it.
    pub fn set(&mut self, name: &str, value: FieldValue<'_>) -> Result<(), WriteError<'a>> {
        let field = self.form.field(name).ok_or(WriteError::UnknownField)?;
        let bit = 1u64.checked_shl(field.index as u32).unwrap_or(0);
        if self.set & bit != 0 {
            return Err(WriteError::AlreadySet);
        }
        field.check(&value).map_err(WriteError::Invalid)?;
        self.set |= bit;
        let w = &mut self.w;
        w.comma(&mut self.first)
            .json_str_raw(&field.name)
            .byte(b':');
        match value {
            FieldValue::Text(s) => {
                w.str(s);
            }
            FieldValue::Integer(i) => {
                w.i64(i);
            }
            FieldValue::Decimal(text) => {
                // Checked against the JSON number grammar by `check`.
                w.raw(text.as_bytes());
            }
            FieldValue::Bool(b) => {
                w.raw(if b { b"true" } else { b"false" });
            }
            FieldValue::Choices(c) => {
                w.byte(b'[');
                let mut first = true;
                for s in c {
                    w.comma(&mut first).str(s);
                }
                w.byte(b']');
            }
        }
        Ok(())
    }

    /// Checks that every required field was set, closes the object and
    /// returns the length written.
    pub fn finish(mut self) -> Result<usize, WriteError<'a>> {
        for f in self.form.fields() {
            let bit = 1u64.checked_shl(f.index as u32).unwrap_or(0);
            if f.required && self.set & bit == 0 {
                return Err(WriteError::MissingRequired(f.name));
            }
        }
        self.w.byte(b'}');
        if self.wrapped {
            self.w.byte(b'}');
        }
        self.w
            .finish()
            .map_err(|e| WriteError::BufferTooSmall { needed: e.needed })
    }
}

impl WriteError<'_> {
    /// The field error a [`ContentError`](super::ContentError) would carry
    /// for the same answer, `None` for [`WriteError::BufferTooSmall`]: so
    /// a writer's refusal reads like a validator's (one numbering, one set
    /// of names, for every language).
    pub const fn field_error(&self) -> Option<FieldError> {
        match *self {
            WriteError::UnknownField => Some(FieldError::UnknownField),
            WriteError::AlreadySet => Some(FieldError::DuplicateField),
            WriteError::Invalid(e) => Some(e),
            WriteError::MissingRequired(_) => Some(FieldError::Missing),
            WriteError::BufferTooSmall { .. } => None,
        }
    }
}

/// How a C caller names a value's kind (`mrtr_form_value.kind`): one
/// [`FieldValue`] variant each, `Choice` being one option of
/// [`FieldValue::Choices`] (consecutive choices of one field form its
/// selection).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum FieldValueKind {
    /// [`FieldValue::Text`].
    Text = 1,
    /// [`FieldValue::Integer`].
    Integer = 2,
    /// [`FieldValue::Decimal`].
    Decimal = 3,
    /// [`FieldValue::Bool`].
    Bool = 4,
    /// One option of [`FieldValue::Choices`].
    Choice = 5,
}
