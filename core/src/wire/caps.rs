//! Client capabilities (declared on every request) and client info.

use super::error::Violation;
use super::TASKS_EXTENSION;
use crate::json::{self, Object, Value, Writer};

/// What a client declares it can answer, per request.
///
/// Parsing follows the 2026-07-28 schema: `elicitation: {}` (no mode named)
/// means form mode only, for compatibility with earlier revisions;
/// `elicitation: {"url": {}}` means URL mode only.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClientCapabilities {
    /// Form-mode elicitation (`elicitation.form`, or an empty `elicitation`).
    pub elicitation_form: bool,
    /// URL-mode elicitation (`elicitation.url`).
    pub elicitation_url: bool,
    /// Sampling (`sampling`).
    pub sampling: bool,
    /// Sampling with tools (`sampling.tools`).
    pub sampling_tools: bool,
    /// Sampling with context inclusion (`sampling.context`).
    pub sampling_context: bool,
    /// Roots listing (`roots`).
    pub roots: bool,
    /// The Tasks extension (`extensions["io.modelcontextprotocol/tasks"]`).
    pub tasks: bool,
}

impl ClientCapabilities {
    /// Every capability MRTR knows.
    pub const ALL: ClientCapabilities = ClientCapabilities {
        elicitation_form: true,
        elicitation_url: true,
        sampling: true,
        sampling_tools: true,
        sampling_context: true,
        roots: true,
        tasks: true,
    };

