//! Reading one incoming message: the request, its `_meta`, its MRTR fields.

use core::ffi::CStr;
use core::fmt;

use crate::json::{self, BufferTooSmall, JsonStr, Kind, Object, Value};
use crate::wire::error::INVALID_REQUEST_STATE_MESSAGE;
use crate::wire::task::META_RELATED_TASK;
use crate::wire::{
    parse_message_indexed, ClientCapabilities, EnvelopeError, ErrorCode, Id, InputResponse,
    InputResponses, Message, Violation, WireError, WireLimits, META_CLIENT_CAPABILITIES,
    META_CLIENT_INFO, META_PROTOCOL_VERSION, PROTOCOL_VERSION,
};

/// The client requests of the 2026-07-28 schema (`ClientRequest`). Their
/// params must carry `_meta` with the protocol version and the client's
/// capabilities; other methods (task methods, unknown methods) may omit it.
pub const CORE_REQUEST_METHODS: [&str; 10] = [
    "server/discover",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "subscriptions/listen",
    "prompts/list",
    "prompts/get",
    "tools/list",
    "tools/call",
    "completion/complete",
];

/// Whether requests of the core methods must carry `_meta`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum MetaPolicy {
    /// The 2026-07-28 schema: `_meta` with the protocol version and the
    /// client's capabilities on every core request; missing is `-32602`.
    #[default]
    Required,
    /// Also accept requests without them (SEP-draft clients, which sent
    /// neither). `_meta` is still validated when present; the request then
    /// has `meta: None` or missing members, and what to answer is the app's
    /// policy (nothing is declared, so nothing may be asked).
    Optional,
}

/// The method of a request, with the ones the server half reads named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method<'a> {
    /// `tools/call` (MRTR: may be answered with `input_required`).
    ToolsCall,
    /// `prompts/get` (MRTR).
    PromptsGet,
    /// `resources/read` (MRTR).
    ResourcesRead,
    /// `tasks/get`: `params.taskId`.
    TasksGet,
    /// `tasks/result`: `params.taskId` (MRTR in the SEP's task dialect).
    TasksResult,
    /// `tasks/cancel`: `params.taskId`.
    TasksCancel,
    /// `tasks/input_response` (SEP task dialect): `inputResponses` and
    /// `_meta["io.modelcontextprotocol/related-task"].taskId`.
    TasksInputResponse,
    /// `tasks/update` (Tasks extension): `taskId` and `inputResponses`.
    TasksUpdate,
    /// Any other method; the name is kept so the app can route it or answer
    /// `-32601`.
    Other(JsonStr<'a>),
}

/// The named methods with their wire names, in their number order (entry n
/// is number n + 1: the C API's `mrtr_server_method`; 0 is any other).
const NAMED: [(&str, Method<'static>); 8] = [
    ("tools/call", Method::ToolsCall),
    ("prompts/get", Method::PromptsGet),
    ("resources/read", Method::ResourcesRead),
    ("tasks/get", Method::TasksGet),
    ("tasks/result", Method::TasksResult),
    ("tasks/cancel", Method::TasksCancel),
    ("tasks/input_response", Method::TasksInputResponse),
    ("tasks/update", Method::TasksUpdate),
];

impl<'a> Method<'a> {
    fn from_name(name: JsonStr<'a>) -> Self {
        for (s, m) in NAMED {
            if name.eq_str(s) {
                return m;
            }
        }
        Method::Other(name)
    }

    /// The method's number: 1 to 8 for the named methods, 0 for
    /// [`Method::Other`] (the C API's `mrtr_server_method`).
    pub fn code(&self) -> u32 {
        let i = NAMED.iter().position(|(_, m)| m == self);
        i.and_then(|i| u32::try_from(i + 1).ok()).unwrap_or(0)
    }

    /// The named method numbered `code` (see [`Method::code`]); `None` for
    /// 0 and unknown numbers.
    pub fn from_code(code: u32) -> Option<Method<'static>> {
        let i = usize::try_from(code.checked_sub(1)?).ok()?;
        NAMED.get(i).map(|(_, m)| *m)
    }

    /// The wire name, for the named methods (`None` for [`Method::Other`]).
    pub const fn name(&self) -> Option<&'static str> {
        Some(match self {
            Method::ToolsCall => "tools/call",
            Method::PromptsGet => "prompts/get",
            Method::ResourcesRead => "resources/read",
            Method::TasksGet => "tasks/get",
            Method::TasksResult => "tasks/result",
            Method::TasksCancel => "tasks/cancel",
            Method::TasksInputResponse => "tasks/input_response",
            Method::TasksUpdate => "tasks/update",
            Method::Other(_) => return None,
        })
    }

    /// Whether the decoded method name equals `s`.
    pub fn is(&self, s: &str) -> bool {
        match (self, self.name()) {
            (Method::Other(n), _) => n.eq_str(s),
            (_, Some(n)) => n == s,
            (_, None) => false,
        }
    }

    /// Whether the server may answer this method with an `InputRequiredResult`
    /// (`tools/call`, `prompts/get`, `resources/read`, `tasks/result`).
    pub fn allows_input_required(&self) -> bool {
        matches!(
            self,
            Method::ToolsCall | Method::PromptsGet | Method::ResourcesRead | Method::TasksResult
        )
    }

    /// Whether the 2026-07-28 schema requires `_meta` (protocol version and
    /// client capabilities) on this method.
    pub fn requires_meta(&self) -> bool {
        match self {
            Method::ToolsCall | Method::PromptsGet | Method::ResourcesRead => true,
            Method::Other(n) => CORE_REQUEST_METHODS.iter().any(|m| n.eq_str(m)),
            _ => false,
        }
    }
}

