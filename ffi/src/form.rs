//! `mrtr_form_*`: a form-mode elicitation's `requestedSchema` as typed
//! fields for a UI, and the check of the user's answer before it is sent.
//!
//! Every function takes the schema bytes (`mrtr_input.requested_schema`)
//! and reads them again: nothing is stored, views point into the schema
//! bytes and stay valid while the caller keeps them. A form has at most
//! `MRTR_FORM_MAX_FIELDS` fields, so reading field by field stays cheap.

use core::ffi::{c_char, CStr};

use mrtr_core::client::form::{
    ContentError, ElicitForm, Field, FieldError, FieldKind, SchemaError, SchemaErrorKind,
    StringFormat, MAX_FORM_FIELDS,
};
use mrtr_core::json::{self, JsonStr, ParseLimits};

use crate::abi::Args;
use crate::exchange::decode_json_str;
use crate::mrtr_status;
use crate::status::status_of;
use crate::types::mrtr_str;

/// Most fields a form may have (larger schemas are refused).
pub const MRTR_FORM_MAX_FIELDS: usize = 64;
const _: () = assert!(MRTR_FORM_MAX_FIELDS == MAX_FORM_FIELDS);

/// What kind of input a field takes.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum mrtr_field_kind {
    /// Free text (`min_length`, `max_length`, `format`).
    MRTR_FIELD_TEXT = 1,
    /// A number (`minimum`, `maximum`).
    MRTR_FIELD_NUMBER = 2,
    /// A whole number (`minimum`, `maximum`).
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum mrtr_string_format {
    /// Any text.
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

/// Text of a form: a field's name. Also its bit in `escaped`.
pub const MRTR_FORM_TEXT_NAME: u32 = 1;
/// Text of a form: a field's title.
pub const MRTR_FORM_TEXT_TITLE: u32 = 1 << 1;
/// Text of a form: a field's description.
pub const MRTR_FORM_TEXT_DESCRIPTION: u32 = 1 << 2;
/// Text of a form: an option's value.
pub const MRTR_FORM_TEXT_OPTION_VALUE: u32 = 1 << 3;
/// Text of a form: an option's title.
pub const MRTR_FORM_TEXT_OPTION_TITLE: u32 = 1 << 4;

/// One field of a form, as views into the schema bytes. Text views are
/// the text itself unless their `MRTR_FORM_TEXT_*` bit is set in
/// `escaped` (then decode them with `mrtr_form_text`). Bounds are valid
/// when their `has_` flag is set.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_form_field {
    /// The property name: the key of the answer.
    pub name: mrtr_str,
    /// The label to show (empty when none).
    pub title: mrtr_str,
    /// Help text (empty when none).
    pub description: mrtr_str,
    /// `MRTR_FORM_TEXT_*` bits of the views holding escaped JSON text.
    pub escaped: u32,
    /// Position among the fields (0-based).
    pub index: usize,
    /// The input kind.
    pub kind: mrtr_field_kind,
    /// Text fields: the required syntax.
    pub format: mrtr_string_format,
    /// The answer must contain this field.
    pub required: bool,
    /// Text: `min_length` is set.
    pub has_min_length: bool,
    /// Text: `max_length` is set.
    pub has_max_length: bool,
    /// Numbers: `minimum` is set.
    pub has_minimum: bool,
    /// Numbers: `maximum` is set.
    pub has_maximum: bool,
    /// Multi-select: `min_items` is set.
    pub has_min_items: bool,
    /// Multi-select: `max_items` is set.
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
    /// The default value as raw JSON (already checked against the field);
    /// empty when none.
    pub default_json: mrtr_str,
    /// Numbers: the inclusive lower bound `minimum` exactly as the schema
    /// wrote it (a JSON number, e.g. `0.1` or `9007199254740993`); empty
    /// when none. The library compares answers with this exact decimal text
    /// and never converts it to a `double`; a UI that needs one calls
    /// `strtod` on a copy (the text is checked JSON, which `strtod` reads
    /// whole; beyond the `double` range it gives ±HUGE_VAL).
    pub minimum_json: mrtr_str,
    /// Numbers: the inclusive upper bound `maximum` exactly as the schema
    /// wrote it; empty when none.
    pub maximum_json: mrtr_str,
}

