//! `inputRequests`: the server's questions, keyed by server-chosen names.

use super::caps::ClientCapabilities;
use super::error::Violation;
use super::WireLimits;
use crate::json::{JsonStr, Object, Value};

/// The kind of an input request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum InputKind {
    /// `elicitation/create` in form mode (mode `form` or absent).
    ElicitForm = 1,
    /// `elicitation/create` in URL mode.
    ElicitUrl = 2,
    /// `sampling/createMessage`.
    Sampling = 3,
    /// `roots/list`.
    Roots = 4,
}

impl InputKind {
    /// The kind numbered `code` (its discriminant, the C `mrtr_input_kind`);
    /// `None` otherwise.
    pub fn from_code(code: u32) -> Option<InputKind> {
        use InputKind as K;
        Some(match code {
            c if c == K::ElicitForm as u32 => K::ElicitForm,
            c if c == K::ElicitUrl as u32 => K::ElicitUrl,
            c if c == K::Sampling as u32 => K::Sampling,
            c if c == K::Roots as u32 => K::Roots,
            _ => return None,
        })
    }

    /// The JSON-RPC method that carries this kind.
    pub const fn method(self) -> &'static str {
        match self {
            InputKind::ElicitForm | InputKind::ElicitUrl => "elicitation/create",
            InputKind::Sampling => "sampling/createMessage",
            InputKind::Roots => "roots/list",
        }
    }

    /// The client capability this kind needs.
    pub fn required_capability(self) -> ClientCapabilities {
        let mut c = ClientCapabilities::default();
        match self {
            InputKind::ElicitForm => c.elicitation_form = true,
            InputKind::ElicitUrl => c.elicitation_url = true,
            InputKind::Sampling => c.sampling = true,
            InputKind::Roots => c.roots = true,
        }
        c
    }
}

/// One validated input request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputRequest<'a> {
    /// A form to show the user.
    ElicitForm {
        /// What to tell the user.
        message: JsonStr<'a>,
        /// The restricted JSON Schema of the form (an object), raw.
        requested_schema: Object<'a>,
    },
    /// A URL the user is asked to open (after consent).
    ElicitUrl {
        /// Why the user should open it.
        message: JsonStr<'a>,
        /// The URL.
        url: JsonStr<'a>,
    },
    /// An LLM sampling request.
    Sampling {
        /// The whole `params` object, raw.
        params: Object<'a>,
        /// `systemPrompt`, when present.
        system_prompt: Option<JsonStr<'a>>,
        /// `maxTokens`.
        max_tokens: u64,
        /// Whether `tools` is present (needs `sampling.tools`).
        has_tools: bool,
        /// Whether `includeContext` asks for more than `"none"`.
        wants_context: bool,
    },
    /// A request for the client's roots.
    Roots,
}

impl<'a> InputRequest<'a> {
    /// The kind of this request.
    pub fn kind(&self) -> InputKind {
        match self {
            InputRequest::ElicitForm { .. } => InputKind::ElicitForm,
            InputRequest::ElicitUrl { .. } => InputKind::ElicitUrl,
            InputRequest::Sampling { .. } => InputKind::Sampling,
            InputRequest::Roots => InputKind::Roots,
        }
    }

    /// The capabilities a client must have declared to receive this request.
    // Out of line: inlined into a server's only caller it is twice its size.
    #[inline(never)]
    pub fn required_capabilities(&self) -> ClientCapabilities {
        let mut c = self.kind().required_capability();
        if let InputRequest::Sampling {
            has_tools,
            wants_context,
            ..
        } = self
        {
            c.sampling_tools = *has_tools;
            c.sampling_context = *wants_context;
        }
        c
    }