/// The client's self-description (`io.modelcontextprotocol/clientInfo`), as
/// sent: for display and logs only (the spec forbids trusting it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeclaredClientInfo<'a> {
    /// `name`.
    pub name: JsonStr<'a>,
    /// `version`.
    pub version: JsonStr<'a>,
    /// The whole object (title, icons, ... are in here).
    pub raw: Object<'a>,
}

/// The MRTR members of a request's `params._meta`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RequestMeta<'a> {
    /// The whole `_meta` object (for `progressToken`, `logLevel`, app keys).
    pub raw: Object<'a>,
    /// `io.modelcontextprotocol/protocolVersion`. When present it equals
    /// [`PROTOCOL_VERSION`] (any other value fails the parse with `-32022`).
    /// Always present on methods where [`Method::requires_meta`] holds.
    pub protocol_version: Option<JsonStr<'a>>,
    /// `io.modelcontextprotocol/clientCapabilities`, parsed. Always present on
    /// methods where [`Method::requires_meta`] holds.
    pub client_capabilities: Option<ClientCapabilities>,
    /// The raw capabilities object (for capabilities mrtr does not model).
    pub client_capabilities_raw: Option<Object<'a>>,
    /// `io.modelcontextprotocol/clientInfo`, when sent.
    pub client_info: Option<DeclaredClientInfo<'a>>,
    /// `io.modelcontextprotocol/related-task.taskId`, when sent.
    pub related_task: Option<JsonStr<'a>>,
}

/// A parsed client request.
///
/// Every span borrows from the request bytes. Fields that do not apply to the
/// method are `None`. Construction goes through [`ServerRequest::parse`] only,
/// so the invariants documented on each field hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServerRequest<'a> {
    /// The JSON-RPC id, to answer with.
    pub id: Id<'a>,
    /// The method.
    pub method: Method<'a>,
    /// The whole `params` object, when present.
    pub params: Option<Object<'a>>,
    /// `params._meta`, when present (always present when
    /// [`Method::requires_meta`] holds).
    pub meta: Option<RequestMeta<'a>>,
    /// `name` (`tools/call`, `prompts/get`; required there).
    pub name: Option<JsonStr<'a>>,
    /// `uri` (`resources/read`; required there).
    pub uri: Option<JsonStr<'a>>,
    /// `arguments` (`tools/call`, `prompts/get`; optional), raw as sent. For
    /// `prompts/get` every value is a string.
    pub arguments: Option<Object<'a>>,
    /// `task` (task augmentation of `tools/call` etc., seed dialect), raw.
    pub task: Option<Object<'a>>,
    /// `inputResponses`: an object with unique keys, at most
    /// [`WireLimits::max_input_requests`] of them, none longer than
    /// [`WireLimits::max_key_bytes`]. Entries are judged only when looked up.
    pub input_responses: Option<InputResponses<'a>>,
    /// `requestState` exactly as sent (a string token, quotes and escapes
    /// included). Pass it to the unsealer; never trust it before that.
    pub request_state: Option<JsonStr<'a>>,
    /// The task a task method is about: `params.taskId` (`tasks/get`,
    /// `tasks/result`, `tasks/cancel`, `tasks/update`) or the related-task
    /// `_meta` (`tasks/input_response`). Required on those methods.
    pub task_id: Option<JsonStr<'a>>,
}

/// A notification (no id): the HTTP layer answers `202 Accepted`, never a
/// JSON-RPC response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerNotification<'a> {
    /// The method (`notifications/cancelled`, ...).
    pub method: JsonStr<'a>,
    /// The params object, unvalidated.
    pub params: Option<Object<'a>>,
}

/// What arrived.
// No heap to box into: the request is the common case and the value lives
// once on the stack per message, so the size difference costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Incoming<'a> {
    /// A request to answer.
    Request(ServerRequest<'a>),
    /// A notification: no response (HTTP: `202 Accepted`).
    Notification(ServerNotification<'a>),
    /// A JSON-RPC response from the client. MRTR servers send no requests, so
    /// there is nothing it can answer; no response (HTTP: `202 Accepted`).
    Response,
}

/// The request member an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// `params`.
    Params,
    /// `params._meta`.
    Meta,
    /// `_meta["io.modelcontextprotocol/protocolVersion"]`.
    ProtocolVersion,
    /// `_meta["io.modelcontextprotocol/clientCapabilities"]`.
    ClientCapabilities,
    /// `_meta["io.modelcontextprotocol/clientInfo"]`.
    ClientInfo,
    /// `_meta["io.modelcontextprotocol/related-task"]`.
    RelatedTask,
    /// `name`.
    Name,
    /// `uri`.
    Uri,
    /// `arguments`.
    Arguments,
    /// `task`.
    Task,
    /// `inputResponses`.
    InputResponses,
    /// `requestState`.
    RequestState,
    /// `taskId`.
    TaskId,
}

