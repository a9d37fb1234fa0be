//! `mrtr_form_*`: a form-mode elicitation's `requestedSchema` as typed
//! fields for a UI, and the check of the user's answer before it is sent.
//!
//! Every function takes the schema bytes (`mrtr_input.requested_schema`)
//! and reads them again: nothing is stored, views point into the schema
//! bytes and stay valid while the caller keeps them. A form has at most
//! `MRTR_FORM_MAX_FIELDS` fields, so reading field by field stays cheap.

use core::ffi::{c_char, CStr};

use mrtr_core::client::form::{
    ContentError, ContentWriter, ElicitForm, FieldError, FieldKind, FieldValue, FieldValueKind,
    FormError, Number, WriteError, MAX_FORM_FIELDS,
};
use mrtr_core::json::{self, JsonStr, ParseLimits};

use crate::abi::{run, Args, Out, Put, Take, Views};
use crate::json::decode_json_str;
use crate::mrtr_status::{self, *};
use crate::types::{c_enum, mrtr_str, same};

/// Most fields a form may have (larger schemas are refused).
pub const MRTR_FORM_MAX_FIELDS: usize = 64;
same! { MRTR_FORM_MAX_FIELDS => MAX_FORM_FIELDS }

/// What kind of input a field takes.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub enum mrtr_field_kind {
    /// Free text (`min_length`, `max_length`, `format`).
    #[default]
    MRTR_FIELD_TEXT = 1,
    /// A number (`minimum_json`, `maximum_json`).
    MRTR_FIELD_NUMBER = 2,
    /// A whole number (`minimum_json`, `maximum_json`).
    MRTR_FIELD_INTEGER = 3,
    /// Yes or no.
    MRTR_FIELD_BOOLEAN = 4,
    /// Exactly one of the options (`option_count`, `mrtr_form_option_at`).
    MRTR_FIELD_SINGLE_SELECT = 5,
    /// Any number of distinct options (`min_items`, `max_items`).
    MRTR_FIELD_MULTI_SELECT = 6,
}

/// The required syntax of a text field.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub enum mrtr_string_format {
    /// Any text.
    #[default]
    MRTR_FORMAT_NONE = 0,
    /// An email address.
    MRTR_FORMAT_EMAIL = 1,
    /// A URI with a scheme.
    MRTR_FORMAT_URI = 2,
    /// An RFC 3339 date (`2026-07-28`).
    MRTR_FORMAT_DATE = 3,
    /// An RFC 3339 date-time (`2026-07-28T09:30:00Z`).
    MRTR_FORMAT_DATE_TIME = 4,
}

/// Text of a form (`mrtr_form_text`): a field's name; also its bit in `escaped`.
pub const MRTR_FORM_TEXT_NAME: u32 = 1;
/// Text of a form: a field's title.
pub const MRTR_FORM_TEXT_TITLE: u32 = 1 << 1;
/// Text of a form: a field's description.
pub const MRTR_FORM_TEXT_DESCRIPTION: u32 = 1 << 2;
/// Text of a form: an option's value.
pub const MRTR_FORM_TEXT_OPTION_VALUE: u32 = 1 << 3;
/// Text of a form: an option's title.
pub const MRTR_FORM_TEXT_OPTION_TITLE: u32 = 1 << 4;