/// One option of a select field.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_form_option {
    /// The value sent when chosen.
    pub value: mrtr_str,
    /// The label to show (empty when the schema gives none: show `value`).
    pub title: mrtr_str,
    /// `MRTR_FORM_TEXT_OPTION_*` bits of the views holding escaped text.
    pub escaped: u32,
    /// The schema gives a title.
    pub has_title: bool,
}

/// Why one answer value is not acceptable.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum mrtr_field_error {
    /// No error (fields of records that are not about a value).
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
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_form_error {
    /// The field's name (from the schema, or from the answer for
    /// `UNKNOWN_FIELD`); empty when the content is not an object.
    pub field: mrtr_str,
    /// `field` holds escaped JSON text.
    pub field_escaped: bool,
    /// The field's index, or `SIZE_MAX` when the form has no such field.
    pub field_index: usize,
    /// What is wrong.
    pub error: mrtr_field_error,
    /// `TOO_SHORT`, `TOO_LONG`, `TOO_FEW_ITEMS`, `TOO_MANY_ITEMS`: the bound.
    pub bound: u64,
    /// A static NUL-terminated name of the error, for logs.
    pub reason: *const c_char,
}

/// Why a schema was refused, from `mrtr_form_parse`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_schema_error {
    /// The property at fault; empty (NULL) for the schema's top level.
    pub property: mrtr_str,
    /// `property` holds escaped JSON text.
    pub property_escaped: bool,
    /// The keyword or option value at fault, when the error names one (as
    /// written in the schema, escapes not decoded).
    pub keyword: mrtr_str,
    /// A static NUL-terminated name of the error (`"UnsupportedKeyword"`,
    /// `"InvalidDefault"`, ...), for logs.
    pub reason: *const c_char,
    /// `InvalidDefault`: what is wrong with the default.
    pub default_error: mrtr_field_error,
}

fn field_error_of(e: FieldError) -> (mrtr_field_error, u64, &'static CStr) {
    use mrtr_field_error as C;
    use FieldError as E;
    match e {
        E::Missing => (C::MRTR_FIELD_ERROR_MISSING, 0, c"Missing"),
        E::WrongType => (C::MRTR_FIELD_ERROR_WRONG_TYPE, 0, c"WrongType"),
        E::TooShort { min } => (C::MRTR_FIELD_ERROR_TOO_SHORT, min, c"TooShort"),
        E::TooLong { max } => (C::MRTR_FIELD_ERROR_TOO_LONG, max, c"TooLong"),
        E::BelowMinimum => (C::MRTR_FIELD_ERROR_BELOW_MINIMUM, 0, c"BelowMinimum"),
        E::AboveMaximum => (C::MRTR_FIELD_ERROR_ABOVE_MAXIMUM, 0, c"AboveMaximum"),
        E::NotAnInteger => (C::MRTR_FIELD_ERROR_NOT_AN_INTEGER, 0, c"NotAnInteger"),
        E::BadEmail => (C::MRTR_FIELD_ERROR_BAD_EMAIL, 0, c"BadEmail"),
        E::BadUri => (C::MRTR_FIELD_ERROR_BAD_URI, 0, c"BadUri"),
        E::BadDate => (C::MRTR_FIELD_ERROR_BAD_DATE, 0, c"BadDate"),
        E::BadDateTime => (C::MRTR_FIELD_ERROR_BAD_DATE_TIME, 0, c"BadDateTime"),
        E::NotAnOption => (C::MRTR_FIELD_ERROR_NOT_AN_OPTION, 0, c"NotAnOption"),
        E::TooFewItems { min } => (C::MRTR_FIELD_ERROR_TOO_FEW_ITEMS, min, c"TooFewItems"),
        E::TooManyItems { max } => (C::MRTR_FIELD_ERROR_TOO_MANY_ITEMS, max, c"TooManyItems"),
        E::DuplicateItem => (C::MRTR_FIELD_ERROR_DUPLICATE_ITEM, 0, c"DuplicateItem"),
        E::UnknownField => (C::MRTR_FIELD_ERROR_UNKNOWN_FIELD, 0, c"UnknownField"),
        E::DuplicateField => (C::MRTR_FIELD_ERROR_DUPLICATE_FIELD, 0, c"DuplicateField"),
    }
}

