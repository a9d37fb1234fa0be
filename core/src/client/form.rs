//! Form-mode elicitation: the `requestedSchema` as typed fields, checks of
//! the user's answer and a writer of the accept `content`.
//!
//! The 2026-07-28 schema restricts `requestedSchema` to a flat object whose
//! properties are each one `PrimitiveSchemaDefinition`: a string (length
//! bounds, `format` email / uri / date / date-time), a number or integer
//! (bounds), a boolean, a single-select enum (`enum`, titled `oneOf` of
//! `{const, title}`, or the legacy `enum` + `enumNames`) or a multi-select
//! (`type: array` with `items.enum` or `items.anyOf`, `minItems`,
//! `maxItems`). [`ElicitForm::parse`] checks the whole schema once and
//! refuses anything outside that subset with a [`SchemaError`] naming the
//! property and the keyword, rather than rendering a guess: nested objects,
//! `$ref`, unknown types or formats, non-string options, wrongly typed
//! bounds, contradictory bounds, a `required` entry naming no property, a
//! default that breaks its own field. Annotations that change nothing
//! (`$schema`, `$id`, `$comment`, `examples`, `deprecated`, `readOnly`,
//! `writeOnly`, `x-*` extensions) are ignored; `additionalProperties` may be
//! a boolean and `uniqueItems` is accepted either way (answers never carry
//! unknown fields, and a selection never repeats an option).
//!
//! Fields are borrowed views over the schema bytes: iterating them, their
//! options and their defaults allocates nothing.

mod check;
mod write;

pub use check::{is_date, is_date_time, is_email, is_uri, ContentError, ContentErrors, FieldError};
pub use write::{ContentWriter, FieldValue, WriteError};

use crate::json::{Array, Elements, JsonStr, Members, Object, Value};
use core::cmp::Ordering;

/// Most properties a form may have. Also the width of the "already set"
/// mask of [`ContentWriter`] (one bit per field).
pub const MAX_FORM_FIELDS: usize = 64;
/// Most options one enum field may have (bounds the duplicate checks,
/// which are quadratic).
pub const MAX_ENUM_OPTIONS: usize = 256;
/// Most keywords one schema object may have (bounds the duplicate-keyword
/// check).
pub const MAX_SCHEMA_KEYWORDS: usize = 32;

/// The `format` of a string field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StringFormat {
    /// `email`: one `@`, a non-empty local part, a dotted domain.
    Email,
    /// `uri`: an RFC 3986 URI with a scheme.
    Uri,
    /// `date`: an RFC 3339 `full-date`.
    Date,
    /// `date-time`: an RFC 3339 `date-time`.
    DateTime,
}

/// A JSON number from the schema or an answer: its `f64` value, plus its
/// exact value when it is an integer literal that fits `i64` (so integer
/// bounds compare exactly beyond 2^53).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Number {
    /// The value as `f64` (always finite).
    pub value: f64,
    /// The exact value of an integer literal.
    pub exact: Option<i64>,
}

impl Number {
    /// Reads a JSON number; `None` for other values and for literals
    /// beyond the `f64` range (`1e400`).
    pub fn from_json(v: Value<'_>) -> Option<Number> {
        if !v.is_number() {
            return None;
        }
        let text = core::str::from_utf8(v.raw()).ok()?;
        let value: f64 = text.parse().ok()?;
        value.is_finite().then_some(Number {
            value,
            exact: v.as_i64(),
        })
    }

    /// Whether the value is a whole number (as JSON Schema's `integer`:
    /// `2.0` is one).
    pub fn is_integer(&self) -> bool {
        // Every f64 of magnitude 2^53 or more is a whole number.
        const EXACT: f64 = 9_007_199_254_740_992.0;
        self.exact.is_some() || !(-EXACT..=EXACT).contains(&self.value) || {
            self.value == (self.value as i64) as f64
        }
    }

    fn compare(&self, other: &Number) -> Option<Ordering> {
        match (self.exact, other.exact) {
            (Some(a), Some(b)) => Some(a.cmp(&b)),
            _ => self.value.partial_cmp(&other.value),
        }
    }
}

