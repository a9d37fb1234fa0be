//! Reading `requestedSchema`: the checks behind [`ElicitForm::parse`] and
//! the errors they report.

use super::OptionValues;
use super::{
    ElicitForm, Field, FieldError, FieldKind, Number, Options, OptionsSource, StringFormat,
    MAX_ENUM_OPTIONS, MAX_FORM_FIELDS, MAX_SCHEMA_KEYWORDS,
};
use crate::json::{Array, Elements, JsonStr, Members, Object, Value};

impl<'a> ElicitForm<'a> {
    /// Checks `schema` against the restricted subset (see the module docs).
    pub fn parse(schema: Object<'a>) -> Result<Self, SchemaError<'a>> {
        let root = |kind| SchemaError {
            property: None,
            kind,
        };
        check_keywords(schema).map_err(root)?;
        let mut properties = None;
        let mut required = None;
        let mut is_object = false;
        for (k, v) in schema.iter() {
            if k.eq_str("type") {
                is_object = v.as_str().is_some_and(|t| t.eq_str("object"));
            } else if k.eq_str("properties") {
                properties = Some(
                    v.as_object()
                        .ok_or(root(SchemaErrorKind::MissingProperties))?,
                );
            } else if k.eq_str("required") {
                required = Some(v.as_array().ok_or(root(SchemaErrorKind::BadRequired))?);
            } else if k.eq_str("additionalProperties") {
                if v.as_bool().is_none() {
                    return Err(root(SchemaErrorKind::UnsupportedKeyword(k)));
                }
            } else if k.eq_str("title") || k.eq_str("description") || k.eq_str("$schema") {
                if v.as_str().is_none() {
                    return Err(root(SchemaErrorKind::WrongKeywordType(keyword_name(&k))));
                }
            } else if !is_annotation(&k) {
                return Err(root(SchemaErrorKind::UnsupportedKeyword(k)));
            }
        }
        if !is_object {
            return Err(root(SchemaErrorKind::NotAnObjectSchema));
        }
        let properties = properties.ok_or(root(SchemaErrorKind::MissingProperties))?;
        let mut len = 0;
        for (i, (name, _)) in properties.iter().enumerate() {
            if i >= MAX_FORM_FIELDS {
                return Err(SchemaError {
                    property: Some(name),
                    kind: SchemaErrorKind::TooManyFields,
                });
            }
            len = i + 1;
        }
        let names = Strings::Keys(properties.iter());
        if let Some(name) = find_duplicate(names.clone()) {
            return Err(SchemaError {
                property: Some(name),
                kind: SchemaErrorKind::DuplicateProperty,
            });
        }
        if let Some(req) = required {
            if req.iter().any(|e| e.as_str().is_none()) {
                return Err(root(SchemaErrorKind::BadRequired));
            }
            // Valid entries name distinct properties, so an error, if any,
            // shows within the first MAX_FORM_FIELDS + 1 entries.
            let entries = Strings::Elements(req.iter(), MAX_FORM_FIELDS + 1);
            let at = |name, kind| SchemaError {
                property: Some(name),
                kind,
            };
            if let Some(name) = find_missing(entries.clone(), names) {
                return Err(at(name, SchemaErrorKind::UnknownRequired));
            }
            if let Some(name) = find_duplicate(entries) {
                return Err(at(name, SchemaErrorKind::DuplicateRequired));
            }
        }
        let form = ElicitForm {
            properties,
            required,
            len,
        };
        for (index, (name, v)) in properties.iter().enumerate() {
            form.read_field(index, name, v, true)
                .map_err(|kind| SchemaError {
                    property: Some(name),
                    kind,
                })?;
        }
        Ok(form)
    }

    /// Reads one property schema. `full` runs the checks whose cost grows
    /// with the square of the options (duplicates) and the default check;
    /// `parse` runs them once, later reads of the same bytes skip them.
    pub(super) fn read_field(
        &self,
        index: usize,
        name: JsonStr<'a>,
        v: Value<'a>,
        full: bool,
    ) -> Result<Field<'a>, SchemaErrorKind<'a>> {
        let obj = v.as_object().ok_or(SchemaErrorKind::NotASchemaObject)?;
        if full {
            check_keywords(obj)?;
        }
        let mut k = Keywords {
            full,
            ..Keywords::default()
        };
        for (key, val) in obj.iter() {
            k.take(key, val)?;
        }
        let ty = k.ty.ok_or(SchemaErrorKind::MissingType)?;
        let ty = ty.as_str().ok_or(SchemaErrorKind::UnsupportedType)?;
        let kind = if ty.eq_str("string") {
            k.string_kind()?
        } else if ty.eq_str("number") || ty.eq_str("integer") {
            k.number_kind(ty.eq_str("integer"))?
        } else if ty.eq_str("boolean") {
            k.only(0)?;
            FieldKind::Boolean
        } else if ty.eq_str("array") {
            k.array_kind()?
        } else {
            return Err(SchemaErrorKind::UnsupportedType);
        };
        let field = Field {
            name,
            index,
            title: k.title,
            description: k.description,
            kind,
            default: k.default,
            required: self.is_required(&name),
        };
        if let (Some(d), true) = (k.default, full) {
            field
                .check_json(d)
                .map_err(SchemaErrorKind::InvalidDefault)?;
        }
        Ok(field)
    }
}

/// The keywords of one property schema, gathered before deciding its kind.
#[derive(Default)]
struct Keywords<'a> {
    ty: Option<Value<'a>>,
    title: Option<JsonStr<'a>>,
    description: Option<JsonStr<'a>>,
    default: Option<Value<'a>>,
    min_length: Option<u64>,
    max_length: Option<u64>,
    format: Option<StringFormat>,
    enum_values: Option<Array<'a>>,
    enum_names: Option<Array<'a>>,
    one_of: Option<Array<'a>>,
    minimum: Option<Number<'a>>,
    maximum: Option<Number<'a>>,
    items: Option<Object<'a>>,
    min_items: Option<u64>,
    max_items: Option<u64>,
    unique_items: bool,
    /// Run the quadratic checks (see `ElicitForm::read_field`).
    full: bool,
    /// Type-specific keywords seen, in order, with their numbers, to refuse
    /// those that do not fit the type.
    seen: [Option<(JsonStr<'a>, usize)>; 8],
}

// The numbers of the keywords a property schema reads (indexes into
// `KNOWN`); those from `MIN_LENGTH` to `UNIQUE_ITEMS` are type-specific
// (they must match the field's type).
const TYPE: usize = 0;
const TITLE: usize = 1;
const DESCRIPTION: usize = 2;
const DEFAULT: usize = 3;
const MIN_LENGTH: usize = 5;
const MAX_LENGTH: usize = 6;
const FORMAT: usize = 7;
const ENUM: usize = 8;
const ENUM_NAMES: usize = 9;
const ONE_OF: usize = 10;
const MINIMUM: usize = 11;
const MAXIMUM: usize = 12;
const ITEMS: usize = 13;
const MIN_ITEMS: usize = 14;
const MAX_ITEMS: usize = 15;
const UNIQUE_ITEMS: usize = 16;

/// Stores a keyword's value read as its type; whether it had that type.
fn put<T>(slot: &mut Option<T>, value: Option<T>) -> bool {
    *slot = value;
    slot.is_some()
}

/// The bit of keyword number `k` in an `allowed` set of [`Keywords::only`].
const fn bit(k: usize) -> u32 {
    1 << k
}

impl<'a> Keywords<'a> {
    fn take(&mut self, key: JsonStr<'a>, v: Value<'a>) -> Result<(), SchemaErrorKind<'a>> {
        let number = keyword(&key);
        // Whether the value has the keyword's type; the error is made once,
        // below, not at each keyword.
        let typed = match number {
            Some(TYPE) => put(&mut self.ty, Some(v)),
            Some(TITLE) => put(&mut self.title, v.as_str()),
            Some(DESCRIPTION) => put(&mut self.description, v.as_str()),
            Some(DEFAULT) => put(&mut self.default, Some(v)),
            Some(MIN_LENGTH) => put(&mut self.min_length, v.as_u64()),
            Some(MAX_LENGTH) => put(&mut self.max_length, v.as_u64()),
            Some(MIN_ITEMS) => put(&mut self.min_items, v.as_u64()),
            Some(MAX_ITEMS) => put(&mut self.max_items, v.as_u64()),
            Some(MINIMUM) => put(&mut self.minimum, Number::from_json(v)),
            Some(MAXIMUM) => put(&mut self.maximum, Number::from_json(v)),
            Some(UNIQUE_ITEMS) => {
                self.unique_items = v.as_bool() == Some(true);
                v.as_bool().is_some()
            }
            Some(ENUM) => put(&mut self.enum_values, v.as_array()),
            Some(ENUM_NAMES) => put(&mut self.enum_names, v.as_array()),
            Some(ONE_OF) => put(&mut self.one_of, v.as_array()),
            Some(ITEMS) => put(&mut self.items, v.as_object()),
            Some(FORMAT) => match v.as_str() {
                None => false,
                Some(f) => {
                    self.format = Some(if f.eq_str("email") {
                        StringFormat::Email
                    } else if f.eq_str("uri") {
                        StringFormat::Uri
                    } else if f.eq_str("date") {
                        StringFormat::Date
                    } else if f.eq_str("date-time") {
                        StringFormat::DateTime
                    } else {
                        return Err(SchemaErrorKind::UnknownFormat);
                    });
                    true
                }
            },
            _ if is_annotation(&key) => return Ok(()),
            _ => return Err(SchemaErrorKind::UnsupportedKeyword(key)),
        };
        if !typed {
            return Err(SchemaErrorKind::WrongKeywordType(spelling(number)));
        }
        if let Some(k @ MIN_LENGTH..=UNIQUE_ITEMS) = number {
            // At most 8 type-specific keywords can apply to one type; a
            // ninth is surely misplaced and is reported by `only`.
            if let Some(slot) = self.seen.iter_mut().find(|s| s.is_none()) {
                *slot = Some((key, k));
            } else {
                return Err(SchemaErrorKind::UnsupportedKeyword(key));
            }
        }
        Ok(())
    }

    /// Refuses every type-specific keyword not in `allowed` (their
    /// [`bit`]s).
    fn only(&self, allowed: u32) -> Result<(), SchemaErrorKind<'a>> {
        for (key, k) in self.seen.iter().flatten() {
            if allowed & bit(*k) == 0 {
                return Err(SchemaErrorKind::UnsupportedKeyword(*key));
            }
        }
        Ok(())
    }