fn schema_error_of(e: &SchemaError<'_>) -> mrtr_schema_error {
    use SchemaErrorKind as K;
    let (property, property_escaped) = e.property.as_ref().map_or((mrtr_str::EMPTY, false), view);
    let mut out = mrtr_schema_error {
        property,
        property_escaped,
        keyword: mrtr_str::EMPTY,
        reason: c"".as_ptr(),
        default_error: mrtr_field_error::MRTR_FIELD_ERROR_NONE,
    };
    let token = |s: &JsonStr<'_>| mrtr_str::of_bytes(s.raw_inner());
    let reason: &'static CStr = match e.kind {
        K::NotAnObjectSchema => c"NotAnObjectSchema",
        K::MissingProperties => c"MissingProperties",
        K::TooManyFields => c"TooManyFields",
        K::DuplicateProperty => c"DuplicateProperty",
        K::TooManyKeywords => c"TooManyKeywords",
        K::DuplicateKeyword(k) => {
            out.keyword = token(&k);
            c"DuplicateKeyword"
        }
        K::UnsupportedKeyword(k) => {
            out.keyword = token(&k);
            c"UnsupportedKeyword"
        }
        K::NotASchemaObject => c"NotASchemaObject",
        K::MissingType => c"MissingType",
        K::UnsupportedType => c"UnsupportedType",
        K::UnknownFormat => c"UnknownFormat",
        K::WrongKeywordType(k) => {
            out.keyword = mrtr_str::from_str(k);
            c"WrongKeywordType"
        }
        K::InconsistentBounds(k) => {
            out.keyword = mrtr_str::from_str(k);
            c"InconsistentBounds"
        }
        K::MissingItems => c"MissingItems",
        K::EmptyOptions => c"EmptyOptions",
        K::TooManyOptions => c"TooManyOptions",
        K::NonStringOption => c"NonStringOption",
        K::BadOption => c"BadOption",
        K::DuplicateOption(v) => {
            out.keyword = token(&v);
            c"DuplicateOption"
        }
        K::EnumNamesMismatch => c"EnumNamesMismatch",
        K::BadRequired => c"BadRequired",
        K::UnknownRequired => c"UnknownRequired",
        K::DuplicateRequired => c"DuplicateRequired",
        K::InvalidDefault(f) => {
            out.default_error = field_error_of(f).0;
            c"InvalidDefault"
        }
    };
    out.reason = reason.as_ptr();
    out
}

/// A JSON string as a view: the text, or its escaped form (and `true`).
fn view(s: &JsonStr<'_>) -> (mrtr_str, bool) {
    match s.as_borrowed() {
        Some(t) => (mrtr_str::from_str(t), false),
        None => (mrtr_str::of_bytes(s.raw_inner()), true),
    }
}

/// Reads a schema: JSON, an object, the restricted subset.
fn parse(schema: &[u8]) -> Result<ElicitForm<'_>, (mrtr_status, Option<mrtr_schema_error>)> {
    let doc = json::parse_with(schema, &ParseLimits::default()).map_err(|e| (e.into(), None))?;
    let obj = doc.as_object().ok_or((
        mrtr_status::MRTR_ERR_INVALID_SCHEMA,
        Some(schema_error_of(&SchemaError {
            property: None,
            kind: SchemaErrorKind::NotAnObjectSchema,
        })),
    ))?;
    ElicitForm::parse(obj).map_err(|e| {
        (
            mrtr_status::MRTR_ERR_INVALID_SCHEMA,
            Some(schema_error_of(&e)),
        )
    })
}

