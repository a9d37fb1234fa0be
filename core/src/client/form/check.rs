//! Checking an answer against the form: per field, per value, and the
//! small strict syntax checkers behind `format`.

use super::number::i64_text;
use super::{
    ElicitForm, Field, FieldKind, FieldValue, Fields, Number, Options, StringFormat,
    MAX_ENUM_OPTIONS,
};
use crate::bytes;
use crate::json::{Array, Chars, Elements, JsonStr, Kind, Members, Object, Value};

/// Why one field's answer is not acceptable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldError {
    /// A required field has no answer.
    Missing,
    /// The answer has the wrong JSON type for the field.
    WrongType,
    /// Shorter than `minLength` (Unicode scalar values).
    TooShort {
        /// The minimum.
        min: u64,
    },
    /// Longer than `maxLength` (Unicode scalar values).
    TooLong {
        /// The maximum.
        max: u64,
    },
    /// Below `minimum`.
    BelowMinimum,
    /// Above `maximum`.
    AboveMaximum,
    /// A fraction where the field takes whole numbers.
    NotAnInteger,
    /// Not `local@domain.tld`.
    BadEmail,
    /// Not `scheme:rest` with RFC 3986 characters.
    BadUri,
    /// Not an RFC 3339 `full-date` (`2026-07-28`) of a real day.
    BadDate,
    /// Not an RFC 3339 `date-time` (`2026-07-28T09:30:00Z`).
    BadDateTime,
    /// Not one of the field's options.
    NotAnOption,
    /// Fewer selections than `minItems`.
    TooFewItems {
        /// The minimum.
        min: u64,
    },
    /// More selections than `maxItems`.
    TooManyItems {
        /// The maximum.
        max: u64,
    },
    /// The same option selected twice.
    DuplicateItem,
    /// The answer has a field the form does not define.
    UnknownField,
    /// The answer gives a field twice.
    DuplicateField,
}

impl FieldError {
    /// The variant's name (`"TooShort"`), for logs; the C API's `reason`.
    pub const fn name(self) -> &'static core::ffi::CStr {
        use FieldError as E;
        packed_name!(self, E:
            Missing WrongType TooShort TooLong BelowMinimum AboveMaximum NotAnInteger BadEmail
            BadUri BadDate BadDateTime NotAnOption TooFewItems TooManyItems DuplicateItem
            UnknownField DuplicateField
        )
    }

    /// The error's number in the C API (`mrtr_field_error`): 1 for
    /// `Missing` up to 17 for `DuplicateField`, in declaration order (0 is
    /// "no error" there).
    pub const fn code(self) -> u32 {
        use FieldError as E;
        match self {
            E::Missing => 1,
            E::WrongType => 2,
            E::TooShort { .. } => 3,
            E::TooLong { .. } => 4,
            E::BelowMinimum => 5,
            E::AboveMaximum => 6,
            E::NotAnInteger => 7,
            E::BadEmail => 8,
            E::BadUri => 9,
            E::BadDate => 10,
            E::BadDateTime => 11,
            E::NotAnOption => 12,
            E::TooFewItems { .. } => 13,
            E::TooManyItems { .. } => 14,
            E::DuplicateItem => 15,
            E::UnknownField => 16,
            E::DuplicateField => 17,
        }
    }

    /// The bound a length or selection-count error names (`TooShort`,
    /// `TooLong`, `TooFewItems`, `TooManyItems`); 0 for the others.
    pub const fn bound(self) -> u64 {
        match self {
            FieldError::TooShort { min: b }
            | FieldError::TooLong { max: b }
            | FieldError::TooFewItems { min: b }
            | FieldError::TooManyItems { max: b } => b,
            _ => 0,
        }
    }
}

