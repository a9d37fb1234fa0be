//! mrtr through its C ABI: the release `libmrtr.a` of the root workspace,
//! linked by `build.rs`, called through `extern "C"` declarations written
//! from `include/mrtr.h`.
//!
//! Jobs: `validate` (`mrtr_json_validate`), and the client through
//! `mrtr_call_*`. The C API reads a response inside a call (there is no
//! stand-alone classifier), so its `parse` is init + first request + feed +
//! `mrtr_call_input_at` per input: more work than the Rust `parse`
//! (rendering the params, copying the inputs into the workspace), the same
//! as the first half of its `leg`.

use crate::kit::{answers, Runner, Summary};

/// `MRTR_OK`.
const MRTR_OK: i32 = 0;
const MRTR_ERR_BUFFER_TOO_SMALL: i32 = 10;

extern "C" {
    /// `enum mrtr_status mrtr_json_validate(const uint8_t *json, size_t len,
    /// size_t max_depth, size_t *error_offset);`
    fn mrtr_json_validate(
        json: *const u8,
        len: usize,
        max_depth: usize,
        error_offset: *mut usize,
    ) -> i32;
    /// `const char *mrtr_version(void);`
    fn mrtr_version() -> *const core::ffi::c_char;
}

/// The library's version string (proves the link).
pub fn version() -> String {
    // SAFETY: mrtr_version returns a static NUL-terminated string.
    let s = unsafe { core::ffi::CStr::from_ptr(mrtr_version()) };
    s.to_string_lossy().into_owned()
}

/// Validates `bytes` through the C ABI with the default depth.
pub fn validate(bytes: &[u8]) -> bool {
    let mut offset = 0usize;
    // SAFETY: `bytes` is readable for its length; `offset` is a writable,
    // aligned size_t outside `bytes`.
    let status = unsafe { mrtr_json_validate(bytes.as_ptr(), bytes.len(), 0, &mut offset) };
    status == MRTR_OK
}

/// `validate` through the C ABI.
pub fn validate_runner(bytes: Vec<u8>) -> Runner {
    Box::new(move || validate(&bytes) as u64)
}

// ----------------------------------------------------------------- calls

const MRTR_METHOD_TOOLS_CALL: u32 = 1;
const MRTR_CAP_ELICITATION_FORM: u32 = 1;
const MRTR_CAP_ELICITATION_URL: u32 = 1 << 1;
const MRTR_CAP_SAMPLING: u32 = 1 << 2;
const MRTR_CAP_ROOTS: u32 = 1 << 5;
const MRTR_TEXT_KEY: u32 = 1;
const MRTR_TEXT_MESSAGE: u32 = 1 << 1;
const MRTR_ELICIT_ACCEPT: u32 = 1;
const MRTR_EVENT_INPUT_REQUIRED: u32 = 2;
const MRTR_INPUT_ELICIT_FORM: u32 = 1;
const MRTR_INPUT_ELICIT_URL: u32 = 2;
const MRTR_INPUT_SAMPLING: u32 = 3;
const MRTR_INPUT_ROOTS: u32 = 4;

/// `struct mrtr_str`.
#[repr(C)]
#[derive(Clone, Copy)]
struct MrtrStr {
    ptr: *const u8,
    len: usize,
}

/// `struct mrtr_progress` (C enums are `int`-sized).
#[repr(C)]
#[derive(Clone, Copy)]
struct Progress {
    phase: u32,
    flow: u32,
    task_request: u32,
    task_dialect: u32,
    round: u32,
    polls: u32,
    input_count: usize,
    answered_count: usize,
    last_id: i64,
    next_id: i64,
    poll_ms: u64,
    request_state: MrtrStr,
    task_id: MrtrStr,
    has_last_id: bool,
    has_next_id: bool,
}

impl Default for Progress {
    fn default() -> Self {
        Progress {
            phase: 0,
            flow: 0,
            task_request: 0,
            task_dialect: 0,
            round: 0,
            polls: 0,
            input_count: 0,
            answered_count: 0,
            last_id: 0,
            next_id: 0,
            poll_ms: 0,
            request_state: MrtrStr::EMPTY,
            task_id: MrtrStr::EMPTY,
            has_last_id: false,
            has_next_id: false,
        }
    }
}