    /// The message shown to the user, for elicitations.
    pub fn message(&self) -> Option<JsonStr<'a>> {
        match self {
            InputRequest::ElicitForm { message, .. } | InputRequest::ElicitUrl { message, .. } => {
                Some(*message)
            }
            _ => None,
        }
    }

    /// Reads one input request object (`{"method": .., "params": ..}`).
    /// Each object is walked once for all the members it needs.
    pub fn parse(v: Value<'a>) -> Result<Self, Violation> {
        let obj = v.as_object().ok_or(Violation::BadInputRequest)?;
        let [method, params] = &obj.get_unique_many(["method", "params"]);
        let method = Violation::BadInputRequest
            .or_if_repeated(method)?
            .and_then(|m| m.as_str())
            .ok_or(Violation::UnknownInputMethod)?;
        let params = match Violation::BadInputRequest.or_if_repeated(params)? {
            None => None,
            Some(p) => Some(p.as_object().ok_or(Violation::BadInputRequest)?),
        };
        if method.eq_str("elicitation/create") {
            let p = params.ok_or(Violation::BadInputRequest)?;
            let [mode, message, url, schema] =
                &p.get_unique_many(["mode", "message", "url", "requestedSchema"]);
            let mode = match Violation::BadInputRequest.or_if_repeated(mode)? {
                None => None,
                Some(m) => Some(m.as_str().ok_or(Violation::BadElicitationMode)?),
            };
            // Past the mode, every fault of the members a mode reads is the
            // same error: a repeated one is refused at once with the others.
            let bad = Violation::BadInputRequest;
            match mode {
                Some(m) if m.eq_str("url") => {
                    let (Ok(message), Ok(url)) = (message, url) else {
                        return Err(bad);
                    };
                    Ok(InputRequest::ElicitUrl {
                        message: required_str(message)?,
                        url: required_str(url)?,
                    })
                }
                Some(m) if !m.eq_str("form") => Err(Violation::BadElicitationMode),
                _ => {
                    let (Ok(message), Ok(schema)) = (message, schema) else {
                        return Err(bad);
                    };
                    Ok(InputRequest::ElicitForm {
                        message: required_str(message)?,
                        requested_schema: schema.and_then(|s| s.as_object()).ok_or(bad)?,
                    })
                }
            }
        } else if method.eq_str("sampling/createMessage") {
            Self::parse_sampling_params(params.ok_or(Violation::BadInputRequest)?)
        } else if method.eq_str("roots/list") {
            Ok(InputRequest::Roots)
        } else {
            Err(Violation::UnknownInputMethod)
        }
    }

    /// The kind of an input request that [`InputRequest::parse`] accepted
    /// (what `parse(v)?.kind()` returns), read with as few walks as the
    /// kind needs: `method`, and `params.mode` for an elicitation, each the
    /// first member of its name (parse checked that there is only one).
    /// Test-only since the client's index takes each kind from the parse
    /// it already has (`client::exchange`).
    #[cfg(test)]
    pub(crate) fn kind_of_validated(v: Value<'a>) -> Option<InputKind> {
        let obj = v.as_object()?;
        let (mut method, mut params) = (None, None);
        for (k, v) in obj.iter() {
            if method.is_none() && k.eq_str("method") {
                method = Some(v.as_str()?);
            } else if params.is_none() && k.eq_str("params") {
                params = Some(v);
            }
            let done = match method {
                // An elicitation's kind is in its params.
                Some(m) if m.eq_str("elicitation/create") => params.is_some(),
                Some(_) => true,
                None => false,
            };
            if done {
                break;
            }
        }
        let method = method?;
        if method.eq_str("sampling/createMessage") {
            Some(InputKind::Sampling)
        } else if method.eq_str("roots/list") {
            Some(InputKind::Roots)
        } else if method.eq_str("elicitation/create") {
            let mode = params?.as_object()?.get("mode");
            match mode.and_then(|m| m.as_str()) {
                Some(m) if m.eq_str("url") => Some(InputKind::ElicitUrl),
                _ => Some(InputKind::ElicitForm),
            }
        } else {
            None
        }
    }

    /// Reads the `params` object of a `sampling/createMessage` request on its
    /// own (`messages` array and `maxTokens` required). Servers use it to check
    /// params they are about to send, before any byte is written.
    pub fn parse_sampling_params(p: Object<'a>) -> Result<Self, Violation> {
        // One walk of the params for the five members (the conversation in
        // `messages` can be most of the message).
        let found = &p.get_unique_many([
            "messages",
            "maxTokens",
            "systemPrompt",
            "tools",
            "includeContext",
        ]);
        // Every fault of these params is the same error, whichever member
        // shows it first: a repeated one is refused at once for all five.
        let [Ok(messages), Ok(max_tokens), Ok(system_prompt), Ok(tools), Ok(include_context)] =
            found
        else {
            return Err(Violation::BadInputRequest);
        };
        messages
            .and_then(|m| m.as_array())
            .ok_or(Violation::BadInputRequest)?;
        let max_tokens = max_tokens
            .and_then(|m| m.as_u64())
            .ok_or(Violation::BadInputRequest)?;
        let system_prompt = string_or_none(system_prompt)?;
        let has_tools = match tools {
            None => false,
            Some(t) => !t.as_array().ok_or(Violation::BadInputRequest)?.is_empty(),
        };
        let wants_context = string_or_none(include_context)?.is_some_and(|c| !c.eq_str("none"));
        Ok(InputRequest::Sampling {
            params: p,
            system_prompt,
            max_tokens,
            has_tools,
            wants_context,
        })
    }
}