impl core::fmt::Display for FieldError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            FieldError::Missing => write!(f, "required"),
            FieldError::WrongType => write!(f, "wrong type"),
            FieldError::TooShort { min } => write!(f, "at least {min} characters"),
            FieldError::TooLong { max } => write!(f, "at most {max} characters"),
            FieldError::BelowMinimum => write!(f, "below the minimum"),
            FieldError::AboveMaximum => write!(f, "above the maximum"),
            FieldError::NotAnInteger => write!(f, "must be a whole number"),
            FieldError::BadEmail => write!(f, "not an email address"),
            FieldError::BadUri => write!(f, "not a URI"),
            FieldError::BadDate => write!(f, "not a date (YYYY-MM-DD)"),
            FieldError::BadDateTime => write!(f, "not a date-time (RFC 3339)"),
            FieldError::NotAnOption => write!(f, "not one of the options"),
            FieldError::TooFewItems { min } => write!(f, "choose at least {min}"),
            FieldError::TooManyItems { max } => write!(f, "choose at most {max}"),
            FieldError::DuplicateItem => write!(f, "chosen twice"),
            FieldError::UnknownField => write!(f, "not a field of this form"),
            FieldError::DuplicateField => write!(f, "given twice"),
        }
    }
}

impl core::error::Error for FieldError {}

/// One error in an answer, with the field it concerns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContentError<'n> {
    /// The field name (from the schema, or from the answer for
    /// [`FieldError::UnknownField`]).
    pub field: JsonStr<'n>,
    /// What is wrong.
    pub error: FieldError,
}

impl core::fmt::Display for ContentError<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("field \"")?;
        self.field.write_chars(f)?;
        write!(f, "\": {}", self.error)
    }
}

impl core::error::Error for ContentError<'_> {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Text from Rust or from a JSON token (decoded on the fly).
#[derive(Clone, Copy)]
enum Text<'v> {
    Str(&'v str),
    Json(JsonStr<'v>),
}

impl Text<'_> {
    fn chars(&self) -> TextChars<'_> {
        match self {
            Text::Str(s) => TextChars::Str(s.chars()),
            Text::Json(j) => TextChars::Json(j.chars()),
        }
    }

    /// The index of the option value equal to the text, if any (one walk
    /// of the values for both kinds of text).
    fn option_index(&self, options: &Options<'_>) -> Option<usize> {
        options.value_iter().position(|v| match self {
            Text::Str(s) => v.eq_str(s),
            Text::Json(j) => v.eq_json_str(j),
        })
    }
}

/// The characters of a [`Text`]. One concrete type, not a chain of two
/// optional iterators: every checker below is then compiled once, and
/// stepping it is one small `match`, not a chain's inlined at each use.
#[derive(Clone)]
enum TextChars<'v> {
    Str(core::str::Chars<'v>),
    Json(Chars<'v>),
}

impl Iterator for TextChars<'_> {
    type Item = char;
    fn next(&mut self) -> Option<char> {
        match self {
            TextChars::Str(c) => c.next(),
            TextChars::Json(c) => c.next(),
        }
    }
}

/// An answer value, from JSON or from a typed [`FieldValue`].
enum Answer<'v> {
    Text(Text<'v>),
    Number(Number<'v>),
    /// A typed integer (compared through its decimal text).
    Integer(i64),
    Bool,
    Strs(&'v [&'v str]),
    Array(Array<'v>),
    Other,
}

impl<'v> Answer<'v> {
    fn from_json(v: Value<'v>) -> Self {
        match v.kind() {
            Kind::String => v
                .as_str()
                .map_or(Answer::Other, |s| Answer::Text(Text::Json(s))),
            Kind::Number => Number::from_json(v).map_or(Answer::Other, Answer::Number),
            Kind::Bool => Answer::Bool,
            Kind::Array => v.as_array().map_or(Answer::Other, Answer::Array),
            Kind::Object | Kind::Null => Answer::Other,
        }
    }

    fn from_value(v: &FieldValue<'v>) -> Self {
        match *v {
            FieldValue::Text(s) => Answer::Text(Text::Str(s)),
            FieldValue::Integer(i) => Answer::Integer(i),
            FieldValue::Decimal(text) => Number::parse(text).map_or(Answer::Other, Answer::Number),
            FieldValue::Bool(_) => Answer::Bool,
            FieldValue::Choices(c) => Answer::Strs(c),
        }
    }
}

impl Field<'_> {
    /// Checks one JSON answer value against this field.
    pub fn check_json(&self, value: Value<'_>) -> Result<(), FieldError> {
        self.kind.check_json(value)
    }

    /// Checks one typed answer value against this field.
    pub fn check(&self, value: &FieldValue<'_>) -> Result<(), FieldError> {
        self.kind.check_answer(Answer::from_value(value))
    }
}

