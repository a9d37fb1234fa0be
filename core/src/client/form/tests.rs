use super::*;
use crate::json;
use std::string::{String, ToString};
use std::vec::Vec;

fn leak(s: String) -> &'static str {
    std::boxed::Box::leak(s.into_boxed_str())
}

fn obj(s: &str) -> Object<'_> {
    json::parse(s.as_bytes()).unwrap().as_object().unwrap()
}

fn form(schema: &str) -> ElicitForm<'_> {
    ElicitForm::parse(obj(schema)).unwrap_or_else(|e| panic!("{e}"))
}

/// A form with one property `f` of the given schema.
fn one(field_schema: &str) -> Result<ElicitForm<'static>, SchemaError<'static>> {
    let s = leak(std::format!(
        r#"{{"type":"object","properties":{{"f":{field_schema}}}}}"#
    ));
    ElicitForm::parse(obj(s))
}

fn one_err(field_schema: &str) -> SchemaErrorKind<'static> {
    let e = one(field_schema).unwrap_err();
    assert!(e.property.unwrap().eq_str("f"));
    e.kind
}

fn s(j: Option<JsonStr<'_>>) -> Option<String> {
    j.map(|j| j.chars().collect())
}

const CONTACT: &str = r#"{
    "type": "object",
    "properties": {
      "name": {"type": "string", "description": "Your full name"},
      "email": {"type": "string", "format": "email", "description": "Your email address"},
      "age": {"type": "number", "minimum": 18, "description": "Your age"}
    },
    "required": ["name", "email"]
}"#;

#[test]
fn spec_example_becomes_typed_fields() {
    let f = form(CONTACT);
    assert_eq!(f.len(), 3);
    let fields: Vec<Field<'_>> = f.fields().collect();
    let names: Vec<String> = fields.iter().map(|f| s(Some(f.name)).unwrap()).collect();
    assert_eq!(names, ["name", "email", "age"]);
    assert_eq!(
        fields
            .iter()
            .map(|f| (f.index, f.required))
            .collect::<Vec<_>>(),
        [(0, true), (1, true), (2, false)]
    );
    assert_eq!(s(fields[0].description).as_deref(), Some("Your full name"));
    assert_eq!(fields[0].title, None);
    assert_eq!(
        fields[0].kind,
        FieldKind::Text {
            min_length: None,
            max_length: None,
            format: None
        }
    );
    assert_eq!(
        fields[1].kind,
        FieldKind::Text {
            min_length: None,
            max_length: None,
            format: Some(StringFormat::Email)
        }
    );
    assert_eq!(
        fields[2].kind,
        FieldKind::Number {
            integer: false,
            minimum: Number::parse("18"),
            maximum: None
        }
    );
    assert!(f.field("age").is_some() && f.field("nope").is_none());
}