impl Field {
    /// The member's name on the wire, NUL-terminated for C (the same text
    /// as [`Field::wire_name`]).
    pub const fn c_name(self) -> &'static CStr {
        match self {
            Field::Params => c"params",
            Field::Meta => c"_meta",
            Field::ProtocolVersion => c"io.modelcontextprotocol/protocolVersion",
            Field::ClientCapabilities => c"io.modelcontextprotocol/clientCapabilities",
            Field::ClientInfo => c"io.modelcontextprotocol/clientInfo",
            Field::RelatedTask => c"io.modelcontextprotocol/related-task",
            Field::Name => c"name",
            Field::Uri => c"uri",
            Field::Arguments => c"arguments",
            Field::Task => c"task",
            Field::InputResponses => c"inputResponses",
            Field::RequestState => c"requestState",
            Field::TaskId => c"taskId",
        }
    }

    /// The member's name on the wire.
    pub const fn wire_name(self) -> &'static str {
        // The C names' bytes (see `c_text`): each name is in the image once.
        use crate::wire::c_text;
        match self {
            Field::Params => const { c_text(c"params") },
            Field::Meta => const { c_text(c"_meta") },
            Field::ProtocolVersion => META_PROTOCOL_VERSION,
            Field::ClientCapabilities => META_CLIENT_CAPABILITIES,
            Field::ClientInfo => META_CLIENT_INFO,
            Field::RelatedTask => META_RELATED_TASK,
            Field::Name => const { c_text(c"name") },
            Field::Uri => const { c_text(c"uri") },
            Field::Arguments => const { c_text(c"arguments") },
            Field::Task => const { c_text(c"task") },
            Field::InputResponses => const { c_text(c"inputResponses") },
            Field::RequestState => const { c_text(c"requestState") },
            Field::TaskId => const { c_text(c"taskId") },
        }
    }
}

/// Why a message cannot be served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestErrorKind<'a> {
    /// Not acceptable JSON (syntax, UTF-8, nesting depth, size): `-32700`.
    Json(json::Error),
    /// JSON, but not a JSON-RPC 2.0 request: `-32600`.
    Envelope(EnvelopeError),
    /// A required member is absent: `-32602`.
    Missing(Field),
    /// A member has the wrong type or shape: `-32602`. (For
    /// [`Field::RequestState`] the wire message is the frozen
    /// `"Invalid or expired requestState"`.)
    Malformed(Field),
    /// A member the server reads occurs twice in its object: `-32602`.
    Duplicate(Field),
    /// The request names a protocol revision other than `2026-07-28`:
    /// `-32022` with `data.requested` (this token) and `data.supported`.
    UnsupportedProtocolVersion {
        /// The revision the client asked for, as sent.
        requested: JsonStr<'a>,
    },
    /// `inputResponses` has more entries than
    /// [`WireLimits::max_input_requests`]: `-32602`.
    TooManyInputResponses,
    /// An `inputResponses` key is longer than [`WireLimits::max_key_bytes`]
    /// (decoded): `-32602`. No key the server asked for can be that long.
    InputResponseKeyTooLong,
    /// Two `inputResponses` keys decode to the same text: `-32602`.
    DuplicateInputResponseKey,
    /// An `inputResponses` entry is not an object, or is the SEP draft's
    /// `{"result": ..}` wrapping around something that is not an object:
    /// `-32602`. (Objects of an unknown shape under keys the server does not
    /// read are ignored; these are not results of any kind.)
    InputResponseNotAnObject,
    /// An object somewhere in `params` (at any depth: `arguments`, `_meta`,
    /// an answer, ...) has a member twice, so readers that keep the first
    /// and the last would act on different requests (`{"region":"eu",
    /// "region":"us"}`): `-32602`. Checked after every other rule.
    RepeatedMember {
        /// Byte offset, within `params`, of the repeated member's value.
        offset: usize,
    },
    /// An object in `params` whose keys the one-pass check cannot hold
    /// has more than [`json::DEEP_MAX_MEMBERS`] members, so its keys
    /// cannot be checked within bounded work: `-32602`.
    TooManyMembers {
        /// Byte offset, within `params`, of the first member's value past
        /// the limit.
        offset: usize,
    },
}