/// What kind of input a field takes, with its constraints.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FieldKind<'a> {
    /// Free text.
    Text {
        /// Minimum length in Unicode scalar values.
        min_length: Option<u64>,
        /// Maximum length in Unicode scalar values.
        max_length: Option<u64>,
        /// Required syntax, if any.
        format: Option<StringFormat>,
    },
    /// A number (`integer` set for `type: integer`).
    Number {
        /// Whether only whole numbers are allowed.
        integer: bool,
        /// Inclusive lower bound.
        minimum: Option<Number>,
        /// Inclusive upper bound.
        maximum: Option<Number>,
    },
    /// A yes/no choice.
    Boolean,
    /// Exactly one of the options (a string).
    SingleSelect {
        /// The options.
        options: Options<'a>,
    },
    /// Any number of distinct options (an array of strings).
    MultiSelect {
        /// The options.
        options: Options<'a>,
        /// Fewest selections.
        min_items: Option<u64>,
        /// Most selections.
        max_items: Option<u64>,
    },
}

/// One option of an enum field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnumOption<'a> {
    /// The value sent when chosen.
    pub value: JsonStr<'a>,
    /// The label to show, when the schema gives one.
    pub title: Option<JsonStr<'a>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OptionsSource<'a> {
    /// `enum: ["a", ...]`
    Plain(Array<'a>),
    /// `oneOf` / `anyOf`: `[{"const": "a", "title": "A"}, ...]`
    Titled(Array<'a>),
    /// `enum` with `enumNames`.
    Legacy(Array<'a>, Array<'a>),
}

/// The options of an enum field (validated: non-empty, distinct strings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options<'a> {
    src: OptionsSource<'a>,
    len: usize,
}

impl<'a> Options<'a> {
    /// Number of options.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none (never true for a parsed form).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The options in schema order.
    pub fn iter(&self) -> OptionsIter<'a> {
        OptionsIter(match self.src {
            OptionsSource::Plain(a) => OptionsCursor::Plain(a.iter()),
            OptionsSource::Titled(a) => OptionsCursor::Titled(a.iter()),
            OptionsSource::Legacy(v, n) => OptionsCursor::Legacy(v.iter(), n.iter()),
        })
    }

    /// The option values only (no title lookups).
    pub fn values(&self) -> impl Iterator<Item = JsonStr<'a>> + Clone + 'a {
        let (plain, titled) = match self.src {
            OptionsSource::Plain(a) | OptionsSource::Legacy(a, _) => (Some(a.iter()), None),
            OptionsSource::Titled(a) => (None, Some(a.iter())),
        };
        let plain = plain.into_iter().flatten().filter_map(|v| v.as_str());
        let titled = titled
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_object()?.get("const")?.as_str());
        plain.chain(titled)
    }

    /// Whether `value` is one of the option values.
    pub fn contains(&self, value: &str) -> bool {
        self.values().any(|v| v.eq_str(value))
    }

    /// Whether the JSON string `value` is one of the option values.
    pub fn contains_json(&self, value: &JsonStr<'_>) -> bool {
        self.values().any(|v| v.eq_json_str(value))
    }
}

/// Iterator over [`Options`].
#[derive(Debug, Clone)]
pub struct OptionsIter<'a>(OptionsCursor<'a>);

#[derive(Debug, Clone)]
enum OptionsCursor<'a> {
    Plain(Elements<'a>),
    Titled(Elements<'a>),
    Legacy(Elements<'a>, Elements<'a>),
}

impl<'a> Iterator for OptionsIter<'a> {
    type Item = EnumOption<'a>;
    fn next(&mut self) -> Option<EnumOption<'a>> {
        match &mut self.0 {
            OptionsCursor::Plain(it) => Some(EnumOption {
                value: it.next()?.as_str()?,
                title: None,
            }),
            OptionsCursor::Titled(it) => {
                let o = it.next()?.as_object()?;
                Some(EnumOption {
                    value: o.get("const")?.as_str()?,
                    title: o.get("title").and_then(|t| t.as_str()),
                })
            }
            OptionsCursor::Legacy(v, n) => Some(EnumOption {
                value: v.next()?.as_str()?,
                title: n.next().and_then(|t| t.as_str()),
            }),
        }
    }
}