    fn string_kind(&self) -> Result<FieldKind<'a>, SchemaErrorKind<'a>> {
        if let (Some(values), names) = (self.enum_values, self.enum_names) {
            self.only(bit(ENUM) | bit(ENUM_NAMES))?;
            let src = match names {
                Some(n) => OptionsSource::Legacy(values, n),
                None => OptionsSource::Plain(values),
            };
            return Ok(FieldKind::SingleSelect {
                options: read_options(src, self.full)?,
            });
        }
        if let Some(one_of) = self.one_of {
            self.only(bit(ONE_OF))?;
            return Ok(FieldKind::SingleSelect {
                options: read_options(OptionsSource::Titled(one_of), self.full)?,
            });
        }
        self.only(bit(MIN_LENGTH) | bit(MAX_LENGTH) | bit(FORMAT))?;
        bounds_in_order(self.min_length, self.max_length, "minLength")?;
        Ok(FieldKind::Text {
            min_length: self.min_length,
            max_length: self.max_length,
            format: self.format,
        })
    }

    fn number_kind(&self, integer: bool) -> Result<FieldKind<'a>, SchemaErrorKind<'a>> {
        self.only(bit(MINIMUM) | bit(MAXIMUM))?;
        if let (Some(lo), Some(hi)) = (self.minimum, self.maximum) {
            if lo > hi {
                return Err(SchemaErrorKind::InconsistentBounds("minimum"));
            }
        }
        Ok(FieldKind::Number {
            integer,
            minimum: self.minimum,
            maximum: self.maximum,
        })
    }