impl RequestErrorKind<'_> {
    /// The cause's name for logs (`"Missing"`, `"RepeatedMember"`, ...),
    /// NUL-terminated for C; JSON and envelope errors give their detail's
    /// (`"TooDeep"`, `"BadVersion"`).
    pub fn name(&self) -> &'static CStr {
        use RequestErrorKind as K;
        packed_name!(self, K:
            Missing Malformed Duplicate UnsupportedProtocolVersion TooManyInputResponses
            InputResponseKeyTooLong DuplicateInputResponseKey InputResponseNotAnObject
            RepeatedMember TooManyMembers;
            K::Json(j) => j.kind.name(),
            K::Envelope(e) => e.name(),
        )
    }

    /// The member the error is about, when it names one.
    pub fn field(&self) -> Option<Field> {
        use RequestErrorKind as K;
        match *self {
            K::Json(_) | K::Envelope(_) => None,
            K::Missing(f) | K::Malformed(f) | K::Duplicate(f) => Some(f),
            K::UnsupportedProtocolVersion { .. } => Some(Field::ProtocolVersion),
            K::RepeatedMember { .. } | K::TooManyMembers { .. } => Some(Field::Params),
            _ => Some(Field::InputResponses),
        }
    }

    /// Whether a bound was exceeded (too many or too long), not a rule
    /// broken; a JSON error says so itself ([`json::Error`]).
    pub fn is_limit(&self) -> bool {
        use RequestErrorKind as K;
        matches!(
            self,
            K::TooManyInputResponses | K::InputResponseKeyTooLong | K::TooManyMembers { .. }
        )
    }
}

/// A request that cannot be served, with the id to answer (`None`: answer
/// with `"id": null`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerRequestError<'a> {
    /// The request id when it could be read.
    pub id: Option<Id<'a>>,
    /// What is wrong.
    pub kind: RequestErrorKind<'a>,
}

impl<'a> ServerRequestError<'a> {
    fn new(id: Id<'a>, kind: RequestErrorKind<'a>) -> Self {
        ServerRequestError { id: Some(id), kind }
    }

    /// The MCP error code to answer with.
    pub fn code(&self) -> ErrorCode {
        match self.kind {
            RequestErrorKind::Json(_) => ErrorCode::ParseError,
            RequestErrorKind::Envelope(_) => ErrorCode::InvalidRequest,
            RequestErrorKind::UnsupportedProtocolVersion { .. } => {
                ErrorCode::UnsupportedProtocolVersion
            }
            _ => ErrorCode::InvalidParams,
        }
    }

    /// The wire message, as (fixed prefix, member name). Errors about
    /// `requestState` all use the frozen `"Invalid or expired requestState"`,
    /// so the wire never tells a prober which check failed.
    pub fn message_parts(&self) -> (&'static str, Option<&'static str>) {
        let field = |f: Field| Some(f.wire_name());
        match self.kind {
            RequestErrorKind::Json(_) => ("Parse error", None),
            RequestErrorKind::Envelope(_) => ("Invalid Request", None),
            RequestErrorKind::Missing(Field::RequestState)
            | RequestErrorKind::Malformed(Field::RequestState)
            | RequestErrorKind::Duplicate(Field::RequestState) => {
                (INVALID_REQUEST_STATE_MESSAGE, None)
            }
            RequestErrorKind::Missing(f) => ("Invalid params: missing ", field(f)),
            RequestErrorKind::Malformed(f) => ("Invalid params: malformed ", field(f)),
            RequestErrorKind::Duplicate(f) => ("Invalid params: duplicate ", field(f)),
            RequestErrorKind::UnsupportedProtocolVersion { .. } => {
                ("Unsupported protocol version", None)
            }
            RequestErrorKind::TooManyInputResponses => {
                ("Invalid params: too many inputResponses", None)
            }
            RequestErrorKind::InputResponseKeyTooLong => {
                ("Invalid params: inputResponses key too long", None)
            }
            RequestErrorKind::DuplicateInputResponseKey => {
                ("Invalid params: duplicate inputResponses key", None)
            }
            RequestErrorKind::InputResponseNotAnObject => (
                "Invalid params: an inputResponses entry is not an object",
                None,
            ),
            RequestErrorKind::RepeatedMember { .. } => (
                "Invalid params: a member is repeated in ",
                field(Field::Params),
            ),
            RequestErrorKind::TooManyMembers { .. } => (
                "Invalid params: an object has too many members in ",
                field(Field::Params),
            ),
        }
    }

    /// Writes the JSON-RPC error response for this error into `out`.
    pub fn write(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        write_request_error(out, self)
    }
}

impl fmt::Display for ServerRequestError<'_> {
    /// The code and wire message, then the detail the wire does not carry
    /// (for logs): `-32700 Parse error (UnexpectedEnd at byte 9)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (prefix, field) = self.message_parts();
        write!(
            f,
            "{} {}{}",
            self.code().code(),
            prefix,
            field.unwrap_or("")
        )?;
        match self.kind {
            RequestErrorKind::Json(e) => write!(f, " ({e})"),
            RequestErrorKind::Envelope(e) => write!(f, " ({e})"),
            // The wire message is frozen; the log says what was wrong.
            RequestErrorKind::Missing(Field::RequestState) => f.write_str(" (missing)"),
            RequestErrorKind::Malformed(Field::RequestState) => f.write_str(" (not a string)"),
            RequestErrorKind::Duplicate(Field::RequestState) => f.write_str(" (sent twice)"),
            _ => Ok(()),
        }
    }
}

impl core::error::Error for ServerRequestError<'_> {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        core::error::Error::source(&self.kind)
    }
}