/// One form field: a borrowed view of one property of the schema.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Field<'a> {
    /// The property name (the key of the answer).
    pub name: JsonStr<'a>,
    /// Position among the properties (0-based).
    pub index: usize,
    /// The label to show.
    pub title: Option<JsonStr<'a>>,
    /// Help text.
    pub description: Option<JsonStr<'a>>,
    /// The input kind and its constraints.
    pub kind: FieldKind<'a>,
    /// The default value (already checked against the field).
    pub default: Option<Value<'a>>,
    /// Whether the answer must contain this field.
    pub required: bool,
}

/// A checked `requestedSchema`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ElicitForm<'a> {
    properties: Object<'a>,
    required: Option<Array<'a>>,
    len: usize,
}

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
        let names = || properties.iter().map(|(k, _)| k);
        if let Some(name) = find_duplicate(names) {
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
            let entries = || {
                req.iter()
                    .take(MAX_FORM_FIELDS + 1)
                    .filter_map(|e| e.as_str())
            };
            let at = |name, kind| SchemaError {
                property: Some(name),
                kind,
            };
            if let Some(name) = find_missing(entries, names) {
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

    /// Number of fields.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the form has no fields (a bare confirmation).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The fields in schema order.
    pub fn fields(&self) -> Fields<'a> {
        Fields {
            form: *self,
            members: self.properties.iter(),
            index: 0,
        }
    }

    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<Field<'a>> {
        self.fields().find(|f| f.name.eq_str(name))
    }

    /// The field whose name equals the JSON string `name`.
    pub fn field_json(&self, name: &JsonStr<'_>) -> Option<Field<'a>> {
        self.fields().find(|f| f.name.eq_json_str(name))
    }

    /// Whether the schema defines a property `name` (without reading its
    /// schema: cheap enough to run for every member of a hostile answer).
    fn has_property(&self, name: &JsonStr<'_>) -> bool {
        self.properties.iter().any(|(n, _)| n.eq_json_str(name))
    }

    fn is_required(&self, name: &JsonStr<'_>) -> bool {
        self.required.is_some_and(|r| {
            r.iter()
                .any(|e| e.as_str().is_some_and(|e| e.eq_json_str(name)))
        })
    }

    /// Reads one property schema. `full` runs the checks whose cost grows
    /// with the square of the options (duplicates) and the default check;
    /// `parse` runs them once, later reads of the same bytes skip them.
    fn read_field(
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
            k.only(&[])?;
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

/// Iterator over the fields of an [`ElicitForm`].
#[derive(Debug, Clone)]
pub struct Fields<'a> {
    form: ElicitForm<'a>,
    members: Members<'a>,
    index: usize,
}

impl<'a> Iterator for Fields<'a> {
    type Item = Field<'a>;
    fn next(&mut self) -> Option<Field<'a>> {
        let (name, v) = self.members.next()?;
        let index = self.index;
        self.index += 1;
        // Checked by `parse`, so this cannot fail.
        self.form.read_field(index, name, v, false).ok()
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
    minimum: Option<Number>,
    maximum: Option<Number>,
    items: Option<Object<'a>>,
    min_items: Option<u64>,
    max_items: Option<u64>,
    unique_items: bool,
    /// Run the quadratic checks (see `ElicitForm::read_field`).
    full: bool,
    /// Keywords seen, in order, to refuse those that do not fit the type.
    seen: [Option<JsonStr<'a>>; 8],
}

/// Type-specific keywords (those that must match the field's type).
const SPECIFIC: [&str; 12] = [
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
];

impl<'a> Keywords<'a> {
    fn take(&mut self, key: JsonStr<'a>, v: Value<'a>) -> Result<(), SchemaErrorKind<'a>> {
        let name = keyword_name(&key);
        let wrong = SchemaErrorKind::WrongKeywordType(name);
        let count = |v: Value<'a>| v.as_u64().ok_or(wrong);
        match name {
            "type" => self.ty = Some(v),
            "title" => self.title = Some(v.as_str().ok_or(wrong)?),
            "description" => self.description = Some(v.as_str().ok_or(wrong)?),
            "default" => self.default = Some(v),
            "minLength" => self.min_length = Some(count(v)?),
            "maxLength" => self.max_length = Some(count(v)?),
            "minItems" => self.min_items = Some(count(v)?),
            "maxItems" => self.max_items = Some(count(v)?),
            "minimum" => self.minimum = Some(Number::from_json(v).ok_or(wrong)?),
            "maximum" => self.maximum = Some(Number::from_json(v).ok_or(wrong)?),
            "uniqueItems" => self.unique_items = v.as_bool().ok_or(wrong)?,
            "enum" => self.enum_values = Some(v.as_array().ok_or(wrong)?),
            "enumNames" => self.enum_names = Some(v.as_array().ok_or(wrong)?),
            "oneOf" => self.one_of = Some(v.as_array().ok_or(wrong)?),
            "items" => self.items = Some(v.as_object().ok_or(wrong)?),
            "format" => {
                let f = v.as_str().ok_or(wrong)?;
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
            }
            _ if is_annotation(&key) => return Ok(()),
            _ => return Err(SchemaErrorKind::UnsupportedKeyword(key)),
        }
        if SPECIFIC.contains(&name) {
            // At most 8 type-specific keywords can apply to one type; a
            // ninth is surely misplaced and is reported by `only`.
            if let Some(slot) = self.seen.iter_mut().find(|s| s.is_none()) {
                *slot = Some(key);
            } else {
                return Err(SchemaErrorKind::UnsupportedKeyword(key));
            }
        }
        Ok(())
    }

    /// Refuses every type-specific keyword not in `allowed`.
    fn only(&self, allowed: &[&str]) -> Result<(), SchemaErrorKind<'a>> {
        for key in self.seen.iter().flatten() {
            if !allowed.iter().any(|a| key.eq_str(a)) {
                return Err(SchemaErrorKind::UnsupportedKeyword(*key));
            }
        }
        Ok(())
    }

    fn string_kind(&self) -> Result<FieldKind<'a>, SchemaErrorKind<'a>> {
        if let (Some(values), names) = (self.enum_values, self.enum_names) {
            self.only(&["enum", "enumNames"])?;
            let src = match names {
                Some(n) => OptionsSource::Legacy(values, n),
                None => OptionsSource::Plain(values),
            };
            return Ok(FieldKind::SingleSelect {
                options: read_options(src, self.full)?,
            });
        }
        if let Some(one_of) = self.one_of {
            self.only(&["oneOf"])?;
            return Ok(FieldKind::SingleSelect {
                options: read_options(OptionsSource::Titled(one_of), self.full)?,
            });
        }
        self.only(&["minLength", "maxLength", "format"])?;
        bounds_in_order(self.min_length, self.max_length, "minLength")?;
        Ok(FieldKind::Text {
            min_length: self.min_length,
            max_length: self.max_length,
            format: self.format,
        })
    }

    fn number_kind(&self, integer: bool) -> Result<FieldKind<'a>, SchemaErrorKind<'a>> {
        self.only(&["minimum", "maximum"])?;
        if let (Some(lo), Some(hi)) = (self.minimum, self.maximum) {
            if lo.compare(&hi) == Some(Ordering::Greater) {
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
        self.only(&["items", "minItems", "maxItems", "uniqueItems"])?;
        let items = self.items.ok_or(SchemaErrorKind::MissingItems)?;
        if self.full {
            check_keywords(items)?;
        }
        let mut src = None;
        for (k, v) in items.iter() {
            let wrong = SchemaErrorKind::WrongKeywordType(keyword_name(&k));
            if k.eq_str("type") {
                if !v.as_str().is_some_and(|t| t.eq_str("string")) {
                    return Err(SchemaErrorKind::UnsupportedType);
                }
            } else if k.eq_str("enum") && src.is_none() {
                src = Some(OptionsSource::Plain(v.as_array().ok_or(wrong)?));
            } else if k.eq_str("anyOf") && src.is_none() {
                src = Some(OptionsSource::Titled(v.as_array().ok_or(wrong)?));
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
    match find_duplicate(|| options.values()) {
        Some(v) => Err(SchemaErrorKind::DuplicateOption(v)),
        None => Ok(options),
    }
}

/// Strings compared per pass of the duplicate and membership checks.
const BLOCK: usize = 32;

/// The first string of a sequence equal (decoded) to an earlier one.
/// `make` recreates the sequence, which is walked once per [`BLOCK`]
/// strings: `n / 32` walks and `n^2 / 2` cheap comparisons, instead of the
/// `n^2 / 2` walks a naive scan of a span makes (each walk re-reads JSON).
fn find_duplicate<'a, I>(make: impl Fn() -> I) -> Option<JsonStr<'a>>
where
    I: Iterator<Item = JsonStr<'a>>,
{
    let mut start = 0usize;
    loop {
        let mut block: [Option<JsonStr<'a>>; BLOCK] = [None; BLOCK];
        let mut it = make().skip(start);
        let mut n = 0usize;
        while n < BLOCK {
            let Some(s) = it.next() else { break };
            if block.iter().flatten().any(|b| b.eq_json_str(&s)) {
                return Some(s);
            }
            if let Some(slot) = block.get_mut(n) {
                *slot = Some(s);
            }
            n += 1;
        }
        if n == 0 {
            return None;
        }
        for s in it {
            if block.iter().flatten().any(|b| b.eq_json_str(&s)) {
                return Some(s);
            }
        }
        start = start.saturating_add(n);
    }
}

/// The first string of `wanted` not equal (decoded) to any of `set`;
/// `set` is walked once per [`BLOCK`] strings of `wanted`.
fn find_missing<'a, 'b, W, S>(wanted: impl Fn() -> W, set: impl Fn() -> S) -> Option<JsonStr<'a>>
where
    W: Iterator<Item = JsonStr<'a>>,
    S: Iterator<Item = JsonStr<'b>>,
{
    let mut start = 0usize;
    loop {
        let mut block: [Option<JsonStr<'a>>; BLOCK] = [None; BLOCK];
        let mut n = 0usize;
        for (slot, s) in block.iter_mut().zip(wanted().skip(start)) {
            *slot = Some(s);
            n += 1;
        }
        if n == 0 {
            return None;
        }
        let mut found = 0u32;
        for s in set() {
            for (j, b) in block.iter().enumerate() {
                if b.is_some_and(|b| b.eq_json_str(&s)) {
                    found |= 1u32 << j;
                }
            }
        }
        for (j, b) in block.iter().enumerate() {
            if let (Some(b), false) = (b, found & (1u32 << j) != 0) {
                return Some(*b);
            }
        }
        start = start.saturating_add(n);
    }
}

/// Refuses duplicate keywords and objects with too many.
fn check_keywords(obj: Object<'_>) -> Result<(), SchemaErrorKind<'_>> {
    for (i, (k, _)) in obj.iter().enumerate() {
        if i >= MAX_SCHEMA_KEYWORDS {
            return Err(SchemaErrorKind::TooManyKeywords);
        }
        if obj.iter().take(i).any(|(p, _)| p.eq_json_str(&k)) {
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

/// The static spelling of a known keyword (for error values), or `""`.
fn keyword_name(k: &JsonStr<'_>) -> &'static str {
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
        "anyOf",
        "minimum",
        "maximum",
        "items",
        "minItems",
        "maxItems",
        "uniqueItems",
        "const",
    ];
    KNOWN.iter().find(|n| k.eq_str(n)).copied().unwrap_or("")
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
        use SchemaErrorKind::*;
        match self.property {
            Some(p) => write!(f, "property {}: ", quoted(&p))?,
            None => write!(f, "schema: ")?,
        }
        match self.kind {
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

#[cfg(test)]
mod tests;