// Number bounds reach C as the schema's exact decimal text: the library
// compares answers with that text and never converts it to a `double` (no
// float parser is linked). The text is checked JSON, which `strtod` reads
// whole; beyond the `double` range `strtod` gives +-HUGE_VAL.
/// One field of a form, views into the schema. A text view whose
/// `MRTR_FORM_TEXT_*` bit is set in `escaped` holds escaped JSON text
/// (decode it with `mrtr_form_text`). A bound counts only when its `has_`
/// flag is set; number bounds are exact JSON text, empty when absent
/// (`strtod` a copy for a `double`).
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct mrtr_form_field {
    /// The property name: the key of the answer.
    pub name: mrtr_str,
    /// The label to show (empty when none).
    pub title: mrtr_str,
    /// Help text (empty when none).
    pub description: mrtr_str,
    /// `MRTR_FORM_TEXT_*` bits of the views holding escaped text.
    pub escaped: u32,
    /// Position among the fields (0-based).
    pub index: usize,
    /// The input kind.
    pub kind: mrtr_field_kind,
    /// Text: the required syntax.
    pub format: mrtr_string_format,
    /// The answer must contain this field.
    pub required: bool,
    /// `min_length` is set.
    pub has_min_length: bool,
    /// `max_length` is set.
    pub has_max_length: bool,
    /// `minimum_json` is set.
    pub has_minimum: bool,
    /// `maximum_json` is set.
    pub has_maximum: bool,
    /// `min_items` is set.
    pub has_min_items: bool,
    /// `max_items` is set.
    pub has_max_items: bool,
    /// Text: fewest characters (Unicode scalar values).
    pub min_length: u64,
    /// Text: most characters.
    pub max_length: u64,
    /// Multi-select: fewest selections.
    pub min_items: u64,
    /// Multi-select: most selections.
    pub max_items: u64,
    /// Selects: the number of options.
    pub option_count: usize,
    /// The default as raw JSON (checked against the field); empty when none.
    pub default_json: mrtr_str,
    /// Numbers: the inclusive lower bound as the schema wrote it (`0.1`).
    pub minimum_json: mrtr_str,
    /// Numbers: the inclusive upper bound as the schema wrote it.
    pub maximum_json: mrtr_str,
}

/// One option of a select field.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mrtr_form_option {
    /// The value sent when chosen.
    pub value: mrtr_str,
    /// The label to show (empty when none: show `value`).
    pub title: mrtr_str,
    /// `MRTR_FORM_TEXT_OPTION_*` bits of the views holding escaped text.
    pub escaped: u32,
    /// The schema gives a title.
    pub has_title: bool,
}

/// Why one answer value is not acceptable (`bound`: in `mrtr_form_error`).
#[repr(C)]
#[derive(Clone, Copy)]
pub enum mrtr_field_error {
    /// No error.
    MRTR_FIELD_ERROR_NONE = 0,
    /// A required field has no answer.
    MRTR_FIELD_ERROR_MISSING = 1,
    /// The answer has the wrong JSON type.
    MRTR_FIELD_ERROR_WRONG_TYPE = 2,
    /// Shorter than `min_length` (`bound`).
    MRTR_FIELD_ERROR_TOO_SHORT = 3,
    /// Longer than `max_length` (`bound`).
    MRTR_FIELD_ERROR_TOO_LONG = 4,
    /// Below `minimum`.
    MRTR_FIELD_ERROR_BELOW_MINIMUM = 5,
    /// Above `maximum`.
    MRTR_FIELD_ERROR_ABOVE_MAXIMUM = 6,
    /// A fraction where whole numbers are asked.
    MRTR_FIELD_ERROR_NOT_AN_INTEGER = 7,
    /// Not an email address.
    MRTR_FIELD_ERROR_BAD_EMAIL = 8,
    /// Not a URI.
    MRTR_FIELD_ERROR_BAD_URI = 9,
    /// Not a date.
    MRTR_FIELD_ERROR_BAD_DATE = 10,
    /// Not a date-time.
    MRTR_FIELD_ERROR_BAD_DATE_TIME = 11,
    /// Not one of the options.
    MRTR_FIELD_ERROR_NOT_AN_OPTION = 12,
    /// Fewer selections than `min_items` (`bound`).
    MRTR_FIELD_ERROR_TOO_FEW_ITEMS = 13,
    /// More selections than `max_items` (`bound`).
    MRTR_FIELD_ERROR_TOO_MANY_ITEMS = 14,
    /// The same option twice.
    MRTR_FIELD_ERROR_DUPLICATE_ITEM = 15,
    /// A field the form does not define.
    MRTR_FIELD_ERROR_UNKNOWN_FIELD = 16,
    /// A field given twice.
    MRTR_FIELD_ERROR_DUPLICATE_FIELD = 17,
}