impl fmt::Display for RequestErrorKind<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestErrorKind::Json(e) => write!(f, "invalid JSON: {e}"),
            RequestErrorKind::Envelope(e) => write!(f, "not a JSON-RPC 2.0 request: {e}"),
            RequestErrorKind::Missing(field) => write!(f, "missing {}", field.wire_name()),
            RequestErrorKind::Malformed(field) => write!(f, "malformed {}", field.wire_name()),
            RequestErrorKind::Duplicate(field) => write!(f, "duplicate {}", field.wire_name()),
            RequestErrorKind::UnsupportedProtocolVersion { requested } => {
                f.write_str("unsupported protocol version \"")?;
                requested.write_chars(f)?;
                f.write_str("\"")
            }
            RequestErrorKind::TooManyInputResponses => write!(f, "too many inputResponses"),
            RequestErrorKind::InputResponseKeyTooLong => write!(f, "inputResponses key too long"),
            RequestErrorKind::DuplicateInputResponseKey => {
                write!(f, "duplicate inputResponses key")
            }
            RequestErrorKind::InputResponseNotAnObject => {
                write!(f, "an inputResponses entry is not an object")
            }
            RequestErrorKind::RepeatedMember { offset } => {
                write!(f, "a member is repeated in params (value at byte {offset})")
            }
            RequestErrorKind::TooManyMembers { offset } => write!(
                f,
                "an object in params has more than {} members (at byte {offset})",
                json::DEEP_MAX_MEMBERS
            ),
        }
    }
}

impl core::error::Error for RequestErrorKind<'_> {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            RequestErrorKind::Json(e) => Some(e),
            RequestErrorKind::Envelope(e) => Some(e),
            _ => None,
        }
    }
}

impl<'a> ServerRequest<'a> {
    /// Reads one incoming message under [`MetaPolicy::Required`].
    ///
    /// Order of checks (each failure maps to one [`ServerRequestError::code`]):
    /// JSON (`-32700`, id `null`), JSON-RPC envelope (`-32600`, the id when
    /// readable), then for requests: `params` an object (`-32602`),
    /// `params._meta` (its protocol version first: `-32022` for another
    /// revision, then the client's capabilities and info), then the method's
    /// own params (`-32602`), then that no object anywhere in `params` has
    /// a member twice ([`RequestErrorKind::RepeatedMember`], `-32602`; see
    /// [`json::Value::check_unique_keys_deep`] for its bound,
    /// [`RequestErrorKind::TooManyMembers`]).
    /// Notifications and responses are recognised and not validated
    /// further.
    pub fn parse(
        bytes: &'a [u8],
        limits: &WireLimits,
    ) -> Result<Incoming<'a>, ServerRequestError<'a>> {
        Self::parse_with(bytes, limits, MetaPolicy::Required)
    }

    /// [`Self::parse`] with an explicit policy for requests without `_meta`.
    pub fn parse_with(
        bytes: &'a [u8],
        limits: &WireLimits,
        policy: MetaPolicy,
    ) -> Result<Incoming<'a>, ServerRequestError<'a>> {
        Self::parse_indexed(bytes, limits, policy, &mut [])
    }

    /// [`Self::parse_with`] with a skip index in `slots` (see
    /// [`json::parse_indexed`]): the same result and the same errors, but
    /// reading the request's levels (envelope, `params`, `_meta`, its
    /// capabilities, `inputResponses`) skips a nested container through
    /// the index instead of scanning it again, and so does the
    /// application's own reading of what is returned (the spans borrow
    /// `slots`). One slot per 48 bytes of request covers every container of
    /// a retry request; fewer slots give the same results, more slowly. A
    /// server keeps the slots beside its request buffer.
    pub fn parse_indexed(
        bytes: &'a [u8],
        limits: &WireLimits,
        policy: MetaPolicy,
        slots: &'a mut [json::IndexSlot],
    ) -> Result<Incoming<'a>, ServerRequestError<'a>> {
        let msg = match parse_message_indexed(bytes, limits, slots) {
            Ok(m) => m,
            Err(WireError::Json(e)) => {
                return Err(ServerRequestError {
                    id: None,
                    kind: RequestErrorKind::Json(e),
                })
            }
            // A response whose result is not an object: a response all the
            // same, and a server answers no response.
            Err(WireError::Protocol(Violation::ResultNotObject)) => return Ok(Incoming::Response),
            Err(WireError::Envelope(e)) => return Err(envelope_error(bytes, limits, e)),
            Err(WireError::Protocol(_)) => {
                return Err(envelope_error(bytes, limits, EnvelopeError::NotAnObject))
            }
        };
        match msg {
            Message::Request { id, method, params } => {
                // Read straight into the result: the request is large, and
                // built apart it was copied into it member by member.
                let mut out: Result<_, ServerRequestError<'a>> =
                    Ok(Incoming::Request(ServerRequest {
                        id,
                        method: Method::from_name(method),
                        params,
                        meta: None,
                        name: None,
                        uri: None,
                        arguments: None,
                        task: None,
                        input_responses: None,
                        request_state: None,
                        task_id: None,
                    }));
                if let Ok(Incoming::Request(req)) = &mut out {
                    if let Err(kind) = parse_request(req, limits, policy) {
                        return Err(ServerRequestError::new(id, kind));
                    }
                }
                out
            }
            Message::Notification { method, params } => {
                Ok(Incoming::Notification(ServerNotification {
                    method,
                    params,
                }))
            }
            Message::Result { .. } | Message::Error { .. } => Ok(Incoming::Response),
        }
    }

