//! Client capabilities (declared on every request) and client info.

use super::error::Violation;
use super::TASKS_EXTENSION;
use crate::json::{Object, Writer};

/// A capability's member of [`ClientCapabilities`], for its bit table.
type Member = fn(&mut ClientCapabilities) -> &mut bool;

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

    /// Bit of [`ClientCapabilities::bits`]: form-mode elicitation (C: `MRTR_CAP_ELICITATION_FORM`).
    pub const BIT_ELICITATION_FORM: u32 = 1;
    /// Bit: URL-mode elicitation (C: `MRTR_CAP_ELICITATION_URL`).
    pub const BIT_ELICITATION_URL: u32 = 1 << 1;
    /// Bit: sampling (C: `MRTR_CAP_SAMPLING`).
    pub const BIT_SAMPLING: u32 = 1 << 2;
    /// Bit: sampling with tools (C: `MRTR_CAP_SAMPLING_TOOLS`; implies sampling).
    pub const BIT_SAMPLING_TOOLS: u32 = 1 << 3;
    /// Bit: sampling with context (C: `MRTR_CAP_SAMPLING_CONTEXT`; implies sampling).
    pub const BIT_SAMPLING_CONTEXT: u32 = 1 << 4;
    /// Bit: roots (C: `MRTR_CAP_ROOTS`).
    pub const BIT_ROOTS: u32 = 1 << 5;
    /// Bit: the Tasks extension (C: `MRTR_CAP_TASKS`).
    pub const BIT_TASKS: u32 = 1 << 6;
    /// Every bit [`ClientCapabilities::from_bits`] knows (C: `MRTR_CAP_ALL`).
    pub const ALL_BITS: u32 = (1 << Self::BIT_TABLE.len()) - 1;

    /// The one table of bits: each capability's bit and its member.
    const BIT_TABLE: [(u32, Member); 7] = [
        (Self::BIT_ELICITATION_FORM, |c| &mut c.elicitation_form),
        (Self::BIT_ELICITATION_URL, |c| &mut c.elicitation_url),
        (Self::BIT_SAMPLING, |c| &mut c.sampling),
        (Self::BIT_SAMPLING_TOOLS, |c| &mut c.sampling_tools),
        (Self::BIT_SAMPLING_CONTEXT, |c| &mut c.sampling_context),
        (Self::BIT_ROOTS, |c| &mut c.roots),
        (Self::BIT_TASKS, |c| &mut c.tasks),
    ];

    /// The capabilities as a bit mask (the `BIT_*` constants; the C API's
    /// `MRTR_CAP_*` bits), member for member: a set of missing capabilities
    /// may name `sampling_tools` without `sampling`.
    pub fn bits(&self) -> u32 {
        let mut c = *self;
        Self::BIT_TABLE
            .iter()
            .filter(|(_, member)| *member(&mut c))
            .fold(0, |m, (bit, _)| m | bit)
    }

    /// The capabilities of a bit mask (see [`ClientCapabilities::bits`]),
    /// with [`ClientCapabilities::implied`] applied; `None` when a bit
    /// outside [`ClientCapabilities::ALL_BITS`] is set.
    pub fn from_bits(bits: u32) -> Option<Self> {
        if bits & !Self::ALL_BITS != 0 {
            return None;
        }
        let mut c = ClientCapabilities::default();
        for (bit, member) in Self::BIT_TABLE {
            *member(&mut c) = bits & bit != 0;
        }
        Some(c.implied())
    }

    /// The rule between capabilities, kept here only: sampling with tools
    /// or with context is sampling (the schema nests both in `sampling`).
    pub fn implied(self) -> Self {
        ClientCapabilities {
            sampling: self.sampling || self.sampling_tools || self.sampling_context,
            ..self
        }
    }

    /// Reads a `clientCapabilities` object. Unknown members are ignored;
    /// known members of the wrong type are a [`Violation::BadMeta`].
    pub fn parse<'a>(obj: Object<'a>) -> Result<Self, Violation> {
        let mut caps = ClientCapabilities::default();
        // One walk of the object for the four members (a walk per member
        // re-skipped every value: a quarter of a retry request's parse).
        let mut top = [None; 4];
        objects_named(
            obj,
            &["elicitation", "sampling", "roots", "extensions"],
            &mut top,
        )?;
        // The members read in place (bound by value, the four were copied).
        let [elicitation, sampling, roots, extensions] = &top;
        if let Some(e) = elicitation {
            let mut modes = [None; 2];
            objects_named(*e, &["form", "url"], &mut modes)?;
            let [form, url] = &modes;
            // No mode named is form mode (earlier revisions).
            caps.elicitation_form = form.is_some() || url.is_none();
            caps.elicitation_url = url.is_some();
        }
        if let Some(s) = sampling {
            caps.sampling = true;
            // Whether the first `tools` and the first `context` (duplicates
            // are not refused here) are objects, found in one walk.
            let (mut tools, mut context) = (None, None);
            for (k, v) in s.iter() {
                if tools.is_none() && k.eq_str("tools") {
                    tools = Some(v.as_object().is_some());
                } else if context.is_none() && k.eq_str("context") {
                    context = Some(v.as_object().is_some());
                }
            }
            caps.sampling_tools = tools == Some(true);
            caps.sampling_context = context == Some(true);
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
        if self.implied().sampling {
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

/// The members of `obj` named `keys`, found in one walk: entry `i` of
/// `found` (as long as `keys`, all `None`) receives the object named
/// `keys[i]`. A named member that is repeated or not an object is a
/// [`Violation::BadMeta`].
fn objects_named<'a>(
    obj: Object<'a>,
    keys: &[&str],
    found: &mut [Option<Object<'a>>],
) -> Result<(), Violation> {
    for (k, v) in obj.iter() {
        let hit = keys.iter().zip(found.iter_mut()).find(|(n, _)| k.eq_str(n));
        if let Some((_, slot)) = hit {
            if slot
                .replace(v.as_object().ok_or(Violation::BadMeta)?)
                .is_some()
            {
                return Err(Violation::BadMeta);
            }
        }
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::ClientCapabilities as C;

    #[test]
    fn sampling_tools_implies_sampling() {
        let c = C::from_bits(C::BIT_SAMPLING_TOOLS).unwrap();
        assert_eq!(
            c,
            C {
                sampling: true,
                sampling_tools: true,
                ..C::default()
            }
        );
        let declared = C {
            sampling_tools: true,
            ..C::default()
        };
        // `bits` is member for member: a missing `sampling.tools` alone.
        assert_eq!(declared.bits(), C::BIT_SAMPLING_TOOLS);
        assert_eq!(C::from_bits(declared.bits()), Some(declared.implied()));
    }

    #[test]
    fn sampling_context_implies_sampling() {
        let c = C::from_bits(C::BIT_SAMPLING_CONTEXT).unwrap();
        assert_eq!(
            c,
            C {
                sampling: true,
                sampling_context: true,
                ..C::default()
            }
        );
        assert!(!C::from_bits(C::BIT_ROOTS).unwrap().sampling);
    }

    #[test]
    fn bits_round_trip_every_capability_in_the_c_numbering() {
        assert_eq!(C::ALL_BITS, 0x7f);
        assert_eq!(C::from_bits(0), Some(C::default()));
        assert_eq!(C::from_bits(C::ALL_BITS), Some(C::ALL));
        assert_eq!(C::ALL.bits(), 0x7f);
        let each = [
            (
                1,
                C {
                    elicitation_form: true,
                    ..C::default()
                },
            ),
            (
                2,
                C {
                    elicitation_url: true,
                    ..C::default()
                },
            ),
            (
                4,
                C {
                    sampling: true,
                    ..C::default()
                },
            ),
            (
                32,
                C {
                    roots: true,
                    ..C::default()
                },
            ),
            (
                64,
                C {
                    tasks: true,
                    ..C::default()
                },
            ),
        ];
        for (bit, caps) in each {
            assert_eq!(C::from_bits(bit), Some(caps));
            assert_eq!(caps.bits(), bit);
        }
    }

    #[test]
    fn named_members_are_unique_objects_and_others_are_ignored() {
        use super::{objects_named, Violation};
        use crate::json;
        fn read(text: &str) -> Result<[Option<&[u8]>; 2], Violation> {
            let v = json::parse(text.as_bytes()).unwrap();
            let mut found = [None; 2];
            objects_named(v.as_object().unwrap(), &["a", "b"], &mut found)
                .map(|()| found.map(|o| o.map(|o| o.raw())))
        }
        let ok = read(r#"{"x":1,"b":{"k":2},"x":[]}"#).unwrap();
        assert_eq!(ok, [None, Some(&br#"{"k":2}"#[..])]);
        assert_eq!(read(r#"{"a":{},"b":{}}"#).unwrap(), [Some(&b"{}"[..]); 2]);
        assert_eq!(read(r#"{"b":{},"a":{},"b":{}}"#), Err(Violation::BadMeta));
        assert_eq!(read(r#"{"a":{},"b":"x"}"#), Err(Violation::BadMeta));
        assert_eq!(read(r#"{"a":null}"#), Err(Violation::BadMeta));
    }

    #[test]
    fn unknown_capability_bits_are_refused() {
        assert_eq!(C::from_bits(1 << 7), None);
        assert_eq!(C::from_bits(u32::MAX), None);
    }
}
