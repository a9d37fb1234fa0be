//! Proof that the client helpers (form, url, roots, http, sse) never touch
//! the heap: a counting global allocator observes the calls, which run on
//! inputs and buffers prepared beforehand.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use mrtr_core::client::form::{ContentWriter, ElicitForm, FieldKind, FieldValue};
use mrtr_core::client::http::RequestHeaders;
use mrtr_core::client::roots::{path_to_file_uri, write_roots_into};
use mrtr_core::client::sse::SseDecoder;
use mrtr_core::client::url::UrlConsent;
use mrtr_core::json;
use mrtr_core::wire::{Root, WireLimits};

struct Counting;

thread_local! {
    // Const-initialized without destructors: using them never allocates.
    // Per thread, so tests running in parallel do not see each other.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn note() {
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        let _ = ALLOCATIONS.try_with(|a| a.set(a.get() + 1));
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs `f` with counting on (this thread only) and returns its result
/// and the number of allocations it made.
fn allocations<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let before = ALLOCATIONS.with(Cell::get);
    COUNTING.with(|c| c.set(true));
    let r = f();
    COUNTING.with(|c| c.set(false));
    (r, ALLOCATIONS.with(Cell::get) - before)
}

const SCHEMA: &[u8] = br##"{"type":"object","properties":{
  "name":{"type":"string","title":"Name","minLength":1,"maxLength":50},
  "email":{"type":"string","format":"email"},
  "when":{"type":"string","format":"date-time"},
  "age":{"type":"integer","minimum":0,"maximum":150,"default":30},
  "ok":{"type":"boolean","default":false},
  "color":{"type":"string","oneOf":[{"const":"#f00","title":"Red"},{"const":"#0f0","title":"Green"}]},
  "legacy":{"type":"string","enum":["a","b"],"enumNames":["A","B"]},
  "tags":{"type":"array","items":{"anyOf":[{"const":"x","title":"X"},{"const":"y","title":"Y"}]},"maxItems":2}
},"required":["name","email"]}"##;

const ANSWER: &[u8] = br##"{"name":"Ann","email":"ann@example.com","when":"2026-07-28T09:30:00Z","age":42,"ok":true,"color":"#f00","legacy":"b","tags":["y","x"]}"##;
const BAD_ANSWER: &[u8] = br#"{"email":"nope","age":1.5,"tags":["x","x"],"extra":1}"#;
const BAD_SCHEMA: &[u8] = br##"{"type":"object","properties":{"a":{"$ref":"#/x"}}}"##;