    /// The capabilities the client declared on this request (nothing declared
    /// when the method allowed `_meta` to be omitted and it was).
    pub fn client_capabilities(&self) -> ClientCapabilities {
        self.meta
            .and_then(|m| m.client_capabilities)
            .unwrap_or_default()
    }

    /// Whether an HTTP `MCP-Protocol-Version` header value matches the
    /// revision in `_meta` (`false` when `_meta` names none). A mismatch is
    /// answered with `-32020` (see [`super::write_header_mismatch`]).
    pub fn protocol_header_matches(&self, header: &str) -> bool {
        self.meta
            .and_then(|m| m.protocol_version)
            .is_some_and(|v| v.eq_str(header.trim_matches([' ', '\t'])))
    }

    /// The `requestState` text, decoded. Borrowed from the request when the
    /// token has no escapes, otherwise unescaped into `buf` (a too-small
    /// `buf` reports the exact size needed). `Ok(None)` when there is none.
    pub fn request_state_text<'s>(
        &'s self,
        buf: &'s mut [u8],
    ) -> Result<Option<&'s str>, BufferTooSmall> {
        let Some(token) = self.request_state else {
            return Ok(None);
        };
        if let Some(s) = token.as_borrowed() {
            return Ok(Some(s));
        }
        token
            .unescape_into(buf)
            .map(Some)
            .map_err(|e| BufferTooSmall { needed: e.offset })
    }
}

/// The error for a message whose envelope is broken (`e`), with its id
/// when that is readable. JSON-RPC allows array params; MCP does not: a
/// request whose id is readable gets `-32602`, not `-32600`.
fn envelope_error<'a>(
    bytes: &'a [u8],
    limits: &WireLimits,
    e: EnvelopeError,
) -> ServerRequestError<'a> {
    let (id, id_present) = envelope_id(bytes, limits);
    let kind = match (e, id, id_present) {
        (EnvelopeError::BadParams, Some(_), _) => RequestErrorKind::Malformed(Field::Params),
        (EnvelopeError::BadParams, None, true) => RequestErrorKind::Envelope(EnvelopeError::BadId),
        (e, _, _) => RequestErrorKind::Envelope(e),
    };
    ServerRequestError { id, kind }
}

/// Reads the id of a message whose envelope is broken, when it is a unique
/// string or integer, so the error answer can name it; also whether an `id`
/// member is there at all.
fn envelope_id<'a>(bytes: &'a [u8], limits: &WireLimits) -> (Option<Id<'a>>, bool) {
    let Some(obj) = json::parse_with(bytes, &limits.json)
        .ok()
        .and_then(|v| v.as_object())
    else {
        return (None, false);
    };
    match obj.get_unique("id") {
        Ok(None) => (None, false),
        Err(_) => (None, true),
        Ok(Some(v)) => {
            let id = match v.kind() {
                Kind::Number => v.as_i64().map(Id::Number),
                Kind::String => v.as_str().map(Id::Str),
                _ => None,
            };
            (id, true)
        }
    }
}

type Kinded<'a, T> = Result<T, RequestErrorKind<'a>>;

/// The members of `obj` named by `fields`, found in one walk of the object
/// (one walk matters: each walk re-skips every value, and params can be a
/// megabyte of answers). `None` entries of `fields` are not read, so a
/// duplicate of a member the method does not use is not an error. Entry `i`
/// of `found` (as long as `fields`, all `None`) receives the member
/// `fields[i]`; it is the caller's, so the members are not copied out.
fn collect<'a>(
    obj: Object<'a>,
    fields: &[Option<Field>],
    found: &mut [Option<Value<'a>>],
) -> Kinded<'a, ()> {
    for (k, v) in obj.iter() {
        let hit = fields
            .iter()
            .zip(found.iter_mut())
            .find(|(f, _)| f.is_some_and(|f| k.eq_str(f.wire_name())));
        if let Some((Some(field), slot)) = hit {
            if slot.replace(v).is_some() {
                return Err(RequestErrorKind::Duplicate(*field));
            }
        }
    }
    Ok(())
}

fn as_string<'a>(v: &Option<Value<'a>>, field: Field) -> Kinded<'a, Option<JsonStr<'a>>> {
    match v {
        None => Ok(None),
        Some(v) => v
            .as_str()
            .map(Some)
            .ok_or(RequestErrorKind::Malformed(field)),
    }
}

fn as_object<'a>(v: &Option<Value<'a>>, field: Field) -> Kinded<'a, Option<Object<'a>>> {
    match v {
        None => Ok(None),
        Some(v) => v
            .as_object()
            .map(Some)
            .ok_or(RequestErrorKind::Malformed(field)),
    }
}

/// A member found by `get_unique_many` when it is there once and a string.
fn unique_str<'a>(found: &Result<Option<Value<'a>>, json::Error>) -> Option<JsonStr<'a>> {
    match found {
        Ok(Some(v)) => v.as_str(),
        _ => None,
    }
}

fn required<'a, T>(v: Option<T>, field: Field) -> Kinded<'a, T> {
    v.ok_or(RequestErrorKind::Missing(field))
}

