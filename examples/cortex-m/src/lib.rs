//! The flows the Cortex-M program runs, as plain `no_std` functions over
//! caller buffers: the firmware (`main.rs`) runs them from static memory
//! under QEMU, and `cargo test --lib` runs the same code on the host, so the
//! two targets are held to the same bytes.
//!
//! - [`work_item`]: the SEP's "Real-World Example" through [`Call`]: three
//!   legs, two `input_required` rounds, `requestState` echoed in the last;
//!   every emitted request is compared with its exact expected bytes.
//! - [`seal_round_trip`]: the server side of the same call: seal the state
//!   kept between rounds, bound to the arguments the client sent, then unseal
//!   it, and check that a tampered token, a token replayed with other
//!   arguments and an expired token are each refused with their own reason.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

#[cfg(test)]
extern crate std;

// The recorded messages live beside the core's client tests, which check
// the same legs on the host.
#[path = "../../../core/src/client/tests/work_item.rs"]
pub mod recorded;

use mrtr_core::client::{
    Answer, Call, CallConfig, CallError, CallLimits, CallMethod, CallSlot, Event,
};
use mrtr_core::json::{self, ParseLimits, DEFAULT_MAX_DEPTH, DEFAULT_MAX_MESSAGE_BYTES};
use mrtr_core::seal::{
    binding_digest, token_len, unseal_scratch_len, KeyError, SealConfig, SealError, Sealer,
    UnsealError, NONCE_BYTES,
};
use mrtr_core::wire::{
    ClientCapabilities, ClientInfo, ElicitAction, InputKind, WireLimits, DEFAULT_MAX_KEY_BYTES,
};

/// The work-item flow's limits: each region exactly as large as the flow's
/// high-water mark (params 320, inputs 572, state 40, answers 56 bytes, one
/// input per round), the caps at their defaults. mrtr-core's client tests
/// show that one byte less in any region fails with that region's error.
pub const LIMITS: CallLimits = CallLimits {
    wire: WireLimits {
        json: ParseLimits {
            max_depth: DEFAULT_MAX_DEPTH,
            max_bytes: DEFAULT_MAX_MESSAGE_BYTES,
        },
        max_input_requests: 1,
        max_key_bytes: DEFAULT_MAX_KEY_BYTES,
    },
    max_params_bytes: 320,
    max_inputs_bytes: 572,
    max_state_bytes: 40,
    max_answers_bytes: 56,
    max_rounds: 10,
    max_state_only_rounds: 3,
    backoff_initial_ms: 50,
    backoff_max_ms: 250,
    max_polls: 100_000,
    default_poll_ms: 1_000,
    min_poll_ms: 100,
    max_poll_ms: 60_000,
};

/// Bytes of the call's workspace, computed at compile time.
pub const WORKSPACE_BYTES: usize = Call::workspace_size(&LIMITS);

/// Bytes of the buffer each leg is written into: the longest leg
/// ([`recorded::LEG_3`]).
pub const REQUEST_BYTES: usize = recorded::LEG_3.len();

/// Capabilities the call declares: form elicitation only.
const FORM: ClientCapabilities = ClientCapabilities {
    elicitation_form: true,
    elicitation_url: false,
    sampling: false,
    sampling_tools: false,
    sampling_context: false,
    roots: false,
    tasks: false,
};

/// The client info of the SEP's examples.
const CLIENT: ClientInfo<'static> = ClientInfo {
    name: "ExampleClient",
    version: "1.0.0",
};

/// What went wrong, and at which step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failure {
    /// The step that failed.
    pub step: &'static str,
    /// Why.
    pub detail: Detail,
}

/// The cause of a [`Failure`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// The call refused an operation.
    Call(CallError),
    /// The emitted bytes differ from the expected ones.
    Bytes {
        /// Length emitted.
        got: usize,
        /// Length expected.
        want: usize,
        /// Offset of the first differing byte (the shorter length when one
        /// is a prefix of the other).
        first_difference: usize,
    },
    /// An event, phase or value other than the expected one.
    Unexpected,
    /// The key ring could not be built.
    Key(KeyError),
    /// Sealing failed.
    Seal(SealError),
    /// Unsealing failed, or failed with another reason than expected.
    Unseal(Option<UnsealError>),
    /// The arguments could not be read or canonicalized.
    Json,
}

fn fail(step: &'static str, detail: Detail) -> Failure {
    Failure { step, detail }
}

fn check(step: &'static str, ok: bool) -> Result<(), Failure> {
    if ok {
        Ok(())
    } else {
        Err(fail(step, Detail::Unexpected))
    }
}