/// # Safety
/// `schema` must be readable.
/// The form of `schema`, taken through `a`.
///
/// # Safety
/// `schema` must be readable.
unsafe fn form_of<'a>(a: &mut Args, schema: mrtr_str) -> Result<ElicitForm<'a>, mrtr_status> {
    // SAFETY: caller contract.
    let text = unsafe { a.str(schema) }?;
    parse(text.as_bytes()).map_err(|(s, _)| s)
}

fn field_at<'a>(form: &ElicitForm<'a>, index: usize) -> Result<Field<'a>, mrtr_status> {
    form.fields()
        .nth(index)
        .ok_or(mrtr_status::MRTR_ERR_NOT_FOUND)
}

/// Checks `schema` (a `requestedSchema`, as `mrtr_input.requested_schema`
/// gives it) against the restricted subset the protocol allows, and writes
/// its number of fields to `*out_field_count`. Show the form only after
/// this succeeded.
///
/// Returns `MRTR_OK`; `MRTR_ERR_INVALID_SCHEMA` (the reason goes to
/// `*out_error` when it is not NULL; its views point into `schema`);
/// `MRTR_ERR_JSON`; `MRTR_ERR_LIMIT_EXCEEDED` (deeper than 32 or larger than 1
/// MiB); `MRTR_ERR_INVALID_UTF8`; `MRTR_ERR_INVALID_ARGUMENT`.
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
    status_of((|| {
        let mut a = Args::free();
        // SAFETY: caller contract; every pointer is checked as it is taken.
        let (count, err, text) = unsafe {
            (
                a.out(out_field_count)?,
                a.out_opt(out_error)?,
                a.str(schema)?,
            )
        };
        match parse(text.as_bytes()) {
            Ok(form) => {
                count.write(form.len());
                Ok(())
            }
            Err((status, detail)) => {
                if let (Some(out), Some(d)) = (err, detail) {
                    out.write(d);
                }
                Err(status)
            }
        }
    })())
}