impl MrtrStr {
    const EMPTY: MrtrStr = MrtrStr {
        ptr: std::ptr::null(),
        len: 0,
    };
    fn of(s: &[u8]) -> MrtrStr {
        MrtrStr {
            ptr: s.as_ptr(),
            len: s.len(),
        }
    }
}

/// `struct mrtr_call_limits`.
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct CallLimits {
    max_message_bytes: usize,
    max_depth: usize,
    max_input_requests: usize,
    max_key_bytes: usize,
    max_params_bytes: usize,
    max_inputs_bytes: usize,
    max_state_bytes: usize,
    max_answers_bytes: usize,
    max_rounds: u32,
    max_state_only_rounds: u32,
    backoff_initial_ms: u32,
    backoff_max_ms: u32,
    max_polls: u32,
    default_poll_ms: u64,
    min_poll_ms: u64,
    max_poll_ms: u64,
}

/// `struct mrtr_call_config`.
#[repr(C)]
struct CallConfig {
    method: u32,
    params: MrtrStr,
    caps: u32,
    client_name: MrtrStr,
    client_version: MrtrStr,
    flags: u32,
    first_id: i64,
    limits: *const CallLimits,
    out_needed: *mut usize,
    task_dialect: u32,
    task_id: MrtrStr,
    task_poll_ms: u64,
    out_reason: *mut *const std::ffi::c_char,
}

/// `struct mrtr_span`.
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct Span {
    offset: usize,
    len: usize,
}

/// `struct mrtr_event` (C enums are `int`-sized).
#[repr(C)]
#[derive(Default)]
struct Event {
    kind: u32,
    input_count: usize,
    wait_ms: u64,
    error_code: i64,
    result: Span,
    error_message: Span,
    error_data: Span,
    task_id: Span,
    task_dialect: u32,
    task_status: u32,
    task_poll_ms: u64,
    has_task_poll_ms: bool,
}

/// `struct mrtr_input`.
#[repr(C)]
struct Input {
    kind: u32,
    key: MrtrStr,
    message: MrtrStr,
    url: MrtrStr,
    requested_schema: MrtrStr,
    params: MrtrStr,
    system_prompt: MrtrStr,
    max_tokens: u64,
    escaped: u32,
    has_tools: bool,
    wants_context: bool,
    has_system_prompt: bool,
    answered: bool,
}

impl Default for Input {
    fn default() -> Self {
        Input {
            kind: 0,
            key: MrtrStr::EMPTY,
            message: MrtrStr::EMPTY,
            url: MrtrStr::EMPTY,
            requested_schema: MrtrStr::EMPTY,
            params: MrtrStr::EMPTY,
            system_prompt: MrtrStr::EMPTY,
            max_tokens: 0,
            escaped: 0,
            has_tools: false,
            wants_context: false,
            has_system_prompt: false,
            answered: false,
        }
    }
}

/// `struct mrtr_root`.
#[repr(C)]
struct Root {
    uri: MrtrStr,
    name: MrtrStr,
}

/// The opaque `mrtr_call`.
#[repr(C)]
struct Call {
    _opaque: [u8; 0],
}

extern "C" {
    fn mrtr_call_limits_default(out: *mut CallLimits) -> i32;
    fn mrtr_call_workspace_size(limits: *const CallLimits, out_size: *mut usize) -> i32;
    fn mrtr_call_init(
        workspace: *mut core::ffi::c_void,
        len: usize,
        config: *const CallConfig,
        out_call: *mut *mut Call,
    ) -> i32;
    fn mrtr_call_write_request(
        call: *mut Call,
        id: i64,
        out: *mut u8,
        out_len: usize,
        out_written: *mut usize,
    ) -> i32;
    fn mrtr_call_feed(call: *mut Call, msg: *const u8, len: usize, out_event: *mut Event) -> i32;
    fn mrtr_call_input_at(call: *const Call, index: usize, out: *mut Input) -> i32;
    fn mrtr_call_input_text(
        call: *const Call,
        index: usize,
        field: u32,
        out: *mut u8,
        out_len: usize,
        out_written: *mut usize,
    ) -> i32;
    fn mrtr_call_answer_elicit(call: *mut Call, index: usize, action: u32, content: MrtrStr)
        -> i32;
    fn mrtr_call_answer_json(call: *mut Call, index: usize, json: MrtrStr) -> i32;
    fn mrtr_call_progress(call: *const Call, out: *mut Progress) -> i32;
    fn mrtr_json_decode_string(
        token: *const u8,
        len: usize,
        out: *mut u8,
        out_len: usize,
        out_written: *mut usize,
    ) -> i32;
    fn mrtr_call_answer_roots(call: *mut Call, index: usize, roots: *const Root, n: usize) -> i32;
}