impl FieldKind<'_> {
    /// [`Field::check_json`] (the kind is all it reads).
    pub(super) fn check_json(&self, value: Value<'_>) -> Result<(), FieldError> {
        self.check_answer(Answer::from_json(value))
    }

    fn check_answer(&self, a: Answer<'_>) -> Result<(), FieldError> {
        let mut buf = [0u8; 20];
        let a = match a {
            Answer::Integer(i) => {
                // Decimal digits: always in the number grammar.
                Answer::Number(Number::of_checked(i64_text(i, &mut buf)))
            }
            a => a,
        };
        match (self, a) {
            (
                FieldKind::Text {
                    min_length,
                    max_length,
                    format,
                },
                Answer::Text(t),
            ) => {
                let n = t.chars().count() as u64;
                if let Some(min) = min_length.filter(|&m| n < m) {
                    return Err(FieldError::TooShort { min });
                }
                if let Some(max) = max_length.filter(|&m| n > m) {
                    return Err(FieldError::TooLong { max });
                }
                let format = *format;
                let (ok, err) = match format {
                    None => (true, FieldError::WrongType),
                    Some(StringFormat::Email) => (email(t.chars()), FieldError::BadEmail),
                    Some(StringFormat::Uri) => (uri(t.chars()), FieldError::BadUri),
                    Some(StringFormat::Date) => (date(t.chars()), FieldError::BadDate),
                    Some(StringFormat::DateTime) => (date_time(t.chars()), FieldError::BadDateTime),
                };
                if ok {
                    Ok(())
                } else {
                    Err(err)
                }
            }
            (
                FieldKind::Number {
                    integer,
                    minimum,
                    maximum,
                },
                Answer::Number(n),
            ) => {
                if *integer && !n.is_integer() {
                    Err(FieldError::NotAnInteger)
                } else if minimum.is_some_and(|m| n < m) {
                    Err(FieldError::BelowMinimum)
                } else if maximum.is_some_and(|m| n > m) {
                    Err(FieldError::AboveMaximum)
                } else {
                    Ok(())
                }
            }
            (FieldKind::Boolean, Answer::Bool) => Ok(()),
            (FieldKind::SingleSelect { options }, Answer::Text(t)) => {
                if t.option_index(options).is_some() {
                    Ok(())
                } else {
                    Err(FieldError::NotAnOption)
                }
            }
            (
                FieldKind::MultiSelect {
                    options,
                    min_items,
                    max_items,
                },
                a @ (Answer::Strs(_) | Answer::Array(_)),
            ) => {
                let n = check_choices(&a, options)?;
                if let Some(min) = min_items.filter(|&m| n < m) {
                    return Err(FieldError::TooFewItems { min });
                }
                if let Some(max) = max_items.filter(|&m| n > m) {
                    return Err(FieldError::TooManyItems { max });
                }
                Ok(())
            }
            _ => Err(FieldError::WrongType),
        }
    }
}

/// Checks each selection (a string, an option, not chosen before) and
/// returns how many there are. The options are distinct, so two
/// selections are equal exactly when they are the same option: one bit per
/// option chosen so far finds a repeat (no scan of the earlier
/// selections). Typed and JSON selections share one loop (one [`Choices`]
/// type).
fn check_choices(a: &Answer<'_>, options: &Options<'_>) -> Result<u64, FieldError> {
    let all = match a {
        Answer::Strs(s) => Choices::Strs(s.iter()),
        Answer::Array(arr) => Choices::Json(arr.iter()),
        _ => return Err(FieldError::WrongType),
    };
    // Bit `i % 8` of byte `i / 8`: option `i` chosen (a parsed form has at
    // most MAX_ENUM_OPTIONS options).
    let mut chosen = [0u8; MAX_ENUM_OPTIONS / 8];
    let mut n = 0usize;
    for t in all {
        let t = t.ok_or(FieldError::WrongType)?;
        let i = t.option_index(options).ok_or(FieldError::NotAnOption)?;
        if let Some(byte) = chosen.get_mut(i / 8) {
            let bit = 1 << (i % 8);
            if *byte & bit != 0 {
                return Err(FieldError::DuplicateItem);
            }
            *byte |= bit;
        }
        n += 1;
    }
    Ok(n as u64)
}