/// Reads `_meta`, the object `raw`, into `meta` (`raw` already, every
/// other member `None`) in place: built apart, the members were copied in
/// one by one. The version is checked from a local, not read back from
/// `meta` (a pointer into the result, taken for the check, kept the result
/// from being built where it is returned: a copy on 64-bit hosts).
fn parse_meta<'a>(
    meta: &mut RequestMeta<'a>,
    raw: Object<'a>,
    required_keys: bool,
) -> Kinded<'a, ()> {
    let mut found = [None; 4];
    collect(
        raw,
        &[
            Some(Field::ProtocolVersion),
            Some(Field::ClientCapabilities),
            Some(Field::ClientInfo),
            Some(Field::RelatedTask),
        ],
        &mut found,
    )?;
    let [version, caps, info, related] = &found;
    // The revision first: another revision may shape everything else
    // differently, and the client needs -32022 to downgrade.
    let protocol_version = as_string(version, Field::ProtocolVersion)?;
    meta.protocol_version = protocol_version;
    match protocol_version {
        Some(v) if !v.eq_str(PROTOCOL_VERSION) => {
            return Err(RequestErrorKind::UnsupportedProtocolVersion { requested: v })
        }
        None if required_keys => return Err(RequestErrorKind::Missing(Field::ProtocolVersion)),
        _ => {}
    }
    let caps_raw = as_object(caps, Field::ClientCapabilities)?;
    if caps_raw.is_none() && required_keys {
        return Err(RequestErrorKind::Missing(Field::ClientCapabilities));
    }
    meta.client_capabilities_raw = caps_raw;
    meta.client_capabilities = match caps_raw {
        None => None,
        Some(c) => Some(
            ClientCapabilities::parse(c)
                .map_err(|_| RequestErrorKind::Malformed(Field::ClientCapabilities))?,
        ),
    };
    meta.client_info = match as_object(info, Field::ClientInfo)? {
        None => None,
        Some(o) => {
            // One walk for both members; each must be a unique string (any
            // fault is the same error).
            let [name, version] = &o.get_unique_many(["name", "version"]);
            match (unique_str(name), unique_str(version)) {
                (Some(name), Some(version)) => Some(DeclaredClientInfo {
                    name,
                    version,
                    raw: o,
                }),
                _ => return Err(RequestErrorKind::Malformed(Field::ClientInfo)),
            }
        }
    };
    meta.related_task = match as_object(related, Field::RelatedTask)? {
        None => None,
        Some(o) => Some(
            unique_str(&o.get_unique("taskId"))
                .ok_or(RequestErrorKind::Malformed(Field::RelatedTask))?,
        ),
    };
    Ok(())
}

/// Validates `inputResponses` as a map: bounded entry count, bounded keys,
/// every entry an object (bare, or wrapped as `{"result": {..}}`). What the
/// entries say is judged only when the app looks a key up. Its keys'
/// uniqueness is left to the deep check of `params`, which covers this map
/// ([`input_keys_unique`] gives that failure its own error when it comes).
fn parse_input_responses<'a>(v: Value<'a>, limits: &WireLimits) -> Kinded<'a, InputResponses<'a>> {
    let obj = v
        .as_object()
        .ok_or(RequestErrorKind::Malformed(Field::InputResponses))?;
    for (i, (k, v)) in obj.iter().enumerate() {
        if i >= limits.max_input_requests {
            return Err(RequestErrorKind::TooManyInputResponses);
        }
        if k.raw_inner().len() > limits.max_key_bytes && k.decoded_len() > limits.max_key_bytes {
            return Err(RequestErrorKind::InputResponseKeyTooLong);
        }
        if InputResponse::parse(v).is_none() {
            return Err(RequestErrorKind::InputResponseNotAnObject);
        }
    }
    Ok(InputResponses::trusting_unique_keys(obj))
}

/// The uniqueness check of an `inputResponses` map on its own, run only
/// when a later check of the request failed: a repeated answer key is
/// reported before those, as [`RequestErrorKind::DuplicateInputResponseKey`].
fn input_keys_unique<'a>(ir: Option<InputResponses<'a>>, limits: &WireLimits) -> Kinded<'a, ()> {
    match ir.map(|ir| InputResponses::parse(ir.raw().as_value(), limits)) {
        Some(Err(_)) => Err(RequestErrorKind::DuplicateInputResponseKey),
        _ => Ok(()),
    }
}

/// The members of `params` the server reads, in the order of the bits
/// below (a method reads some of them: see `parse_request`).
const PARAMS: [Field; 8] = [
    Field::Meta,
    Field::Name,
    Field::Uri,
    Field::Arguments,
    Field::Task,
    Field::InputResponses,
    Field::RequestState,
    Field::TaskId,
];
const META: u32 = 1;
const NAME: u32 = 1 << 1;
const URI: u32 = 1 << 2;
const ARGUMENTS: u32 = 1 << 3;
const TASK: u32 = 1 << 4;
const INPUT_RESPONSES: u32 = 1 << 5;
const REQUEST_STATE: u32 = 1 << 6;
const TASK_ID: u32 = 1 << 7;