    /// Reads a `clientCapabilities` object. Unknown members are ignored;
    /// known members of the wrong type are a [`Violation::BadMeta`].
    pub fn parse<'a>(obj: Object<'a>) -> Result<Self, Violation> {
        let mut caps = ClientCapabilities::default();
        // One walk of the object for the four members (a walk per member
        // re-skipped every value: a quarter of a retry request's parse).
        let sub = |found: Result<Option<Value<'a>>, json::Error>| -> Result<Option<Object<'a>>, Violation> {
            match found.map_err(|_| Violation::BadMeta)? {
                None => Ok(None),
                Some(v) => v.as_object().map(Some).ok_or(Violation::BadMeta),
            }
        };
        let [elicitation, sampling, roots, extensions] =
            obj.get_unique_many(["elicitation", "sampling", "roots", "extensions"]);
        let (elicitation, sampling, roots, extensions) = (
            sub(elicitation)?,
            sub(sampling)?,
            sub(roots)?,
            sub(extensions)?,
        );
        if let Some(e) = elicitation {
            let [form, url] = e.get_unique_many(["form", "url"]);
            let form = form.map_err(|_| Violation::BadMeta)?;
            let url = url.map_err(|_| Violation::BadMeta)?;
            for v in [form, url].into_iter().flatten() {
                if v.as_object().is_none() {
                    return Err(Violation::BadMeta);
                }
            }
            caps.elicitation_form = form.is_some() || (form.is_none() && url.is_none());
            caps.elicitation_url = url.is_some();
        }
        if let Some(s) = sampling {
            caps.sampling = true;
            // The first `tools` and the first `context` (duplicates are not
            // refused here), found in one walk.
            let (mut tools, mut context) = (None, None);
            for (k, v) in s.iter() {
                if tools.is_none() && k.eq_str("tools") {
                    tools = Some(v);
                } else if context.is_none() && k.eq_str("context") {
                    context = Some(v);
                }
            }
            caps.sampling_tools = tools.is_some_and(|v| v.as_object().is_some());
            caps.sampling_context = context.is_some_and(|v| v.as_object().is_some());
        }
        caps.roots = roots.is_some();
        if let Some(ext) = extensions {
            caps.tasks = ext
                .get(TASKS_EXTENSION)
                .is_some_and(|v| v.as_object().is_some());
        }
        Ok(caps)
    }

    /// Whether every capability in `needed` is declared here.
    pub fn covers(&self, needed: &ClientCapabilities) -> bool {
        (!needed.elicitation_form || self.elicitation_form)
            && (!needed.elicitation_url || self.elicitation_url)
            && (!needed.sampling || self.sampling)
            && (!needed.sampling_tools || self.sampling_tools)
            && (!needed.sampling_context || self.sampling_context)
            && (!needed.roots || self.roots)
            && (!needed.tasks || self.tasks)
    }

    /// The capabilities in `needed` that are not declared here.
    pub fn missing(&self, needed: &ClientCapabilities) -> ClientCapabilities {
        ClientCapabilities {
            elicitation_form: needed.elicitation_form && !self.elicitation_form,
            elicitation_url: needed.elicitation_url && !self.elicitation_url,
            sampling: needed.sampling && !self.sampling,
            sampling_tools: needed.sampling_tools && !self.sampling_tools,
            sampling_context: needed.sampling_context && !self.sampling_context,
            roots: needed.roots && !self.roots,
            tasks: needed.tasks && !self.tasks,
        }
    }

    /// Whether nothing is declared.
    pub fn is_empty(&self) -> bool {
        *self == ClientCapabilities::default()
    }

    /// Writes the capabilities as a `ClientCapabilities` JSON object, naming
    /// elicitation modes explicitly.
    pub fn write(&self, w: &mut Writer<'_>) {
        let mut first = true;
        w.byte(b'{');
        if self.elicitation_form || self.elicitation_url {
            w.comma(&mut first).raw(b"\"elicitation\":{");
            let mut f2 = true;
            if self.elicitation_form {
                w.comma(&mut f2).raw(b"\"form\":{}");
            }
            if self.elicitation_url {
                w.comma(&mut f2).raw(b"\"url\":{}");
            }
            w.byte(b'}');
        }
        if self.sampling || self.sampling_tools || self.sampling_context {
            w.comma(&mut first).raw(b"\"sampling\":{");
            let mut f2 = true;
            if self.sampling_tools {
                w.comma(&mut f2).raw(b"\"tools\":{}");
            }
            if self.sampling_context {
                w.comma(&mut f2).raw(b"\"context\":{}");
            }
            w.byte(b'}');
        }
        if self.roots {
            w.comma(&mut first).raw(b"\"roots\":{}");
        }
        if self.tasks {
            w.comma(&mut first)
                .raw(b"\"extensions\":{")
                .key(TASKS_EXTENSION)
                .raw(b"{}}");
        }
        w.byte(b'}');
    }
}

/// The client's self-description sent as `io.modelcontextprotocol/clientInfo`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientInfo<'a> {
    /// Client name.
    pub name: &'a str,
    /// Client version.
    pub version: &'a str,
}

impl ClientInfo<'_> {
    /// This library's own identity, used when the app names none.
    pub const DEFAULT: ClientInfo<'static> = ClientInfo {
        name: "mrtr",
        version: env!("CARGO_PKG_VERSION"),
    };

    /// Writes `{"name":..,"version":..}`.
    pub fn write(&self, w: &mut Writer<'_>) {
        w.raw(b"{\"name\":")
            .str(self.name)
            .raw(b",\"version\":")
            .str(self.version)
            .byte(b'}');
    }
}

/// Writes the `_meta` members MRTR requires on every request (without the
/// surrounding braces): protocol version, capabilities and, when given,
/// client info.
pub fn write_request_meta_members(
    w: &mut Writer<'_>,
    caps: &ClientCapabilities,
    info: Option<&ClientInfo<'_>>,
) {
    w.key(super::META_PROTOCOL_VERSION)
        .str(super::PROTOCOL_VERSION)
        .byte(b',')
        .key(super::META_CLIENT_CAPABILITIES);
    caps.write(w);
    if let Some(info) = info {
        w.byte(b',').key(super::META_CLIENT_INFO);
        info.write(w);
    }
}