/// The first problem of an answer, from `mrtr_form_validate`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mrtr_form_error {
    /// The field's name; empty when the content is not an object.
    pub field: mrtr_str,
    /// `field` holds escaped JSON text.
    pub field_escaped: bool,
    /// The field's index, or `SIZE_MAX` when the form has no such field.
    pub field_index: usize,
    /// What is wrong.
    pub error: mrtr_field_error,
    /// The bound of `TOO_SHORT`, `TOO_LONG`, `TOO_FEW_ITEMS`, `TOO_MANY_ITEMS`.
    pub bound: u64,
    /// A static name of the error, for logs (`"TooShort"`, `"NotAnObject"`).
    pub reason: *const c_char,
}

/// Why a schema was refused, from `mrtr_form_parse`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mrtr_schema_error {
    /// The property at fault; empty (NULL) for the schema's top level.
    pub property: mrtr_str,
    /// `property` holds escaped JSON text.
    pub property_escaped: bool,
    /// The keyword or option value at fault, as written; empty when none.
    pub keyword: mrtr_str,
    /// A static name of the error, for logs (`"UnsupportedKeyword"`).
    pub reason: *const c_char,
    /// `InvalidDefault`: what is wrong with the default.
    pub default_error: mrtr_field_error,
}

c_enum! { mrtr_field_kind: MRTR_FIELD_TEXT MRTR_FIELD_NUMBER MRTR_FIELD_INTEGER MRTR_FIELD_BOOLEAN
MRTR_FIELD_SINGLE_SELECT MRTR_FIELD_MULTI_SELECT }
c_enum! { mrtr_string_format: MRTR_FORMAT_NONE MRTR_FORMAT_EMAIL MRTR_FORMAT_URI MRTR_FORMAT_DATE
MRTR_FORMAT_DATE_TIME }
c_enum! { mrtr_field_error: MRTR_FIELD_ERROR_NONE MRTR_FIELD_ERROR_MISSING MRTR_FIELD_ERROR_WRONG_TYPE
MRTR_FIELD_ERROR_TOO_SHORT MRTR_FIELD_ERROR_TOO_LONG MRTR_FIELD_ERROR_BELOW_MINIMUM
MRTR_FIELD_ERROR_ABOVE_MAXIMUM MRTR_FIELD_ERROR_NOT_AN_INTEGER MRTR_FIELD_ERROR_BAD_EMAIL
MRTR_FIELD_ERROR_BAD_URI MRTR_FIELD_ERROR_BAD_DATE MRTR_FIELD_ERROR_BAD_DATE_TIME
MRTR_FIELD_ERROR_NOT_AN_OPTION MRTR_FIELD_ERROR_TOO_FEW_ITEMS MRTR_FIELD_ERROR_TOO_MANY_ITEMS
MRTR_FIELD_ERROR_DUPLICATE_ITEM MRTR_FIELD_ERROR_UNKNOWN_FIELD MRTR_FIELD_ERROR_DUPLICATE_FIELD }

/// Reads a schema; the status and, for a refused schema, its detail.
fn parse(schema: &str) -> Result<ElicitForm<'_>, (mrtr_status, Option<mrtr_schema_error>)> {
    ElicitForm::parse_json(schema.as_bytes()).map_err(|e| match e {
        FormError::Json(j) => (j.into(), None),
        FormError::Schema(e) => {
            let mut property_escaped = 0;
            let detail = mrtr_schema_error {
                property: mrtr_str::json(e.property, &mut property_escaped, 1),
                property_escaped: property_escaped != 0,
                keyword: e.kind.keyword().map_or(mrtr_str::EMPTY, mrtr_str::of_bytes),
                reason: e.kind.name().as_ptr(),
                default_error: mrtr_field_error::of(e.kind.default_error().map_or(0, |f| f.code())),
            };
            (MRTR_ERR_INVALID_SCHEMA, Some(detail))
        }
    })
}

/// The form of `schema`, taken through `a`.
///
/// # Safety
/// `schema` must be readable.
unsafe fn form_of<'a>(a: &mut Args, schema: mrtr_str) -> Result<ElicitForm<'a>, mrtr_status> {
    // SAFETY: caller contract.
    parse(unsafe { a.str(schema) }?).map_err(|(s, _)| s)
}

