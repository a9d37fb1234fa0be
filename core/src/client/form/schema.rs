//! Reading `requestedSchema`: the checks behind [`ElicitForm::parse`] and
//! the errors they report.

use super::OptionValues;
use super::{
    ElicitForm, Field, FieldError, FieldKind, Number, Options, StringFormat, MAX_ENUM_OPTIONS,
    MAX_FORM_FIELDS, MAX_SCHEMA_KEYWORDS,
};
use crate::json::{Array, JsonStr, Object, Value};

impl<'a> ElicitForm<'a> {
    /// Checks `schema` against the restricted subset (see the module docs).
    ///
    /// Three walks: the top level's keywords, the property names (kept
    /// aside, so `required` is checked against them without walking
    /// `properties` again), then the property schemas. Each walk keeps the
    /// first error it meets and reports the errors in the order the
    /// checks rank them (duplicate and surplus keywords first, then each
    /// keyword's own, then those of the whole).
    pub fn parse(schema: Object<'a>) -> Result<Self, SchemaError<'a>> {
        let root = |kind| SchemaError {
            property: None,
            kind,
        };
        let at = |name, kind| SchemaError {
            property: Some(name),
            kind,
        };
        let mut properties = None;
        let mut required = None;
        let mut is_object = false;
        let mut keys = KeySet::new();
        let mut first = None;
        for (k, v) in schema.iter() {
            keys.add(k).map_err(root)?;
            if first.is_some() {
                continue;
            }
            let n = keyword(&k);
            first = match n {
                Some(TYPE) => {
                    is_object = v.as_str().is_some_and(|t| t.eq_str("object"));
                    None
                }
                Some(PROPERTIES) => {
                    properties = v.as_object();
                    properties
                        .is_none()
                        .then_some(SchemaErrorKind::MissingProperties)
                }
                Some(REQUIRED) => {
                    required = v.as_array();
                    required.is_none().then_some(SchemaErrorKind::BadRequired)
                }
                Some(ADDITIONAL_PROPERTIES) => v
                    .as_bool()
                    .is_none()
                    .then_some(SchemaErrorKind::UnsupportedKeyword(k)),
                Some(TITLE | DESCRIPTION | SCHEMA) => v
                    .as_str()
                    .is_none()
                    .then_some(SchemaErrorKind::WrongKeywordType(spelling(n))),
                _ if is_note(n, &k) => None,
                _ => Some(SchemaErrorKind::UnsupportedKeyword(k)),
            };
        }
        if let Some(kind) = first {
            return Err(root(kind));
        }
        if !is_object {
            return Err(root(SchemaErrorKind::NotAnObjectSchema));
        }
        let properties = properties.ok_or(root(SchemaErrorKind::MissingProperties))?;
        // The names, in order; a name equal to an earlier one is reported
        // only if there are not too many.
        let mut names: [Option<JsonStr<'a>>; MAX_FORM_FIELDS] = [None; MAX_FORM_FIELDS];
        let mut len = 0;
        let mut duplicate = None;
        for (name, _) in properties.iter() {
            let Some(slot) = names.get_mut(len) else {
                return Err(at(name, SchemaErrorKind::TooManyFields));
            };
            *slot = Some(name);
            if duplicate.is_none() && position(names.get(..len).unwrap_or(&[]), &name).is_some() {
                duplicate = Some(name);
            }
            len += 1;
        }
        if let Some(name) = duplicate {
            return Err(at(name, SchemaErrorKind::DuplicateProperty));
        }
        let names = names.get(..len).unwrap_or(&[]);
        // `listed[i]`: `required` names property `i` (bytes, not the bits
        // of a u64: no 64-bit shifts on 32-bit targets).
        let mut listed = [false; MAX_FORM_FIELDS];
        if let Some(req) = required {
            let (mut missing, mut twice) = (None, None);
            for (i, e) in req.iter().enumerate() {
                let Some(name) = e.as_str() else {
                    return Err(root(SchemaErrorKind::BadRequired));
                };
                // Valid entries name distinct properties, so an error, if
                // any, shows within the first MAX_FORM_FIELDS + 1 entries.
                if i > MAX_FORM_FIELDS || missing.is_some() {
                    continue;
                }
                match position(names, &name) {
                    None => missing = Some(name),
                    Some(p) if listed.get(p) == Some(&true) => {
                        if twice.is_none() {
                            twice = Some(name);
                        }
                    }
                    Some(p) => {
                        if let Some(l) = listed.get_mut(p) {
                            *l = true;
                        }
                    }
                }
            }
            if let Some(name) = missing {
                return Err(at(name, SchemaErrorKind::UnknownRequired));
            }
            if let Some(name) = twice {
                return Err(at(name, SchemaErrorKind::DuplicateRequired));
            }
        }
        let form = ElicitForm {
            properties,
            required,
            len,
        };
        for (index, (name, v)) in properties.iter().enumerate() {
            let required = listed.get(index) == Some(&true);
            if let Err(kind) = form.read_field(index, name, v, required, true) {
                return Err(at(name, kind));
            }
        }
        Ok(form)
    }

    /// Reads one property schema (`required`: whether `required` lists
    /// it). `full` runs the checks whose cost grows with the square of the
    /// options (duplicates) and the default check; `parse` runs them once,
    /// later reads of the same bytes skip them.
    pub(super) fn read_field(
        &self,
        index: usize,
        name: JsonStr<'a>,
        v: Value<'a>,
        required: bool,
        full: bool,
    ) -> Result<Field<'a>, SchemaErrorKind<'a>> {
        let obj = v.as_object().ok_or(SchemaErrorKind::NotASchemaObject)?;
        let mut k = Keywords {
            values: [None; FIELD_KEYWORDS],
            specific: 0,
            obj,
            full,
        };
        // One walk: a duplicate or surplus keyword is reported before any
        // keyword's own error, which is kept until the walk ends.
        let mut keys = KeySet::new();
        let mut first = Ok(());
        for (key, val) in obj.iter() {
            if full {
                keys.add(key)?;
            }
            if first.is_ok() {
                first = k.take(key, val);
            } else if !full {
                break;
            }
        }
        first?;
        let ty = k.values[TYPE].ok_or(SchemaErrorKind::MissingType)?;
        let ty = ty.as_str().ok_or(SchemaErrorKind::UnsupportedType)?;
        let kind = match ["string", "number", "integer", "boolean", "array"]
            .iter()
            .position(|t| ty.eq_str(t))
        {
            Some(0) => k.string_kind()?,
            Some(n @ (1 | 2)) => k.number_kind(n == 2)?,
            Some(3) => {
                k.only(0)?;
                FieldKind::Boolean
            }
            Some(4) => k.array_kind()?,
            _ => return Err(SchemaErrorKind::UnsupportedType),
        };
        let default = k.values[DEFAULT];
        if let (Some(d), true) = (default, full) {
            kind.check_json(d)
                .map_err(SchemaErrorKind::InvalidDefault)?;
        }
        Ok(Field {
            name,
            index,
            title: k.str(TITLE),
            description: k.str(DESCRIPTION),
            kind,
            default,
            required,
        })
    }
}

/// The JSON type a keyword's value must have (see [`TYPES`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ty {
    /// Any value (checked later, or not at all).
    Any,
    /// A string.
    Str,
    /// A non-negative integer.
    Count,
    /// A finite number.
    Num,
    /// `true` or `false`.
    Bool,
    /// An array.
    List,
    /// An object.
    Map,
    /// A string naming a known format.
    Format,
    /// An annotation: no effect on what a form accepts.
    Note,
    /// A keyword of the top level only (read by [`ElicitForm::parse`]).
    Top,
}

impl Ty {
    /// Whether `v` has this type.
    fn fits(self, v: Value<'_>) -> bool {
        match self {
            Ty::Str | Ty::Format => v.as_str().is_some(),
            Ty::Count => v.as_u64().is_some(),
            Ty::Num => Number::from_json(v).is_some(),
            Ty::Bool => v.as_bool().is_some(),
            Ty::List => v.as_array().is_some(),
            Ty::Map => v.as_object().is_some(),
            Ty::Any | Ty::Note | Ty::Top => true,
        }
    }
}

/// The keywords the reader knows (the type of a field's keyword's value is
/// in [`TYPES`]); a keyword's number is its index. Those before
/// `FIELD_KEYWORDS` are read
/// from a property schema (their values kept in `Keywords::values`) but
/// the top level's own (`Ty::Top`), those from `MIN_LENGTH` to
/// `UNIQUE_ITEMS` being type-specific (they must fit the field's type);
/// then those `items` and the options read, then annotations. The most
/// read come first (the table is searched in order).
const KNOWN: [&str; 28] = [
    "type",
    "properties",
    "required",
    "additionalProperties",
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
    "$id",
    "$comment",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// The type of each keyword a property schema may have, by number (see
/// [`KNOWN`]).
const TYPES: [Ty; FIELD_KEYWORDS] = [
    Ty::Any,
    Ty::Top,
    Ty::Top,
    Ty::Top,
    Ty::Str,
    Ty::Str,
    Ty::Any,
    Ty::Note,
    Ty::Count,
    Ty::Count,
    Ty::Format,
    Ty::List,
    Ty::List,
    Ty::List,
    Ty::Num,
    Ty::Num,
    Ty::Map,
    Ty::Count,
    Ty::Count,
    Ty::Bool,
];

// Keyword numbers (indexes into `KNOWN`).
const TYPE: usize = 0;
const PROPERTIES: usize = 1;
const REQUIRED: usize = 2;
const ADDITIONAL_PROPERTIES: usize = 3;
const TITLE: usize = 4;
const DESCRIPTION: usize = 5;
const DEFAULT: usize = 6;
const SCHEMA: usize = 7;
const MIN_LENGTH: usize = 8;
const MAX_LENGTH: usize = 9;
const FORMAT: usize = 10;
const ENUM: usize = 11;
const ENUM_NAMES: usize = 12;
const ONE_OF: usize = 13;
const MINIMUM: usize = 14;
const MAXIMUM: usize = 15;
const ITEMS: usize = 16;
const MIN_ITEMS: usize = 17;
const MAX_ITEMS: usize = 18;
const UNIQUE_ITEMS: usize = 19;
const ANY_OF: usize = 20;
const CONST: usize = 21;
/// The keywords a property schema reads: numbers below this one.
const FIELD_KEYWORDS: usize = ANY_OF;

/// The keywords of one property schema, gathered before deciding its kind.
struct Keywords<'a> {
    /// Each keyword's value, by number, once it was found to fit its type.
    values: [Option<Value<'a>>; FIELD_KEYWORDS],
    /// The type-specific keywords seen (their [`bit`]s, 8 to 19) and, in
    /// the low byte, how many (`COUNT_MASK`).
    specific: u32,
    /// The property schema (walked again to name a misplaced keyword).
    obj: Object<'a>,
    /// Run the quadratic checks (see `ElicitForm::read_field`).
    full: bool,
}

/// The low bits of `Keywords::specific`, below the bit of `MIN_LENGTH`:
/// the count of type-specific keywords.
const COUNT_MASK: u32 = bit(MIN_LENGTH) - 1;

/// The bit of keyword number `k` in a set of keywords.
const fn bit(k: usize) -> u32 {
    1 << (k & 31)
}

/// The format a `format` value names.
fn format_of(f: JsonStr<'_>) -> Option<StringFormat> {
    use StringFormat::*;
    let i = ["email", "uri", "date", "date-time"]
        .iter()
        .position(|name| f.eq_str(name))?;
    [Email, Uri, Date, DateTime].get(i).copied()
}

impl<'a> Keywords<'a> {
    fn take(&mut self, key: JsonStr<'a>, v: Value<'a>) -> Result<(), SchemaErrorKind<'a>> {
        let number = keyword(&key);
        let (n, ty) = match number.and_then(|n| Some((n, *TYPES.get(n)?))) {
            Some((_, Ty::Note)) => return Ok(()),
            Some((n, ty)) if ty != Ty::Top => (n, ty),
            _ if is_note(number, &key) => return Ok(()),
            _ => return Err(SchemaErrorKind::UnsupportedKeyword(key)),
        };
        if !ty.fits(v) {
            return Err(SchemaErrorKind::WrongKeywordType(spelling(number)));
        }
        if ty == Ty::Format && v.as_str().and_then(format_of).is_none() {
            return Err(SchemaErrorKind::UnknownFormat);
        }
        if let MIN_LENGTH..=UNIQUE_ITEMS = n {
            // At most 8 type-specific keywords can apply to one type; a
            // ninth is surely misplaced.
            // (A count, not `count_ones`: no keyword comes twice, as
            // `read_field` refuses a repeat before this.)
            if self.specific & COUNT_MASK >= 8 {
                return Err(SchemaErrorKind::UnsupportedKeyword(key));
            }
            self.specific = (self.specific | bit(n)) + 1;
        }
        if let Some(slot) = self.values.get_mut(n) {
            *slot = Some(v);
        }
        Ok(())
    }

    fn str(&self, n: usize) -> Option<JsonStr<'a>> {
        self.values.get(n)?.as_ref()?.as_str()
    }