/// Compares emitted bytes with the expected ones.
fn same_bytes(step: &'static str, got: &[u8], want: &[u8]) -> Result<(), Failure> {
    if got == want {
        return Ok(());
    }
    let first_difference = got
        .iter()
        .zip(want)
        .position(|(a, b)| a != b)
        .unwrap_or(got.len().min(want.len()));
    Err(fail(
        step,
        Detail::Bytes {
            got: got.len(),
            want: want.len(),
            first_difference,
        },
    ))
}

/// What the work-item flow measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkItemReport {
    /// Requests written.
    pub legs: usize,
    /// `input_required` rounds received.
    pub rounds: u32,
    /// Length of the longest request written.
    pub longest_request: usize,
    /// Length of the last request, which `out` holds on return.
    pub last_request: usize,
}

/// Writes the next leg with `id` and compares it with `want`.
fn leg(
    call: &mut Call<'_>,
    id: i64,
    out: &mut [u8],
    want: &str,
    step: &'static str,
) -> Result<usize, Failure> {
    let n = call
        .write_request(id, out)
        .map_err(|e| fail(step, Detail::Call(e)))?;
    same_bytes(step, out.get(..n).unwrap_or(&[]), want.as_bytes())?;
    Ok(n)
}

/// Feeds a server message and expects `InputRequired(1)` for `key`, a form
/// elicitation.
fn expect_one_form(
    call: &mut Call<'_>,
    reply: &str,
    key: &str,
    step: &'static str,
) -> Result<(), Failure> {
    match call.feed(reply.as_bytes()) {
        Ok(Event::InputRequired(1)) => {}
        Ok(_) => return Err(fail(step, Detail::Unexpected)),
        Err(e) => return Err(fail(step, Detail::Call(e))),
    }
    let (k, request) = call.input_at(0).ok_or(fail(step, Detail::Unexpected))?;
    check(
        step,
        k.eq_str(key) && request.kind() == InputKind::ElicitForm,
    )
}

/// Accepts the form of `key` with `content`.
fn accept(
    call: &mut Call<'_>,
    key: &str,
    content: &[u8],
    step: &'static str,
) -> Result<(), Failure> {
    let answer = Answer::Elicit {
        action: ElicitAction::Accept,
        content: Some(content),
    };
    call.answer(key, answer)
        .map_err(|e| fail(step, Detail::Call(e)))
}

/// Runs the work-item flow in `workspace` (at least [`WORKSPACE_BYTES`]),
/// writing each leg into `out` (at least [`REQUEST_BYTES`]). On success
/// `out` holds the last leg.
pub fn work_item(
    state: &mut CallSlot,
    workspace: &mut [u8],
    out: &mut [u8],
) -> Result<WorkItemReport, Failure> {
    let config = CallConfig {
        caps: FORM,
        client_info: Some(CLIENT),
        limits: LIMITS,
        ..CallConfig::new(CallMethod::ToolsCall, recorded::PARAMS.as_bytes())
    };
    let mut call =
        Call::init(state, workspace, &config).map_err(|e| fail("init", Detail::Call(e)))?;

    let mut longest = leg(&mut call, 1, out, recorded::LEG_1, "leg 1")?;
    expect_one_form(&mut call, recorded::ROUND_1, "resolution", "round 1")?;
    check(
        "round 1 has no requestState",
        call.request_state().is_none(),
    )?;
    accept(&mut call, "resolution", recorded::ANSWER_1, "answer 1")?;

    longest = longest.max(leg(&mut call, 2, out, recorded::LEG_2, "leg 2")?);
    expect_one_form(&mut call, recorded::ROUND_2, "duplicate_of", "round 2")?;
    check(
        "round 2 keeps requestState",
        call.request_state() == Some(recorded::STATE_TOKEN),
    )?;
    accept(&mut call, "duplicate_of", recorded::ANSWER_2, "answer 2")?;

    let last = leg(&mut call, 3, out, recorded::LEG_3, "leg 3")?;
    longest = longest.max(last);
    match call.feed(recorded::DONE.as_bytes()) {
        Ok(Event::Complete(result)) => {
            same_bytes("result", result, recorded::DONE_RESULT.as_bytes())?
        }
        Ok(_) => return Err(fail("result", Detail::Unexpected)),
        Err(e) => return Err(fail("result", Detail::Call(e))),
    }
    Ok(WorkItemReport {
        legs: 3,
        rounds: call.round(),
        longest_request: longest,
        last_request: last,
    })
}