/// The fields of `PARAMS` whose bits `bits` has, for [`collect`].
const fn reads(bits: u32) -> [Option<Field>; 8] {
    let mut out = [None; 8];
    let mut i = 0;
    while i < PARAMS.len() {
        if bits >> i & 1 != 0 {
            out[i] = Some(PARAMS[i]);
        }
        i += 1;
    }
    out
}

fn parse_request<'a>(
    req: &mut ServerRequest<'a>,
    limits: &WireLimits,
    policy: MetaPolicy,
) -> Kinded<'a, ()> {
    let method = req.method;
    let needs_meta = method.requires_meta() && policy == MetaPolicy::Required;
    let Some(p) = req.params else {
        // Every named method has required params; so do the core methods
        // when _meta is required.
        return match method {
            Method::Other(_) if !needs_meta => Ok(()),
            _ => Err(RequestErrorKind::Missing(Field::Params)),
        };
    };
    // The members this method reads; others are carried, not judged.
    let fields: &[Option<Field>; 8] = match method {
        Method::ToolsCall | Method::PromptsGet => {
            &const { reads(META | NAME | ARGUMENTS | TASK | INPUT_RESPONSES | REQUEST_STATE) }
        }
        Method::ResourcesRead => {
            &const { reads(META | URI | TASK | INPUT_RESPONSES | REQUEST_STATE) }
        }
        Method::TasksGet | Method::TasksCancel => &const { reads(META | TASK_ID) },
        Method::TasksResult => &const { reads(META | TASK_ID | INPUT_RESPONSES | REQUEST_STATE) },
        Method::TasksInputResponse => &const { reads(META | INPUT_RESPONSES | REQUEST_STATE) },
        Method::TasksUpdate => &const { reads(META | TASK_ID | INPUT_RESPONSES) },
        Method::Other(_) => &const { reads(META) },
    };
    let [_, named, addressed, _, _, _, _, by_task_id] = fields.map(|f| f.is_some());
    let mut found = [None; 8];
    collect(p, fields, &mut found)?;
    let [meta, name, uri, arguments, task, input_responses, request_state, task_id] = &found;
    match as_object(meta, Field::Meta)? {
        None if needs_meta => return Err(RequestErrorKind::Missing(Field::Meta)),
        None => {}
        Some(raw) => {
            req.meta = Some(RequestMeta {
                raw,
                protocol_version: None,
                client_capabilities: None,
                client_capabilities_raw: None,
                client_info: None,
                related_task: None,
            });
            if let Some(meta) = &mut req.meta {
                parse_meta(meta, raw, needs_meta)?;
            }
        }
    }
    if named {
        req.name = Some(required(as_string(name, Field::Name)?, Field::Name)?);
        req.arguments = as_object(arguments, Field::Arguments)?;
        if let (Method::PromptsGet, Some(args)) = (method, req.arguments) {
            // GetPromptRequestParams: every argument value is a string.
            if args.iter().any(|(_, v)| v.kind() != Kind::String) {
                return Err(RequestErrorKind::Malformed(Field::Arguments));
            }
        }
    }
    if addressed {
        req.uri = Some(required(as_string(uri, Field::Uri)?, Field::Uri)?);
    }
    req.task = as_object(task, Field::Task)?;
    if by_task_id {
        req.task_id = Some(required(as_string(task_id, Field::TaskId)?, Field::TaskId)?);
    }
    if method == Method::TasksInputResponse {
        let related = req.meta.as_ref().and_then(|m| m.related_task);
        req.task_id = Some(required(related, Field::RelatedTask)?);
    }
    req.input_responses = match input_responses {
        None => None,
        Some(v) => Some(parse_input_responses(*v, limits)?),
    };
    if matches!(method, Method::TasksInputResponse | Method::TasksUpdate) {
        required(req.input_responses, Field::InputResponses)?;
    }
    let state = as_string(request_state, Field::RequestState);
    // A body that means two things is refused, at any depth (one pass; the
    // requestState token read above is stepped over, not scanned again).
    let deep = match state {
        Ok(known) => p.as_value().check_unique_keys_deep_past(known),
        Err(_) => Ok(()),
    };
    if state.is_err() || deep.is_err() {
        input_keys_unique(req.input_responses, limits)?;
    }
    req.request_state = state?;
    deep.map_err(|e| match e.kind {
        json::ErrorKind::TooManyMembers => RequestErrorKind::TooManyMembers { offset: e.offset },
        _ => RequestErrorKind::RepeatedMember { offset: e.offset },
    })?;
    Ok(())
}

/// The error response for a request that failed [`super::ServerRequest::parse`]:
/// `-32700` (no id), `-32600`, `-32022` (with requested/supported) or
/// `-32602` naming the member at fault.
pub fn write_request_error(
    out: &mut [u8],
    err: &ServerRequestError<'_>,
) -> Result<usize, BufferTooSmall> {
    if let RequestErrorKind::UnsupportedProtocolVersion { requested } = err.kind {
        return super::emit::write_unsupported_version(
            out,
            err.id.as_ref(),
            &requested,
            &[crate::wire::PROTOCOL_VERSION],
        );
    }
    let (prefix, field) = err.message_parts();
    let parts = [prefix, field.unwrap_or("")];
    super::emit::write_error_parts(out, err.id.as_ref(), err.code(), &parts)
}