/// The selections of a multi-select answer, typed or JSON: each a text, or
/// `None` for a JSON element that is not a string.
#[derive(Clone)]
enum Choices<'v> {
    Strs(core::slice::Iter<'v, &'v str>),
    Json(Elements<'v>),
}

impl<'v> Iterator for Choices<'v> {
    type Item = Option<Text<'v>>;
    fn next(&mut self) -> Option<Option<Text<'v>>> {
        match self {
            Choices::Strs(it) => it.next().map(|s| Some(Text::Str(s))),
            Choices::Json(it) => it.next().map(|v| v.as_str().map(Text::Json)),
        }
    }
}

impl<'a> ElicitForm<'a> {
    /// Checks a whole answer `content`; the first error, if any (same order
    /// as [`Self::errors`]).
    pub fn validate<'n>(&self, content: Object<'n>) -> Result<(), ContentError<'n>>
    where
        'a: 'n,
    {
        match self.errors(content).next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Every error of an answer `content`, for showing next to each field:
    /// first one per field in schema order (missing, given twice, or its
    /// value's error), then each field the form does not define.
    pub fn errors<'n>(&self, content: Object<'n>) -> ContentErrors<'n>
    where
        'a: 'n,
    {
        let form: ElicitForm<'n> = *self;
        ContentErrors {
            fields: form.fields(),
            form,
            content,
            unknown: content.iter(),
            matched: 0,
            unknown_started: false,
            all_named: false,
        }
    }
}

/// Iterator over the errors of an answer (see [`ElicitForm::errors`]).
#[derive(Debug, Clone)]
pub struct ContentErrors<'n> {
    form: ElicitForm<'n>,
    fields: Fields<'n>,
    content: Object<'n>,
    unknown: Members<'n>,
    /// Answer members that named a field (duplicates included).
    matched: usize,
    unknown_started: bool,
    /// Every answer member named a field (no unknown ones to look for).
    all_named: bool,
}

impl<'n> Iterator for ContentErrors<'n> {
    type Item = ContentError<'n>;

    fn next(&mut self) -> Option<ContentError<'n>> {
        for field in self.fields.by_ref() {
            // One walk of the answer: how often the field is given, and
            // its first value.
            let (mut count, mut first) = (0usize, None);
            for (k, v) in self.content.iter() {
                if k.eq_json_str(&field.name) {
                    if count == 0 {
                        first = Some(v);
                    }
                    count += 1;
                }
            }
            self.matched = self.matched.saturating_add(count);
            let error = match (first, count) {
                (None, _) if field.required => FieldError::Missing,
                (None, _) => continue,
                (Some(_), 2..) => FieldError::DuplicateField,
                (Some(v), _) => match field.check_json(v) {
                    Ok(()) => continue,
                    Err(e) => e,
                },
            };
            return Some(ContentError {
                field: field.name,
                error,
            });
        }
        if !self.unknown_started {
            self.unknown_started = true;
            // Every member is a field: skip the per-member lookups, which
            // re-read the schema.
            self.all_named = self.matched == self.content.len();
        }
        if self.all_named {
            return None;
        }
        for (k, _) in self.unknown.by_ref() {
            if !self.form.has_property(&k) {
                return Some(ContentError {
                    field: k,
                    error: FieldError::UnknownField,
                });
            }
        }
        None
    }
}

// ---------------------------------------------------------------------------
// Format checkers. Each reads characters (so JSON escapes need no buffer)
// and accepts exactly the basic syntax named, nothing looser.

/// Whether `s` is `local@domain` with one `@`, a non-empty local part and a
/// domain of two or more non-empty dot-separated labels, without white
/// space or control characters.
pub fn is_email(s: &str) -> bool {
    email(Text::Str(s).chars())
}

/// Whether `s` is an RFC 3986 URI: `scheme ":" ...` with a scheme of
/// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` and only URI characters
/// after it (`%` followed by two hex digits).
pub fn is_uri(s: &str) -> bool {
    uri(Text::Str(s).chars())
}

/// Whether `s` is an RFC 3339 `full-date` naming a real day.
pub fn is_date(s: &str) -> bool {
    date(Text::Str(s).chars())
}

/// Whether `s` is an RFC 3339 `date-time`: full-date, `T`, `HH:MM:SS`
/// with an optional fraction, then `Z` or `+HH:MM` / `-HH:MM` (`t` and `z`
/// in either case).
pub fn is_date_time(s: &str) -> bool {
    date_time(Text::Str(s).chars())
}