    fn array_kind(&self) -> Result<FieldKind<'a>, SchemaErrorKind<'a>> {
        self.only(bit(ITEMS) | bit(MIN_ITEMS) | bit(MAX_ITEMS) | bit(UNIQUE_ITEMS))?;
        let items = self.items.ok_or(SchemaErrorKind::MissingItems)?;
        if self.full {
            check_keywords(items)?;
        }
        let mut src = None;
        for (k, v) in items.iter() {
            let wrong = SchemaErrorKind::WrongKeywordType;
            if k.eq_str("type") {
                if !v.as_str().is_some_and(|t| t.eq_str("string")) {
                    return Err(SchemaErrorKind::UnsupportedType);
                }
            } else if k.eq_str("enum") && src.is_none() {
                src = Some(OptionsSource::Plain(v.as_array().ok_or(wrong("enum"))?));
            } else if k.eq_str("anyOf") && src.is_none() {
                src = Some(OptionsSource::Titled(v.as_array().ok_or(wrong("anyOf"))?));
            } else if !is_annotation(&k) {
                return Err(SchemaErrorKind::UnsupportedKeyword(k));
            }
        }
        let options = read_options(src.ok_or(SchemaErrorKind::MissingItems)?, self.full)?;
        bounds_in_order(self.min_items, self.max_items, "minItems")?;
        if self.min_items.is_some_and(|m| m > options.len as u64) {
            // More selections required than there are distinct options.
            return Err(SchemaErrorKind::InconsistentBounds("minItems"));
        }
        Ok(FieldKind::MultiSelect {
            options,
            min_items: self.min_items,
            max_items: self.max_items,
        })
    }
}

