//! Emitting an `InputRequiredResult` into a caller buffer.
//!
//! Every method validates first and writes only when it accepts, so a refused
//! request leaves the output as if the call had not been made. The output is
//! streamed (no staging copy); a short buffer is reported by `finish` with the
//! exact size needed.

use core::ffi::CStr;
use core::fmt;

use crate::bytes;
use crate::json::{self, ParseLimits, Writer};
use crate::wire::envelope::write_result_head;
use crate::wire::task::META_RELATED_TASK;
use crate::wire::{
    ClientCapabilities, Id, InputKind, InputRequest, WireLimits, DEFAULT_MAX_INPUT_REQUESTS,
};

use super::request::ServerRequest;

/// How many input requests one builder can hold. Duplicate keys are found
/// by remembering each key, so this is the builder's fixed capacity (the
/// same as the default read limit of clients, [`DEFAULT_MAX_INPUT_REQUESTS`]).
pub const MAX_INPUT_REQUESTS_CAPACITY: usize = DEFAULT_MAX_INPUT_REQUESTS;

/// Nesting above a request's `params` value in the emitted message
/// (envelope, result, inputRequests, entry): raw JSON the caller hands in is
/// read with the depth limit reduced by this much (one more for
/// `requestedSchema`, inside `params`), so a client reading the whole message
/// with the same limit can read it.
const DEPTH_ABOVE_PARAMS: usize = 4;

/// Why the builder refused a call. [`super::write_build_error`] writes the
/// reply for any of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuildError {
    /// The client did not declare what this request needs (the spec forbids
    /// sending it). Answer `-32021` with `requiredCapabilities` = `missing`
    /// ([`super::write_build_error`] writes it), or ask differently.
    MissingCapability {
        /// The capabilities the client lacks for this request.
        missing: ClientCapabilities,
    },
    /// The key is the empty string.
    EmptyKey,
    /// The key is longer than the limit (bytes of UTF-8).
    KeyTooLong {
        /// The limit.
        max: usize,
    },
    /// The key was already used in this result.
    DuplicateKey,
    /// More requests than the limit (at most [`MAX_INPUT_REQUESTS_CAPACITY`]).
    TooManyRequests {
        /// The limit.
        max: usize,
    },
    /// `requestedSchema` is not a JSON object with `"type": "object"` and an
    /// object `properties` (or is nested too deep).
    InvalidSchema,
    /// The URL has no scheme, or contains spaces or control characters.
    InvalidUrl,
    /// Sampling params are not a JSON object with a `messages` array and an
    /// integer `maxTokens` (or a known member has the wrong type).
    InvalidSamplingParams,
    /// Neither an input request nor a `requestState`: the spec requires at
    /// least one (for a task status, at least one input request).
    Empty,
    /// The request's method cannot be answered with `input_required` (only
    /// `tools/call`, `prompts/get`, `resources/read`, `tasks/result`).
    MethodNotAllowed,
    /// A task status builder was given a task whose status is not
    /// `input_required`.
    StatusNotInputRequired,
    /// A task status builder was given a task whose `ttl_ms` or
    /// `poll_interval_ms` exceeds the schema's integer range.
    InvalidTask,
    /// The output buffer is too small; `needed` is the exact size.
    BufferTooSmall {
        /// Bytes the whole message needs.
        needed: usize,
    },
}

impl BuildError {
    /// The variant's name for logs (`"EmptyKey"`, ...), NUL-terminated for C.
    pub fn name(&self) -> &'static CStr {
        packed_name!(self, BuildError:
            MissingCapability EmptyKey KeyTooLong DuplicateKey TooManyRequests InvalidSchema
            InvalidUrl InvalidSamplingParams Empty MethodNotAllowed StatusNotInputRequired
            InvalidTask BufferTooSmall
        )
    }

    /// Whether the refused input itself is at fault (its key, schema, URL
    /// or sampling params), not the client, the count or the buffer.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            BuildError::EmptyKey
                | BuildError::KeyTooLong { .. }
                | BuildError::DuplicateKey
                | BuildError::InvalidSchema
                | BuildError::InvalidUrl
                | BuildError::InvalidSamplingParams
        )
    }
}