#[test]
fn every_primitive_schema_of_the_spec_examples() {
    let text = one(r#"{"type":"string","title":"Display Name","description":"Description text","minLength":3,"maxLength":50,"format":"email","default":"user@example.com"}"#).unwrap();
    let t = text.field("f").unwrap();
    assert_eq!(s(t.title).as_deref(), Some("Display Name"));
    assert_eq!(
        t.kind,
        FieldKind::Text {
            min_length: Some(3),
            max_length: Some(50),
            format: Some(StringFormat::Email)
        }
    );
    assert_eq!(t.default.unwrap().raw(), br#""user@example.com""#);

    let num =
        one(r#"{"type":"number","title":"Display Name","minimum":0,"maximum":100,"default":50}"#)
            .unwrap();
    let n = num.field("f").unwrap();
    assert!(
        matches!(n.kind, FieldKind::Number { integer: false, minimum: Some(lo), maximum: Some(hi) } if lo.as_str() == "0" && hi.as_str() == "100")
    );
    assert_eq!(n.default.unwrap().raw(), b"50");

    let b = one(r#"{"type":"boolean","title":"Display Name","default":false}"#).unwrap();
    assert_eq!(b.field("f").unwrap().kind, FieldKind::Boolean);

    let options = |f: &ElicitForm<'_>| -> Vec<(String, Option<String>)> {
        let opts = match f.field("f").unwrap().kind {
            FieldKind::SingleSelect { options } | FieldKind::MultiSelect { options, .. } => options,
            k => panic!("{k:?}"),
        };
        opts.iter()
            .map(|o| (s(Some(o.value)).unwrap(), s(o.title)))
            .collect()
    };
    let plain = |v: &str| (v.to_string(), None);
    let titled = |v: &str, t: &str| (v.to_string(), Some(t.to_string()));

    let single = one(r#"{"type":"string","enum":["Red","Green","Blue"],"default":"Red"}"#).unwrap();
    assert_eq!(
        options(&single),
        [plain("Red"), plain("Green"), plain("Blue")]
    );

    let titled_single = one(r##"{"type":"string","oneOf":[{"const":"#FF0000","title":"Red"},{"const":"#00FF00","title":"Green"}],"default":"#FF0000"}"##).unwrap();
    assert_eq!(
        options(&titled_single),
        [titled("#FF0000", "Red"), titled("#00FF00", "Green")]
    );

    let legacy =
        one(r#"{"type":"string","enum":["a","b"],"enumNames":["Option A","Option B"]}"#).unwrap();
    assert_eq!(
        options(&legacy),
        [titled("a", "Option A"), titled("b", "Option B")]
    );

    let multi = one(r#"{"type":"array","minItems":1,"maxItems":2,"items":{"type":"string","enum":["Red","Green","Blue"]},"default":["Red","Green"]}"#).unwrap();
    assert_eq!(
        options(&multi),
        [plain("Red"), plain("Green"), plain("Blue")]
    );
    assert!(matches!(
        multi.field("f").unwrap().kind,
        FieldKind::MultiSelect {
            min_items: Some(1),
            max_items: Some(2),
            ..
        }
    ));

    let titled_multi = one(r##"{"type":"array","items":{"anyOf":[{"const":"#FF0000","title":"Red"},{"const":"#0000FF","title":"Blue"}]},"default":["#FF0000"]}"##).unwrap();
    assert_eq!(
        options(&titled_multi),
        [titled("#FF0000", "Red"), titled("#0000FF", "Blue")]
    );
}

#[test]
fn sdk_generated_schemas_are_accepted() {
    // zod's JSON Schema output and pydantic's, as the official SDKs send them.
    form(
        r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"n":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991}},"required":["n"],"additionalProperties":false}"#,
    );
    form(
        r#"{"title":"Booking","type":"object","properties":{"date":{"title":"Date","type":"string","format":"date","description":"When"}},"required":["date"]}"#,
    );
    form(
        r#"{"type":"object","properties":{"x":{"type":"string","x-ui-widget":"textarea","$comment":"c","examples":["e"]}},"x-vendor":1}"#,
    );
    let empty = form(r#"{"type":"object","properties":{}}"#);
    assert!(empty.is_empty());
}

#[test]
fn schemas_outside_the_subset_name_property_and_keyword() {
    use SchemaErrorKind::*;
    let kw = |k: SchemaErrorKind<'_>| -> String {
        match k {
            UnsupportedKeyword(k) | DuplicateKeyword(k) | DuplicateOption(k) => s(Some(k)).unwrap(),
            other => std::format!("{other:?}"),
        }
    };
    assert_eq!(
        kw(one_err(
            r#"{"type":"object","properties":{"a":{"type":"string"}}}"#
        )),
        "properties"
    );
    assert_eq!(one_err(r#"{"type":"object"}"#), UnsupportedType);
    assert_eq!(kw(one_err(r##"{"$ref":"#/$defs/Name"}"##)), "$ref");
    assert_eq!(
        kw(one_err(r#"{"type":"string","pattern":"^a"}"#)),
        "pattern"
    );
    assert_eq!(
        kw(one_err(r#"{"allOf":[{"type":"string"}],"type":"string"}"#)),
        "allOf"
    );
    assert_eq!(
        kw(one_err(r#"{"type":"number","exclusiveMinimum":0}"#)),
        "exclusiveMinimum"
    );
    assert_eq!(
        kw(one_err(r#"{"type":"number","minLength":1}"#)),
        "minLength"
    );
    assert_eq!(
        kw(one_err(
            r#"{"type":"string","enum":["a"],"format":"email"}"#
        )),
        "format"
    );
    assert_eq!(
        kw(one_err(
            r#"{"type":"string","enum":["a"],"oneOf":[{"const":"a","title":"A"}]}"#
        )),
        "oneOf"
    );
    assert_eq!(kw(one_err(r#"{"type":"boolean","enum":["a"]}"#)), "enum");
    assert_eq!(
        kw(one_err(r#"{"type":"string","enumNames":["A"]}"#)),
        "enumNames"
    );
    assert_eq!(
        kw(one_err(
            r#"{"type":"array","items":{"enum":["a"],"minLength":1}}"#
        )),
        "minLength"
    );
    assert_eq!(kw(one_err(r#"{"type":"string","type":"string"}"#)), "type");
    assert_eq!(one_err(r#"{"title":"no type"}"#), MissingType);
    assert_eq!(one_err(r#"{"type":"date"}"#), UnsupportedType);
    assert_eq!(one_err(r#"{"type":["string","null"]}"#), UnsupportedType);
    assert_eq!(one_err(r#"{"type":"null"}"#), UnsupportedType);
    assert_eq!(
        one_err(r#"{"type":"array","items":{"type":"number","enum":[1]}}"#),
        UnsupportedType
    );
    assert_eq!(
        one_err(r#"{"type":"string","format":"phone"}"#),
        UnknownFormat
    );
    assert_eq!(
        one_err(r#"{"type":"string","format":7}"#),
        WrongKeywordType("format")
    );
    assert_eq!(
        one_err(r#"{"type":"string","enum":[1,2]}"#),
        NonStringOption
    );
    assert_eq!(
        one_err(r#"{"type":"string","enum":["a",null]}"#),
        NonStringOption
    );
    assert_eq!(one_err(r#"{"type":"string","enum":[]}"#), EmptyOptions);
    assert_eq!(
        kw(one_err(r#"{"type":"string","enum":["a","b","\u0061"]}"#)),
        "a"
    );
    assert_eq!(
        one_err(r#"{"type":"string","enum":"a"}"#),
        WrongKeywordType("enum")
    );
    assert_eq!(
        one_err(r#"{"type":"string","enum":["a","b"],"enumNames":["A"]}"#),
        EnumNamesMismatch
    );
    assert_eq!(
        one_err(r#"{"type":"string","enum":["a"],"enumNames":[1]}"#),
        EnumNamesMismatch
    );
    assert_eq!(
        one_err(r#"{"type":"string","oneOf":[{"const":"a"}]}"#),
        BadOption
    );
    assert_eq!(
        one_err(r#"{"type":"string","oneOf":[{"const":"a","title":"A","extra":1}]}"#),
        BadOption
    );
    assert_eq!(
        one_err(r#"{"type":"string","oneOf":[{"const":1,"title":"A"}]}"#),
        BadOption
    );
    assert_eq!(one_err(r#"{"type":"string","oneOf":["a"]}"#), BadOption);
    assert_eq!(one_err(r#"{"type":"array"}"#), MissingItems);
    assert_eq!(
        one_err(r#"{"type":"array","items":{"type":"string"}}"#),
        MissingItems
    );
    assert_eq!(
        one_err(r#"{"type":"string","minLength":"5"}"#),
        WrongKeywordType("minLength")
    );
    assert_eq!(
        one_err(r#"{"type":"string","minLength":-1}"#),
        WrongKeywordType("minLength")
    );
    assert_eq!(
        one_err(r#"{"type":"string","maxLength":1.5}"#),
        WrongKeywordType("maxLength")
    );
    assert_eq!(
        one_err(r#"{"type":"number","minimum":"0"}"#),
        WrongKeywordType("minimum")
    );
    assert_eq!(
        one_err(r#"{"type":"number","maximum":"1e400"}"#),
        WrongKeywordType("maximum")
    );
    assert_eq!(
        one_err(r#"{"type":"string","title":5}"#),
        WrongKeywordType("title")
    );
    assert_eq!(
        one_err(r#"{"type":"array","items":{"enum":["a"]},"uniqueItems":"yes"}"#),
        WrongKeywordType("uniqueItems")
    );
    assert_eq!(
        one_err(r#"{"type":"string","minLength":5,"maxLength":4}"#),
        InconsistentBounds("minLength")
    );
    assert_eq!(
        one_err(r#"{"type":"integer","minimum":5,"maximum":4.5}"#),
        InconsistentBounds("minimum")
    );
    assert_eq!(
        one_err(r#"{"type":"array","items":{"enum":["a","b"]},"minItems":3}"#),
        InconsistentBounds("minItems")
    );
    assert_eq!(
        one_err(r#"{"type":"array","items":{"enum":["a","b"]},"minItems":2,"maxItems":1}"#),
        InconsistentBounds("minItems")
    );
    assert_eq!(one_err("true"), NotASchemaObject);
    assert_eq!(
        one_err(r#"{"type":"string","default":5}"#),
        InvalidDefault(FieldError::WrongType)
    );
    assert_eq!(
        one_err(r#"{"type":"string","enum":["a"],"default":"b"}"#),
        InvalidDefault(FieldError::NotAnOption)
    );
    assert_eq!(
        one_err(r#"{"type":"string","minLength":3,"default":"ab"}"#),
        InvalidDefault(FieldError::TooShort { min: 3 })
    );
    assert_eq!(
        one_err(r#"{"type":"integer","default":1.5}"#),
        InvalidDefault(FieldError::NotAnInteger)
    );
    assert_eq!(
        one_err(r#"{"type":"array","items":{"enum":["a"]},"default":["a","a"]}"#),
        InvalidDefault(FieldError::DuplicateItem)
    );
}

#[test]
fn top_level_errors() {
    use SchemaErrorKind::*;
    let root = |schema: &'static str| {
        let e = ElicitForm::parse(obj(schema)).unwrap_err();
        (s(e.property), e.kind)
    };
    assert_eq!(root(r#"{"properties":{}}"#), (None, NotAnObjectSchema));
    assert_eq!(
        root(r#"{"type":"array","properties":{}}"#),
        (None, NotAnObjectSchema)
    );
    assert_eq!(root(r#"{"type":"object"}"#), (None, MissingProperties));
    assert_eq!(
        root(r#"{"type":"object","properties":[]}"#),
        (None, MissingProperties)
    );
    assert_eq!(
        root(r#"{"type":"object","properties":{},"required":"a"}"#),
        (None, BadRequired)
    );
    assert_eq!(
        root(r#"{"type":"object","properties":{},"required":[1]}"#),
        (None, BadRequired)
    );
    assert_eq!(
        root(r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a","b"]}"#),
        (Some("b".into()), UnknownRequired)
    );
    assert_eq!(
        root(r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a","a"]}"#),
        (Some("a".into()), DuplicateRequired)
    );
    assert_eq!(
        root(
            r#"{"type":"object","properties":{"a":{"type":"string"},"\u0061":{"type":"string"}}}"#
        ),
        (Some("a".into()), DuplicateProperty)
    );
    assert_eq!(
        root(
            r#"{"type":"object","properties":{"a":{"type":"string","enum":["x"],"default":"y"}}}"#
        ),
        (Some("a".into()), InvalidDefault(FieldError::NotAnOption))
    );
    let e = ElicitForm::parse(obj(
        r#"{"type":"object","properties":{},"additionalProperties":{"type":"string"}}"#,
    ))
    .unwrap_err();
    assert!(matches!(e.kind, UnsupportedKeyword(k) if k.eq_str("additionalProperties")));
    let e = ElicitForm::parse(obj(r#"{"type":"object","properties":{},"$defs":{}}"#)).unwrap_err();
    assert!(matches!(e.kind, UnsupportedKeyword(k) if k.eq_str("$defs")));
    // Field count limit.
    let props: Vec<String> = (0..=MAX_FORM_FIELDS)
        .map(|i| std::format!(r#""p{i}":{{"type":"boolean"}}"#))
        .collect();
    let big = leak(std::format!(
        r#"{{"type":"object","properties":{{{}}}}}"#,
        props.join(",")
    ));
    assert_eq!(root(big), (Some("p64".into()), TooManyFields));
    let ok = leak(std::format!(
        r#"{{"type":"object","properties":{{{}}}}}"#,
        props[..64].join(",")
    ));
    assert_eq!(form(ok).len(), 64);
    // Option count limit.
    let opts: Vec<String> = (0..=MAX_ENUM_OPTIONS)
        .map(|i| std::format!("\"o{i}\""))
        .collect();
    assert_eq!(
        one_err(&std::format!(
            r#"{{"type":"string","enum":[{}]}}"#,
            opts.join(",")
        )),
        TooManyOptions
    );
    assert!(one(&std::format!(
        r#"{{"type":"string","enum":[{}]}}"#,
        opts[..256].join(",")
    ))
    .is_ok());
    // Keyword count limit.
    let many: Vec<String> = (0..MAX_SCHEMA_KEYWORDS)
        .map(|i| std::format!(r#""x-{i}":0"#))
        .collect();
    assert_eq!(
        one_err(&std::format!(r#"{{"type":"string",{}}}"#, many.join(","))),
        TooManyKeywords
    );
}

#[test]
fn dates_name_a_real_day_of_every_month() {
    // Every month 00..=13 and day 00..=32 of a common year, a leap year,
    // a century and a 400-year leap year, against the calendar's lengths.
    for y in [2026u32, 2024, 1900, 2000] {
        let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
        for m in 0u32..=13 {
            let days = match m {
                1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
                4 | 6 | 9 | 11 => 30,
                2 if leap => 29,
                2 => 28,
                _ => 0,
            };
            for d in 0u32..=32 {
                let text = std::format!("{y:04}-{m:02}-{d:02}");
                assert_eq!(is_date(&text), (1..=days).contains(&d), "{text}");
                let dt = std::format!("{text}T12:00:00Z");
                assert_eq!(is_date_time(&dt), (1..=days).contains(&d), "{dt}");
            }
        }
    }
}

#[test]
fn an_option_reports_a_repeated_keyword_before_a_foreign_one() {
    use SchemaErrorKind::*;
    // The foreign `x` comes first, the repeated `const` later: the
    // repeat wins; without it, the option is bad.
    let e = one_err(r#"{"type":"string","oneOf":[{"x":1,"const":"a","title":"A","const":"b"}]}"#);
    assert!(matches!(e, DuplicateKeyword(k) if k.eq_str("const")));
    let e = one_err(r#"{"type":"string","oneOf":[{"x":1,"const":"a","title":"A"}]}"#);
    assert_eq!(e, BadOption);
    let e = one_err(r#"{"type":"string","oneOf":[{"const":"a","title":1}]}"#);
    assert_eq!(e, BadOption);
    let e = one_err(r#"{"type":"string","oneOf":[{"const":"a","x-note":1}]}"#);
    assert_eq!(e, BadOption);
    assert!(one(r#"{"type":"string","oneOf":[{"x-note":1,"const":"a","title":"A"}]}"#).is_ok());
}

#[test]
fn index_json_is_the_fields_index_without_reading_schemas() {
    let f = form(
        r#"{"type":"object","properties":{"a":{"type":"string"},"b\u00e9":{"type":"boolean"},"c":{"type":"number"}}}"#,
    );
    let name = |j: &'static str| json::parse(j.as_bytes()).unwrap().as_str().unwrap();
    for (j, index) in [
        (r#""a""#, 0),
        (r#""bé""#, 1),
        (r#""b\u00e9""#, 1),
        (r#""c""#, 2),
    ] {
        let n = name(j);
        assert_eq!(f.index_json(&n), Some(index), "{j}");
        assert_eq!(f.field_json(&n).map(|f| f.index), Some(index), "{j}");
    }
    assert_eq!(f.index_json(&name(r#""d""#)), None);
    assert_eq!(f.index_json(&name(r#""A""#)), None);
}

#[test]
fn a_keyword_past_the_limit_is_too_many_even_when_repeated() {
    use SchemaErrorKind::*;
    // 32 keywords fill the set; a 33rd is refused as one too many, also
    // when it repeats an earlier one; a repeat within the limit is named.
    let many: Vec<String> = (1..MAX_SCHEMA_KEYWORDS)
        .map(|i| std::format!(r#""x-{i}":0"#))
        .collect();
    let field = |extra: &str| std::format!(r#"{{"type":"string",{}{extra}}}"#, many.join(","));
    assert!(one(&field("")).is_ok());
    assert_eq!(one_err(&field(r#","type":"string""#)), TooManyKeywords);
    assert_eq!(one_err(&field(r#","x-9":1"#)), TooManyKeywords);
    let e = one_err(r#"{"type":"string","x-1":0,"x-1":1}"#);
    assert!(matches!(e, DuplicateKeyword(k) if k.eq_str("x-1")));
}

#[test]
fn options_filling_exactly_one_duplicate_block_are_all_compared() {
    use SchemaErrorKind::*;
    let opts = |vals: &[String]| -> String {
        let quoted: Vec<String> = vals.iter().map(|v| std::format!("\"{v}\"")).collect();
        std::format!(r#"{{"type":"string","enum":[{}]}}"#, quoted.join(","))
    };
    // 32 options: one block, filled exactly.
    let vals: Vec<String> = (0..32).map(|i| std::format!("o{i}")).collect();
    assert!(one(&opts(&vals)).is_ok());
    let mut v = vals.clone();
    v[31] = v[0].clone();
    assert!(matches!(one_err(&opts(&v)), DuplicateOption(d) if d.eq_str("o0")));
    // 33: the last compared with the full first block.
    let mut v = vals.clone();
    v.push(vals[7].clone());
    assert!(matches!(one_err(&opts(&v)), DuplicateOption(d) if d.eq_str("o7")));
}

#[test]
fn schema_errors_display_the_property_and_keyword() {
    let e = one(r##"{"$ref":"#/x"}"##).unwrap_err();
    assert_eq!(
        e.to_string(),
        "property \"f\": unsupported keyword \"$ref\""
    );
    let e = one(r#"{"type":"string","minLength":3,"default":"ab"}"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "property \"f\": invalid default: at least 3 characters"
    );
    let e = ElicitForm::parse(obj(r#"{"type":"object"}"#)).unwrap_err();
    assert_eq!(e.to_string(), "schema: properties must be an object");
}

fn errors_of(f: &ElicitForm<'_>, content: &str) -> Vec<(String, FieldError)> {
    f.errors(obj(content))
        .map(|e| (s(Some(e.field)).unwrap(), e.error))
        .collect()
}

#[test]
fn answer_errors_are_per_field() {
    let f = form(CONTACT);
    assert_eq!(
        f.validate(obj(
            r#"{"name":"Monalisa Octocat","email":"octocat@github.com","age":30}"#
        )),
        Ok(())
    );
    assert_eq!(
        f.validate(obj(r#"{"name":"octocat","email":"a@b.co"}"#)),
        Ok(())
    );
    assert_eq!(
        errors_of(&f, r#"{"email":"nope","age":17.5,"extra":1,"more":null}"#),
        [
            ("name".into(), FieldError::Missing),
            ("email".into(), FieldError::BadEmail),
            ("age".into(), FieldError::BelowMinimum),
            ("extra".into(), FieldError::UnknownField),
            ("more".into(), FieldError::UnknownField),
        ]
    );
    assert_eq!(
        errors_of(&f, r#"{"name":"a","name":"b","email":5,"age":"30"}"#),
        [
            ("name".into(), FieldError::DuplicateField),
            ("email".into(), FieldError::WrongType),
            ("age".into(), FieldError::WrongType),
        ]
    );
    let e = f
        .validate(obj(r#"{"name":null,"email":"a@b.co"}"#))
        .unwrap_err();
    assert!(e.field.eq_str("name"));
    assert_eq!(e.error, FieldError::WrongType);
}

#[test]
fn text_length_counts_unicode_scalar_values() {
    let f = one(r#"{"type":"string","minLength":2,"maxLength":3}"#).unwrap();
    let c = |v: &str| f.field("f").unwrap().check(&FieldValue::Text(v));
    assert_eq!(c("日本語"), Ok(()));
    assert_eq!(c("🎉🎉"), Ok(()));
    assert_eq!(c("日本語x"), Err(FieldError::TooLong { max: 3 }));
    assert_eq!(c("é"), Err(FieldError::TooShort { min: 2 }));
    assert_eq!(
        c("e\u{301}"),
        Ok(()),
        "a combining mark is its own scalar value"
    );
    assert_eq!(errors_of(&f, r#"{"f":"\u00e9\u00e9"}"#), []);
    assert_eq!(
        errors_of(&f, r#"{"f":"\ud83c\udf89"}"#),
        [("f".into(), FieldError::TooShort { min: 2 })]
    );
}

#[test]
fn numbers_and_integers() {
    let f = one(r#"{"type":"integer","minimum":-5,"maximum":9007199254740993}"#).unwrap();
    let field = f.field("f").unwrap();
    let j = |v: &'static str| field.check_json(json::parse(v.as_bytes()).unwrap());
    assert_eq!(j("2"), Ok(()));
    assert_eq!(j("2.0"), Ok(()), "JSON Schema: 2.0 is an integer");
    assert_eq!(j("1e2"), Ok(()));
    assert_eq!(j("2.5"), Err(FieldError::NotAnInteger));
    assert_eq!(j("-5"), Ok(()));
    assert_eq!(j("-6"), Err(FieldError::BelowMinimum));
    assert_eq!(j("9007199254740993"), Ok(()), "exact beyond 2^53");
    assert_eq!(j("9007199254740994"), Err(FieldError::AboveMaximum));
    assert_eq!(
        j("1e400"),
        Err(FieldError::AboveMaximum),
        "no f64 range limit"
    );
    assert_eq!(j("-1e400"), Err(FieldError::BelowMinimum));
    assert_eq!(j("true"), Err(FieldError::WrongType));
    assert_eq!(field.check(&FieldValue::Integer(-5)), Ok(()));
    assert_eq!(
        field.check(&FieldValue::Decimal("0.5")),
        Err(FieldError::NotAnInteger)
    );
    for bad in [
        "NaN", "inf", "+1", ".5", "1.", "01", " 1", "1 ", "", "-", "1e", "0x10",
    ] {
        assert_eq!(
            field.check(&FieldValue::Decimal(bad)),
            Err(FieldError::WrongType),
            "{bad:?}"
        );
    }
    let g = one(r#"{"type":"number","minimum":0.5,"maximum":1.5}"#).unwrap();
    let gf = g.field("f").unwrap();
    assert_eq!(gf.check(&FieldValue::Decimal("1.25")), Ok(()));
    assert_eq!(
        gf.check(&FieldValue::Integer(0)),
        Err(FieldError::BelowMinimum)
    );
    assert_eq!(
        gf.check(&FieldValue::Integer(2)),
        Err(FieldError::AboveMaximum)
    );
    assert_eq!(gf.check(&FieldValue::Text("1")), Err(FieldError::WrongType));
}

#[test]
fn selections() {
    let single = one(
        r#"{"type":"string","oneOf":[{"const":"r","title":"Red"},{"const":"g","title":"Green"}]}"#,
    )
    .unwrap();
    let sf = single.field("f").unwrap();
    assert_eq!(sf.check(&FieldValue::Text("r")), Ok(()));
    assert_eq!(
        sf.check(&FieldValue::Text("Red")),
        Err(FieldError::NotAnOption),
        "titles are labels, not values"
    );
    assert_eq!(
        sf.check(&FieldValue::Choices(&["r"])),
        Err(FieldError::WrongType)
    );
    assert_eq!(errors_of(&single, r#"{"f":"\u0067"}"#), []);

    let multi = one(r#"{"type":"array","items":{"type":"string","enum":["a","b","c"]},"minItems":1,"maxItems":2}"#).unwrap();
    let mf = multi.field("f").unwrap();
    assert_eq!(mf.check(&FieldValue::Choices(&["a", "c"])), Ok(()));
    assert_eq!(
        mf.check(&FieldValue::Choices(&[])),
        Err(FieldError::TooFewItems { min: 1 })
    );
    assert_eq!(
        mf.check(&FieldValue::Choices(&["a", "b", "c"])),
        Err(FieldError::TooManyItems { max: 2 })
    );
    assert_eq!(
        mf.check(&FieldValue::Choices(&["a", "a"])),
        Err(FieldError::DuplicateItem)
    );
    assert_eq!(
        mf.check(&FieldValue::Choices(&["a", "z"])),
        Err(FieldError::NotAnOption)
    );
    assert_eq!(mf.check(&FieldValue::Text("a")), Err(FieldError::WrongType));
    assert_eq!(
        errors_of(&multi, r#"{"f":["a","\u0061"]}"#),
        [("f".into(), FieldError::DuplicateItem)]
    );
    assert_eq!(
        errors_of(&multi, r#"{"f":["a",1]}"#),
        [("f".into(), FieldError::WrongType)]
    );
    assert_eq!(
        errors_of(&multi, r#"{"f":"a"}"#),
        [("f".into(), FieldError::WrongType)]
    );
    // A huge hostile selection fails fast at the first duplicate.
    let big = leak(std::format!(
        r#"{{"f":[{}]}}"#,
        std::vec!["\"a\""; 100_000].join(",")
    ));
    assert_eq!(
        errors_of(&multi, big),
        [("f".into(), FieldError::DuplicateItem)]
    );

    let b = one(r#"{"type":"boolean"}"#).unwrap();
    assert_eq!(
        errors_of(&b, r#"{"f":"true"}"#),
        [("f".into(), FieldError::WrongType)]
    );
    assert_eq!(errors_of(&b, r#"{"f":false}"#), []);
}

#[test]
fn format_checkers() {
    for ok in [
        "a@b.co",
        "first.last+tag@mail.example.com",
        "üser@exämple.de",
    ] {
        assert!(is_email(ok), "{ok}");
    }
    for bad in [
        "", "a", "@b.co", "a@", "a@b", "a@@b.co", "a@b@c.co", "a @b.co", "a@b..co", "a@.b.co",
        "a@b.co.", "a@b.co\n",
    ] {
        assert!(!is_email(bad), "{bad:?}");
    }
    for ok in [
        "https://example.com/a?b=c#d",
        "urn:isbn:0451450523",
        "mailto:a@b.co",
        "a:",
        "x+y.z-w:%41",
        "file:///tmp/a%20b",
    ] {
        assert!(is_uri(ok), "{ok}");
    }
    for bad in [
        "",
        "example.com",
        "1a:b",
        ":x",
        "a b:c",
        "http://exa mple.com",
        "http://a/%zz",
        "http://a/%4",
        "http://a/é",
        "http://a/<b>",
        "http://a\\b",
    ] {
        assert!(!is_uri(bad), "{bad:?}");
    }
    for ok in [
        "2026-07-28",
        "2024-02-29",
        "2000-02-29",
        "0001-01-01",
        "9999-12-31",
    ] {
        assert!(is_date(ok), "{ok}");
    }
    for bad in [
        "",
        "2026-7-28",
        "2026-07-28T",
        "2023-02-29",
        "1900-02-29",
        "2026-13-01",
        "2026-00-10",
        "2026-04-31",
        "2026-01-00",
        "20260728",
        "2026/07/28",
        "２０２６-07-28",
    ] {
        assert!(!is_date(bad), "{bad:?}");
    }
    for ok in [
        "2026-07-28T09:30:00Z",
        "2026-07-28t09:30:00z",
        "2026-07-28T23:59:60+01:00",
        "2026-07-28T00:00:00.123456789-05:30",
        "2026-07-28T12:00:00.5Z",
    ] {
        assert!(is_date_time(ok), "{ok}");
    }
    for bad in [
        "2026-07-28",
        "2026-07-28 09:30:00Z",
        "2026-07-28T09:30Z",
        "2026-07-28T24:00:00Z",
        "2026-07-28T09:60:00Z",
        "2026-07-28T09:30:61Z",
        "2026-07-28T09:30:00",
        "2026-07-28T09:30:00.Z",
        "2026-07-28T09:30:00+0100",
        "2026-07-28T09:30:00+24:00",
        "2026-07-28T09:30:00Zx",
        "2026-02-30T09:30:00Z",
    ] {
        assert!(!is_date_time(bad), "{bad:?}");
    }
    // Through the form, with JSON escapes decoded first.
    let f = one(r#"{"type":"string","format":"date"}"#).unwrap();
    assert_eq!(errors_of(&f, r#"{"f":"2026\u002d07-28"}"#), []);
    assert_eq!(
        errors_of(&f, r#"{"f":"2026-02-30"}"#),
        [("f".into(), FieldError::BadDate)]
    );
    for (format, err) in [
        ("email", FieldError::BadEmail),
        ("uri", FieldError::BadUri),
        ("date-time", FieldError::BadDateTime),
    ] {
        let f = one(&std::format!(r#"{{"type":"string","format":"{format}"}}"#)).unwrap();
        assert_eq!(
            f.field("f").unwrap().check(&FieldValue::Text("x")),
            Err(err)
        );
    }
}

#[test]
fn content_writer_emits_exact_checked_json() {
    let f = form(
        r#"{"type":"object","properties":{
        "n\u0061me":{"type":"string"},
        "age":{"type":"integer","minimum":0},
        "ratio":{"type":"number"},
        "ok":{"type":"boolean"},
        "colors":{"type":"array","items":{"enum":["red","green"]}}
    },"required":["name","ok"]}"#,
    );
    let mut buf = [0u8; 256];
    let mut w = ContentWriter::new(&f, &mut buf);
    w.set("name", FieldValue::Text("Ann \"A\"\n\u{1}")).unwrap();
    w.set("age", FieldValue::Integer(42)).unwrap();
    w.set("ratio", FieldValue::Decimal("2.5")).unwrap();
    w.set("ok", FieldValue::Bool(true)).unwrap();
    w.set("colors", FieldValue::Choices(&["green", "red"]))
        .unwrap();
    let n = w.finish().unwrap();
    let out = &buf[..n];
    assert_eq!(
        core::str::from_utf8(out).unwrap(),
        r#"{"n\u0061me":"Ann \"A\"\n\u0001","age":42,"ratio":2.5,"ok":true,"colors":["green","red"]}"#
    );
    assert_eq!(f.validate(obj(core::str::from_utf8(out).unwrap())), Ok(()));
    let v: serde_json::Value = serde_json::from_slice(out).unwrap();
    assert_eq!(v["name"], "Ann \"A\"\n\u{1}");
}

#[test]
fn content_writer_refuses_bad_values_and_reports_sizes() {
    let f = form(CONTACT);
    let mut buf = [0u8; 128];
    let mut w = ContentWriter::new(&f, &mut buf);
    assert_eq!(
        w.set("nick", FieldValue::Text("x")),
        Err(WriteError::UnknownField)
    );
    assert_eq!(
        w.set("email", FieldValue::Text("x")),
        Err(WriteError::Invalid(FieldError::BadEmail))
    );
    assert_eq!(
        w.set("age", FieldValue::Decimal("NaN")),
        Err(WriteError::Invalid(FieldError::WrongType))
    );
    w.set("email", FieldValue::Text("a@b.co")).unwrap();
    assert_eq!(
        w.set("email", FieldValue::Text("c@d.co")),
        Err(WriteError::AlreadySet)
    );
    match w.finish() {
        Err(WriteError::MissingRequired(name)) => assert!(name.eq_str("name")),
        other => panic!("{other:?}"),
    }

    let expected =
        r#"{"action":"accept","content":{"name":"octocat","email":"a@b.co","age":18.25}}"#;
    let fill = |buf: &mut [u8]| {
        let mut w = ContentWriter::accept_result(&f, buf);
        w.set("name", FieldValue::Text("octocat")).unwrap();
        w.set("email", FieldValue::Text("a@b.co")).unwrap();
        w.set("age", FieldValue::Decimal("18.25")).unwrap();
        w.finish()
    };
    let mut buf = [0u8; 128];
    let n = fill(&mut buf).unwrap();
    assert_eq!(core::str::from_utf8(&buf[..n]).unwrap(), expected);
    let mut small = [0u8; 40];
    assert_eq!(
        fill(&mut small),
        Err(WriteError::BufferTooSmall {
            needed: expected.len()
        })
    );
    let mut exact = std::vec![0u8; expected.len()];
    assert_eq!(fill(&mut exact), Ok(expected.len()));
}

#[test]
fn numbers_are_written_as_json_numbers() {
    let f = form(r#"{"type":"object","properties":{"x":{"type":"number"}}}"#);
    let write = |v: FieldValue<'_>| {
        let mut buf = [0u8; 400];
        let mut w = ContentWriter::new(&f, &mut buf);
        w.set("x", v).unwrap();
        let n = w.finish().unwrap();
        String::from_utf8(buf[..n].to_vec()).unwrap()
    };
    assert_eq!(write(FieldValue::Integer(3)), r#"{"x":3}"#);
    assert_eq!(
        write(FieldValue::Integer(i64::MIN)),
        r#"{"x":-9223372036854775808}"#
    );
    assert_eq!(write(FieldValue::Decimal("-0.001")), r#"{"x":-0.001}"#);
    assert_eq!(write(FieldValue::Decimal("-0")), r#"{"x":-0}"#);
    assert_eq!(
        write(FieldValue::Decimal("0.30000000000000004")),
        r#"{"x":0.30000000000000004}"#
    );
    assert_eq!(write(FieldValue::Decimal("1E+300")), r#"{"x":1E+300}"#);
    assert_eq!(write(FieldValue::Decimal("5e-324")), r#"{"x":5e-324}"#);
    let exact = write(FieldValue::Decimal("9007199254740993"));
    let v: serde_json::Value = serde_json::from_str(&exact).unwrap();
    assert_eq!(v["x"].as_u64(), Some(9_007_199_254_740_993));
}

#[test]
fn numbers_compare_exactly_by_their_digits() {
    let n = |t: &'static str| Number::parse(t).unwrap();
    assert!(n("9007199254740993") > n("9007199254740992"));
    assert!(n("9007199254740993.0") > n("9007199254740992"));
    assert!(n("1e400") > n("1e399"));
    assert!(n("-1e400") < n("-1e399"));
    assert!(n("1e-400") > n("0"));
    assert!(n("1e-400") < n("1e-399"));
    assert!(n("-1e-400") < n("0"));
    assert_eq!(n("0.1"), n("0.10"));
    assert_eq!(n("-0"), n("0"));
    assert_eq!(n("-0.0e-7"), n("0E+9"));
    assert_eq!(n("1e2"), n("100"));
    assert_eq!(n("100"), n("1.00e2"));
    assert_eq!(n("0.0012"), n("12e-4"));
    assert_eq!(n("-12.5"), n("-125e-1"));
    assert!(n("-12.5") < n("-12.4"));
    assert!(n("-2") < n("1"));
    assert!(n("2.5000001") > n("2.5"));
    assert!(n("10") > n("9.99999999999999999999999"));
    assert!(n("0.01") < n("0.1"));
    assert!(n("123") < n("1234"));
    // Exponents are exact up to 2^60 in magnitude (then saturate).
    assert!(n("1e1152921504606846975") > n("1e1152921504606846974"));
    assert!(n("2e1152921504606846975") > n("1e1152921504606846975"));
    assert!(n("1e99999999999999999999999") > n("1e400"));
    assert!(n("1e-99999999999999999999999") < n("1e-400"));
    assert_eq!(n("1.0e0").exact(), None);
    assert_eq!(n("-9223372036854775808").exact(), Some(i64::MIN));
    assert_eq!(n("9223372036854775808").exact(), None);
    assert_eq!(n("0.10").as_str(), "0.10");

    for int in [
        "0", "-0", "2", "2.0", "1e2", "1.5e1", "1.0e0", "0.0", "120e-1", "1e400", "-3.000",
    ] {
        assert!(n(int).is_integer(), "{int}");
    }
    for frac in [
        "0.5",
        "1e-1",
        "1.25e1",
        "-2.5",
        "123e-3",
        "1e-400",
        "9007199254740992.5",
    ] {
        assert!(!n(frac).is_integer(), "{frac}");
    }
    for bad in [
        "", "-", "+1", "01", "1.", ".1", "1e", "1e+", "NaN", "1 ", "--1", "0x1",
    ] {
        assert!(Number::parse(bad).is_none(), "{bad:?}");
    }
}

#[test]
fn bounds_compare_exactly() {
    let f = one(r#"{"type":"number","minimum":-0.5,"maximum":2.5}"#).unwrap();
    let field = f.field("f").unwrap();
    let j = |v: &'static str| field.check_json(json::parse(v.as_bytes()).unwrap());
    let d = |v: &'static str| field.check(&FieldValue::Decimal(v));
    assert_eq!(j("2.5"), Ok(()));
    assert_eq!(j("2.50000"), Ok(()));
    assert_eq!(j("0.25e1"), Ok(()));
    assert_eq!(j("2.5000001"), Err(FieldError::AboveMaximum));
    assert_eq!(d("2.5000000000000000000001"), Err(FieldError::AboveMaximum));
    assert_eq!(j("-0.5"), Ok(()));
    assert_eq!(j("-0.50000000000000000001"), Err(FieldError::BelowMinimum));
    assert_eq!(d("-0"), Ok(()));
    assert_eq!(
        field.check(&FieldValue::Integer(3)),
        Err(FieldError::AboveMaximum)
    );
    assert_eq!(
        field.check(&FieldValue::Integer(-1)),
        Err(FieldError::BelowMinimum)
    );

    let big = one(r#"{"type":"integer","minimum":9007199254740993}"#).unwrap();
    let bf = big.field("f").unwrap();
    assert_eq!(
        bf.check(&FieldValue::Integer(9_007_199_254_740_992)),
        Err(FieldError::BelowMinimum)
    );
    assert_eq!(
        bf.check(&FieldValue::Integer(9_007_199_254_740_993)),
        Ok(())
    );
    assert_eq!(
        bf.check(&FieldValue::Decimal("9007199254740993.5")),
        Err(FieldError::NotAnInteger)
    );
    assert_eq!(bf.check(&FieldValue::Decimal("1e400")), Ok(()));
    assert_eq!(
        one_err(r#"{"type":"number","minimum":1e400,"maximum":1e399}"#),
        SchemaErrorKind::InconsistentBounds("minimum")
    );
    assert!(one(r#"{"type":"number","minimum":0.10,"maximum":0.1}"#).is_ok());
    assert!(one(r#"{"type":"number","maximum":1e400}"#).is_ok());
}

mod proptests {
    use super::*;
    use proptest::prelude::*;

    fn json_value() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::Bool),
            any::<i64>().prop_map(|i| serde_json::json!(i)),
            (-1e6f64..1e6).prop_map(|f| serde_json::json!(f)),
            prop::sample::select(std::vec![
                "string",
                "number",
                "integer",
                "boolean",
                "array",
                "object",
                "email",
                "uri",
                "date",
                "date-time",
                "a",
                "b",
                "",
                "x-y",
                "2026-07-28",
            ])
            .prop_map(|s| serde_json::json!(s)),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            let keys = prop::sample::select(std::vec![
                "type",
                "properties",
                "required",
                "enum",
                "enumNames",
                "oneOf",
                "anyOf",
                "items",
                "const",
                "title",
                "default",
                "minLength",
                "maxLength",
                "minimum",
                "maximum",
                "minItems",
                "maxItems",
                "format",
                "$ref",
                "f",
                "g",
            ]);
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(serde_json::Value::Array),
                prop::collection::btree_map(keys.prop_map(String::from), inner, 0..6)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn random_schemas_and_answers_never_panic(schema in json_value(), content in json_value()) {
            let wrapped = serde_json::json!({"type": "object", "properties": {"f": schema, "g": {"type": "string"}}});
            let text = wrapped.to_string();
            let answer = serde_json::json!({"f": content}).to_string();
            let schema_obj = obj(&text);
            if let Ok(form) = ElicitForm::parse(schema_obj) {
                for field in form.fields() {
                    if let FieldKind::SingleSelect { options } | FieldKind::MultiSelect { options, .. } = field.kind {
                        prop_assert_eq!(options.iter().count(), options.len());
                    }
                }
                let errors: Vec<_> = form.errors(obj(&answer)).collect();
                prop_assert_eq!(form.validate(obj(&answer)).err(), errors.first().copied());
                // Whatever the writer accepts, the validator accepts.
                let mut buf = [0u8; 4096];
                let mut w = ContentWriter::new(&form, &mut buf);
                let _ = w.set("g", FieldValue::Text("v"));
                if let Some(field) = form.field("f") {
                    let value = match field.kind {
                        FieldKind::Text { .. } => FieldValue::Text("2026-07-28"),
                        FieldKind::Number { .. } => FieldValue::Integer(1),
                        FieldKind::Boolean => FieldValue::Bool(true),
                        FieldKind::SingleSelect { .. } => FieldValue::Text("a"),
                        FieldKind::MultiSelect { .. } => FieldValue::Choices(&["a"]),
                    };
                    let _ = w.set("f", value);
                }
                if let Ok(n) = w.finish() {
                    let written = core::str::from_utf8(&buf[..n]).unwrap();
                    prop_assert_eq!(form.validate(obj(written)), Ok(()));
                }
            }
        }

        #[test]
        fn random_text_never_panics_the_checkers(s in "\\PC{0,40}") {
            let _ = (is_email(&s), is_uri(&s), is_date(&s), is_date_time(&s));
        }
    }
}

#[test]
fn duplicate_and_membership_checks_cross_block_boundaries() {
    use SchemaErrorKind::*;
    let opts = |vals: &[String]| -> String {
        let quoted: Vec<String> = vals.iter().map(|v| std::format!("\"{v}\"")).collect();
        std::format!(r#"{{"type":"string","enum":[{}]}}"#, quoted.join(","))
    };
    let mut vals: Vec<String> = (0..100).map(|i| std::format!("o{i}")).collect();
    assert!(one(&opts(&vals)).is_ok());
    for (dup_of, at) in [(0, 1), (31, 32), (40, 90), (98, 99), (5, 30)] {
        let mut v = vals.clone();
        v[at] = v[dup_of].clone();
        match one_err(&opts(&v)) {
            DuplicateOption(d) => assert!(d.eq_str(&vals[dup_of])),
            other => panic!("{other:?}"),
        }
    }
    // Titled options, escaped spelling of the same value.
    let e = one_err(
        r#"{"type":"string","oneOf":[{"const":"a","title":"A"},{"const":"\u0061","title":"A again"}]}"#,
    );
    assert!(matches!(e, DuplicateOption(d) if d.eq_str("a")));

    // required: an unknown entry after the first block, a duplicate far apart.
    let props: Vec<String> = (0..64)
        .map(|i| std::format!(r#""p{i}":{{"type":"boolean"}}"#))
        .collect();
    let with_required = |req: &[String]| -> Result<ElicitForm<'static>, SchemaError<'static>> {
        let quoted: Vec<String> = req.iter().map(|v| std::format!("\"{v}\"")).collect();
        let s = leak(std::format!(
            r#"{{"type":"object","properties":{{{}}},"required":[{}]}}"#,
            props.join(","),
            quoted.join(",")
        ));
        ElicitForm::parse(obj(s))
    };
    vals = (0..64).map(|i| std::format!("p{i}")).collect();
    let all = with_required(&vals).unwrap();
    assert!(all.fields().all(|f| f.required));
    let mut v = vals.clone();
    v[40] = "nope".into();
    let e = with_required(&v).unwrap_err();
    assert_eq!(
        (s(e.property).as_deref(), e.kind),
        (Some("nope"), UnknownRequired)
    );
    let mut v = vals.clone();
    v[63] = "p2".into();
    let e = with_required(&v).unwrap_err();
    assert_eq!(
        (s(e.property).as_deref(), e.kind),
        (Some("p2"), DuplicateRequired)
    );
    // A long required list of valid names must repeat one.
    let mut v = vals.clone();
    v.extend(vals.iter().cloned());
    let e = with_required(&v).unwrap_err();
    assert_eq!(
        (s(e.property).as_deref(), e.kind),
        (Some("p0"), DuplicateRequired)
    );
    // 10,000 entries: refused quickly, by the same rule.
    let many: Vec<String> = (0..10_000).map(|i| std::format!("p{}", i % 64)).collect();
    assert_eq!(with_required(&many).unwrap_err().kind, DuplicateRequired);
}

#[test]
fn field_errors_carry_their_c_number_name_and_bound() {
    let all = [
        (FieldError::Missing, "Missing", 0),
        (FieldError::WrongType, "WrongType", 0),
        (FieldError::TooShort { min: 3 }, "TooShort", 3),
        (FieldError::TooLong { max: 9 }, "TooLong", 9),
        (FieldError::BelowMinimum, "BelowMinimum", 0),
        (FieldError::AboveMaximum, "AboveMaximum", 0),
        (FieldError::NotAnInteger, "NotAnInteger", 0),
        (FieldError::BadEmail, "BadEmail", 0),
        (FieldError::BadUri, "BadUri", 0),
        (FieldError::BadDate, "BadDate", 0),
        (FieldError::BadDateTime, "BadDateTime", 0),
        (FieldError::NotAnOption, "NotAnOption", 0),
        (FieldError::TooFewItems { min: 2 }, "TooFewItems", 2),
        (FieldError::TooManyItems { max: 4 }, "TooManyItems", 4),
        (FieldError::DuplicateItem, "DuplicateItem", 0),
        (FieldError::UnknownField, "UnknownField", 0),
        (FieldError::DuplicateField, "DuplicateField", 0),
    ];
    for (i, (e, name, bound)) in all.into_iter().enumerate() {
        assert_eq!(e.code() as usize, i + 1, "{e:?}");
        assert_eq!(e.name().to_str(), Ok(name));
        assert_eq!(e.bound(), bound, "{e:?}");
    }
}

#[test]
fn field_kinds_and_formats_carry_their_c_numbers_and_bounds() {
    let f = form(
        r#"{"type":"object","properties":{
        "t":{"type":"string","minLength":1,"format":"date"},
        "n":{"type":"number","maximum":2.5},
        "i":{"type":"integer"},
        "b":{"type":"boolean"},
        "s":{"type":"string","enum":["x","y"]},
        "m":{"type":"array","items":{"enum":["x","y","z"]},"maxItems":2}}}"#,
    );
    let kinds: Vec<u32> = f.fields().map(|f| f.kind.code()).collect();
    assert_eq!(kinds, [1, 2, 3, 4, 5, 6]);
    let k = |i| f.field_at(i).unwrap().kind;
    assert_eq!(k(0).length_bounds(), (Some(1), None));
    assert_eq!(k(0).format().map(|f| f as u32), Some(3));
    assert_eq!(k(1).number_bounds().1.map(|n| n.as_str()), Some("2.5"));
    assert_eq!(k(1).length_bounds(), (None, None));
    assert_eq!(k(5).item_bounds(), (None, Some(2)));
    assert_eq!(k(5).options().map(|o| o.len()), Some(3));
    assert_eq!(k(3).options(), None);
    assert!(f.option_at(4, 1).unwrap().value.eq_str("y"));
    assert_eq!(f.option_at(4, 2), None);
    assert_eq!(f.option_at(3, 0), None);
    assert_eq!(f.field_at(6), None);
    let formats = [StringFormat::Email, StringFormat::Uri, StringFormat::Date];
    assert_eq!(formats.map(|f| f as u32), [1, 2, 3]);
    assert_eq!(StringFormat::DateTime as u32, 4);
}

#[test]
fn parse_json_reads_bytes_then_refuses_json_non_objects_and_bad_schemas() {
    assert_eq!(
        ElicitForm::parse_json(br#"{"type":"object","properties":{}}"#).map(|f| f.len()),
        Ok(0)
    );
    assert!(matches!(
        ElicitForm::parse_json(b"{"),
        Err(FormError::Json(_))
    ));
    let not_object = ElicitForm::parse_json(b"[]").unwrap_err();
    let FormError::Schema(e) = not_object else {
        panic!("{not_object:?}")
    };
    assert_eq!(
        (e.property, e.kind),
        (None, SchemaErrorKind::NotAnObjectSchema)
    );
    let bad = br#"{"type":"object","properties":{"a":{"type":"string","pattern":"x"}}}"#;
    let Err(FormError::Schema(e)) = ElicitForm::parse_json(bad) else {
        panic!()
    };
    assert_eq!(e.kind.name().to_str(), Ok("UnsupportedKeyword"));
    assert_eq!(e.kind.keyword(), Some(&b"pattern"[..]));
    assert_eq!(e.kind.default_error(), None);
    let bad =
        br#"{"type":"object","properties":{"a":{"type":"string","maxLength":1,"default":"xy"}}}"#;
    let Err(FormError::Schema(e)) = ElicitForm::parse_json(bad) else {
        panic!()
    };
    assert_eq!(e.kind.name().to_str(), Ok("InvalidDefault"));
    assert_eq!(e.kind.default_error(), Some(FieldError::TooLong { max: 1 }));
    assert_eq!(
        SchemaErrorKind::WrongKeywordType("minLength").keyword(),
        Some(&b"minLength"[..])
    );
}

/// A form compares an integer answer through its decimal text: the JSON
/// writer's digits, exact at the ends of the range and across 2^32.
#[test]
fn integer_answers_are_read_as_their_exact_decimal_text() {
    use super::number::i64_text;
    let mut buf = [0u8; 20];
    for (v, want) in [
        (0, "0"),
        (-1, "-1"),
        (4_294_967_296, "4294967296"),
        (-4_294_967_297, "-4294967297"),
        (i64::MAX, "9223372036854775807"),
        (i64::MIN, "-9223372036854775808"),
    ] {
        assert_eq!(i64_text(v, &mut buf), want);
    }
}

#[test]
fn schema_errors_are_reported_in_the_order_of_the_checks() {
    let root = |schema: &'static str| {
        let e = ElicitForm::parse(obj(schema)).unwrap_err();
        (s(e.property), e.kind.name(), e.kind.keyword())
    };
    let some = |k: &'static str| Some(k.as_bytes());
    // Top level: a duplicate or surplus keyword before any keyword's own
    // error, then the first keyword error in document order, then the
    // errors of the whole.
    assert_eq!(
        root(r#"{"$ref":1,"type":"object","properties":{},"type":"object"}"#),
        (None, c"DuplicateKeyword", some("type"))
    );
    let many: Vec<String> = (0..MAX_SCHEMA_KEYWORDS)
        .map(|i| std::format!(r#""x-{i}":0"#))
        .collect();
    let surplus = leak(std::format!(
        r#"{{"$ref":1,"type":"object","properties":{{}},{}}}"#,
        many.join(",")
    ));
    assert_eq!(root(surplus), (None, c"TooManyKeywords", None));
    assert_eq!(
        root(r#"{"required":1,"properties":[],"type":"object"}"#),
        (None, c"BadRequired", None)
    );
    assert_eq!(
        root(r#"{"type":"array","properties":{},"title":1,"description":2}"#),
        (None, c"WrongKeywordType", some("title"))
    );
    assert_eq!(
        root(r#"{"$schema":1,"type":"object","properties":{}}"#),
        (None, c"WrongKeywordType", some("$schema"))
    );
    assert_eq!(
        root(r#"{"type":"object","properties":{},"x-a":{},"$comment":[],"items":1}"#),
        (None, c"UnsupportedKeyword", some("items"))
    );
    // Too many properties before a duplicate among them.
    let mut props: Vec<String> = (0..MAX_FORM_FIELDS)
        .map(|i| std::format!(r#""p{i}":{{"type":"boolean"}}"#))
        .collect();
    props.insert(1, r#""p0":{"type":"boolean"}"#.into());
    let big = leak(std::format!(
        r#"{{"type":"object","properties":{{{}}}}}"#,
        props.join(",")
    ));
    assert_eq!(root(big), (Some("p63".into()), c"TooManyFields", None));
    // `required`: a non-string entry anywhere, then an unknown name, then a
    // name given twice, each before any field's own error.
    assert_eq!(
        root(r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["b",1]}"#),
        (None, c"BadRequired", None)
    );
    assert_eq!(
        root(r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a","a","b"]}"#),
        (Some("b".into()), c"UnknownRequired", None)
    );
    assert_eq!(
        root(r#"{"type":"object","properties":{"a":{"type":"x"}},"required":["a","\u0061"]}"#),
        (Some("a".into()), c"DuplicateRequired", None)
    );
    // Only the first MAX_FORM_FIELDS + 1 entries are compared: an unknown
    // name after them does not hide the duplicate within them.
    let props: Vec<String> = (0..MAX_FORM_FIELDS)
        .map(|i| std::format!(r#""p{i}":{{"type":"boolean"}}"#))
        .collect();
    let mut req: Vec<String> = (0..MAX_FORM_FIELDS)
        .map(|i| std::format!(r#""p{i}""#))
        .collect();
    req.insert(1, r#""p0""#.into());
    req.push(r#""zz""#.into());
    let late = leak(std::format!(
        r#"{{"type":"object","properties":{{{}}},"required":[{}]}}"#,
        props.join(","),
        req.join(",")
    ));
    assert_eq!(root(late), (Some("p0".into()), c"DuplicateRequired", None));
    // The first field's error, in document order, once the whole is sound.
    assert_eq!(
        root(r#"{"type":"object","properties":{"a":{"type":"x"},"b":{}},"required":["b"]}"#),
        (Some("a".into()), c"UnsupportedType", None)
    );
    // A property schema: a duplicate keyword before any keyword's own
    // error, then the first keyword error, then the kind's.
    let field = |schema: &str| {
        let kind = one_err(schema);
        (kind.name(), kind.keyword())
    };
    assert_eq!(
        field(r#"{"title":1,"type":"string","type":"string"}"#),
        (c"DuplicateKeyword", some("type"))
    );
    assert_eq!(
        field(r#"{"minLength":"a","format":"bogus","type":"string"}"#),
        (c"WrongKeywordType", some("minLength"))
    );
    assert_eq!(
        field(r#"{"format":"bogus","minLength":"a","type":"string"}"#),
        (c"UnknownFormat", None)
    );
    assert_eq!(
        field(r#"{"format":1,"type":"string"}"#),
        (c"WrongKeywordType", some("format"))
    );
    // Annotations take any value in a property schema.
    assert!(one(r#"{"$schema":1,"x-y":[],"readOnly":"no","type":"boolean"}"#).is_ok());
    assert!(one(r#"{"$schema":1,"x-y":[],"readOnly":"no","type":"string"}"#).is_ok());
    assert_eq!(
        field(r#"{"properties":{},"type":"string"}"#),
        (c"UnsupportedKeyword", some("properties"))
    );
    // A keyword that does not fit the type: the first in document order,
    // named as written.
    assert_eq!(
        field(r#"{"type":"number","m\u0061xLength":3,"minLength":1,"minimum":0}"#),
        (c"UnsupportedKeyword", some("m\\u0061xLength"))
    );
    assert_eq!(
        field(r#"{"minItems":1,"type":"string","enum":["a"]}"#),
        (c"UnsupportedKeyword", some("minItems"))
    );
    // `items` of an array: one list of options, read by the same keyword
    // table; options exactly `const` and `title` strings (annotations
    // aside).
    let items = |items: &str| field(&std::format!(r#"{{"type":"array","items":{items}}}"#));
    assert_eq!(
        items(r#"{"type":"string","enum":["a"],"anyOf":[]}"#),
        (c"UnsupportedKeyword", some("anyOf"))
    );
    assert_eq!(
        items(r#"{"anyOf":{},"enum":["a"]}"#),
        (c"WrongKeywordType", some("anyOf"))
    );
    assert_eq!(
        items(r#"{"type":"number","enum":["a"]}"#),
        (c"UnsupportedType", None)
    );
    assert_eq!(
        items(r#"{"enum":["a"],"title":"t"}"#),
        (c"UnsupportedKeyword", some("title"))
    );
    assert_eq!(
        items(r#"{"anyOf":[{"const":"a","title":1}]}"#),
        (c"BadOption", None)
    );
    assert_eq!(
        items(r#"{"anyOf":[{"const":"a","title":"A","type":"string"}]}"#),
        (c"BadOption", None)
    );
    assert_eq!(items(r#"{"anyOf":[{"const":"a"}]}"#), (c"BadOption", None));
    assert!(one(
        r#"{"type":"array","items":{"$comment":"c","anyOf":[{"x-i":1,"title":"A","const":"a"}]}}"#
    )
    .is_ok());
    // A ninth type-specific keyword cannot fit any type: refused where it
    // stands, before the missing type is noticed.
    assert_eq!(
        field(
            r#"{"minLength":1,"maxLength":2,"format":"email","enum":["a"],"enumNames":["A"],"oneOf":[],"minimum":1,"maximum":2,"items":{},"uniqueItems":true}"#
        ),
        (c"UnsupportedKeyword", some("items"))
    );
}