fn bounds_in_order(
    lo: Option<u64>,
    hi: Option<u64>,
    keyword: &'static str,
) -> Result<(), SchemaErrorKind<'static>> {
    match (lo, hi) {
        (Some(lo), Some(hi)) if lo > hi => Err(SchemaErrorKind::InconsistentBounds(keyword)),
        _ => Ok(()),
    }
}

/// Checks a list of options: 1..=MAX_ENUM_OPTIONS distinct strings, titled
/// entries exactly `{const, title}` of strings, `enumNames` as long as
/// `enum` and all strings.
fn read_options(src: OptionsSource<'_>, full: bool) -> Result<Options<'_>, SchemaErrorKind<'_>> {
    let values = match src {
        OptionsSource::Plain(a) | OptionsSource::Titled(a) | OptionsSource::Legacy(a, _) => a,
    };
    if !full {
        // Checked once by `parse`; only the count is needed.
        return Ok(Options {
            src,
            len: values.len(),
        });
    }
    let mut len = 0usize;
    for (i, v) in values.iter().enumerate() {
        if i >= MAX_ENUM_OPTIONS {
            return Err(SchemaErrorKind::TooManyOptions);
        }
        if let OptionsSource::Titled(_) = src {
            let o = v.as_object().ok_or(SchemaErrorKind::BadOption)?;
            check_keywords(o)?;
            let (mut has_const, mut has_title) = (false, false);
            for (k, val) in o.iter() {
                let is_str = val.as_str().is_some();
                if k.eq_str("const") && is_str {
                    has_const = true;
                } else if k.eq_str("title") && is_str {
                    has_title = true;
                } else if !is_annotation(&k) {
                    return Err(SchemaErrorKind::BadOption);
                }
            }
            if !(has_const && has_title) {
                return Err(SchemaErrorKind::BadOption);
            }
        } else if v.as_str().is_none() {
            return Err(SchemaErrorKind::NonStringOption);
        }
        len = i + 1;
    }
    if len == 0 {
        return Err(SchemaErrorKind::EmptyOptions);
    }
    if let OptionsSource::Legacy(_, names) = src {
        if names.len() != len || names.iter().any(|n| n.as_str().is_none()) {
            return Err(SchemaErrorKind::EnumNamesMismatch);
        }
    }
    let options = Options { src, len };
    match find_duplicate(Strings::Options(options.value_iter())) {
        Some(v) => Err(SchemaErrorKind::DuplicateOption(v)),
        None => Ok(options),
    }
}

/// Strings compared per pass of the duplicate and membership checks.
const BLOCK: usize = 32;