/// The reply to a request whose `input_required` result could not be built:
/// `-32021` with `data.requiredCapabilities` for
/// [`BuildError::MissingCapability`] (the client lacks what the request
/// needs; the spec forbids asking it), and `-32603 Internal error` for every
/// other build error (the server's own mistake: a bad key, schema or buffer,
/// nothing the client can fix).
pub fn write_build_error(
    out: &mut [u8],
    id: &Id<'_>,
    error: &BuildError,
) -> Result<usize, json::BufferTooSmall> {
    match error {
        BuildError::MissingCapability { missing } => {
            super::emit::write_missing_capability(out, id, missing)
        }
        _ => super::emit::write_internal_error(out, Some(id)),
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::MissingCapability { missing } => {
                f.write_str("client did not declare the capabilities this request needs:")?;
                write_capability_names(f, missing)
            }
            BuildError::EmptyKey => f.write_str("input request key is empty"),
            BuildError::KeyTooLong { max } => {
                write!(f, "input request key too long: at most {max} bytes")
            }
            BuildError::DuplicateKey => {
                f.write_str("input request key already used in this result")
            }
            BuildError::TooManyRequests { max } => {
                write!(f, "too many input requests: at most {max}")
            }
            BuildError::InvalidSchema => f.write_str(
                "requestedSchema is not a JSON object with \"type\":\"object\" \
                 and object properties, or nests too deep",
            ),
            BuildError::InvalidUrl => {
                f.write_str("URL has no scheme, or contains spaces or control characters")
            }
            BuildError::InvalidSamplingParams => f.write_str(
                "sampling params lack a messages array or an integer maxTokens, \
                 or mistype a known member",
            ),
            BuildError::Empty => f.write_str("neither an input request nor a requestState"),
            BuildError::MethodNotAllowed => f.write_str(
                "method cannot be answered with input_required \
                 (only tools/call, prompts/get, resources/read, tasks/result)",
            ),
            BuildError::StatusNotInputRequired => f.write_str("task status is not input_required"),
            BuildError::InvalidTask => write!(
                f,
                "task ttl_ms or poll_interval_ms exceeds {}",
                crate::json::MAX_SAFE_INTEGER
            ),
            BuildError::BufferTooSmall { needed } => {
                write!(f, "output buffer too small: needs {needed} bytes")
            }
        }
    }
}

/// Writes the names of the capabilities in `caps`, each after a space,
/// comma-separated (`" elicitation.form, roots"`), as a client declares
/// them.
fn write_capability_names(f: &mut fmt::Formatter<'_>, caps: &ClientCapabilities) -> fmt::Result {
    let names = [
        (caps.elicitation_form, "elicitation.form"),
        (caps.elicitation_url, "elicitation.url"),
        (caps.sampling, "sampling"),
        (caps.sampling_tools, "sampling.tools"),
        (caps.sampling_context, "sampling.context"),
        (caps.roots, "roots"),
        // Last, so its name can follow: `extension io.modelcontextprotocol/tasks`.
        (caps.tasks, "extension "),
    ];
    let mut sep = " ";
    for (_, name) in names.iter().filter(|(set, _)| *set) {
        f.write_str(sep)?;
        f.write_str(name)?;
        sep = ", ";
    }
    if caps.tasks {
        f.write_str(crate::wire::TASKS_EXTENSION)?;
    }
    Ok(())
}

impl core::error::Error for BuildError {}