/// Checks `schema` (`mrtr_input.requested_schema`) against the protocol's
/// subset; writes its number of fields. Show a form only after `MRTR_OK`.
/// `MRTR_ERR_INVALID_SCHEMA` (details to `*out_error` if not NULL),
/// `MRTR_ERR_JSON`, `MRTR_ERR_LIMIT_EXCEEDED` (depth 32, 1 MiB),
/// `MRTR_ERR_INVALID_UTF8`.
///
/// # Safety
/// `schema.ptr` must point to `schema.len` readable bytes;
/// `out_field_count` to a writable `size_t`; `out_error` NULL or writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_form_parse(
    schema: mrtr_str,
    out_field_count: *mut usize,
    out_error: *mut mrtr_schema_error,
) -> mrtr_status {
    // SAFETY: caller contract; every pointer is checked as it is taken.
    run(|a| unsafe {
        let (count, err) = (a.out(out_field_count)?, a.out_opt(out_error)?);
        let (status, detail) = match parse(a.str(schema)?) {
            Ok(form) => return count.done(form.len()),
            Err(e) => e,
        };
        if let Some(d) = detail {
            err.put(d);
        }
        Err(status)
    })
}

/// Writes field `index` (schema order) to `*out`. `MRTR_ERR_NOT_FOUND` (no
/// such field), the statuses of `mrtr_form_parse`.
///
/// # Safety
/// `schema` readable; `out` must point to a writable `mrtr_form_field`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_form_field_at(
    schema: mrtr_str,
    index: usize,
    out: *mut mrtr_form_field,
) -> mrtr_status {
    // SAFETY: caller contract; every pointer is checked as it is taken.
    run(|a| unsafe {
        let (out, form) = (a.out(out)?, form_of(a, schema)?);
        let f = form.field_at(index).ok_or(MRTR_ERR_NOT_FOUND)?;
        let mut escaped = 0;
        let mut c = mrtr_form_field {
            name: mrtr_str::json(Some(f.name), &mut escaped, MRTR_FORM_TEXT_NAME),
            title: mrtr_str::json(f.title, &mut escaped, MRTR_FORM_TEXT_TITLE),
            description: mrtr_str::json(f.description, &mut escaped, MRTR_FORM_TEXT_DESCRIPTION),
            escaped,
            index: f.index,
            kind: mrtr_field_kind::of(f.kind.code()),
            required: f.required,
            default_json: f
                .default
                .map_or(mrtr_str::EMPTY, |d| mrtr_str::of_bytes(d.raw())),
            ..Default::default()
        };
        // One match on the kind: each kind sets its own members.
        match f.kind {
            FieldKind::Text {
                min_length,
                max_length,
                format,
            } => {
                (c.has_min_length, c.min_length) = (min_length.is_some(), min_length.unwrap_or(0));
                (c.has_max_length, c.max_length) = (max_length.is_some(), max_length.unwrap_or(0));
                c.format = mrtr_string_format::of(format.map_or(0, |f| f as u32));
            }
            FieldKind::Number {
                minimum, maximum, ..
            } => {
                (c.has_minimum, c.minimum_json) = (minimum.is_some(), bound(minimum));
                (c.has_maximum, c.maximum_json) = (maximum.is_some(), bound(maximum));
            }
            FieldKind::Boolean => {}
            FieldKind::SingleSelect { options } => c.option_count = options.len(),
            FieldKind::MultiSelect {
                options,
                min_items,
                max_items,
            } => {
                c.option_count = options.len();
                (c.has_min_items, c.min_items) = (min_items.is_some(), min_items.unwrap_or(0));
                (c.has_max_items, c.max_items) = (max_items.is_some(), max_items.unwrap_or(0));
            }
        }
        out.done(c)
    })
}

/// A number bound's exact text; empty when absent.
fn bound(n: Option<Number<'_>>) -> mrtr_str {
    mrtr_str::opt(n.map(|n| n.as_str()))
}