/// The server's sealing key (demo only: a real key is 32+ random bytes).
pub const SEAL_KEY: &[u8] = b"cortex-m demo key, 32+ bytes long";
/// The server's audience.
pub const AUDIENCE: &[u8] = b"work-items.example";
/// The unix time the token is sealed at (the app passes the clock in).
pub const NOW: u64 = 1_780_000_000;
/// The caller nonce (random bytes or a counter; fixed here so the token is a
/// known answer, which is safe: the nonce the token uses is derived from it,
/// the key and everything sealed).
pub const NONCE: [u8; NONCE_BYTES] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
];
/// What the server keeps between round 1 and round 2.
pub const SERVER_STATE: &[u8] = br#"{"resolution":"Duplicate"}"#;

/// The token [`seal_round_trip`] must produce from the constants above and
/// the arguments of [`recorded::PARAMS`], recorded from the x86_64 build:
/// the Cortex-M build must seal the same bytes (kid `ed5ed10c`, then the
/// synthetic nonce derived from the key, [`NONCE`] and everything sealed,
/// the ciphertext of the claims, which carry [`NONCE`], and the tag). The fixed [`NONCE`] is safe since tokens
/// of format `m2.` derive their nonce: a repeat only repeats identical seals.
pub const EXPECTED_TOKEN: &[u8] =
    b"m2.7V7RDH0wz8xF4mI_jCsttdvGqxzbw0gBY_PKj32chkEdV49wnckxjROqkKhvSFvT9kpaWwQU5Cr\
    I7c86DQZd3XTPcZyJCLHanNbulGtyPcHPg65eXml4QoPxEhmE-lyeIRHUqAs__-o0P6n4r3lzTFxn8\
    4jNhaeM_wCHEE3vTLLN18gymZWJs74QwOK19WFwngu74xGjZeSLieEfc5VRL6naPWppC8JVYp9FKs-\
    r-csd";

/// Length of the token (no principal bound).
pub const TOKEN_BYTES: usize = token_len(SERVER_STATE.len(), false);
/// Scratch bytes to unseal it.
pub const SCRATCH_BYTES: usize = unseal_scratch_len(TOKEN_BYTES);

/// The arguments of the recorded call with another work item id: a token
/// bound to [`recorded::PARAMS`] must not verify for them.
const OTHER_ARGUMENTS: &[u8] = br#"{"workItemId": 4523, "fields": { "System.State": "Resolved" }}"#;

/// What the seal round trip measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SealReport {
    /// Length of the token.
    pub token_len: usize,
    /// Why the tampered token was refused.
    pub tampered: UnsealError,
    /// Why the token replayed with other arguments was refused.
    pub replayed: UnsealError,
    /// Why the token presented after its lifetime was refused.
    pub expired: UnsealError,
}

/// The binding digest of `tools/call` `update_work_item` with `arguments`.
fn binding_of(arguments: &[u8], step: &'static str) -> Result<[u8; 32], Failure> {
    let value = json::parse(arguments).map_err(|_| fail(step, Detail::Json))?;
    binding_digest("tools/call", "update_work_item", Some(value))
        .map_err(|_| fail(step, Detail::Json))
}

/// Expects `unseal` of `token` under these inputs to fail with `reason`.
fn refused(
    sealer: &Sealer,
    now: u64,
    token: &[u8],
    binding: &[u8; 32],
    scratch: &mut [u8],
    reason: UnsealError,
    step: &'static str,
) -> Result<UnsealError, Failure> {
    match sealer.unseal(now, token, binding, None, scratch) {
        Err(e) if e == reason => Ok(e),
        Err(e) => Err(fail(step, Detail::Unseal(Some(e)))),
        Ok(_) => Err(fail(step, Detail::Unseal(None))),
    }
}

/// The server's key ring: [`SEAL_KEY`] for [`AUDIENCE`], default TTL, skew
/// and maximum token size. Built once (firmware keeps it in a static).
pub fn sealer() -> Result<Sealer, Failure> {
    Sealer::new(&[SEAL_KEY], AUDIENCE, SealConfig::default())
        .map_err(|e| fail("key ring", Detail::Key(e)))
}

/// [`sealer`], built in place in `slot` (a static in the firmware) with
/// `Sealer::new_in`, so the ring is never built on the stack and moved.
pub fn sealer_in(slot: &mut Option<Sealer>) -> Result<&Sealer, Failure> {
    Sealer::new_in(slot, &[SEAL_KEY], AUDIENCE, SealConfig::default())
        .map(|s| &*s)
        .map_err(|e| fail("key ring", Detail::Key(e)))
}