    fn count(&self, n: usize) -> Option<u64> {
        self.values.get(n)?.as_ref()?.as_u64()
    }

    fn list(&self, n: usize) -> Option<Array<'a>> {
        self.values.get(n)?.as_ref()?.as_array()
    }

    fn number(&self, n: usize) -> Option<Number<'a>> {
        Number::from_json(self.values.get(n).copied().flatten()?)
    }

    /// Refuses every type-specific keyword not in `allowed` (their
    /// [`bit`]s): the first such one in the schema is named.
    fn only(&self, allowed: u32) -> Result<(), SchemaErrorKind<'a>> {
        // Every keyword of the schema was taken, so each type-specific one
        // has its bit.
        let misplaced = self.specific & !(allowed | COUNT_MASK);
        if misplaced == 0 {
            return Ok(());
        }
        let first = self
            .obj
            .iter()
            .find(|(key, _)| keyword(key).is_some_and(|n| misplaced & bit(n) != 0));
        match first {
            Some((key, _)) => Err(SchemaErrorKind::UnsupportedKeyword(key)),
            None => Ok(()),
        }
    }

    fn string_kind(&self) -> Result<FieldKind<'a>, SchemaErrorKind<'a>> {
        if let (Some(values), names) = (self.list(ENUM), self.list(ENUM_NAMES)) {
            self.only(bit(ENUM) | bit(ENUM_NAMES))?;
            return Ok(FieldKind::SingleSelect {
                options: read_options(values, false, names, self.full)?,
            });
        }
        if let Some(one_of) = self.list(ONE_OF) {
            self.only(bit(ONE_OF))?;
            return Ok(FieldKind::SingleSelect {
                options: read_options(one_of, true, None, self.full)?,
            });
        }
        self.only(bit(MIN_LENGTH) | bit(MAX_LENGTH) | bit(FORMAT))?;
        let (min_length, max_length) = (self.count(MIN_LENGTH), self.count(MAX_LENGTH));
        bounds_in_order(min_length, max_length, "minLength")?;
        Ok(FieldKind::Text {
            min_length,
            max_length,
            format: self.str(FORMAT).and_then(format_of),
        })
    }

    fn number_kind(&self, integer: bool) -> Result<FieldKind<'a>, SchemaErrorKind<'a>> {
        self.only(bit(MINIMUM) | bit(MAXIMUM))?;
        let (minimum, maximum) = (self.number(MINIMUM), self.number(MAXIMUM));
        if let (Some(lo), Some(hi)) = (minimum, maximum) {
            if lo > hi {
                return Err(SchemaErrorKind::InconsistentBounds("minimum"));
            }
        }
        Ok(FieldKind::Number {
            integer,
            minimum,
            maximum,
        })
    }

    fn array_kind(&self) -> Result<FieldKind<'a>, SchemaErrorKind<'a>> {
        self.only(bit(ITEMS) | bit(MIN_ITEMS) | bit(MAX_ITEMS) | bit(UNIQUE_ITEMS))?;
        let items = self
            .values
            .get(ITEMS)
            .and_then(|v| v.as_ref()?.as_object())
            .ok_or(SchemaErrorKind::MissingItems)?;
        if self.full {
            check_keywords(items)?;
        }
        let mut src = None;
        for (k, v) in items.iter() {
            let n = keyword(&k);
            match n {
                Some(TYPE) => {
                    if !v.as_str().is_some_and(|t| t.eq_str("string")) {
                        return Err(SchemaErrorKind::UnsupportedType);
                    }
                }
                Some(list @ (ENUM | ANY_OF)) if src.is_none() => {
                    let a = v
                        .as_array()
                        .ok_or(SchemaErrorKind::WrongKeywordType(spelling(n)))?;
                    src = Some((a, list != ENUM));
                }
                _ if is_note(n, &k) => {}
                _ => return Err(SchemaErrorKind::UnsupportedKeyword(k)),
            }
        }
        let (values, titled) = src.ok_or(SchemaErrorKind::MissingItems)?;
        let options = read_options(values, titled, None, self.full)?;
        let (min_items, max_items) = (self.count(MIN_ITEMS), self.count(MAX_ITEMS));
        bounds_in_order(min_items, max_items, "minItems")?;
        if min_items.is_some_and(|m| m > options.len as u64) {
            // More selections required than there are distinct options.
            return Err(SchemaErrorKind::InconsistentBounds("minItems"));
        }
        Ok(FieldKind::MultiSelect {
            options,
            min_items,
            max_items,
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
/// `enum` and all strings (`titled`: `oneOf` / `anyOf` entries; `names`:
/// `enumNames`).
fn read_options<'a>(
    values: Array<'a>,
    titled: bool,
    names: Option<Array<'a>>,
    full: bool,
) -> Result<Options<'a>, SchemaErrorKind<'a>> {
    let mut options = Options {
        values,
        titled,
        names,
        len: 0,
    };
    if !full {
        // Checked once by `parse`; only the count is needed.
        options.len = values.len();
        return Ok(options);
    }
    let mut len = 0usize;
    for (i, v) in values.iter().enumerate() {
        if i >= MAX_ENUM_OPTIONS {
            return Err(SchemaErrorKind::TooManyOptions);
        }
        if titled {
            let o = v.as_object().ok_or(SchemaErrorKind::BadOption)?;
            // One walk: a duplicate or surplus keyword first, then (kept
            // until the walk ends) anything but string `const`, `title`
            // and annotations. The bits of `const` and `title` seen.
            let (mut keys, mut has, mut bad) = (KeySet::new(), 0u32, false);
            for (k, val) in o.iter() {
                keys.add(k)?;
                let n = keyword(&k);
                match n {
                    Some(n @ (CONST | TITLE)) if val.as_str().is_some() => has |= bit(n),
                    _ if is_note(n, &k) => {}
                    _ => bad = true,
                }
            }
            if bad || has != bit(CONST) | bit(TITLE) {
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
    if let Some(names) = names {
        if names.len() != len || names.iter().any(|n| n.as_str().is_none()) {
            return Err(SchemaErrorKind::EnumNamesMismatch);
        }
    }
    options.len = len;
    match find_duplicate(options.value_iter()) {
        Some(v) => Err(SchemaErrorKind::DuplicateOption(v)),
        None => Ok(options),
    }
}

/// Strings compared per pass of the duplicate check (one [`KeySet`]).
const BLOCK: usize = MAX_SCHEMA_KEYWORDS;

/// The first option value equal (decoded) to an earlier one.
/// The values are walked once per [`BLOCK`] strings (each walk from a copy
/// of the list, which then steps past the block), kept in a [`KeySet`]:
/// `n / 32` walks and `n^2 / 2` cheap comparisons, instead of the `n^2 / 2`
/// walks a naive scan of a span makes (each walk re-reads JSON). A pass
/// that does not fill its block is the last (one walk for short lists):
/// every pair has been compared.
fn find_duplicate<'a>(list: OptionValues<'a>) -> Option<JsonStr<'a>> {
    // The values from the current block on.
    let mut rest = list;
    loop {
        let mut block = KeySet::new();
        for s in rest.clone() {
            if block.seen_or_keep(s) {
                return Some(s);
            }
        }
        if block.len < BLOCK {
            return None;
        }
        for _ in 0..BLOCK {
            rest.next();
        }
    }
}

/// Where `s` is in `list` (compared decoded), if it is.
fn position(list: &[Option<JsonStr<'_>>], s: &JsonStr<'_>) -> Option<usize> {
    list.iter()
        .position(|p| p.is_some_and(|p| p.eq_json_str(s)))
}

/// The keywords of one schema object so far, to refuse duplicate keywords
/// and objects with too many (each key is compared with the earlier ones
/// kept aside, so one walk of the object checks it).
struct KeySet<'a> {
    seen: [Option<JsonStr<'a>>; MAX_SCHEMA_KEYWORDS],
    len: usize,
}

impl<'a> KeySet<'a> {
    fn new() -> Self {
        KeySet {
            seen: [None; MAX_SCHEMA_KEYWORDS],
            len: 0,
        }
    }

    /// Adds the next keyword of the object, refusing one too many or one
    /// given before.
    fn add(&mut self, k: JsonStr<'a>) -> Result<(), SchemaErrorKind<'a>> {
        let full = self.len >= MAX_SCHEMA_KEYWORDS;
        match (full, self.seen_or_keep(k)) {
            (true, _) => Err(SchemaErrorKind::TooManyKeywords),
            (false, true) => Err(SchemaErrorKind::DuplicateKeyword(k)),
            (false, false) => Ok(()),
        }
    }

    /// Whether a string equal (decoded) to `k` is kept; if not, keeps `k`
    /// when there is room.
    fn seen_or_keep(&mut self, k: JsonStr<'a>) -> bool {
        let earlier = self.seen.get(..self.len).unwrap_or(&[]);
        if position(earlier, &k).is_some() {
            return true;
        }
        if let Some(slot) = self.seen.get_mut(self.len) {
            *slot = Some(k);
            self.len += 1;
        }
        false
    }
}

/// Refuses duplicate keywords and objects with too many (one walk of the
/// object).
fn check_keywords(obj: Object<'_>) -> Result<(), SchemaErrorKind<'_>> {
    let mut keys = KeySet::new();
    obj.iter().try_for_each(|(k, _)| keys.add(k))
}

/// Whether the keyword numbered `number` (from [`keyword`]), spelled `k`,
/// is an annotation: no effect on what a form accepts.
fn is_note(number: Option<usize>, k: &JsonStr<'_>) -> bool {
    match number {
        Some(n) => n == SCHEMA || n > CONST,
        None => {
            let mut c = k.chars();
            c.next() == Some('x') && c.next() == Some('-')
        }
    }
}

/// The number of a known keyword (its index in `KNOWN`).
fn keyword(k: &JsonStr<'_>) -> Option<usize> {
    KNOWN.iter().position(|n| k.eq_str(n))
}

/// The static spelling of a keyword number, or `""`.
fn spelling(number: Option<usize>) -> &'static str {
    number.and_then(|i| KNOWN.get(i)).copied().unwrap_or("")
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
        packed_name!(self, SchemaErrorKind:
            NotAnObjectSchema MissingProperties TooManyFields DuplicateProperty TooManyKeywords
            DuplicateKeyword UnsupportedKeyword NotASchemaObject MissingType UnsupportedType
            UnknownFormat WrongKeywordType InconsistentBounds MissingItems EmptyOptions
            TooManyOptions NonStringOption BadOption DuplicateOption EnumNamesMismatch BadRequired
            UnknownRequired DuplicateRequired InvalidDefault
        )
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