/// Writes option `option` of select field `field` to `*out`.
/// `MRTR_ERR_NOT_FOUND` (no such select or option), those of `mrtr_form_parse`.
///
/// # Safety
/// `schema` readable; `out` must point to a writable `mrtr_form_option`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_form_option_at(
    schema: mrtr_str,
    field: usize,
    option: usize,
    out: *mut mrtr_form_option,
) -> mrtr_status {
    // SAFETY: caller contract; every pointer is checked as it is taken.
    run(|a| unsafe {
        let (out, form) = (a.out(out)?, form_of(a, schema)?);
        let o = form.option_at(field, option).ok_or(MRTR_ERR_NOT_FOUND)?;
        let mut escaped = 0;
        out.done(mrtr_form_option {
            value: mrtr_str::json(Some(o.value), &mut escaped, MRTR_FORM_TEXT_OPTION_VALUE),
            title: mrtr_str::json(o.title, &mut escaped, MRTR_FORM_TEXT_OPTION_TITLE),
            escaped,
            has_title: o.title.is_some(),
        })
    })
}

/// Decodes text `which` (`MRTR_FORM_TEXT_*`; `option` for `OPTION_*` only)
/// into `out` as `mrtr_json_write_string` does. `MRTR_ERR_NOT_FOUND` (no such
/// field, option or text), `MRTR_ERR_INVALID_ARGUMENT` (unknown `which`),
/// those of `mrtr_form_parse`. On a failure `*out_reason` (optional) names
/// the cause: `"NoSuchField"`, `"NoSuchOption"`, `"NoSuchText"` (the field
/// or option has no such text: an absent title is normal), `"UnknownText"`,
/// a schema error's (`"UnsupportedKeyword"`, ...), or the status's own name.
///
/// # Safety
/// `schema` readable; `out` must point to `out_len` writable bytes (unless
/// 0); `out_written` to a writable `size_t`; `out_reason` NULL or a
/// writable `const char *`.
#[must_use]
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mrtr_form_text(
    schema: mrtr_str,
    field: usize,
    option: usize,
    which: u32,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
    out_reason: *mut *const c_char,
) -> mrtr_status {
    // SAFETY: caller contract; every pointer is checked as it is taken.
    run(|a| unsafe {
        a.told(out_reason, |a| {
            let (out_written, text) = (a.out(out_written)?, a.str(schema)?);
            let out = a.out_buf(out, out_len)?;
            let form = ElicitForm::parse_json(text.as_bytes()).map_err(|e| match e {
                FormError::Json(j) => a.refuse(j.into(), j.kind.name()),
                FormError::Schema(e) => a.refuse(MRTR_ERR_INVALID_SCHEMA, e.kind.name()),
            })?;
            let none = MRTR_ERR_NOT_FOUND;
            let field_at = form.field_at(field);
            let option_at = form.option_at(field, option);
            let mut f = || field_at.ok_or_else(|| a.refuse(none, c"NoSuchField"));
            let s = match which {
                MRTR_FORM_TEXT_NAME => Some(f()?.name),
                MRTR_FORM_TEXT_TITLE => f()?.title,
                MRTR_FORM_TEXT_DESCRIPTION => f()?.description,
                MRTR_FORM_TEXT_OPTION_VALUE | MRTR_FORM_TEXT_OPTION_TITLE => {
                    f()?;
                    let o = option_at.ok_or_else(|| a.refuse(none, c"NoSuchOption"))?;
                    match which {
                        MRTR_FORM_TEXT_OPTION_VALUE => Some(o.value),
                        _ => o.title,
                    }
                }
                _ => return Err(a.refuse(MRTR_ERR_INVALID_ARGUMENT, c"UnknownText")),
            };
            let s = s.ok_or_else(|| a.refuse(none, c"NoSuchText"))?;
            decode_json_str(&s, out, out_written)
        })
    })
}