/// A call through the C ABI with its workspace (8-byte aligned, as
/// `MRTR_WORKSPACE_ALIGN` asks) and output buffer allocated once.
pub struct CLeg {
    limits: CallLimits,
    workspace: Vec<u64>,
    out: Vec<u8>,
}

impl Default for CLeg {
    fn default() -> Self {
        CLeg::new()
    }
}

impl CLeg {
    /// Default limits except room for the 1 MB input's `inputRequests`.
    pub fn new() -> CLeg {
        let mut limits = CallLimits::default();
        let mut size = 0usize;
        // SAFETY: both pointers are to live, aligned locals.
        unsafe {
            assert_eq!(mrtr_call_limits_default(&mut limits), MRTR_OK);
            limits.max_inputs_bytes = 1 << 20;
            assert_eq!(mrtr_call_workspace_size(&limits, &mut size), MRTR_OK);
        }
        CLeg {
            limits,
            workspace: vec![0u64; size.div_ceil(8)],
            out: vec![0; 2 << 20],
        }
    }

    /// Init, first request (id 1), feed `response`; the call and the number
    /// of inputs, or `None` unless the response is `input_required`.
    fn start(&mut self, response: &[u8]) -> Option<(*mut Call, usize)> {
        let config = CallConfig {
            method: MRTR_METHOD_TOOLS_CALL,
            params: MrtrStr::of(crate::inputs::TOOL_PARAMS.as_bytes()),
            caps: MRTR_CAP_ELICITATION_FORM
                | MRTR_CAP_ELICITATION_URL
                | MRTR_CAP_SAMPLING
                | MRTR_CAP_ROOTS,
            client_name: MrtrStr::EMPTY,
            client_version: MrtrStr::EMPTY,
            flags: 0,
            first_id: 0,
            limits: &self.limits,
            out_needed: std::ptr::null_mut(),
            task_dialect: 0,
            task_id: MrtrStr::EMPTY,
            task_poll_ms: 0,
            out_reason: std::ptr::null_mut(),
        };
        let mut call: *mut Call = std::ptr::null_mut();
        let mut written = 0usize;
        let mut event = Event::default();
        // SAFETY: the workspace is 8-byte aligned and lent to this call for
        // this operation only; every other pointer is to a live local or
        // buffer of the stated length, outside the workspace.
        unsafe {
            let ws = self.workspace.as_mut_ptr().cast::<core::ffi::c_void>();
            if mrtr_call_init(ws, self.workspace.len() * 8, &config, &mut call) != MRTR_OK {
                return None;
            }
            let (out, out_len) = (self.out.as_mut_ptr(), self.out.len());
            if mrtr_call_write_request(call, 1, out, out_len, &mut written) != MRTR_OK {
                return None;
            }
            if mrtr_call_feed(call, response.as_ptr(), response.len(), &mut event) != MRTR_OK
                || event.kind != MRTR_EVENT_INPUT_REQUIRED
            {
                return None;
            }
        }
        Some((call, event.input_count))
    }