/// The shared part of the builders: the open map, its keys, the checks.
#[derive(Debug)]
pub(super) struct RequestsWriter<'o, 'k> {
    pub(super) w: Writer<'o>,
    caps: ClientCapabilities,
    keys: [&'k str; MAX_INPUT_REQUESTS_CAPACITY],
    count: usize,
    max_count: usize,
    max_key_bytes: usize,
    /// Limits for raw `params` (sampling); `requestedSchema` gets one less.
    raw_limits: ParseLimits,
}

impl<'o, 'k> RequestsWriter<'o, 'k> {
    pub(super) fn new(w: Writer<'o>, caps: &ClientCapabilities, limits: &WireLimits) -> Self {
        RequestsWriter {
            w,
            caps: *caps,
            keys: [""; MAX_INPUT_REQUESTS_CAPACITY],
            count: 0,
            max_count: limits.max_input_requests.min(MAX_INPUT_REQUESTS_CAPACITY),
            max_key_bytes: limits.max_key_bytes,
            raw_limits: ParseLimits {
                max_depth: limits.json.max_depth.saturating_sub(DEPTH_ABOVE_PARAMS),
                max_bytes: limits.json.max_bytes,
            },
        }
    }

    pub(super) fn count(&self) -> usize {
        self.count
    }

    fn check_key(&self, key: &str) -> Result<(), BuildError> {
        if key.is_empty() {
            return Err(BuildError::EmptyKey);
        }
        if key.len() > self.max_key_bytes {
            return Err(BuildError::KeyTooLong {
                max: self.max_key_bytes,
            });
        }
        let used = self.keys.get(..self.count).unwrap_or(&[]);
        if used.contains(&key) {
            return Err(BuildError::DuplicateKey);
        }
        if self.count >= self.max_count {
            return Err(BuildError::TooManyRequests {
                max: self.max_count,
            });
        }
        Ok(())
    }

    fn check_caps(&self, needed: &ClientCapabilities) -> Result<(), BuildError> {
        if self.caps.covers(needed) {
            Ok(())
        } else {
            Err(BuildError::MissingCapability {
                missing: self.caps.missing(needed),
            })
        }
    }

    /// Opens the entry `"key":{"method":"...","params":` (the map on first
    /// use).
    fn open_entry(&mut self, key: &'k str, kind: InputKind) {
        if let Some(slot) = self.keys.get_mut(self.count) {
            *slot = key;
        }
        if self.count == 0 {
            self.w.raw(b",\"inputRequests\":{");
        } else {
            self.w.byte(b',');
        }
        self.count = self.count.saturating_add(1);
        self.w
            .key(key)
            .raw(b"{\"method\":")
            .str(kind.method())
            .raw(b",\"params\":");
    }

    /// Closes the map if one was opened.
    pub(super) fn close_map(&mut self) {
        if self.count > 0 {
            self.w.byte(b'}');
        }
    }

    pub(super) fn elicit_form(
        &mut self,
        key: &'k str,
        message: &str,
        requested_schema: &[u8],
    ) -> Result<(), BuildError> {
        self.add(
            key,
            &Ask::Form {
                message,
                requested_schema,
            },
        )
    }

    pub(super) fn elicit_url(
        &mut self,
        key: &'k str,
        message: &str,
        url: &str,
    ) -> Result<(), BuildError> {
        self.add(key, &Ask::Url { message, url })
    }

    pub(super) fn sampling(&mut self, key: &'k str, params: &[u8]) -> Result<(), BuildError> {
        self.add(key, &Ask::Sampling { params })
    }

    pub(super) fn roots(&mut self, key: &'k str) -> Result<(), BuildError> {
        self.add(key, &Ask::Roots)
    }