// The members of an input request whose every fault is BadInputRequest
// are taken from the found array at once and read by the two below (the
// others, `method`, `params` and `mode`, through `or_if_repeated`).

/// An optional string member, found once: absent is `None`, present it
/// must be a string.
fn string_or_none<'a>(found: &Option<Value<'a>>) -> Result<Option<JsonStr<'a>>, Violation> {
    match found {
        None => Ok(None),
        Some(v) => v.as_str().map(Some).ok_or(Violation::BadInputRequest),
    }
}

/// A required string member, found once.
fn required_str<'a>(found: &Option<Value<'a>>) -> Result<JsonStr<'a>, Violation> {
    found
        .and_then(|v| v.as_str())
        .ok_or(Violation::BadInputRequest)
}

/// How many of its first requests an [`InputRequests`] keeps as validation
/// parsed them, so that iterating a round of one or two questions (the
/// spec's example has two) does not parse them again; later ones are parsed
/// again as they are reached. Each kept request adds about 100 bytes to an
/// `InputRequests` on 64-bit targets (it is `Copy` and lives on the stack).
pub const INPUT_REQUESTS_KEPT: usize = 2;

/// A validated `inputRequests` map.
///
/// Construction checks every entry (kind, required fields), key uniqueness,
/// key length and the entry count, so iteration cannot fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputRequests<'a> {
    obj: Object<'a>,
    len: usize,
    /// The union of what the requests need, found while validating them.
    caps: ClientCapabilities,
    /// The first [`INPUT_REQUESTS_KEPT`] entries as validation read them
    /// (a function of `obj`, so equality is unchanged).
    kept: [Option<(JsonStr<'a>, InputRequest<'a>)>; INPUT_REQUESTS_KEPT],
}

/// What [`InputRequests::parse`] gathers from the entries as the key
/// check walks them: into the map being built (`map`), the union of their
/// capabilities and the first [`INPUT_REQUESTS_KEPT`]; how many were read,
/// and the first error (no entry is read after it).
struct EntriesRead<'m, 'a> {
    map: &'m mut InputRequests<'a>,
    next: usize,
    error: Option<Violation>,
}

impl<'a> EntriesRead<'_, 'a> {
    /// Reads the entry `k: v`: its key's length, then its request.
    fn entry(&mut self, k: JsonStr<'a>, v: Value<'a>, limits: &WireLimits) {
        if self.error.is_some() {
            return;
        }
        let n = k.decoded_len();
        let req = if n == 0 || n > limits.max_key_bytes {
            Err(Violation::BadInputKey)
        } else {
            InputRequest::parse(v)
        };
        match req {
            Ok(req) => {
                if let Some(slot) = self.map.kept.get_mut(self.next) {
                    *slot = Some((k, req));
                }
                // The union with `req.required_capabilities()`: only the
                // capabilities a request needs are set, none cleared.
                let caps = &mut self.map.caps;
                match req {
                    InputRequest::ElicitForm { .. } => caps.elicitation_form = true,
                    InputRequest::ElicitUrl { .. } => caps.elicitation_url = true,
                    InputRequest::Sampling {
                        has_tools,
                        wants_context,
                        ..
                    } => {
                        caps.sampling = true;
                        caps.sampling_tools |= has_tools;
                        caps.sampling_context |= wants_context;
                    }
                    InputRequest::Roots => caps.roots = true,
                }
            }
            Err(e) => self.error = Some(e),
        }
        self.next += 1;
    }
}