fn email(chars: TextChars<'_>) -> bool {
    let (mut ats, mut local, mut label, mut dots) = (0, 0, 0, 0);
    for c in chars {
        if bytes::is_white_space(c) || c.is_control() {
            return false;
        }
        if c == '@' {
            ats += 1;
            if ats > 1 {
                return false;
            }
        } else if ats == 0 {
            local += 1;
        } else if c == '.' {
            if label == 0 {
                return false;
            }
            dots += 1;
            label = 0;
        } else {
            label += 1;
        }
    }
    ats == 1 && local > 0 && dots > 0 && label > 0
}

fn uri(chars: TextChars<'_>) -> bool {
    let mut it = chars;
    if !it.next().is_some_and(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    loop {
        match it.next() {
            Some(':') => break,
            Some(c) if c.is_ascii_alphanumeric() || bytes::is_one_of(c, b"+-.") => {}
            _ => return false,
        }
    }
    while let Some(c) = it.next() {
        let ok = if c == '%' {
            it.next().is_some_and(|h| h.is_ascii_hexdigit())
                && it.next().is_some_and(|h| h.is_ascii_hexdigit())
        } else {
            c.is_ascii_alphanumeric() || bytes::is_one_of(c, b"-._~:/?#[]@!$&'()*+,;=")
        };
        if !ok {
            return false;
        }
    }
    true
}

/// Reads exactly `n` ASCII digits as a number.
fn digits(it: &mut TextChars<'_>, n: usize) -> Option<u32> {
    let mut v = 0u32;
    for _ in 0..n {
        // At most 4 digits: no overflow.
        v = v
            .saturating_mul(10)
            .saturating_add(it.next()?.to_digit(10)?);
    }
    Some(v)
}

fn expect(it: &mut TextChars<'_>, want: &[char]) -> Option<()> {
    it.next().filter(|c| want.contains(c)).map(|_| ())
}

/// Reads `YYYY-MM-DD` and checks the day exists.
fn full_date(it: &mut TextChars<'_>) -> Option<()> {
    let y = digits(it, 4)?;
    expect(it, &['-'])?;
    let m = digits(it, 2)?;
    expect(it, &['-'])?;
    let d = digits(it, 2)?;
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    if !(1..=12).contains(&m) {
        return None;
    }
    // Bit `m` of `LONG_MONTHS`: month `m` has 31 days (1, 3, 5, 7, 8, 10,
    // 12); the others but February 30 (arithmetic, not a table).
    const LONG_MONTHS: u32 = 0b1_0101_1010_1010;
    let days = match m {
        2 => 28 + u32::from(leap),
        _ => 30 + ((LONG_MONTHS >> m) & 1),
    };
    (1..=days).contains(&d).then_some(())
}

/// Reads `HH:MM` with HH ≤ 23 and MM ≤ 59.
fn hour_minute(it: &mut TextChars<'_>) -> Option<()> {
    let h = digits(it, 2)?;
    expect(it, &[':'])?;
    let m = digits(it, 2)?;
    (h <= 23 && m <= 59).then_some(())
}

fn date(chars: TextChars<'_>) -> bool {
    let mut it = chars;
    full_date(&mut it).is_some() && it.next().is_none()
}

fn date_time(chars: TextChars<'_>) -> bool {
    let mut it = chars;
    // The next character without taking it (a clone of the position; no
    // `Peekable`, which would compile every reader above a second time).
    let peek = |it: &TextChars<'_>| it.clone().next();
    let parsed = (|| {
        full_date(&mut it)?;
        expect(&mut it, &['T', 't'])?;
        hour_minute(&mut it)?;
        expect(&mut it, &[':'])?;
        // 60 is a leap second, which RFC 3339's grammar allows.
        (digits(&mut it, 2)? <= 60).then_some(())?;
        if peek(&it) == Some('.') {
            it.next();
            digits(&mut it, 1)?;
            while peek(&it).is_some_and(|c| c.is_ascii_digit()) {
                it.next();
            }
        }
        match it.next()? {
            'Z' | 'z' => {}
            '+' | '-' => hour_minute(&mut it)?,
            _ => return None,
        }
        Some(())
    })();
    parsed.is_some() && it.next().is_none()
}