/// Writes field `index` (schema order) of the form to `*out`.
///
/// Returns `MRTR_OK`, `MRTR_ERR_NOT_FOUND` (no such field), the schema statuses
/// of `mrtr_form_parse`.
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
    status_of((|| {
        let mut a = Args::free();
        // SAFETY: caller contract; every pointer is checked as it is taken.
        let (out, form) = unsafe { (a.out(out)?, form_of(&mut a, schema)?) };
        let f = field_at(&form, index)?;
        let (name, name_esc) = view(&f.name);
        let mut escaped = if name_esc { MRTR_FORM_TEXT_NAME } else { 0 };
        let mut text = |bit: u32, s: Option<JsonStr<'_>>| match s {
            None => mrtr_str::EMPTY,
            Some(s) => {
                let (v, esc) = view(&s);
                if esc {
                    escaped |= bit;
                }
                v
            }
        };
        let title = text(MRTR_FORM_TEXT_TITLE, f.title);
        let description = text(MRTR_FORM_TEXT_DESCRIPTION, f.description);
        let mut field = mrtr_form_field {
            name,
            title,
            description,
            escaped,
            index: f.index,
            kind: mrtr_field_kind::MRTR_FIELD_TEXT,
            format: mrtr_string_format::MRTR_FORMAT_NONE,
            required: f.required,
            has_min_length: false,
            has_max_length: false,
            has_minimum: false,
            has_maximum: false,
            has_min_items: false,
            has_max_items: false,
            min_length: 0,
            max_length: 0,
            min_items: 0,
            max_items: 0,
            option_count: 0,
            default_json: f
                .default
                .map_or(mrtr_str::EMPTY, |d| mrtr_str::of_bytes(d.raw())),
            minimum_json: mrtr_str::EMPTY,
            maximum_json: mrtr_str::EMPTY,
        };
        match f.kind {
            FieldKind::Text {
                min_length,
                max_length,
                format,
            } => {
                field.has_min_length = min_length.is_some();
                field.min_length = min_length.unwrap_or(0);
                field.has_max_length = max_length.is_some();
                field.max_length = max_length.unwrap_or(0);
                field.format = match format {
                    None => mrtr_string_format::MRTR_FORMAT_NONE,
                    Some(StringFormat::Email) => mrtr_string_format::MRTR_FORMAT_EMAIL,
                    Some(StringFormat::Uri) => mrtr_string_format::MRTR_FORMAT_URI,
                    Some(StringFormat::Date) => mrtr_string_format::MRTR_FORMAT_DATE,
                    Some(StringFormat::DateTime) => mrtr_string_format::MRTR_FORMAT_DATE_TIME,
                };
            }
            FieldKind::Number {
                integer,
                minimum,
                maximum,
            } => {
                field.kind = if integer {
                    mrtr_field_kind::MRTR_FIELD_INTEGER
                } else {
                    mrtr_field_kind::MRTR_FIELD_NUMBER
                };
                field.has_minimum = minimum.is_some();
                field.minimum_json = minimum.map_or(mrtr_str::EMPTY, |n| {
                    mrtr_str::of_bytes(n.as_str().as_bytes())
                });
                field.has_maximum = maximum.is_some();
                field.maximum_json = maximum.map_or(mrtr_str::EMPTY, |n| {
                    mrtr_str::of_bytes(n.as_str().as_bytes())
                });
            }
            FieldKind::Boolean => field.kind = mrtr_field_kind::MRTR_FIELD_BOOLEAN,
            FieldKind::SingleSelect { options } => {
                field.kind = mrtr_field_kind::MRTR_FIELD_SINGLE_SELECT;
                field.option_count = options.len();
            }
            FieldKind::MultiSelect {
                options,
                min_items,
                max_items,
            } => {
                field.kind = mrtr_field_kind::MRTR_FIELD_MULTI_SELECT;
                field.option_count = options.len();
                field.has_min_items = min_items.is_some();
                field.min_items = min_items.unwrap_or(0);
                field.has_max_items = max_items.is_some();
                field.max_items = max_items.unwrap_or(0);
            }
        }
        out.write(field);
        Ok(())
    })())
}

fn option_at<'a>(
    form: &ElicitForm<'a>,
    field: usize,
    option: usize,
) -> Result<mrtr_core::client::form::EnumOption<'a>, mrtr_status> {
    let f = field_at(form, field)?;
    let options = match f.kind {
        FieldKind::SingleSelect { options } | FieldKind::MultiSelect { options, .. } => options,
        _ => return Err(mrtr_status::MRTR_ERR_NOT_FOUND),
    };
    options
        .iter()
        .nth(option)
        .ok_or(mrtr_status::MRTR_ERR_NOT_FOUND)
}

/// Writes option `option` of select field `field` to `*out`.
///
/// Returns `MRTR_OK`, `MRTR_ERR_NOT_FOUND` (no such field, not a select, or no
/// such option), the schema statuses of `mrtr_form_parse`.
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
    status_of((|| {
        let mut a = Args::free();
        // SAFETY: caller contract; every pointer is checked as it is taken.
        let (out, form) = unsafe { (a.out(out)?, form_of(&mut a, schema)?) };
        let o = option_at(&form, field, option)?;
        let (value, value_esc) = view(&o.value);
        let (title, title_esc) = o.title.as_ref().map_or((mrtr_str::EMPTY, false), view);
        let mut escaped = 0;
        if value_esc {
            escaped |= MRTR_FORM_TEXT_OPTION_VALUE;
        }
        if title_esc {
            escaped |= MRTR_FORM_TEXT_OPTION_TITLE;
        }
        out.write(mrtr_form_option {
            value,
            title,
            escaped,
            has_title: o.title.is_some(),
        });
        Ok(())
    })())
}

