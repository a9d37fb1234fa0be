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
mod number;
mod schema;
mod write;

pub use check::{is_date, is_date_time, is_email, is_uri, ContentError, ContentErrors, FieldError};
pub use number::Number;
pub use schema::{SchemaError, SchemaErrorKind};
pub use write::{ContentWriter, FieldValue, FieldValueKind, WriteError};

use crate::json::{Array, Elements, JsonStr, Members, Object, Value};

/// Most properties a form may have. Also the width of the "already set"
/// mask of [`ContentWriter`] (one bit per field).
pub const MAX_FORM_FIELDS: usize = 64;
/// Most options one enum field may have (bounds the duplicate checks,
/// which are quadratic).
pub const MAX_ENUM_OPTIONS: usize = 256;
/// Most keywords one schema object may have (bounds the duplicate-keyword
/// check).
pub const MAX_SCHEMA_KEYWORDS: usize = 32;

/// The `format` of a string field. The discriminants are the C API's
/// `mrtr_string_format` numbers (0 there is "no format").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StringFormat {
    /// `email`: one `@`, a non-empty local part, a dotted domain.
    Email = 1,
    /// `uri`: an RFC 3986 URI with a scheme.
    Uri = 2,
    /// `date`: an RFC 3339 `full-date`.
    Date = 3,
    /// `date-time`: an RFC 3339 `date-time`.
    DateTime = 4,
}

/// What kind of input a field takes, with its constraints.
// `repr(u32)`: the variant is a word of its own, not a niche in
// `MultiSelect`'s `min_items` (which every match read as a 64-bit compare).
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(u32)]
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
        minimum: Option<Number<'a>>,
        /// Inclusive upper bound.
        maximum: Option<Number<'a>>,
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

impl<'a> FieldKind<'a> {
    /// The kind's number in the C API (`mrtr_field_kind`): 1 text, 2
    /// number, 3 integer, 4 boolean, 5 single select, 6 multi select.
    pub const fn code(&self) -> u32 {
        match self {
            FieldKind::Text { .. } => 1,
            FieldKind::Number { integer: false, .. } => 2,
            FieldKind::Number { integer: true, .. } => 3,
            FieldKind::Boolean => 4,
            FieldKind::SingleSelect { .. } => 5,
            FieldKind::MultiSelect { .. } => 6,
        }
    }

    /// Text: the required syntax, if any.
    pub const fn format(&self) -> Option<StringFormat> {
        match self {
            FieldKind::Text { format, .. } => *format,
            _ => None,
        }
    }

    /// Text: the length bounds (`minLength`, `maxLength`); `None` for other
    /// kinds or when not set.
    pub const fn length_bounds(&self) -> (Option<u64>, Option<u64>) {
        match self {
            FieldKind::Text {
                min_length,
                max_length,
                ..
            } => (*min_length, *max_length),
            _ => (None, None),
        }
    }

    /// Numbers: the inclusive bounds (`minimum`, `maximum`).
    pub const fn number_bounds(&self) -> (Option<Number<'a>>, Option<Number<'a>>) {
        match self {
            FieldKind::Number {
                minimum, maximum, ..
            } => (*minimum, *maximum),
            _ => (None, None),
        }
    }

    /// Multi-select: the selection bounds (`minItems`, `maxItems`).
    pub const fn item_bounds(&self) -> (Option<u64>, Option<u64>) {
        match self {
            FieldKind::MultiSelect {
                min_items,
                max_items,
                ..
            } => (*min_items, *max_items),
            _ => (None, None),
        }
    }

    /// Selects: the options; `None` for other kinds.
    pub const fn options(&self) -> Option<Options<'a>> {
        match self {
            FieldKind::SingleSelect { options } | FieldKind::MultiSelect { options, .. } => {
                Some(*options)
            }
            _ => None,
        }
    }
}

/// One option of an enum field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnumOption<'a> {
    /// The value sent when chosen.
    pub value: JsonStr<'a>,
    /// The label to show, when the schema gives one.
    pub title: Option<JsonStr<'a>>,
}

/// The options of an enum field (validated: non-empty, distinct strings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options<'a> {
    /// `enum: ["a", ...]`, or when `titled` the `oneOf` / `anyOf` entries
    /// `[{"const": "a", "title": "A"}, ...]`.
    values: Array<'a>,
    titled: bool,
    /// `enumNames` beside `enum`.
    names: Option<Array<'a>>,
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
        OptionsIter {
            values: self.values.iter(),
            titled: self.titled,
            names: self.names.map(|n| n.iter()),
        }
    }

    /// The option values only (no title lookups).
    pub fn values(&self) -> impl Iterator<Item = JsonStr<'a>> + Clone + 'a {
        self.value_iter()
    }

    /// [`Self::values`] as its concrete type (the schema checks name it).
    pub(crate) fn value_iter(&self) -> OptionValues<'a> {
        OptionValues(OptionsIter {
            values: self.values.iter(),
            titled: self.titled,
            names: None,
        })
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