/// A sequence of strings the duplicate and membership checks walk: one
/// concrete type, so each check is compiled once (not once per kind of
/// sequence).
#[derive(Clone)]
enum Strings<'a> {
    /// An object's keys.
    Keys(Members<'a>),
    /// The string elements of an array (others skipped), at most this many
    /// elements read.
    Elements(Elements<'a>, usize),
    /// An enum's option values.
    Options(OptionValues<'a>),
}

impl<'a> Iterator for Strings<'a> {
    type Item = JsonStr<'a>;
    fn next(&mut self) -> Option<JsonStr<'a>> {
        match self {
            Strings::Keys(m) => m.next().map(|(k, _)| k),
            Strings::Elements(e, left) => loop {
                *left = left.checked_sub(1)?;
                if let Some(s) = e.next()?.as_str() {
                    return Some(s);
                }
            },
            Strings::Options(o) => o.next(),
        }
    }
}

/// The first string of a sequence equal (decoded) to an earlier one.
/// The sequence is walked once per [`BLOCK`] strings (from a copy of
/// `list`): `n / 32` walks and `n^2 / 2` cheap comparisons, instead of the
/// `n^2 / 2` walks a naive scan of a span makes (each walk re-reads JSON).
/// A block the sequence ends in is the last pass (one walk for short
/// lists), and each string is compared with the filled slots only.
fn find_duplicate<'a>(list: Strings<'a>) -> Option<JsonStr<'a>> {
    let mut start = 0usize;
    loop {
        let mut block: [Option<JsonStr<'a>>; BLOCK] = [None; BLOCK];
        let mut it = list.clone();
        if start > 0 {
            it.nth(start - 1);
        }
        let mut n = 0usize;
        while n < BLOCK {
            // Ended inside the block: every pair has been compared.
            let s = it.next()?;
            if block.iter().flatten().any(|b| b.eq_json_str(&s)) {
                return Some(s);
            }
            if let Some(slot) = block.get_mut(n) {
                *slot = Some(s);
            }
            n += 1;
        }
        for s in it {
            if block.iter().flatten().any(|b| b.eq_json_str(&s)) {
                return Some(s);
            }
        }
        start = start.saturating_add(BLOCK);
    }
}