/// Decodes one text of the form into `out`, JSON escapes resolved:
/// `which` is a `MRTR_FORM_TEXT_*` value; `option` is used by the
/// `OPTION_*` texts only. Output convention of `mrtr_json_write_string`.
///
/// Returns `MRTR_OK`, `MRTR_ERR_BUFFER_TOO_SMALL`, `MRTR_ERR_NOT_FOUND` (no
/// such field or option, or the text is absent), the schema statuses of
/// `mrtr_form_parse`, `MRTR_ERR_INVALID_ARGUMENT` (unknown `which`).
///
/// # Safety
/// `schema` readable; `out` must point to `out_len` writable bytes (unless
/// 0); `out_written` to a writable `size_t`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_form_text(
    schema: mrtr_str,
    field: usize,
    option: usize,
    which: u32,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    status_of((|| {
        let mut a = Args::free();
        // SAFETY: caller contract; every pointer is checked as it is taken.
        let (out_written, text, out) = unsafe {
            (
                a.out(out_written)?,
                a.str(schema)?,
                a.out_buf(out, out_len)?,
            )
        };
        let form = parse(text.as_bytes()).map_err(|(s, _)| s)?;
        let s = match which {
            MRTR_FORM_TEXT_NAME => Some(field_at(&form, field)?.name),
            MRTR_FORM_TEXT_TITLE => field_at(&form, field)?.title,
            MRTR_FORM_TEXT_DESCRIPTION => field_at(&form, field)?.description,
            MRTR_FORM_TEXT_OPTION_VALUE => Some(option_at(&form, field, option)?.value),
            MRTR_FORM_TEXT_OPTION_TITLE => option_at(&form, field, option)?.title,
            _ => return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT),
        };
        let s = s.ok_or(mrtr_status::MRTR_ERR_NOT_FOUND)?;
        decode_json_str(&s, out, out_written)
    })())
}

/// Checks an answer `content` (a JSON object, as it will be sent with
/// `MRTR_ELICIT_ACCEPT`) against the form: required fields present, each
/// value of its field's type, within its bounds and syntax, one of its
/// options; no unknown or repeated fields.
///
/// Returns `MRTR_OK`; `MRTR_ERR_INVALID_VALUE` (the first problem goes to
/// `*out_error` when not NULL: fields in schema order first, then unknown
/// fields; views into `schema` or `content`); `MRTR_ERR_JSON` (content not
/// JSON); the schema statuses of `mrtr_form_parse`; `MRTR_ERR_INVALID_UTF8`.
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
    status_of((|| {
        let mut a = Args::free();
        // SAFETY: caller contract; every pointer is checked as it is taken.
        let (out_error, form, content) = unsafe {
            (
                a.out_opt(out_error)?,
                form_of(&mut a, schema)?,
                a.str(content)?,
            )
        };
        let doc = json::parse_with(content.as_bytes(), &ParseLimits::default())?;
        let report = |e: mrtr_form_error| {
            if let Some(out) = out_error {
                out.write(e);
            }
            Err(mrtr_status::MRTR_ERR_INVALID_VALUE)
        };
        let Some(obj) = doc.as_object() else {
            return report(mrtr_form_error {
                field: mrtr_str::EMPTY,
                field_escaped: false,
                field_index: usize::MAX,
                error: mrtr_field_error::MRTR_FIELD_ERROR_WRONG_TYPE,
                bound: 0,
                reason: c"NotAnObject".as_ptr(),
            });
        };
        match form.validate(obj) {
            Ok(()) => Ok(()),
            Err(ContentError { field, error }) => {
                let (name, escaped) = view(&field);
                let (code, bound, reason) = field_error_of(error);
                let index = form.field_json(&field).map_or(usize::MAX, |f| f.index);
                report(mrtr_form_error {
                    field: name,
                    field_escaped: escaped,
                    field_index: if error == FieldError::UnknownField {
                        usize::MAX
                    } else {
                        index
                    },
                    error: code,
                    bound,
                    reason: reason.as_ptr(),
                })
            }
        }
    })())
}