/// Checks an answer `content` (the object sent with `MRTR_ELICIT_ACCEPT`)
/// against the form. `MRTR_ERR_INVALID_VALUE` (first problem to `*out_error`
/// if not NULL, fields in schema order, then unknown ones), `MRTR_ERR_JSON`
/// (content not JSON), those of `mrtr_form_parse`.
///
/// # Safety
/// `schema` and `content` readable; `out_error` NULL or writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_form_validate(
    schema: mrtr_str,
    content: mrtr_str,
    out_error: *mut mrtr_form_error,
) -> mrtr_status {
    // SAFETY: caller contract; every pointer is checked as it is taken.
    run(|a| unsafe {
        let (out_error, form, content) =
            (a.out_opt(out_error)?, form_of(a, schema)?, a.str(content)?);
        let doc = json::parse_with(content.as_bytes(), &ParseLimits::default())?;
        let (field, error) = match doc.as_object().map(|o| form.validate(o)) {
            Some(Ok(())) => return Ok(()),
            Some(Err(ContentError { field, error })) => (Some(field), error),
            None => (None, FieldError::WrongType),
        };
        let reason = field.map_or(c"NotAnObject", |_| error.name());
        Err(report(error, reason, field_of(&form, field), out_error))
    })
}

// ------------------------------------------------------------- writing answers

/// `mrtr_form_value.kind`: text, or the chosen option of a single-select.
pub const MRTR_FORM_VALUE_TEXT: u32 = 1;
/// `mrtr_form_value.kind`: a whole number (`integer`).
pub const MRTR_FORM_VALUE_INTEGER: u32 = 2;
/// `mrtr_form_value.kind`: a number as its exact JSON decimal text (`text`).
pub const MRTR_FORM_VALUE_DECIMAL: u32 = 3;
/// `mrtr_form_value.kind`: a boolean (`boolean`).
pub const MRTR_FORM_VALUE_BOOL: u32 = 4;
/// `mrtr_form_value.kind`: one chosen option of a multi-select (`text`);
/// consecutive choices of one field are its selection, in order.
pub const MRTR_FORM_VALUE_CHOICE: u32 = 5;
same! {
    MRTR_FORM_VALUE_TEXT => FieldValueKind::Text,
    MRTR_FORM_VALUE_INTEGER => FieldValueKind::Integer,
    MRTR_FORM_VALUE_DECIMAL => FieldValueKind::Decimal,
    MRTR_FORM_VALUE_BOOL => FieldValueKind::Bool,
    MRTR_FORM_VALUE_CHOICE => FieldValueKind::Choice,
}

/// One answer for `mrtr_form_write_content`: a field by name and its value.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mrtr_form_value {
    /// The field's name, as text (not JSON).
    pub name: mrtr_str,
    /// A `MRTR_FORM_VALUE_*`.
    pub kind: u32,
    /// `TEXT`, `CHOICE`: the text; `DECIMAL`: the number's JSON text.
    pub text: mrtr_str,
    /// `INTEGER`: the number.
    pub integer: i64,
    /// `BOOL`: the value.
    pub boolean: bool,
}

impl Views for mrtr_form_value {
    /// The name, the kind, the text, the integer, the boolean.
    type Read<'a> = (&'a str, u32, &'a str, i64, bool);

    fn read<'a>(&self, t: &mut Take<'_, 'a>) -> Result<Self::Read<'a>, mrtr_status> {
        Ok((
            t.str(self.name)?,
            self.kind,
            t.str(self.text)?,
            self.integer,
            self.boolean,
        ))
    }
}