/// The first string of `wanted` not equal (decoded) to any of `set`;
/// `set` is walked once per [`BLOCK`] strings of `wanted`.
fn find_missing<'a>(wanted: Strings<'a>, set: Strings<'_>) -> Option<JsonStr<'a>> {
    let mut start = 0usize;
    loop {
        let mut block: [Option<JsonStr<'a>>; BLOCK] = [None; BLOCK];
        let mut n = 0usize;
        let mut it = wanted.clone();
        if start > 0 {
            it.nth(start - 1);
        }
        for (slot, s) in block.iter_mut().zip(it) {
            *slot = Some(s);
            n += 1;
        }
        if n == 0 {
            return None;
        }
        let mut found = 0u32;
        for s in set.clone() {
            for (j, b) in block.iter().take(n).enumerate() {
                if b.is_some_and(|b| b.eq_json_str(&s)) {
                    found |= 1u32 << j;
                }
            }
        }
        for (j, b) in block.iter().take(n).enumerate() {
            if let (Some(b), false) = (b, found & (1u32 << j) != 0) {
                return Some(*b);
            }
        }
        if n < BLOCK {
            // `wanted` ended inside this block.
            return None;
        }
        start = start.saturating_add(n);
    }
}

/// Refuses duplicate keywords and objects with too many (one walk of the
/// object: each key is compared with the earlier ones kept aside).
fn check_keywords(obj: Object<'_>) -> Result<(), SchemaErrorKind<'_>> {
    let mut seen: [Option<JsonStr<'_>>; MAX_SCHEMA_KEYWORDS] = [None; MAX_SCHEMA_KEYWORDS];
    for (i, (k, _)) in obj.iter().enumerate() {
        let Some(slot) = seen.get_mut(i) else {
            return Err(SchemaErrorKind::TooManyKeywords);
        };
        *slot = Some(k);
        if seen.iter().take(i).flatten().any(|p| p.eq_json_str(&k)) {
            return Err(SchemaErrorKind::DuplicateKeyword(k));
        }
    }
    Ok(())
}

/// Keywords with no effect on what a form accepts.
fn is_annotation(k: &JsonStr<'_>) -> bool {
    [
        "$schema",
        "$id",
        "$comment",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
    ]
    .iter()
    .any(|a| k.eq_str(a))
        || {
            let mut c = k.chars();
            c.next() == Some('x') && c.next() == Some('-')
        }
}

/// The keywords with a static spelling (for error values), in the order of
/// their numbers (`TYPE`, ...).
const KNOWN: [&str; 19] = [
    "type",
    "title",
    "description",
    "default",
    "$schema",
    "minLength",
    "maxLength",
    "format",
    "enum",
    "enumNames",
    "oneOf",
    "minimum",
    "maximum",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "anyOf",
    "const",
];

/// The number of a known keyword (its index in `KNOWN`).
fn keyword(k: &JsonStr<'_>) -> Option<usize> {
    KNOWN.iter().position(|n| k.eq_str(n))
}

/// The static spelling of a keyword number, or `""`.
fn spelling(number: Option<usize>) -> &'static str {
    number.and_then(|i| KNOWN.get(i)).copied().unwrap_or("")
}

/// The static spelling of a known keyword (for error values), or `""`.
fn keyword_name(k: &JsonStr<'_>) -> &'static str {
    spelling(keyword(k))
}

/// A schema outside the restricted subset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SchemaError<'a> {
    /// The property at fault; `None` for the schema's top level.
    pub property: Option<JsonStr<'a>>,
    /// What is wrong.
    pub kind: SchemaErrorKind<'a>,
}

/// What is wrong with a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemaErrorKind<'a> {
    /// The top level is not `"type": "object"`.
    NotAnObjectSchema,
    /// The top level has no `properties` object.
    MissingProperties,
    /// More than [`MAX_FORM_FIELDS`] properties.
    TooManyFields,
    /// A property name occurs twice.
    DuplicateProperty,
    /// More than [`MAX_SCHEMA_KEYWORDS`] keywords in one schema object.
    TooManyKeywords,
    /// A keyword occurs twice in one schema object.
    DuplicateKeyword(JsonStr<'a>),
    /// A keyword outside the subset (`$ref`, `allOf`, `pattern`,
    /// `properties` of a nested object, ...) or one that does not apply to
    /// the field's type (`minLength` on a number).
    UnsupportedKeyword(JsonStr<'a>),
    /// A property's schema is not a JSON object.
    NotASchemaObject,
    /// A property has no `type`.
    MissingType,
    /// A `type` other than string, number, integer, boolean or array of
    /// strings (nested objects included), or a `type` that is not a string.
    UnsupportedType,
    /// A `format` other than email, uri, date, date-time.
    UnknownFormat,
    /// The keyword's value has the wrong JSON type (a bound that is not a
    /// non-negative integer or a finite number, a title that is not a
    /// string, ...).
    WrongKeywordType(&'static str),
    /// The lower bound named is above its upper bound, or `minItems` is
    /// above the number of options.
    InconsistentBounds(&'static str),
    /// An array field without `items.enum` or `items.anyOf`.
    MissingItems,
    /// An enum with no options.
    EmptyOptions,
    /// More than [`MAX_ENUM_OPTIONS`] options.
    TooManyOptions,
    /// An `enum` value that is not a string.
    NonStringOption,
    /// A `oneOf` / `anyOf` entry that is not `{"const": .., "title": ..}`
    /// with string values.
    BadOption,
    /// An option value occurs twice.
    DuplicateOption(JsonStr<'a>),
    /// `enumNames` is not a list of strings as long as `enum`.
    EnumNamesMismatch,
    /// `required` is not an array of strings.
    BadRequired,
    /// `required` names a property that does not exist.
    UnknownRequired,
    /// `required` names a property twice.
    DuplicateRequired,
    /// The field's `default` breaks the field's own rules.
    InvalidDefault(FieldError),
}

impl core::fmt::Display for SchemaError<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.property {
            Some(p) => write!(f, "property {}: ", quoted(&p))?,
            None => write!(f, "schema: ")?,
        }
        write!(f, "{}", self.kind)
    }
}

impl core::error::Error for SchemaError<'_> {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match &self.kind {
            SchemaErrorKind::InvalidDefault(e) => Some(e),
            _ => None,
        }
    }
}

impl<'a> SchemaErrorKind<'a> {
    /// The variant's name (`"UnsupportedKeyword"`), for logs; the C API's
    /// `reason`.
    pub const fn name(&self) -> &'static core::ffi::CStr {
        use SchemaErrorKind::*;
        match self {
            NotAnObjectSchema => c"NotAnObjectSchema",
            MissingProperties => c"MissingProperties",
            TooManyFields => c"TooManyFields",
            DuplicateProperty => c"DuplicateProperty",
            TooManyKeywords => c"TooManyKeywords",
            DuplicateKeyword(_) => c"DuplicateKeyword",
            UnsupportedKeyword(_) => c"UnsupportedKeyword",
            NotASchemaObject => c"NotASchemaObject",
            MissingType => c"MissingType",
            UnsupportedType => c"UnsupportedType",
            UnknownFormat => c"UnknownFormat",
            WrongKeywordType(_) => c"WrongKeywordType",
            InconsistentBounds(_) => c"InconsistentBounds",
            MissingItems => c"MissingItems",
            EmptyOptions => c"EmptyOptions",
            TooManyOptions => c"TooManyOptions",
            NonStringOption => c"NonStringOption",
            BadOption => c"BadOption",
            DuplicateOption(_) => c"DuplicateOption",
            EnumNamesMismatch => c"EnumNamesMismatch",
            BadRequired => c"BadRequired",
            UnknownRequired => c"UnknownRequired",
            DuplicateRequired => c"DuplicateRequired",
            InvalidDefault(_) => c"InvalidDefault",
        }
    }

    /// The keyword or option value the error names, as the schema wrote
    /// it (escapes not decoded, no quotes); `None` when it names none.
    pub fn keyword(&self) -> Option<&'a [u8]> {
        use SchemaErrorKind::*;
        match self {
            DuplicateKeyword(k) | UnsupportedKeyword(k) | DuplicateOption(k) => Some(k.raw_inner()),
            WrongKeywordType(k) | InconsistentBounds(k) => Some(k.as_bytes()),
            _ => None,
        }
    }

    /// `InvalidDefault`: what is wrong with the default.
    pub const fn default_error(&self) -> Option<FieldError> {
        match self {
            SchemaErrorKind::InvalidDefault(e) => Some(*e),
            _ => None,
        }
    }
}