    /// The C application's parse: `start`, then `mrtr_call_input_at` for
    /// every input (decoding escaped keys and messages to count them).
    pub fn parse(&mut self, response: &[u8]) -> Option<Summary> {
        let (call, n) = self.start(response)?;
        let mut s = Summary {
            input_required: true,
            ..Summary::default()
        };
        let mut input = Input::default();
        let mut text = [0u8; 1024];
        for i in 0..n {
            // SAFETY: `call` is live (its workspace is untouched since
            // `start`); `input` and `text` are locals outside the workspace.
            unsafe {
                if mrtr_call_input_at(call, i, &mut input) != MRTR_OK {
                    return None;
                }
                let decoded = |field: u32, raw: MrtrStr, text: &mut [u8]| -> Option<usize> {
                    if input.escaped & field == 0 {
                        return Some(raw.len);
                    }
                    let mut w = 0usize;
                    let st =
                        mrtr_call_input_text(call, i, field, text.as_mut_ptr(), text.len(), &mut w);
                    (st == MRTR_OK).then_some(w)
                };
                s.key_bytes += decoded(MRTR_TEXT_KEY, input.key, &mut text)?;
                match input.kind {
                    MRTR_INPUT_ELICIT_FORM => s.forms += 1,
                    MRTR_INPUT_ELICIT_URL => s.urls += 1,
                    MRTR_INPUT_SAMPLING => s.samplings += 1,
                    MRTR_INPUT_ROOTS => s.roots += 1,
                    _ => return None,
                }
                if matches!(input.kind, MRTR_INPUT_ELICIT_FORM | MRTR_INPUT_ELICIT_URL) {
                    s.message_bytes += decoded(MRTR_TEXT_MESSAGE, input.message, &mut text)?;
                }
            }
            s.inputs += 1;
        }
        let mut progress = Progress::default();
        // SAFETY: `call` is live; `progress` and `text` are locals. The
        // token points into the workspace and is read before any mutation.
        unsafe {
            if mrtr_call_progress(call, &mut progress) == MRTR_OK && progress.request_state.len > 0
            {
                // The decoded length, as the Rust path counts it
                // (`decoded_len`, no copy): the size query of the output
                // convention (`out_len` 0 answers the size needed).
                let state = progress.request_state;
                let mut w = 0usize;
                let st =
                    mrtr_json_decode_string(state.ptr, state.len, std::ptr::null_mut(), 0, &mut w);
                if st != MRTR_OK && st != MRTR_ERR_BUFFER_TOO_SMALL {
                    return None;
                }
                s.state_bytes = w;
            }
        }
        Some(s)
    }

    /// A client leg through the C ABI: `start`, answer every input, write
    /// the retry (id 2). Returns the retry request.
    pub fn run(&mut self, response: &[u8]) -> Option<&[u8]> {
        let (call, n) = self.start(response)?;
        let mut input = Input::default();
        let roots = [Root {
            uri: MrtrStr::of(answers::ROOT_URI.as_bytes()),
            name: MrtrStr::of(answers::ROOT_NAME.as_bytes()),
        }];
        let mut written = 0usize;
        // SAFETY: as in `start`; answers and roots are live locals/statics.
        unsafe {
            for i in 0..n {
                if mrtr_call_input_at(call, i, &mut input) != MRTR_OK {
                    return None;
                }
                let st = match input.kind {
                    MRTR_INPUT_ELICIT_FORM => mrtr_call_answer_elicit(
                        call,
                        i,
                        MRTR_ELICIT_ACCEPT,
                        MrtrStr::of(answers::FORM_CONTENT.as_bytes()),
                    ),
                    MRTR_INPUT_ELICIT_URL => {
                        mrtr_call_answer_elicit(call, i, MRTR_ELICIT_ACCEPT, MrtrStr::EMPTY)
                    }
                    MRTR_INPUT_SAMPLING => {
                        mrtr_call_answer_json(call, i, MrtrStr::of(answers::SAMPLING.as_bytes()))
                    }
                    MRTR_INPUT_ROOTS => mrtr_call_answer_roots(call, i, roots.as_ptr(), 1),
                    _ => return None,
                };
                if st != MRTR_OK {
                    return None;
                }
            }
            let (out, out_len) = (self.out.as_mut_ptr(), self.out.len());
            if mrtr_call_write_request(call, 2, out, out_len, &mut written) != MRTR_OK {
                return None;
            }
        }
        self.out.get(..written)
    }
}

/// `parse` through the C ABI (inside a call: see [`CLeg::parse`]).
pub fn parse_runner(bytes: Vec<u8>) -> Runner {
    let mut leg = CLeg::new();
    Box::new(move || leg.parse(&bytes).map_or(0, |s| s.checksum()))
}

/// `leg` through the C ABI.
pub fn leg_runner(bytes: Vec<u8>) -> Runner {
    let mut leg = CLeg::new();
    Box::new(move || leg.run(&bytes).map_or(0, |r| r.len() as u64))
}