    /// Adds one input request: the key checked, then what is asked (form
    /// schema, URL, sampling params), then the capabilities it needs; the
    /// entry is written only when all pass. One body for every kind.
    fn add(&mut self, key: &'k str, ask: &Ask<'_>) -> Result<(), BuildError> {
        self.check_key(key)?;
        // The kind, what it needs, and the raw JSON it copies (form schema,
        // sampling params as read; the roots' empty `params`).
        let (kind, needed, raw) = match *ask {
            Ask::Form {
                requested_schema, ..
            } => {
                let schema_limits = ParseLimits {
                    max_depth: self.raw_limits.max_depth.saturating_sub(1),
                    ..self.raw_limits
                };
                let schema = raw_object(requested_schema, &schema_limits)
                    .ok_or(BuildError::InvalidSchema)?;
                // Both members in one walk, each unique (read in place).
                let [ty, properties] = &schema.get_unique_many(["type", "properties"]);
                let is_object_type = matches!(ty, Ok(Some(t))
                    if t.as_str().is_some_and(|t| t.eq_str("object")));
                let has_properties = matches!(properties, Ok(Some(p)) if p.as_object().is_some());
                if !(is_object_type && has_properties) {
                    return Err(BuildError::InvalidSchema);
                }
                let kind = InputKind::ElicitForm;
                (kind, kind.required_capability(), schema.raw())
            }
            Ask::Url { url, .. } => {
                if !url_is_plausible(url) {
                    return Err(BuildError::InvalidUrl);
                }
                let kind = InputKind::ElicitUrl;
                (kind, kind.required_capability(), &[][..])
            }
            Ask::Sampling { params } => {
                let obj = raw_object(params, &self.raw_limits)
                    .ok_or(BuildError::InvalidSamplingParams)?;
                // tools -> sampling.tools, includeContext other than none ->
                // sampling.context (the request read in place, not copied
                // out of its result)
                let needed = match &InputRequest::parse_sampling_params(obj) {
                    Ok(request) => request.required_capabilities(),
                    Err(_) => return Err(BuildError::InvalidSamplingParams),
                };
                (InputKind::Sampling, needed, obj.raw())
            }
            // `params` is optional for `roots/list`, but the official Go SDK
            // (v1.7.0) decodes each input request's `params` as a JSON value
            // and fails the whole call without one: write the empty object
            // every SDK reads.
            Ask::Roots => {
                let kind = InputKind::Roots;
                (kind, kind.required_capability(), &b"{}"[..])
            }
        };
        self.check_caps(&needed)?;
        self.open_entry(key, kind);
        let w = &mut self.w;
        // `params`, then the entry's closing brace.
        match *ask {
            Ask::Form { message, .. } => {
                w.raw(b"{\"mode\":\"form\",\"message\":")
                    .str(message)
                    .raw(b",\"requestedSchema\":")
                    .raw(raw)
                    .byte(b'}');
            }
            Ask::Url { message, url } => {
                w.raw(b"{\"mode\":\"url\",\"message\":")
                    .str(message)
                    .raw(b",\"url\":")
                    .str(url)
                    .byte(b'}');
            }
            // The sampling params as read, or the roots' `{}`.
            Ask::Sampling { .. } | Ask::Roots => {
                w.raw(raw);
            }
        }
        w.byte(b'}');
        Ok(())
    }

    pub(super) fn finish(self) -> Result<usize, BuildError> {
        self.w
            .finish()
            .map_err(|e| BuildError::BufferTooSmall { needed: e.needed })
    }
}

/// Raw JSON handed to the builder (a form schema, sampling params) read
/// under `limits` as one object; `None` for anything else. One body for
/// both kinds.
fn raw_object<'r>(bytes: &'r [u8], limits: &ParseLimits) -> Option<json::Object<'r>> {
    json::parse_with(bytes, limits)
        .ok()
        .and_then(|v| v.as_object())
}

/// One input request as a server states it, for
/// [`InputRequiredBuilder::input`]: what is asked, with the strings its kind
/// takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask<'a> {
    /// A form (`elicitation/create`, mode `form`).
    Form {
        /// What to tell the user.
        message: &'a str,
        /// The restricted JSON Schema of the form, raw.
        requested_schema: &'a [u8],
    },
    /// A URL the user is asked to open (`elicitation/create`, mode `url`).
    Url {
        /// Why the user should open it.
        message: &'a str,
        /// The URL.
        url: &'a str,
    },
    /// An LLM completion (`sampling/createMessage`).
    Sampling {
        /// The raw `CreateMessageRequestParams` object.
        params: &'a [u8],
    },
    /// The client's roots (`roots/list`).
    Roots,
}