/// Writes the `content` of a form `accept` from typed values, checked
/// against the form as `mrtr_form_validate` checks (and as
/// `mrtr_call_answer_elicit` checks again): the object to pass to it, no
/// JSON written by hand. Output convention of `mrtr_json_write_string`.
/// `MRTR_ERR_INVALID_VALUE`: a value the form refuses, an unknown or
/// repeated field, a required field missing (first problem to `*out_error`
/// if not NULL); `MRTR_ERR_INVALID_ARGUMENT`: an unknown kind;
/// `MRTR_ERR_LIMIT_EXCEEDED`: more than `MRTR_FORM_MAX_CHOICES` choices for
/// one field; those of `mrtr_form_parse`.
///
/// # Safety
/// `schema` readable; `values` NULL (with `n` 0) or `n` readable
/// `mrtr_form_value` whose strings are readable; `out` `out_len` writable
/// bytes; `out_written` writable; `out_error` NULL or writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_form_write_content(
    schema: mrtr_str,
    values: *const mrtr_form_value,
    n: usize,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
    out_error: *mut mrtr_form_error,
) -> mrtr_status {
    // SAFETY: caller contract; every pointer is checked as it is taken.
    run(|a| unsafe {
        let (out_written, mut out_error) = (a.out(out_written)?, a.out_opt(out_error)?);
        let form = form_of(a, schema)?;
        let values = a.list(values, n)?;
        let out = a.out_buf(out, out_len)?;
        let mut w = ContentWriter::new(&form, out);
        let mut choices = [""; MRTR_FORM_MAX_CHOICES];
        let mut items = values.iter().peekable();
        while let Some(item) = items.next() {
            let (name, kind, text, integer, boolean) = item?;
            let value = match kind {
                MRTR_FORM_VALUE_TEXT => FieldValue::Text(text),
                MRTR_FORM_VALUE_INTEGER => FieldValue::Integer(integer),
                MRTR_FORM_VALUE_DECIMAL => FieldValue::Decimal(text),
                MRTR_FORM_VALUE_BOOL => FieldValue::Bool(boolean),
                MRTR_FORM_VALUE_CHOICE => {
                    let mut k = 0;
                    let mut next = Some(text);
                    while let Some(choice) = next {
                        *choices.get_mut(k).ok_or(MRTR_ERR_LIMIT_EXCEEDED)? = choice;
                        k += 1;
                        next = match items.peek() {
                            Some(Ok((n2, MRTR_FORM_VALUE_CHOICE, t2, _, _))) if *n2 == name => {
                                Some(*t2)
                            }
                            _ => None,
                        };
                        if next.is_some() {
                            items.next();
                        }
                    }
                    FieldValue::Choices(choices.get(..k).unwrap_or(&[]))
                }
                _ => return Err(MRTR_ERR_INVALID_ARGUMENT),
            };
            w.set(name, value).map_err(|e| {
                let error = e.field_error().unwrap_or(FieldError::WrongType);
                let index = form.field(name).map_or(usize::MAX, |f| f.index);
                let field = (mrtr_str::from_str(name), false, index);
                report(error, error.name(), field, out_error.take())
            })?;
        }
        match w.finish() {
            Ok(len) => out_written.done(len),
            Err(WriteError::BufferTooSmall { needed }) => {
                out_written.write(needed);
                Err(MRTR_ERR_BUFFER_TOO_SMALL)
            }
            Err(e) => {
                let missing = match e {
                    WriteError::MissingRequired(f) => Some(f),
                    _ => None,
                };
                let error = e.field_error().unwrap_or(FieldError::WrongType);
                Err(report(
                    error,
                    error.name(),
                    field_of(&form, missing),
                    out_error,
                ))
            }
        }
    })
}

/// Most choices one multi-select answer may carry.
pub const MRTR_FORM_MAX_CHOICES: usize = 64;

/// A field as an error record names it, from its JSON string: the text
/// (its escaped form and `true` when it has escapes; empty for none) and its
/// index (`usize::MAX` when none or unknown).
fn field_of(form: &ElicitForm<'_>, f: Option<JsonStr<'_>>) -> (mrtr_str, bool, usize) {
    let mut escaped = 0;
    let index = f.and_then(|f| form.index_json(&f)).unwrap_or(usize::MAX);
    (mrtr_str::json(f, &mut escaped, 1), escaped != 0, index)
}

/// Writes the record of a refused value (`error`, named `reason`, of the
/// field given as [`field_of`] gives it) to `out_error`;
/// `MRTR_ERR_INVALID_VALUE`.
fn report(
    error: FieldError,
    reason: &'static CStr,
    (field, field_escaped, field_index): (mrtr_str, bool, usize),
    out_error: Option<Out<'_, mrtr_form_error>>,
) -> mrtr_status {
    out_error.put(mrtr_form_error {
        field,
        field_escaped,
        field_index,
        error: mrtr_field_error::of(error.code()),
        bound: error.bound(),
        reason: reason.as_ptr(),
    });
    MRTR_ERR_INVALID_VALUE
}
