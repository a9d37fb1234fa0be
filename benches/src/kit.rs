//! What every contender produces, so jobs can compare them: the summaries
//! of a parse, the runner type, the answers every contender sends. The
//! contenders and the job registry (`jobs`) both use it; neither imports the
//! other's internals.

/// What a `parse` job exposes; equal across contenders for the same input.
/// Kinds are counted (not listed) because rmcp keeps input requests in a
/// `BTreeMap`, which does not keep the server's order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// `resultType` was `input_required`.
    pub input_required: bool,
    /// Number of input requests.
    pub inputs: usize,
    /// Form elicitations.
    pub forms: usize,
    /// URL elicitations.
    pub urls: usize,
    /// Sampling requests.
    pub samplings: usize,
    /// Roots requests.
    pub roots: usize,
    /// Sum of the decoded key lengths, in UTF-8 bytes.
    pub key_bytes: usize,
    /// Sum of the decoded elicitation message lengths, in UTF-8 bytes.
    pub message_bytes: usize,
    /// Decoded length of `requestState`, when present.
    pub state_bytes: usize,
}

impl Summary {
    /// A number that depends on every field (fed to `black_box`).
    pub fn checksum(&self) -> u64 {
        [
            self.input_required as usize,
            self.inputs,
            self.forms,
            self.urls,
            self.samplings,
            self.roots,
            self.key_bytes,
            self.message_bytes,
            self.state_bytes,
        ]
        .iter()
        .fold(0u64, |acc, &v| acc.wrapping_mul(31).wrapping_add(v as u64))
    }
}

/// What a `server parse` job exposes of a retry request; equal across
/// contenders for the same request.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ServerSummary {
    /// Decoded length of the tool name, in UTF-8 bytes.
    pub name_bytes: usize,
    /// Length of the raw `arguments` object.
    pub argument_bytes: usize,
    /// Decoded length of the protocol version declared in `_meta`.
    pub version_bytes: usize,
    /// Number of entries of `inputResponses`.
    pub responses: usize,
    /// Sum of the decoded key lengths of `inputResponses`.
    pub key_bytes: usize,
    /// Sum of the raw lengths of the `inputResponses` values.
    pub response_bytes: usize,
    /// Decoded length of `requestState`.
    pub state_bytes: usize,
}

impl ServerSummary {
    /// A number that depends on every field (fed to `black_box`).
    pub fn checksum(&self) -> u64 {
        [
            self.name_bytes,
            self.argument_bytes,
            self.version_bytes,
            self.responses,
            self.key_bytes,
            self.response_bytes,
            self.state_bytes,
        ]
        .iter()
        .fold(1u64, |acc, &v| acc.wrapping_mul(31).wrapping_add(v as u64))
    }
}

/// One prepared job: each call performs one operation and returns a
/// checksum of what it produced.
pub type Runner = Box<dyn FnMut() -> u64>;

/// The JSON every contender answers with, by input kind (the same answers
/// mrtr's `leg` gives through `Answer`).
pub mod answers {
    /// Form elicitation: accept with the one field the form asks for.
    pub const FORM_CONTENT: &str = r#"{"name":"octocat"}"#;
    /// The full `ElicitResult` of a form.
    pub const FORM: &str = r#"{"action":"accept","content":{"name":"octocat"}}"#;
    /// URL elicitation: accept (no content in URL mode).
    pub const URL: &str = r#"{"action":"accept"}"#;
    /// Sampling: a `CreateMessageResult`.
    pub const SAMPLING: &str = r#"{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"claude-3-sonnet","stopReason":"endTurn"}"#;
    /// Roots: a `ListRootsResult` with one root.
    pub const ROOTS: &str = r#"{"roots":[{"uri":"file:///home/user/project","name":"project"}]}"#;
    /// The root's URI.
    pub const ROOT_URI: &str = "file:///home/user/project";
    /// The root's name.
    pub const ROOT_NAME: &str = "project";
}