impl Ask<'_> {
    /// The kind of input request this asks for.
    pub fn kind(&self) -> InputKind {
        match self {
            Ask::Form { .. } => InputKind::ElicitForm,
            Ask::Url { .. } => InputKind::ElicitUrl,
            Ask::Sampling { .. } => InputKind::Sampling,
            Ask::Roots => InputKind::Roots,
        }
    }
}

/// A light check of a URL handed to URL-mode elicitation: an RFC 3986 scheme
/// (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`), something after it,
/// and no whitespace or control characters anywhere. (Clients vet the URL
/// again before showing it; this catches server bugs early.)
///
/// The scheme is checked byte by byte: every byte of a non-ASCII character
/// is outside the ASCII classes, so a character fails exactly when one of
/// its bytes does.
pub(super) fn url_is_plausible(url: &str) -> bool {
    let Some((scheme, rest)) = url.split_once(':') else {
        return false;
    };
    let Some((first, tail)) = scheme.as_bytes().split_first() else {
        return false;
    };
    first.is_ascii_alphabetic()
        && tail
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
        && !rest.is_empty()
        && !url
            .chars()
            .any(|c| bytes::is_white_space(c) || c.is_control())
}

/// Builds `{"jsonrpc":"2.0","id":..,"result":{"resultType":"input_required",
/// "inputRequests":{..},"requestState":".."}}` into a caller buffer.
///
/// Rules it enforces: each input kind must be covered by the client's declared
/// capabilities (else [`BuildError::MissingCapability`] with what is missing);
/// keys are non-empty, at most [`WireLimits::max_key_bytes`] bytes, unique,
/// and at most [`WireLimits::max_input_requests`] (capped at
/// [`MAX_INPUT_REQUESTS_CAPACITY`]); at least one request or a
/// `requestState`. `requestState` is written last whenever it is set.
///
/// ```
/// use mrtr_core::server::InputRequiredBuilder;
/// use mrtr_core::wire::{ClientCapabilities, Id};
/// let caps = ClientCapabilities { elicitation_form: true, ..Default::default() };
/// let mut out = [0u8; 512];
/// let mut b = InputRequiredBuilder::new(&mut out, &Id::Number(1), &caps);
/// b.elicit_form("region", "Which region?",
///     br#"{"type":"object","properties":{"region":{"type":"string"}}}"#).unwrap();
/// b.request_state("opaque");
/// let n = b.finish().unwrap();
/// assert!(out[..n].starts_with(br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","#));
/// ```
#[derive(Debug)]
pub struct InputRequiredBuilder<'o, 'k> {
    inner: RequestsWriter<'o, 'k>,
    request_state: Option<&'k str>,
    related_task: Option<&'k str>,
}

impl<'o, 'k> InputRequiredBuilder<'o, 'k> {
    /// Starts the result for request `id`, for a client that declared `caps`,
    /// with the default limits.
    pub fn new(out: &'o mut [u8], id: &Id<'_>, caps: &ClientCapabilities) -> Self {
        Self::with_limits(out, id, caps, &WireLimits::default())
    }

    /// Starts the result with explicit limits (key length, request count,
    /// depth of raw JSON handed in).
    pub fn with_limits(
        out: &'o mut [u8],
        id: &Id<'_>,
        caps: &ClientCapabilities,
        limits: &WireLimits,
    ) -> Self {
        let mut w = Writer::new(out);
        write_result_head(&mut w, id);
        w.raw(b"{\"resultType\":\"input_required\"");
        InputRequiredBuilder {
            inner: RequestsWriter::new(w, caps, limits),
            request_state: None,
            related_task: None,
        }
    }