/// Iterator over the option values ([`Options::values`]): the walk of
/// [`OptionsIter`] without the titles, which the duplicate and membership
/// checks share.
#[derive(Clone)]
pub(crate) struct OptionValues<'a>(OptionsIter<'a>);

impl<'a> Iterator for OptionValues<'a> {
    type Item = JsonStr<'a>;
    fn next(&mut self) -> Option<JsonStr<'a>> {
        self.0.next_option(false).map(|o| o.value)
    }
}

/// Iterator over [`Options`]: one walk of the values (`enum`, or the
/// `oneOf`/`anyOf` entries), with `enumNames` alongside when given.
#[derive(Debug, Clone)]
pub struct OptionsIter<'a> {
    values: Elements<'a>,
    /// `oneOf`/`anyOf` entries: the value is the entry's `const`, the
    /// title its `title`.
    titled: bool,
    /// Legacy `enumNames`: the titles, in step with `values`.
    names: Option<Elements<'a>>,
}

impl<'a> OptionsIter<'a> {
    /// The next option; its title only when `titles` (the value checks
    /// skip the lookup).
    fn next_option(&mut self, titles: bool) -> Option<EnumOption<'a>> {
        let v = self.values.next()?;
        let (value, title) = if self.titled {
            let o = v.as_object()?;
            let value = o.get("const")?;
            let title = match titles {
                true => o.get("title"),
                false => None,
            };
            (value, title)
        } else {
            (v, self.names.as_mut().and_then(|n| n.next()))
        };
        Some(EnumOption {
            value: value.as_str()?,
            title: title.and_then(|t| t.as_str()),
        })
    }
}

impl<'a> Iterator for OptionsIter<'a> {
    type Item = EnumOption<'a>;
    fn next(&mut self) -> Option<EnumOption<'a>> {
        self.next_option(true)
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

    /// The field at `index` (schema order).
    pub fn field_at(&self, index: usize) -> Option<Field<'a>> {
        self.fields().nth(index)
    }

    /// Option `option` of select field `field`; `None` when there is no
    /// such field, it is not a select, or it has no such option.
    pub fn option_at(&self, field: usize, option: usize) -> Option<EnumOption<'a>> {
        match &self.field_at(field)?.kind {
            FieldKind::SingleSelect { options } | FieldKind::MultiSelect { options, .. } => {
                options.iter().nth(option)
            }
            _ => None,
        }
    }

    /// Reads a schema from its JSON bytes (default parse limits): JSON, an
    /// object, then [`ElicitForm::parse`].
    pub fn parse_json(schema: &'a [u8]) -> Result<Self, FormError<'a>> {
        let doc = crate::json::parse_with(schema, &crate::json::ParseLimits::default())
            .map_err(FormError::Json)?;
        let obj = doc.as_object().ok_or(FormError::Schema(SchemaError {
            property: None,
            kind: SchemaErrorKind::NotAnObjectSchema,
        }))?;
        ElicitForm::parse(obj).map_err(FormError::Schema)
    }

    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<Field<'a>> {
        self.fields().find(|f| f.name.eq_str(name))
    }

    /// The field whose name equals the JSON string `name`.
    pub fn field_json(&self, name: &JsonStr<'_>) -> Option<Field<'a>> {
        self.fields().find(|f| f.name.eq_json_str(name))
    }

    /// The index of the field whose name equals the JSON string `name`
    /// (as `field_json(name)`'s, without reading any property's schema:
    /// cheap enough to run for every member of a hostile answer).
    pub fn index_json(&self, name: &JsonStr<'_>) -> Option<usize> {
        self.properties
            .iter()
            .position(|(n, _)| n.eq_json_str(name))
    }

    /// Whether the schema defines a property `name` (see
    /// [`Self::index_json`]).
    fn has_property(&self, name: &JsonStr<'_>) -> bool {
        self.index_json(name).is_some()
    }

    fn is_required(&self, name: &JsonStr<'_>) -> bool {
        self.required.is_some_and(|r| {
            r.iter()
                .any(|e| e.as_str().is_some_and(|e| e.eq_json_str(name)))
        })
    }
}

/// Why [`ElicitForm::parse_json`] refused a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormError<'a> {
    /// The bytes are not one JSON document within the default limits.
    Json(crate::json::Error),
    /// The JSON is not a schema of the restricted subset.
    Schema(SchemaError<'a>),
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
        let required = self.form.is_required(&name);
        self.form.read_field(index, name, v, required, false).ok()
    }
}

#[cfg(test)]
mod tests;
