/*
 * The helpers a client UI and an HTTP stack need around a call: forms,
 * URL consent, HTTP headers, the SSE decoder, JSON string decoding.
 */
#include "testutil.h"

/* ---- forms --------------------------------------------------------------- */

static const char FORM_SCHEMA[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"name\":{\"type\":\"string\",\"title\":\"Your name\",\"minLength\":2,\"maxLength\":5},"
    "\"age\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":150},"
    "\"email\":{\"type\":\"string\",\"format\":\"email\",\"description\":\"Caf\\u00e9 mail\"},"
    "\"color\":{\"type\":\"string\",\"oneOf\":[{\"const\":\"red\",\"title\":\"Red\"},"
    "{\"const\":\"green\",\"title\":\"Green\"}]},"
    "\"tags\":{\"type\":\"array\",\"items\":{\"enum\":[\"a\",\"b\",\"c\"]},\"minItems\":1,"
    "\"maxItems\":2},"
    "\"agree\":{\"type\":\"boolean\",\"default\":false}},"
    "\"required\":[\"name\",\"agree\"]}";

static void test_form_fields_options_and_texts(void) {
    mrtr_str schema = heap_str(FORM_SCHEMA);
    size_t count = 0, n = 0;
    mrtr_form_field f;
    mrtr_form_option o;
    char text[32];
    const char *why = NULL;
    CHECK_STATUS(mrtr_form_parse(schema, &count, NULL), MRTR_OK);
    CHECK_EQ_SIZE(count, 6);

    CHECK_STATUS(mrtr_form_field_at(schema, 0, &f), MRTR_OK);
    CHECK_EQ_BYTES(f.name.ptr, f.name.len, "name");
    CHECK_EQ_BYTES(f.title.ptr, f.title.len, "Your name");
    CHECK(f.kind == MRTR_FIELD_TEXT && f.format == MRTR_FORMAT_NONE && f.required);
    CHECK(f.has_min_length && f.min_length == 2 && f.has_max_length && f.max_length == 5);
    CHECK(!f.has_minimum && f.default_json.len == 0 && f.escaped == 0 && f.index == 0);
    CHECK(f.minimum_json.len == 0 && f.maximum_json.len == 0);

    CHECK_STATUS(mrtr_form_field_at(schema, 1, &f), MRTR_OK);
    CHECK(f.kind == MRTR_FIELD_INTEGER && !f.required);
    CHECK(f.has_minimum && f.has_maximum);
    CHECK_EQ_BYTES(f.minimum_json.ptr, f.minimum_json.len, "0");
    CHECK_EQ_BYTES(f.maximum_json.ptr, f.maximum_json.len, "150");

    CHECK_STATUS(mrtr_form_field_at(schema, 2, &f), MRTR_OK);
    CHECK(f.kind == MRTR_FIELD_TEXT && f.format == MRTR_FORMAT_EMAIL);
    CHECK(f.escaped == MRTR_FORM_TEXT_DESCRIPTION);
    CHECK_EQ_BYTES(f.description.ptr, f.description.len, "Caf\\u00e9 mail");
    CHECK_STATUS(mrtr_form_text(schema, 2, 0, MRTR_FORM_TEXT_DESCRIPTION, (uint8_t *)text, 9, &n, NULL),
                 MRTR_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_SIZE(n, 10);
    CHECK_STATUS(
        mrtr_form_text(schema, 2, 0, MRTR_FORM_TEXT_DESCRIPTION, (uint8_t *)text, 10, &n, NULL),
        MRTR_OK);
    CHECK_EQ_BYTES(text, n, "Caf\xc3\xa9 mail");
    /* MRTR_ERR_NOT_FOUND has three causes: the reason names each. */
    CHECK_STATUS(mrtr_form_text(schema, 2, 0, MRTR_FORM_TEXT_TITLE, (uint8_t *)text, 32, &n, &why),
                 MRTR_ERR_NOT_FOUND);
    CHECK_EQ_STR(why, "NoSuchText");
    CHECK_STATUS(mrtr_form_text(schema, 9, 0, MRTR_FORM_TEXT_TITLE, (uint8_t *)text, 32, &n, &why),
                 MRTR_ERR_NOT_FOUND);
    CHECK_EQ_STR(why, "NoSuchField");
    CHECK_STATUS(mrtr_form_text(schema, 3, 7, MRTR_FORM_TEXT_OPTION_VALUE, (uint8_t *)text, 32,
                                &n, &why),
                 MRTR_ERR_NOT_FOUND);
    CHECK_EQ_STR(why, "NoSuchOption");

    CHECK_STATUS(mrtr_form_field_at(schema, 3, &f), MRTR_OK);
    CHECK(f.kind == MRTR_FIELD_SINGLE_SELECT && f.option_count == 2);
    CHECK_STATUS(mrtr_form_option_at(schema, 3, 1, &o), MRTR_OK);
    CHECK_EQ_BYTES(o.value.ptr, o.value.len, "green");
    CHECK(o.has_title);
    CHECK_EQ_BYTES(o.title.ptr, o.title.len, "Green");
    CHECK_STATUS(mrtr_form_option_at(schema, 3, 2, &o), MRTR_ERR_NOT_FOUND);
    CHECK_STATUS(mrtr_form_option_at(schema, 0, 0, &o), MRTR_ERR_NOT_FOUND);
    CHECK_STATUS(mrtr_form_text(schema, 3, 0, MRTR_FORM_TEXT_OPTION_TITLE, (uint8_t *)text, 32,
                                &n, NULL),
                 MRTR_OK);
    CHECK_EQ_BYTES(text, n, "Red");

    CHECK_STATUS(mrtr_form_field_at(schema, 4, &f), MRTR_OK);
    CHECK(f.kind == MRTR_FIELD_MULTI_SELECT && f.option_count == 3);
    CHECK(f.has_min_items && f.min_items == 1 && f.has_max_items && f.max_items == 2);
    CHECK_STATUS(mrtr_form_option_at(schema, 4, 2, &o), MRTR_OK);
    CHECK_EQ_BYTES(o.value.ptr, o.value.len, "c");
    CHECK(!o.has_title && o.title.len == 0);

    CHECK_STATUS(mrtr_form_field_at(schema, 5, &f), MRTR_OK);
    CHECK(f.kind == MRTR_FIELD_BOOLEAN && f.required);
    CHECK_EQ_BYTES(f.default_json.ptr, f.default_json.len, "false");
    CHECK_STATUS(mrtr_form_field_at(schema, 6, &f), MRTR_ERR_NOT_FOUND);
    CHECK_STATUS(mrtr_form_text(schema, 0, 0, 99, (uint8_t *)text, 32, &n, NULL),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mrtr_form_parse(schema, NULL, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_form_field_at(schema, 0, NULL), MRTR_ERR_NULL_POINTER);
    str_free(schema);
}

static void check_invalid(const char *content, mrtr_field_error error, const char *field,
                          size_t index, uint64_t bound) {
    mrtr_form_error e;
    mrtr_str c = heap_str(content);
    memset(&e, 0, sizeof e);
    CHECK_STATUS(mrtr_form_validate(str_of(FORM_SCHEMA), c, &e), MRTR_ERR_INVALID_VALUE);
    CHECK(e.error == error);
    CHECK_EQ_TEXT(e.field.ptr, e.field.len, field);
    CHECK_EQ_SIZE(e.field_index, index);
    CHECK(e.bound == bound);
    CHECK(e.reason != NULL && e.reason[0] != '\0');
    str_free(c);
}

static void test_form_validation_reports_the_first_problem(void) {
    mrtr_form_error e;
    CHECK_STATUS(mrtr_form_validate(str_of(FORM_SCHEMA),
                                    str_of("{\"name\":\"Ann\",\"agree\":true,\"age\":30,"
                                           "\"email\":\"a@b.example\",\"color\":\"red\","
                                           "\"tags\":[\"a\",\"c\"]}"),
                                    NULL),
                 MRTR_OK);
    check_invalid("{\"agree\":true}", MRTR_FIELD_ERROR_MISSING, "name", 0, 0);
    check_invalid("{\"name\":\"A\",\"agree\":true}", MRTR_FIELD_ERROR_TOO_SHORT, "name", 0, 2);
    check_invalid("{\"name\":\"Ann\",\"agree\":true,\"age\":151}", MRTR_FIELD_ERROR_ABOVE_MAXIMUM,
                  "age", 1, 0);
    check_invalid("{\"name\":\"Ann\",\"agree\":true,\"age\":1.5}", MRTR_FIELD_ERROR_NOT_AN_INTEGER,
                  "age", 1, 0);
    check_invalid("{\"name\":\"Ann\",\"agree\":true,\"email\":\"nope\"}", MRTR_FIELD_ERROR_BAD_EMAIL,
                  "email", 2, 0);
    check_invalid("{\"name\":\"Ann\",\"agree\":true,\"tags\":[\"a\",\"b\",\"c\"]}",
                  MRTR_FIELD_ERROR_TOO_MANY_ITEMS, "tags", 4, 2);
    check_invalid("{\"name\":\"Ann\",\"agree\":\"yes\"}", MRTR_FIELD_ERROR_WRONG_TYPE, "agree", 5,
                  0);
    check_invalid("{\"name\":\"Ann\",\"agree\":true,\"extra\":1}", MRTR_FIELD_ERROR_UNKNOWN_FIELD,
                  "extra", SIZE_MAX, 0);
    CHECK_STATUS(mrtr_form_validate(str_of(FORM_SCHEMA), str_of("[1]"), &e),
                 MRTR_ERR_INVALID_VALUE);
    CHECK(e.error == MRTR_FIELD_ERROR_WRONG_TYPE && e.field.len == 0);
    CHECK_EQ_STR(e.reason, "NotAnObject");
    CHECK_STATUS(mrtr_form_validate(str_of(FORM_SCHEMA), str_of("{\"name\":"), &e), MRTR_ERR_JSON);
}

static mrtr_form_value value_of(const char *name, uint32_t kind, const char *text) {
    mrtr_form_value v;
    memset(&v, 0, sizeof v);
    v.name = str_of(name);
    v.kind = kind;
    v.text = str_of(text);
    return v;
}

static void test_form_answers_are_written_from_typed_values(void) {
    uint8_t out[256];
    size_t n = 0;
    mrtr_form_error e;
    mrtr_form_value v[6];
    v[0] = value_of("name", MRTR_FORM_VALUE_TEXT, "A\"b");
    v[1] = value_of("agree", MRTR_FORM_VALUE_BOOL, "");
    v[1].boolean = true;
    v[2] = value_of("age", MRTR_FORM_VALUE_INTEGER, "");
    v[2].integer = 30;
    v[3] = value_of("tags", MRTR_FORM_VALUE_CHOICE, "a");
    v[4] = value_of("tags", MRTR_FORM_VALUE_CHOICE, "c");
    v[5] = value_of("color", MRTR_FORM_VALUE_TEXT, "green");
    CHECK_STATUS(mrtr_form_write_content(str_of(FORM_SCHEMA), v, 6, out, sizeof out, &n, &e),
                 MRTR_OK);
    CHECK_EQ_BYTES(out, n,
                   "{\"name\":\"A\\\"b\",\"agree\":true,\"age\":30,"
                   "\"tags\":[\"a\",\"c\"],\"color\":\"green\"}");
    /* What it writes, the validator takes. */
    CHECK_STATUS(mrtr_form_validate(str_of(FORM_SCHEMA), (mrtr_str){(const char *)out, n}, NULL),
                 MRTR_OK);
    /* Too small: the exact size, nothing else. */
    {
        size_t need = n;
        CHECK_STATUS(mrtr_form_write_content(str_of(FORM_SCHEMA), v, 6, out, need - 1, &n, NULL),
                     MRTR_ERR_BUFFER_TOO_SMALL);
        CHECK_EQ_SIZE(n, need);
    }
    /* Refusals read as the validator's: not an option, too many choices,
     * an unknown field, a field twice, a required field missing. */
    v[5] = value_of("color", MRTR_FORM_VALUE_TEXT, "blue");
    CHECK_STATUS(mrtr_form_write_content(str_of(FORM_SCHEMA), v, 6, out, sizeof out, &n, &e),
                 MRTR_ERR_INVALID_VALUE);
    CHECK(e.error == MRTR_FIELD_ERROR_NOT_AN_OPTION && e.field_index == 3);
    CHECK_EQ_BYTES(e.field.ptr, e.field.len, "color");
    CHECK_EQ_STR(e.reason, "NotAnOption");
    v[5] = value_of("tags", MRTR_FORM_VALUE_CHOICE, "b");
    CHECK_STATUS(mrtr_form_write_content(str_of(FORM_SCHEMA), v, 6, out, sizeof out, &n, &e),
                 MRTR_ERR_INVALID_VALUE);
    CHECK(e.error == MRTR_FIELD_ERROR_TOO_MANY_ITEMS && e.bound == 2);
    v[5] = value_of("extra", MRTR_FORM_VALUE_TEXT, "x");
    CHECK_STATUS(mrtr_form_write_content(str_of(FORM_SCHEMA), v, 6, out, sizeof out, &n, &e),
                 MRTR_ERR_INVALID_VALUE);
    CHECK(e.error == MRTR_FIELD_ERROR_UNKNOWN_FIELD && e.field_index == SIZE_MAX);
    CHECK_EQ_STR(e.reason, "UnknownField");
    v[5] = value_of("name", MRTR_FORM_VALUE_TEXT, "Bo");
    CHECK_STATUS(mrtr_form_write_content(str_of(FORM_SCHEMA), v, 6, out, sizeof out, &n, &e),
                 MRTR_ERR_INVALID_VALUE);
    CHECK(e.error == MRTR_FIELD_ERROR_DUPLICATE_FIELD && e.field_index == 0);
    CHECK_STATUS(mrtr_form_write_content(str_of(FORM_SCHEMA), v + 1, 1, out, sizeof out, &n, &e),
                 MRTR_ERR_INVALID_VALUE);
    CHECK(e.error == MRTR_FIELD_ERROR_MISSING && e.field_index == 0);
    CHECK_EQ_BYTES(e.field.ptr, e.field.len, "name");
    /* An unknown kind; NULL values with a count. */
    v[0].kind = 99;
    CHECK_STATUS(mrtr_form_write_content(str_of(FORM_SCHEMA), v, 1, out, sizeof out, &n, NULL),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mrtr_form_write_content(str_of(FORM_SCHEMA), NULL, 1, out, sizeof out, &n, NULL),
                 MRTR_ERR_NULL_POINTER);
}

static void test_form_schemas_outside_the_subset_are_refused(void) {
    mrtr_schema_error e;
    size_t n = 77;
    CHECK_STATUS(mrtr_form_parse(str_of("{\"type\":\"object\",\"properties\":{\"nested\":{"
                                        "\"type\":\"object\",\"properties\":{}}}}"),
                                 &n, &e),
                 MRTR_ERR_INVALID_SCHEMA);
    CHECK_EQ_SIZE(n, 77);
    CHECK_EQ_BYTES(e.property.ptr, e.property.len, "nested");
    /* Nested objects are caught at their first keyword outside the subset. */
    CHECK_EQ_STR(e.reason, "UnsupportedKeyword");
    CHECK_EQ_BYTES(e.keyword.ptr, e.keyword.len, "properties");
    CHECK_STATUS(mrtr_form_parse(str_of("{\"type\":\"object\",\"properties\":{\"a\":{"
                                        "\"$ref\":\"#/x\"}}}"),
                                 &n, &e),
                 MRTR_ERR_INVALID_SCHEMA);
    CHECK_EQ_STR(e.reason, "UnsupportedKeyword");
    CHECK_EQ_BYTES(e.keyword.ptr, e.keyword.len, "$ref");
    CHECK_STATUS(mrtr_form_parse(str_of("{\"type\":\"object\",\"properties\":{\"a\":{"
                                        "\"type\":\"integer\",\"default\":-1,\"minimum\":0}}}"),
                                 &n, &e),
                 MRTR_ERR_INVALID_SCHEMA);
    CHECK_EQ_STR(e.reason, "InvalidDefault");
    CHECK(e.default_error == MRTR_FIELD_ERROR_BELOW_MINIMUM);
    CHECK_STATUS(mrtr_form_parse(str_of("[]"), &n, &e), MRTR_ERR_INVALID_SCHEMA);
    CHECK_EQ_STR(e.reason, "NotAnObjectSchema");
    CHECK(e.property.ptr == NULL && e.property.len == 0);
    CHECK_STATUS(mrtr_form_parse(str_of("{\"type\":"), &n, &e), MRTR_ERR_JSON);
    {
        mrtr_str s = {NULL, 3};
        CHECK_STATUS(mrtr_form_parse(s, &n, NULL), MRTR_ERR_NULL_POINTER);
    }
}

/* ---- URL consent ------------------------------------------------------- */

static void test_url_consent_splits_and_warns(void) {
    mrtr_url_info u;
    mrtr_url_refusal r;
    mrtr_str url = heap_str("https://user@evil.example:8443/p?q=1#f");
    CHECK_STATUS(mrtr_url_consent(url, &u, NULL), MRTR_OK);
    CHECK_EQ_BYTES(u.scheme.ptr, u.scheme.len, "https");
    CHECK(u.has_userinfo);
    CHECK_EQ_BYTES(u.userinfo.ptr, u.userinfo.len, "user");
    CHECK_EQ_BYTES(u.host.ptr, u.host.len, "evil.example");
    CHECK(u.has_port && u.port == 8443);
    CHECK_EQ_BYTES(u.path.ptr, u.path.len, "/p");
    CHECK(u.has_query && u.has_fragment);
    CHECK_EQ_BYTES(u.query.ptr, u.query.len, "q=1");
    CHECK_EQ_BYTES(u.fragment.ptr, u.fragment.len, "f");
    CHECK(u.warnings == MRTR_URL_WARN_USERINFO);
    str_free(url);

    CHECK_STATUS(mrtr_url_consent(str_of("http://xn--80ak6aa92e.com/"), &u, NULL), MRTR_OK);
    CHECK(u.warnings == (MRTR_URL_WARN_NOT_HTTPS | MRTR_URL_WARN_PUNYCODE));
    CHECK(!u.has_port && !u.has_userinfo && !u.has_query);
    CHECK_STATUS(mrtr_url_consent(str_of("https://10.0.0.1/"), &u, NULL), MRTR_OK);
    CHECK(u.warnings == MRTR_URL_WARN_IP_LITERAL);

    CHECK_STATUS(mrtr_url_consent(str_of("https://good.example\\@evil.example/"), &u, &r),
                 MRTR_ERR_REFUSED_URL);
    CHECK_EQ_STR(r.reason, "Backslash");
    CHECK(r.has_offset && r.offset == 20);
    CHECK_STATUS(mrtr_url_consent(str_of("https://0x7f.1/"), &u, &r), MRTR_ERR_REFUSED_URL);
    CHECK_EQ_STR(r.reason, "AmbiguousIpv4");
    CHECK(!r.has_offset);
    CHECK_STATUS(mrtr_url_consent(str_of("https:evil.example"), &u, NULL), MRTR_ERR_REFUSED_URL);
    CHECK_STATUS(mrtr_url_consent(str_of("https://a.example/\xff"), &u, NULL),
                 MRTR_ERR_INVALID_UTF8);
    CHECK_STATUS(mrtr_url_consent(str_of("https://a.example/"), NULL, NULL),
                 MRTR_ERR_NULL_POINTER);
}

/* ---- HTTP headers ------------------------------------------------------ */

static void test_http_headers_mirror_the_body(void) {
    static const char body[] =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
        "\"get_\\u0077eather\",\"arguments\":{}}}";
    uint8_t *b = heap_copy(body, sizeof body - 1);
    mrtr_http_header h[MRTR_HTTP_MAX_HEADERS];
    uint8_t buf[64];
    size_t need = 0, n = 0, count = 0;
    const char *why = NULL;
    CHECK_STATUS(mrtr_http_headers_for_message(b, sizeof body - 1, NULL, 0, &need, h,
                                               MRTR_HTTP_MAX_HEADERS, &count, NULL),
                 MRTR_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_SIZE(need, 21); /* "tools/call" + "get_weather" */
    CHECK_STATUS(mrtr_http_headers_for_message(b, sizeof body - 1, buf, need - 1, &n, h,
                                               MRTR_HTTP_MAX_HEADERS, &count, NULL),
                 MRTR_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_SIZE(n, 21);
    CHECK_STATUS(mrtr_http_headers_for_message(b, sizeof body - 1, buf, need, &n, h,
                                               MRTR_HTTP_MAX_HEADERS, &count, NULL),
                 MRTR_OK);
    CHECK_EQ_SIZE(n, 21);
    CHECK_EQ_SIZE(count, 5);
    CHECK_EQ_BYTES(h[0].name.ptr, h[0].name.len, "MCP-Protocol-Version");
    CHECK_EQ_BYTES(h[0].value.ptr, h[0].value.len, "2026-07-28");
    CHECK_EQ_BYTES(h[1].name.ptr, h[1].name.len, "Mcp-Method");
    CHECK_EQ_BYTES(h[1].value.ptr, h[1].value.len, "tools/call");
    CHECK_EQ_BYTES(h[2].name.ptr, h[2].name.len, "Mcp-Name");
    CHECK_EQ_BYTES(h[2].value.ptr, h[2].value.len, "get_weather");
    CHECK_EQ_BYTES(h[3].name.ptr, h[3].name.len, "Accept");
    CHECK_EQ_BYTES(h[3].value.ptr, h[3].value.len, "application/json, text/event-stream");
    CHECK_EQ_BYTES(h[4].name.ptr, h[4].name.len, "Content-Type");
    CHECK_EQ_BYTES(h[4].value.ptr, h[4].value.len, "application/json");
    CHECK_STATUS(mrtr_http_headers_for_message(b, sizeof body - 1, buf, sizeof buf, &n, h, 4,
                                               &count, &why),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_EQ_STR(why, "HeadersCapTooSmall");
    CHECK_STATUS(mrtr_http_headers_for_message(b, sizeof body - 1, buf, sizeof buf, &n, NULL,
                                               MRTR_HTTP_MAX_HEADERS, &count, NULL),
                 MRTR_ERR_NULL_POINTER);
    /* The header list may not overlap the buffer: a refused pointer, so
     * the reason is not written (the status says it). */
    why = "untouched";
    CHECK_STATUS(mrtr_http_headers_for_message(b, sizeof body - 1, (uint8_t *)(void *)h,
                                               sizeof h, &n, h, MRTR_HTTP_MAX_HEADERS, &count, &why),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_EQ_STR(why, "untouched");
    free(b);

    /* Non-ASCII names are base64-encoded; a notification has no name. */
    CHECK_STATUS(mrtr_http_headers(str_of("tools/call"), str_of("caf\xc3\xa9"), buf, sizeof buf,
                                   &n, h, MRTR_HTTP_MAX_HEADERS, &count, NULL),
                 MRTR_OK);
    CHECK_EQ_BYTES(h[2].value.ptr, h[2].value.len, "=?base64?Y2Fmw6k=?=");
    {
        mrtr_str none = {NULL, 0};
        CHECK_STATUS(mrtr_http_headers(str_of("notifications/initialized"), none, buf,
                                       sizeof buf, &n, h, MRTR_HTTP_MAX_HEADERS, &count, NULL),
                     MRTR_OK);
        CHECK_EQ_SIZE(count, 4);
        CHECK_EQ_BYTES(h[2].name.ptr, h[2].name.len, "Accept");
        CHECK_STATUS(mrtr_http_headers(str_of("tools/call"), none, buf, sizeof buf, &n, h,
                                       MRTR_HTTP_MAX_HEADERS, &count, &why),
                     MRTR_ERR_INVALID_ARGUMENT);
        CHECK_EQ_STR(why, "MissingName");
        CHECK_STATUS(mrtr_http_headers(str_of("tools call"), none, buf, sizeof buf, &n, h,
                                       MRTR_HTTP_MAX_HEADERS, &count, &why),
                     MRTR_ERR_INVALID_ARGUMENT);
        CHECK_EQ_STR(why, "BadMethod");
    }
    CHECK_STATUS(mrtr_http_headers(str_of("bad method"), str_of("x"), buf, sizeof buf, &n, h,
                                   MRTR_HTTP_MAX_HEADERS, &count, NULL),
                 MRTR_ERR_INVALID_ARGUMENT);
    {
        static const char response[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}";
        CHECK_STATUS(mrtr_http_headers_for_message((const uint8_t *)response, sizeof response - 1,
                                                   buf, sizeof buf, &n, h, MRTR_HTTP_MAX_HEADERS,
                                                   &count, NULL),
                     MRTR_ERR_INVALID_ARGUMENT);
    }
}

/* Tools/call arguments a schema designates with x-mcp-header (SEP-2243). */
static const char DESIGNATING_SCHEMA[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"},"
    "\"priority\":{\"type\":\"integer\",\"x-mcp-header\":\"Priority\"},"
    "\"verbose\":{\"type\":\"boolean\",\"x-mcp-header\":\"Verbose\"},"
    "\"note\":{\"type\":\"string\",\"x-mcp-header\":\"Note\"},"
    "\"query\":{\"type\":\"string\"}}}";

static void test_http_headers_mirror_designated_arguments(void) {
    static const char body[] =
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"t\","
        "\"arguments\":{\"query\":\"SELECT 1\",\"verbose\":null,\"region\":\"us-west1\","
        "\"priority\":42,\"note\":\" padded \"}}}";
    uint8_t *b = heap_copy(body, sizeof body - 1);
    mrtr_http_header h[MRTR_HTTP_MAX_HEADERS + 3];
    uint8_t buf[128];
    size_t need = 0, n = 0, count = 0;
    mrtr_str schema = str_of(DESIGNATING_SCHEMA);
    const char *why = NULL;
    /* Too few entries: the entries and bytes needed. */
    CHECK_STATUS(mrtr_http_headers_for_tool_call(b, sizeof body - 1, schema, buf, sizeof buf,
                                                 &need, h, MRTR_HTTP_MAX_HEADERS + 2, &count, &why),
                 MRTR_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_STR(why, "TooFewHeaderEntries");
    CHECK_EQ_SIZE(count, MRTR_HTTP_MAX_HEADERS + 3);
    /* "tools/call" "t" + "Mcp-Param-Region" "us-west1" + "Mcp-Param-Priority" "42"
     * + "Mcp-Param-Note" "=?base64?IHBhZGRlZCA=?=" */
    CHECK_EQ_SIZE(need, 11 + 24 + 20 + 37);
    CHECK_STATUS(mrtr_http_headers_for_tool_call(b, sizeof body - 1, schema, buf, need - 1, &n,
                                                 h, MRTR_HTTP_MAX_HEADERS + 3, &count, &why),
                 MRTR_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_STR(why, "MRTR_ERR_BUFFER_TOO_SMALL");
    CHECK_EQ_SIZE(n, 92);
    CHECK_STATUS(mrtr_http_headers_for_tool_call(b, sizeof body - 1, schema, buf, need, &n, h,
                                                 MRTR_HTTP_MAX_HEADERS + 3, &count, NULL),
                 MRTR_OK);
    CHECK_EQ_SIZE(n, 92);
    CHECK_EQ_SIZE(count, 8);
    CHECK_EQ_BYTES(h[1].value.ptr, h[1].value.len, "tools/call");
    CHECK_EQ_BYTES(h[2].name.ptr, h[2].name.len, "Mcp-Name");
    CHECK_EQ_BYTES(h[2].value.ptr, h[2].value.len, "t");
    CHECK_EQ_BYTES(h[4].name.ptr, h[4].name.len, "Content-Type");
    CHECK_EQ_BYTES(h[5].name.ptr, h[5].name.len, "Mcp-Param-Region");
    CHECK_EQ_BYTES(h[5].value.ptr, h[5].value.len, "us-west1");
    CHECK_EQ_BYTES(h[6].name.ptr, h[6].name.len, "Mcp-Param-Priority");
    CHECK_EQ_BYTES(h[6].value.ptr, h[6].value.len, "42");
    CHECK_EQ_BYTES(h[7].name.ptr, h[7].name.len, "Mcp-Param-Note");
    CHECK_EQ_BYTES(h[7].value.ptr, h[7].value.len, "=?base64?IHBhZGRlZCA=?=");
    /* A schema without designations: the standard headers only. */
    CHECK_STATUS(mrtr_http_headers_for_tool_call(b, sizeof body - 1, str_of("{}"), buf,
                                                 sizeof buf, &n, h, MRTR_HTTP_MAX_HEADERS, &count, NULL),
                 MRTR_OK);
    CHECK_EQ_SIZE(count, 5);
    CHECK_EQ_SIZE(n, 11);
    /* An invalid designation, another method, an argument of another type. */
    CHECK_STATUS(mrtr_http_headers_for_tool_call(
                     b, sizeof body - 1,
                     str_of("{\"properties\":{\"s\":{\"type\":\"number\",\"x-mcp-header\":\"S\"}}}"),
                     buf, sizeof buf, &n, h, MRTR_HTTP_MAX_HEADERS + 3, &count, NULL),
                 MRTR_ERR_INVALID_SCHEMA);
    free(b);
    {
        static const char get[] =
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/get\",\"params\":{\"name\":\"p\"}}";
        static const char typed[] =
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\","
            "\"arguments\":{\"priority\":\"42\"}}}";
        static const char unsafe_int[] =
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\","
            "\"arguments\":{\"priority\":9007199254740993}}}";
        CHECK_STATUS(mrtr_http_headers_for_tool_call((const uint8_t *)get, sizeof get - 1, schema,
                                                     buf, sizeof buf, &n, h,
                                                     MRTR_HTTP_MAX_HEADERS + 3, &count, &why),
                     MRTR_ERR_INVALID_ARGUMENT);
        CHECK_EQ_STR(why, "NotAToolCall");
        /* MRTR_ERR_INVALID_VALUE has several causes: the reason names each. */
        CHECK_STATUS(mrtr_http_headers_for_tool_call((const uint8_t *)typed, sizeof typed - 1,
                                                     schema, buf, sizeof buf, &n, h,
                                                     MRTR_HTTP_MAX_HEADERS + 3, &count, &why),
                     MRTR_ERR_INVALID_VALUE);
        CHECK_EQ_STR(why, "ParamType");
        CHECK_STATUS(mrtr_http_headers_for_tool_call((const uint8_t *)unsafe_int,
                                                     sizeof unsafe_int - 1, schema, buf, sizeof buf,
                                                     &n, h, MRTR_HTTP_MAX_HEADERS + 3, &count, &why),
                     MRTR_ERR_INVALID_VALUE);
        CHECK_EQ_STR(why, "NotSafeInteger");
        CHECK_STATUS(mrtr_http_headers_for_tool_call((const uint8_t *)typed, sizeof typed - 1,
                                                     schema, buf, sizeof buf, &n, h, 4, &count, NULL),
                     MRTR_ERR_INVALID_ARGUMENT);
    }
}

static void test_tool_header_check(void) {
    size_t count = 99;
    CHECK_STATUS(mrtr_tool_header_check(str_of(DESIGNATING_SCHEMA), &count), MRTR_OK);
    CHECK_EQ_SIZE(count, 4);
    CHECK_STATUS(mrtr_tool_header_check(str_of("{\"type\":\"object\"}"), &count), MRTR_OK);
    CHECK_EQ_SIZE(count, 0);
    CHECK_STATUS(mrtr_tool_header_check(str_of("{\"properties\":{\"a\":{\"type\":\"string\","
                                               "\"x-mcp-header\":\"A\"}}}"),
                                        NULL),
                 MRTR_OK);
    {
        /* The suite's http-invalid-tool-headers designations, one a tool. */
        static const char *const invalid[] = {
            "{\"properties\":{\"v\":{\"type\":\"string\",\"x-mcp-header\":\"\"}}}",
            "{\"properties\":{\"v\":{\"type\":\"object\",\"x-mcp-header\":\"Data\"}}}",
            "{\"properties\":{\"v\":{\"type\":\"array\",\"x-mcp-header\":\"Items\"}}}",
            "{\"properties\":{\"v\":{\"type\":\"null\",\"x-mcp-header\":\"Nil\"}}}",
            "{\"properties\":{\"v\":{\"type\":\"number\",\"x-mcp-header\":\"Score\"}}}",
            "{\"properties\":{\"a\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"},"
            "\"b\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"}}}",
            "{\"properties\":{\"a\":{\"type\":\"string\",\"x-mcp-header\":\"MyField\"},"
            "\"b\":{\"type\":\"string\",\"x-mcp-header\":\"myfield\"}}}",
            "{\"properties\":{\"v\":{\"type\":\"string\",\"x-mcp-header\":\"My Region\"}}}",
            "{\"properties\":{\"v\":{\"type\":\"string\",\"x-mcp-header\":\"Region:Primary\"}}}",
            "{\"properties\":{\"v\":{\"type\":\"string\",\"x-mcp-header\":\"R\xc3\xa9gion\"}}}",
            "{\"properties\":{\"v\":{\"type\":\"string\",\"x-mcp-header\":\"Region\\t1\"}}}",
            "[]",
            "{",
        };
        size_t i;
        for (i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
            count = 99;
            CHECK_STATUS(mrtr_tool_header_check(str_of(invalid[i]), &count),
                         MRTR_ERR_INVALID_SCHEMA);
            CHECK_EQ_SIZE(count, 99);
        }
    }
    CHECK_STATUS(mrtr_tool_header_check(str_of("{\"properties\":{\"v\":{\"type\":\"string\","
                                               "\"x-mcp-header\":\"\xff\"}}}"),
                                        &count),
                 MRTR_ERR_INVALID_UTF8);
}

static void test_version_retry(void) {
    static const char ours[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32022,\"message\":"
                               "\"Unsupported protocol version\",\"data\":{\"supported\":"
                               "[\"2026-07-28\"],\"requested\":\"2025-11-25\"}}}";
    static const char others[] = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32022,"
                                 "\"message\":\"x\",\"data\":{\"supported\":[\"2025-11-25\"]}}}";
    static const char result[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}";
    static const char other_error[] =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,\"message\":\"x\"}}";
    CHECK_STATUS(mrtr_version_retry((const uint8_t *)ours, sizeof ours - 1, 0), MRTR_OK);
    CHECK_STATUS(mrtr_version_retry((const uint8_t *)others, sizeof others - 1, 0),
                 MRTR_ERR_UNSUPPORTED_VERSION);
    CHECK_STATUS(mrtr_version_retry((const uint8_t *)result, sizeof result - 1, 0),
                 MRTR_ERR_NOT_FOUND);
    CHECK_STATUS(mrtr_version_retry((const uint8_t *)other_error, sizeof other_error - 1, 0),
                 MRTR_ERR_NOT_FOUND);
    CHECK_STATUS(mrtr_version_retry((const uint8_t *)"nope", 4, 0), MRTR_ERR_NOT_FOUND);
}

/* A version the server already refused is final: it names ours as the one
 * requested, or the request was already sent again MRTR_MAX_VERSION_RETRIES
 * times; a repeated member in `data` is refused. */
static void test_a_version_already_refused_is_final_not_sent_again(void) {
    static const char refused[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32022,"
                                  "\"message\":\"x\",\"data\":{\"requested\":\"2026-07-28\","
                                  "\"supported\":[\"2026-07-28\"]}}}";
    static const char other[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32022,"
                                "\"message\":\"x\",\"data\":{\"requested\":\"2025-11-25\","
                                "\"supported\":[\"2026-07-28\"]}}}";
    static const char twice[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32022,"
                                "\"message\":\"x\",\"data\":{\"supported\":[\"2025-11-25\"],"
                                "\"supported\":[\"2026-07-28\"]}}}";
    CHECK(MRTR_MAX_VERSION_RETRIES == 1);
    CHECK_STATUS(mrtr_version_retry((const uint8_t *)refused, sizeof refused - 1, 0),
                 MRTR_ERR_UNSUPPORTED_VERSION);
    /* A loop that counts its resends sends the request at most twice. */
    unsigned sent_again = 0;
    for (uint32_t retries = 0; retries < 1000; retries++) {
        if (mrtr_version_retry((const uint8_t *)other, sizeof other - 1, retries) != MRTR_OK) {
            break;
        }
        sent_again++;
    }
    CHECK(sent_again == 1);
    CHECK_STATUS(mrtr_version_retry((const uint8_t *)other, sizeof other - 1, UINT32_MAX),
                 MRTR_ERR_UNSUPPORTED_VERSION);
    CHECK_STATUS(mrtr_version_retry((const uint8_t *)twice, sizeof twice - 1, 0), MRTR_ERR_JSON);
}

/* ---- SSE ----------------------------------------------------------------- */

/* Feeds `text` in chunks of `step` bytes; collects the data of each event
 * (joined with '|') and the statuses other than MRTR_OK (as digits, with the
 * reason: "12:EventTooLarge,"). */
static void sse_run(mrtr_sse_decoder *d, const char *text, size_t step, char *events,
                    char *errors) {
    size_t len = strlen(text), at = 0;
    events[0] = errors[0] = '\0';
    while (at < len) {
        size_t chunk = len - at < step ? len - at : step;
        uint8_t *c = heap_copy(text + at, chunk);
        size_t off = 0;
        while (off < chunk) {
            size_t used = 0;
            mrtr_sse_event ev;
            const char *why = "";
            mrtr_status s = mrtr_sse_feed(d, c + off, chunk - off, &used, &ev, &why);
            if (s == MRTR_OK && ev.has_event) {
                strncat(events, ev.data.ptr, ev.data.len);
                strcat(events, "|");
            } else if (s != MRTR_OK) {
                sprintf(errors + strlen(errors), "%d:%s,", (int)s, why);
            }
            CHECK(used <= chunk - off);
            if (s == MRTR_OK && !ev.has_event && used == 0) {
                CHECK(!"no progress");
                break;
            }
            off += used;
        }
        free(c);
        at += chunk;
    }
}

static void test_tool_list_marks_tools_a_client_must_not_call(void) {
    static const char page[] =
        "{\"tools\":["
        "{\"name\":\"get_weather\",\"inputSchema\":{\"type\":\"object\",\"properties\":"
        "{\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"}}}},"
        "{\"name\":\"bad_space\",\"inputSchema\":{\"type\":\"object\",\"properties\":"
        "{\"a\":{\"type\":\"string\",\"x-mcp-header\":\"My Header\"}}}},"
        "{\"inputSchema\":{}},"
        "{\"name\":\"caf\\u00e9\",\"inputSchema\":{\"type\":\"object\"}}"
        "],\"nextCursor\":\"page-2\"}";
    const char *why = NULL;
    const uint8_t *p = (const uint8_t *)page;
    size_t count = 0;
    mrtr_str cursor = {0};
    CHECK_STATUS(mrtr_tool_list(p, sizeof page - 1, &count, &cursor, NULL), MRTR_OK);
    CHECK_EQ_SIZE(count, 4);
    CHECK_EQ_BYTES(cursor.ptr, cursor.len, "\"page-2\"");
    CHECK_STATUS(mrtr_tool_list(p, sizeof page - 1, &count, NULL, NULL), MRTR_OK);
    mrtr_tool t;
    CHECK_STATUS(mrtr_tool_at(p, sizeof page - 1, 0, &t, NULL), MRTR_OK);
    CHECK_EQ_BYTES(t.name.ptr, t.name.len, "\"get_weather\"");
    CHECK_EQ_BYTES(t.input_schema.ptr, t.input_schema.len,
                   "{\"type\":\"object\",\"properties\":"
                   "{\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"}}}");
    CHECK(t.usable);
    CHECK_EQ_SIZE(t.designation_count, 1);
    CHECK_STATUS(mrtr_tool_at(p, sizeof page - 1, 1, &t, NULL), MRTR_OK);
    CHECK_EQ_BYTES(t.name.ptr, t.name.len, "\"bad_space\"");
    CHECK(!t.usable);
    CHECK_EQ_SIZE(t.designation_count, 0);
    CHECK_STATUS(mrtr_tool_at(p, sizeof page - 1, 2, &t, &why), MRTR_ERR_PROTOCOL_VIOLATION);
    CHECK_EQ_STR(why, "Tool");
    CHECK_STATUS(mrtr_tool_at(p, sizeof page - 1, 3, &t, NULL), MRTR_OK);
    CHECK_EQ_BYTES(t.name.ptr, t.name.len, "\"caf\\u00e9\"");
    CHECK(t.usable);
    CHECK_STATUS(mrtr_tool_at(p, sizeof page - 1, 4, &t, NULL), MRTR_ERR_NOT_FOUND);
    /* Pages that are not a tool list. */
    CHECK_STATUS(mrtr_tool_list((const uint8_t *)"{}", 2, &count, NULL, &why),
                 MRTR_ERR_PROTOCOL_VIOLATION);
    CHECK_EQ_STR(why, "NotAList");
    CHECK_STATUS(mrtr_tool_list((const uint8_t *)"{\"tools\":[", 10, &count, NULL, &why),
                 MRTR_ERR_JSON);
    CHECK_EQ_STR(why, "UnexpectedEnd");
    CHECK_STATUS(mrtr_tool_list((const uint8_t *)"{\"tools\":[],\"nextCursor\":1}", 27, &count,
                                NULL, NULL),
                 MRTR_ERR_PROTOCOL_VIOLATION);
    cursor.ptr = "x";
    CHECK_STATUS(mrtr_tool_list((const uint8_t *)"{\"tools\":[]}", 12, &count, &cursor, NULL), MRTR_OK);
    CHECK_EQ_SIZE(count, 0);
    CHECK(cursor.ptr == NULL && cursor.len == 0);
    CHECK_STATUS(mrtr_tool_list(p, sizeof page - 1, NULL, NULL, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_tool_at(p, sizeof page - 1, 0, NULL, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_tool_list(NULL, 5, &count, NULL, NULL), MRTR_ERR_NULL_POINTER);

    /* The same page read in one pass with a cursor: the same tools, the
     * malformed one refused and stepped over, then the end. */
    mrtr_tool_cursor at = {0};
    CHECK_STATUS(mrtr_tool_next(p, sizeof page - 1, &at, &t, NULL), MRTR_OK);
    CHECK_EQ_BYTES(t.name.ptr, t.name.len, "\"get_weather\"");
    CHECK(t.usable);
    CHECK_EQ_SIZE(t.designation_count, 1);
    CHECK_EQ_SIZE(at.index, 1);
    CHECK_STATUS(mrtr_tool_next(p, sizeof page - 1, &at, &t, NULL), MRTR_OK);
    CHECK_EQ_BYTES(t.name.ptr, t.name.len, "\"bad_space\"");
    CHECK(!t.usable);
    CHECK_STATUS(mrtr_tool_next(p, sizeof page - 1, &at, &t, NULL), MRTR_ERR_PROTOCOL_VIOLATION);
    CHECK_EQ_SIZE(at.index, 3);
    CHECK_STATUS(mrtr_tool_next(p, sizeof page - 1, &at, &t, NULL), MRTR_OK);
    CHECK_EQ_BYTES(t.name.ptr, t.name.len, "\"caf\\u00e9\"");
    CHECK_EQ_SIZE(at.index, 4);
    CHECK_STATUS(mrtr_tool_next(p, sizeof page - 1, &at, &t, NULL), MRTR_ERR_NOT_FOUND);
    CHECK_STATUS(mrtr_tool_next(p, sizeof page - 1, &at, &t, NULL), MRTR_ERR_NOT_FOUND);
    CHECK_EQ_SIZE(at.index, 4);
    /* A cursor is for one page; a page that is not a list fails at once. */
    CHECK_STATUS(mrtr_tool_next(p, sizeof page - 2, &at, &t, NULL), MRTR_ERR_INVALID_ARGUMENT);
    mrtr_tool_cursor fresh = {0};
    CHECK_STATUS(mrtr_tool_next((const uint8_t *)"{}", 2, &fresh, &t, NULL), MRTR_ERR_PROTOCOL_VIOLATION);
    CHECK_STATUS(mrtr_tool_next((const uint8_t *)"{\"tools\":[]}", 12, &fresh, &t, NULL),
                 MRTR_ERR_NOT_FOUND);
    CHECK_STATUS(mrtr_tool_next(p, sizeof page - 1, NULL, &t, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_tool_next(p, sizeof page - 1, &fresh, NULL, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_tool_next(p, sizeof page - 1, (mrtr_tool_cursor *)(void *)&t, &t, NULL),
                 MRTR_ERR_INVALID_ARGUMENT);
}

static void test_sse_decoder_in_caller_memory(void) {
    size_t size = 0, step;
    void *ws;
    mrtr_sse_decoder *d = NULL;
    char events[256], errors[64];
    mrtr_sse_reconnect rc;
    bool discarded = false;
    static const char stream[] = "\xef\xbb\xbf: comment\r\nevent: message\r\nid: 7\r\n"
                                 "data: {\"a\":\r\ndata: 1}\r\n\r\n"
                                 "data: {\"b\":2}\n\nretry: 3000\n\n";
    CHECK_STATUS(mrtr_sse_decoder_size(64, &size), MRTR_OK);
    ws = ws_new(size);
    CHECK_STATUS(mrtr_sse_init(ws, 0, &d), MRTR_ERR_WORKSPACE_TOO_SMALL);
    CHECK_STATUS(mrtr_sse_init(NULL, size, &d), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_sse_init(ws, size, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_sse_init((uint8_t *)ws + 1, size - 1, &d), MRTR_ERR_MISALIGNED);
    /* Every chunk size gives the same events. */
    for (step = 1; step <= sizeof stream; step++) {
        CHECK_STATUS(mrtr_sse_init(ws, size, &d), MRTR_OK);
        CHECK_STATUS(mrtr_sse_reconnect_info(d, &rc), MRTR_OK);
        CHECK(!rc.has_retry_ms && rc.retry_ms == 0 && rc.last_event_id.len == 0);
        sse_run(d, stream, step, events, errors);
        CHECK_EQ_STR(events, "{\"a\":\n1}|{\"b\":2}|");
        CHECK_EQ_STR(errors, "");
    }
    CHECK_STATUS(mrtr_sse_reconnect_info(d, &rc), MRTR_OK);
    CHECK_EQ_BYTES(rc.last_event_id.ptr, rc.last_event_id.len, "7");
    CHECK(rc.has_retry_ms && rc.retry_ms == 3000);
    /* An unfinished event is discarded at the end of the stream. */
    sse_run(d, "data: half", 4, events, errors);
    CHECK_STATUS(mrtr_sse_end_of_stream(d, &discarded), MRTR_OK);
    CHECK(discarded);
    /* An event larger than the buffer fails alone; the next one is fine. */
    sse_run(d,
            "data: 0123456789012345678901234567890123456789012345678901234567890123456789\n\n"
            "data: ok\n\n",
            7, events, errors);
    CHECK_EQ_STR(events, "ok|");
    CHECK_EQ_STR(errors, "12:EventTooLarge,");
    /* MRTR_ERR_LIMIT_EXCEEDED has three causes: the reason names each. */
    {
        char id[300] = "id: ";
        memset(id + 4, 'x', 260);
        strcpy(id + 264, "\ndata: a\n\ndata: b\n\n");
        sse_run(d, id, 500, events, errors);
        CHECK_EQ_STR(events, "b|");
        CHECK_EQ_STR(errors, "12:EventIdTooLong,");
    }
    /* A copy of the workspace elsewhere is refused. */
    {
        void *copy = ws_new(size);
        memcpy(copy, ws, size);
        CHECK_STATUS(mrtr_sse_reconnect_info((const mrtr_sse_decoder *)copy, &rc),
                     MRTR_ERR_INVALID_ARGUMENT);
        free(copy);
    }
    /* Bad arguments. */
    {
        size_t used;
        mrtr_sse_event ev;
        CHECK_STATUS(mrtr_sse_feed(d, NULL, 3, &used, &ev, NULL), MRTR_ERR_NULL_POINTER);
        CHECK_STATUS(mrtr_sse_feed(d, (const uint8_t *)"x", 1, NULL, &ev, NULL), MRTR_ERR_NULL_POINTER);
        CHECK_STATUS(mrtr_sse_feed(d, (const uint8_t *)"x", 1, &used, NULL, NULL), MRTR_ERR_NULL_POINTER);
        CHECK_STATUS(mrtr_sse_feed(d, (const uint8_t *)ws + size - 4, 4, &used, &ev, NULL),
                     MRTR_ERR_INVALID_ARGUMENT);
    }
    free(ws);
}

static void test_json_decode_string(void) {
    uint8_t out[16];
    size_t n = 0;
    static const char tok[] = " \"a\\u00e9\\n\" ";
    uint8_t *t = heap_copy(tok, sizeof tok - 1);
    CHECK_STATUS(mrtr_json_decode_string(t, sizeof tok - 1, NULL, 0, &n),
                 MRTR_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_SIZE(n, 4);
    CHECK_STATUS(mrtr_json_decode_string(t, sizeof tok - 1, out, 3, &n),
                 MRTR_ERR_BUFFER_TOO_SMALL);
    CHECK_STATUS(mrtr_json_decode_string(t, sizeof tok - 1, out, 4, &n), MRTR_OK);
    CHECK_EQ_BYTES(out, n, "a\xc3\xa9\n");
    CHECK_STATUS(mrtr_json_decode_string((const uint8_t *)"12", 2, out, 4, &n), MRTR_ERR_JSON);
    CHECK_STATUS(mrtr_json_decode_string((const uint8_t *)"\"a", 2, out, 4, &n), MRTR_ERR_JSON);
    CHECK_STATUS(mrtr_json_decode_string(t, sizeof tok - 1, out, 4, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_json_decode_string(t, sizeof tok - 1, t + 1, 4, &n),
                 MRTR_ERR_INVALID_ARGUMENT);
    free(t);
}

void suite_helpers(void) {
    RUN(test_form_fields_options_and_texts);
    RUN(test_form_validation_reports_the_first_problem);
    RUN(test_form_answers_are_written_from_typed_values);
    RUN(test_form_schemas_outside_the_subset_are_refused);
    RUN(test_url_consent_splits_and_warns);
    RUN(test_http_headers_mirror_the_body);
    RUN(test_http_headers_mirror_designated_arguments);
    RUN(test_tool_header_check);
    RUN(test_version_retry);
    RUN(test_a_version_already_refused_is_final_not_sent_again);
    RUN(test_tool_list_marks_tools_a_client_must_not_call);
    RUN(test_sse_decoder_in_caller_memory);
    RUN(test_json_decode_string);
}