/// The server side of the flow: seals [`SERVER_STATE`] bound to the
/// arguments of `request` (a leg the client emitted), unseals it, and checks
/// that a one-character change, another work item id and an expired token
/// are each refused. `token` needs [`TOKEN_BYTES`], `scratch`
/// [`SCRATCH_BYTES`].
pub fn seal_round_trip(
    sealer: &Sealer,
    request: &[u8],
    token: &mut [u8],
    scratch: &mut [u8],
) -> Result<SealReport, Failure> {
    let step = "arguments of the request";
    let message = json::parse(request).map_err(|_| fail(step, Detail::Json))?;
    let arguments = message
        .as_object()
        .and_then(|m| m.get("params"))
        .and_then(|p| p.as_object())
        .and_then(|p| p.get("arguments"))
        .ok_or(fail(step, Detail::Json))?;
    let binding = binding_of(arguments.raw(), step)?;

    let n = sealer
        .seal(NOW, &NONCE, &binding, None, SERVER_STATE, token)
        .map_err(|e| fail("seal", Detail::Seal(e)))?;
    let sealed = token.get(..n).unwrap_or(&[]);
    same_bytes("sealed token", sealed, EXPECTED_TOKEN)?;

    let state = sealer
        .unseal(NOW + 30, sealed, &binding, None, scratch)
        .map_err(|e| fail("unseal", Detail::Unseal(Some(e))))?;
    same_bytes("unsealed state", state.state, SERVER_STATE)?;

    let replayed = refused(
        sealer,
        NOW + 30,
        sealed,
        &binding_of(OTHER_ARGUMENTS, "other arguments")?,
        scratch,
        UnsealError::WrongRequest,
        "replay with other arguments",
    )?;
    let expired = refused(
        sealer,
        NOW + 601 + 60,
        sealed,
        &binding,
        scratch,
        UnsealError::Expired,
        "expired token",
    )?;
    // One character of the ciphertext changed (to another base64url
    // character, so the token still decodes): authentication fails.
    let middle = n / 2;
    let slot = token
        .get_mut(middle)
        .ok_or(fail("tamper", Detail::Unexpected))?;
    *slot = if *slot == b'A' { b'B' } else { b'A' };
    let tampered = refused(
        sealer,
        NOW + 30,
        token.get(..n).unwrap_or(&[]),
        &binding,
        scratch,
        UnsealError::Tampered,
        "tampered token",
    )?;
    Ok(SealReport {
        token_len: n,
        tampered,
        replayed,
        expired,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_work_item_flow_and_the_seal_round_trip_pass_on_the_host() {
        let mut state = CallSlot::default();
        let mut workspace = [0u8; WORKSPACE_BYTES];
        let mut out = [0u8; REQUEST_BYTES];
        let report = work_item(&mut state, &mut workspace, &mut out).unwrap();
        assert_eq!(
            report,
            WorkItemReport {
                legs: 3,
                rounds: 2,
                longest_request: recorded::LEG_3.len(),
                last_request: recorded::LEG_3.len(),
            }
        );
        let mut token = [0u8; TOKEN_BYTES];
        let mut scratch = [0u8; SCRATCH_BYTES];
        let leg_3 = &out[..report.last_request];
        let seal = seal_round_trip(&sealer().unwrap(), leg_3, &mut token, &mut scratch).unwrap();
        assert_eq!(
            seal,
            SealReport {
                token_len: EXPECTED_TOKEN.len(),
                tampered: UnsealError::Tampered,
                replayed: UnsealError::WrongRequest,
                expired: UnsealError::Expired,
            }
        );
    }

    #[test]
    fn the_workspace_is_the_flows_high_water_mark() {
        assert_eq!(WORKSPACE_BYTES, 1_011);
        assert_eq!(REQUEST_BYTES, 519);
    }

    #[test]
    fn one_byte_short_of_the_request_buffer_fails_with_the_needed_size() {
        let mut state = CallSlot::default();
        let mut workspace = [0u8; WORKSPACE_BYTES];
        let mut out = [0u8; REQUEST_BYTES - 1];
        let err = work_item(&mut state, &mut workspace, &mut out).unwrap_err();
        assert_eq!(
            err,
            fail(
                "leg 3",
                Detail::Call(CallError::BufferTooSmall {
                    needed: REQUEST_BYTES
                })
            )
        );
    }
}