#[test]
fn client_helpers_do_not_allocate() {
    let schema = json::parse(SCHEMA).unwrap().as_object().unwrap();
    let answer = json::parse(ANSWER).unwrap().as_object().unwrap();
    let bad_answer = json::parse(BAD_ANSWER).unwrap().as_object().unwrap();
    let bad_schema = json::parse(BAD_SCHEMA).unwrap().as_object().unwrap();
    let mut content = [0u8; 512];
    let mut sse_buf = [0u8; 256];
    let mut header_buf = [0u8; 64];
    let mut uri_buf = [0u8; 128];
    let mut roots_buf = [0u8; 256];
    let sse_stream = "\u{FEFF}: hi\r\nid: 1\r\nretry: 500\r\ndata: {\"jsonrpc\":\"2.0\",\r\ndata: \"id\":1,\"result\":{\"resultType\":\"complete\",\"t\":\"é\"}}\r\n\r\ndata: 01234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789\n\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n";
    let body = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"caf\u00e9","arguments":{}}}"#;

    let (summary, count) = allocations(|| {
        // form
        let form = ElicitForm::parse(schema).unwrap();
        let mut options = 0;
        for f in form.fields() {
            if let FieldKind::SingleSelect { options: o }
            | FieldKind::MultiSelect { options: o, .. } = f.kind
            {
                options += o.iter().filter(|o| o.title.is_some()).count();
            }
        }
        let valid = form.validate(answer).is_ok();
        let errors = form.errors(bad_answer).count();
        let schema_error = ElicitForm::parse(bad_schema).is_err();
        let mut w = ContentWriter::accept_result(&form, &mut content);
        w.set("name", FieldValue::Text("Ann \"A\"")).unwrap();
        w.set("email", FieldValue::Text("ann@example.com")).unwrap();
        w.set("age", FieldValue::Decimal("42")).unwrap();
        w.set("tags", FieldValue::Choices(&["x"])).unwrap();
        let written = w.finish().unwrap();
        // url
        let url = UrlConsent::parse("https://good.com@xn--evil-xyz.com:8443/path?q#f").unwrap();
        let url_refused = UrlConsent::parse("https://evil.com\\@good.com").is_err();
        // roots
        let uri_len = path_to_file_uri("/home/me/My Project/é", &mut uri_buf)
            .unwrap()
            .len();
        let roots = [Root {
            uri: "file:///home/me/My%20Project",
            name: Some("Project"),
        }];
        let roots_len = write_roots_into(&mut roots_buf, &roots).unwrap();
        // http
        let limits = WireLimits::default();
        let h = RequestHeaders::for_message(body, &limits).unwrap();
        let headers = h.write(&mut header_buf).unwrap();
        let header_bytes: usize = headers.iter().map(|(k, v)| k.len() + v.len()).sum();
        let h2 = RequestHeaders::new("resources/read", Some("file:///a b")).unwrap();
        let mut small = [0u8; 4];
        let short = h2.write(&mut small).is_err();
        // sse, one byte at a time
        let mut dec = SseDecoder::new(&mut sse_buf);
        let (mut events, mut errors_sse, mut results) = (0, 0, 0);
        for chunk in sse_stream.as_bytes().chunks(1) {
            let mut input = chunk;
            while let Some(r) = dec.feed(&mut input) {
                match r {
                    Ok(e) => {
                        events += 1;
                        if e.message(&limits).is_ok() {
                            results += 1;
                        }
                    }
                    Err(_) => errors_sse += 1,
                }
            }
        }
        (
            options,
            valid,
            errors,
            schema_error,
            written,
            url.warnings.bits(),
            url_refused,
            uri_len,
            roots_len,
            header_bytes,
            short,
            (events, errors_sse, results),
        )
    });
    assert_eq!(count, 0, "allocations in client helpers");
    let (
        options,
        valid,
        errors,
        schema_error,
        written,
        warnings,
        url_refused,
        uri_len,
        roots_len,
        header_bytes,
        short,
        sse,
    ) = summary;
    assert_eq!(options, 6);
    assert!(valid);
    assert_eq!(errors, 5); // name missing, email, age, tags, extra
    assert!(schema_error);
    assert_eq!(
        core::str::from_utf8(&content[..written]).unwrap(),
        r#"{"action":"accept","content":{"name":"Ann \"A\"","email":"ann@example.com","age":42,"tags":["x"]}}"#
    );
    assert_eq!(warnings, 0b1100); // USERINFO | PUNYCODE
    assert!(url_refused);
    assert_eq!(uri_len, "file:///home/me/My%20Project/%C3%A9".len());
    assert_eq!(
        roots_len,
        r#"{"roots":[{"uri":"file:///home/me/My%20Project","name":"Project"}]}"#.len()
    );
    assert_eq!(
        header_bytes,
        "MCP-Protocol-Version2026-07-28Mcp-Methodtools/callMcp-Name=?base64?Y2Fmw6k=?=Acceptapplication/json, text/event-streamContent-Typeapplication/json".len()
    );
    assert!(short);
    assert_eq!(sse, (2, 1, 2));
}

#[test]
fn the_counter_sees_allocations() {
    // Guards the proof above against a counter that never counts.
    let (_, count) = allocations(|| std::hint::black_box(Box::new(5u64)));
    assert!(count >= 1);
}