    /// Starts the answer to `request`: its id, its declared capabilities.
    /// Refuses methods that cannot carry `input_required`.
    pub fn for_request(out: &'o mut [u8], request: &ServerRequest<'_>) -> Result<Self, BuildError> {
        if !request.method.allows_input_required() {
            return Err(BuildError::MethodNotAllowed);
        }
        Ok(Self::new(out, &request.id, &request.client_capabilities()))
    }

    /// Asks for a form (`elicitation/create`, mode `form`; needs
    /// `elicitation.form`). `requested_schema` is the restricted JSON Schema,
    /// raw JSON, copied as given.
    pub fn elicit_form(
        &mut self,
        key: &'k str,
        message: &str,
        requested_schema: &[u8],
    ) -> Result<&mut Self, BuildError> {
        self.inner.elicit_form(key, message, requested_schema)?;
        Ok(self)
    }

    /// Asks the user to open a URL (`elicitation/create`, mode `url`; needs
    /// `elicitation.url`). The client retries when the user is done.
    pub fn elicit_url(
        &mut self,
        key: &'k str,
        message: &str,
        url: &str,
    ) -> Result<&mut Self, BuildError> {
        self.inner.elicit_url(key, message, url)?;
        Ok(self)
    }

    /// Asks for an LLM completion (`sampling/createMessage`; needs `sampling`,
    /// plus `sampling.tools` when `tools` is non-empty and `sampling.context`
    /// when `includeContext` is not `"none"`). `params` is the raw
    /// `CreateMessageRequestParams` object, copied as given.
    pub fn sampling(&mut self, key: &'k str, params: &[u8]) -> Result<&mut Self, BuildError> {
        self.inner.sampling(key, params)?;
        Ok(self)
    }

    /// Asks for the client's roots (`roots/list`; needs `roots`), written
    /// `{"method":"roots/list","params":{}}` (the form every official SDK
    /// reads).
    pub fn roots(&mut self, key: &'k str) -> Result<&mut Self, BuildError> {
        self.inner.roots(key)?;
        Ok(self)
    }

    /// Adds one input request as `ask` states it (the C ABI's form): checks
    /// and errors as the method of its kind ([`Self::elicit_form`],
    /// [`Self::elicit_url`], [`Self::sampling`], [`Self::roots`]).
    pub fn input(&mut self, key: &'k str, ask: Ask<'_>) -> Result<&mut Self, BuildError> {
        self.inner.add(key, &ask)?;
        Ok(self)
    }

    /// Sets the `requestState` token (sealed by the app beforehand; written
    /// as a JSON string). A later call replaces an earlier one.
    pub fn request_state(&mut self, token: &'k str) -> &mut Self {
        self.request_state = Some(token);
        self
    }

    /// Adds `_meta["io.modelcontextprotocol/related-task"]` (the SEP's task
    /// dialect answers `tasks/result` this way).
    pub fn related_task(&mut self, task_id: &'k str) -> &mut Self {
        self.related_task = Some(task_id);
        self
    }

    /// Number of input requests accepted so far.
    pub fn len(&self) -> usize {
        self.inner.count()
    }

    /// Whether no input request was accepted yet.
    pub fn is_empty(&self) -> bool {
        self.inner.count() == 0
    }

    /// Closes the message. Returns its length, [`BuildError::Empty`] when
    /// there is neither a request nor a state, or
    /// [`BuildError::BufferTooSmall`] with the exact size needed.
    pub fn finish(mut self) -> Result<usize, BuildError> {
        if self.inner.count() == 0 && self.request_state.is_none() {
            return Err(BuildError::Empty);
        }
        self.inner.close_map();
        let w = &mut self.inner.w;
        if let Some(state) = self.request_state {
            w.raw(b",\"requestState\":").str(state);
        }
        if let Some(task) = self.related_task {
            w.raw(b",\"_meta\":{")
                .key(META_RELATED_TASK)
                .raw(b"{\"taskId\":")
                .str(task)
                .raw(b"}}");
        }
        w.raw(b"}}");
        self.inner.finish()
    }
}