impl core::fmt::Display for SchemaErrorKind<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        use SchemaErrorKind::*;
        match *self {
            NotAnObjectSchema => write!(f, "type must be \"object\""),
            MissingProperties => write!(f, "properties must be an object"),
            TooManyFields => write!(f, "more than {MAX_FORM_FIELDS} fields"),
            DuplicateProperty => write!(f, "defined twice"),
            TooManyKeywords => write!(f, "more than {MAX_SCHEMA_KEYWORDS} keywords"),
            DuplicateKeyword(k) => write!(f, "keyword {} given twice", quoted(&k)),
            UnsupportedKeyword(k) => write!(f, "unsupported keyword {}", quoted(&k)),
            NotASchemaObject => write!(f, "schema must be an object"),
            MissingType => write!(f, "no type"),
            UnsupportedType => write!(f, "unsupported type"),
            UnknownFormat => write!(f, "unknown format"),
            WrongKeywordType(k) => write!(f, "{k} has the wrong type"),
            InconsistentBounds(k) => write!(f, "{k} cannot be satisfied"),
            MissingItems => write!(f, "array needs items.enum or items.anyOf"),
            EmptyOptions => write!(f, "no options"),
            TooManyOptions => write!(f, "more than {MAX_ENUM_OPTIONS} options"),
            NonStringOption => write!(f, "enum values must be strings"),
            BadOption => write!(f, "options must be {{\"const\", \"title\"}} strings"),
            DuplicateOption(v) => write!(f, "option {} given twice", quoted(&v)),
            EnumNamesMismatch => write!(f, "enumNames must match enum"),
            BadRequired => write!(f, "required must be an array of strings"),
            UnknownRequired => write!(f, "required but not defined"),
            DuplicateRequired => write!(f, "listed twice in required"),
            InvalidDefault(e) => write!(f, "invalid default: {e}"),
        }
    }
}

impl core::error::Error for SchemaErrorKind<'_> {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            SchemaErrorKind::InvalidDefault(e) => Some(e),
            _ => None,
        }
    }
}

/// A JSON string's decoded text in double quotes, for messages.
fn quoted<'s>(s: &'s JsonStr<'s>) -> impl core::fmt::Display + 's {
    struct Quoted<'s>(&'s JsonStr<'s>);
    impl core::fmt::Display for Quoted<'_> {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            use core::fmt::Write;
            f.write_char('"')?;
            for c in self.0.chars() {
                f.write_char(c)?;
            }
            f.write_char('"')
        }
    }
    Quoted(s)
}