impl<'a> InputRequests<'a> {
    /// Validates an `inputRequests` value.
    ///
    /// One walk of the map: the key check's (uniqueness, count) reads each
    /// entry as it passes. Its errors come first, then the first entry's
    /// in document order, as a check followed by a walk would give.
    pub fn parse(v: Value<'a>, limits: &WireLimits) -> Result<Self, Violation> {
        let mut out = None;
        Self::parse_into(v, limits, &mut out)?;
        // `parse_into` filled `out` when it returned `Ok`.
        out.ok_or(Violation::BadInputRequests)
    }

    /// [`InputRequests::parse`] written into `out` (`Some` on success,
    /// `None` on error): the map, with its kept requests, is built where
    /// the caller keeps it instead of being returned and copied there.
    #[inline(never)]
    pub(crate) fn parse_into(
        v: Value<'a>,
        limits: &WireLimits,
        out: &mut Option<Self>,
    ) -> Result<(), Violation> {
        let Some(obj) = v.as_object() else {
            *out = None;
            return Err(Violation::BadInputRequests);
        };
        // Written straight into `out`: `kept` spelled out entry by entry
        // (one per `INPUT_REQUESTS_KEPT`), since a repeat expression
        // `[None; N]` is built on the stack and then copied in.
        *out = Some(InputRequests {
            obj,
            len: 0,
            caps: ClientCapabilities::default(),
            kept: [None, None],
        });
        let Some(map) = out else {
            return Err(Violation::BadInputRequests);
        };
        let mut read = EntriesRead {
            map,
            next: 0,
            error: None,
        };
        // The closure holds `read` as one reference (its fields captured
        // one by one would be a pointer each to pass).
        let checked = obj
            .check_unique_keys_visit(limits.max_input_requests, &mut |k, v| {
                read.entry(k, v, limits)
            })
            .map_err(|e| match e.kind {
                crate::json::ErrorKind::TooManyMembers => Violation::TooManyInputRequests,
                _ => Violation::DuplicateInputKey,
            });
        let error = read.error;
        match (checked, error) {
            (Ok(len), None) => {
                read.map.len = len;
                Ok(())
            }
            (Err(e), _) | (Ok(_), Some(e)) => {
                *out = None;
                Err(e)
            }
        }
    }

    /// Request `i`, whose value is `v` (the `i`th member of the map): as
    /// validation read it when kept, else parsed again. Read in place: a
    /// kept request is not copied out, one parsed again is put in `parsed`.
    #[cfg_attr(not(feature = "client"), allow(dead_code))] // used by client::exchange
    pub(crate) fn request_at<'s>(
        &'s self,
        i: usize,
        v: Value<'a>,
        parsed: &'s mut Option<InputRequest<'a>>,
    ) -> Option<&'s InputRequest<'a>> {
        match self.kept.get(i) {
            Some(Some((_, req))) => Some(req),
            _ => {
                *parsed = InputRequest::parse(v).ok();
                parsed.as_ref()
            }
        }
    }

    /// Number of requests.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The raw map.
    pub fn raw(&self) -> Object<'a> {
        self.obj
    }

    /// The requests in document order (the first [`INPUT_REQUESTS_KEPT`]
    /// as validation read them, the rest parsed again).
    pub fn iter(&self) -> impl Iterator<Item = (JsonStr<'a>, InputRequest<'a>)> + 'a {
        let rest = (self.len > INPUT_REQUESTS_KEPT).then(|| {
            self.obj
                .iter()
                .skip(INPUT_REQUESTS_KEPT)
                .filter_map(|(k, v)| InputRequest::parse(v).ok().map(|r| (k, r)))
        });
        self.kept
            .into_iter()
            .flatten()
            .chain(rest.into_iter().flatten())
    }

    /// The request at `key`.
    pub fn get(&self, key: &str) -> Option<InputRequest<'a>> {
        self.obj.get(key).and_then(|v| InputRequest::parse(v).ok())
    }

    /// The union of capabilities the requests need (found by
    /// [`InputRequests::parse`]; no walk).
    pub fn required_capabilities(&self) -> ClientCapabilities {
        self.caps
    }
}
