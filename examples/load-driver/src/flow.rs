//! One logical request driven through all its legs by the core's `Call`,
//! over any [`Transport`]: answers forms with the scripted user, sleeps the
//! state-only backoff, and after a transport failure resends the leg in
//! flight with a fresh id (`Call::resend`), so the balancer can route it
//! to another instance.

use crate::answer::{self, Policy};
use crate::transport::{LegInfo, Transport, TransportError};
use mrtr_core::client::{Call, CallConfig, CallError, CallLimits, CallMethod, CallSlot, Event};
use mrtr_core::wire::ClientCapabilities;
use std::time::{Duration, Instant};

/// How flows are driven.
#[derive(Debug, Clone)]
pub struct FlowOpts {
    /// The call's limits (round caps, region sizes, message limit).
    pub limits: CallLimits,
    /// Capabilities declared on every leg.
    pub caps: ClientCapabilities,
    /// The scripted user.
    pub policy: Policy,
    /// Resends of one leg after transport failures before the flow fails.
    pub max_resends: u32,
    /// Pause before the n-th resend: n times this.
    pub resend_backoff: Duration,
    /// Upper bound of the pause between answering and retrying (a user
    /// thinking); the actual pause is drawn from the flow's seed.
    pub think: Duration,
    /// The moment legs are timed from (the start of the run), so a slow
    /// leg can be matched with what the operator did then.
    pub epoch: Instant,
}

/// How a flow ended.
#[derive(Debug, Clone)]
pub enum End {
    /// The final result (raw JSON).
    Complete(Vec<u8>),
    /// A JSON-RPC error answered the request.
    RpcError {
        /// The code.
        code: i64,
        /// The message, unescaped.
        message: String,
    },
    /// The server broke the protocol or a cap was hit.
    Violation(String),
    /// No answer after every resend.
    Transport(String),
    /// The scripted user could not answer.
    Answer(String),
}

/// One attempt at one leg.
#[derive(Debug, Clone)]
pub struct Leg {
    /// Which round the attempt belongs to (1 = the first request).
    pub round: u32,
    /// Whether it got its answer.
    pub ok: bool,
    /// Send to answer (or failure).
    pub latency: Duration,
    /// When it was sent, from [`FlowOpts::epoch`].
    pub sent_at: Duration,
    /// Which instance served it.
    pub info: LegInfo,
    /// The transport failure, when `!ok`.
    pub error: Option<String>,
    /// The key id prefix of the `requestState` this leg received (the
    /// driver peeks at it only to count tokens per sealing key; the call
    /// echoes it untouched).
    pub state_kid: Option<String>,
}

/// Everything one flow did.
#[derive(Debug, Clone)]
pub struct FlowReport {
    /// How it ended.
    pub end: End,
    /// Every attempt, in order.
    pub legs: Vec<Leg>,
    /// Legs sent again after a transport failure.
    pub resends: u32,
    /// Start to end.
    pub duration: Duration,
    /// The last leg that echoed a `requestState` and was answered without
    /// an error: its exact bytes and the instance that served it (the
    /// token it carries is spent if the server keeps tokens one-shot).
    pub spent: Option<(Vec<u8>, Option<String>)>,
    /// Whether the flow was started over after a token it had resent was
    /// refused (see [`run_flow_restarting`]).
    pub restarted: bool,
}

enum Outcome {
    Complete(Vec<u8>),
    InputRequired,
    RetryAfter(u32),
    RpcError(i64, String),
    Failed(CallError),
    Other(String),
}

/// The key id part of an `m2.` token: base64url of kid[4] leads the body,
/// and its first 5 characters encode 30 bits of the kid only.
fn kid_of(state: Option<&[u8]>) -> Option<String> {
    let s = std::str::from_utf8(state?).ok()?.trim_matches('"');
    let body = s.strip_prefix("m2.")?;
    body.get(..5).map(str::to_string)
}

fn describe_event(ev: &Event<'_>) -> Outcome {
    match ev {
        Event::Complete(r) => Outcome::Complete(r.to_vec()),
        Event::InputRequired(_) => Outcome::InputRequired,
        Event::RetryAfter(ms) => Outcome::RetryAfter(*ms),
        Event::RpcError(e) => {
            let mut buf = vec![0u8; e.message.decoded_len()];
            let msg = e
                .message
                .unescape_into(&mut buf)
                .map(str::to_string)
                .unwrap_or_else(|_| "(unreadable message)".into());
            Outcome::RpcError(e.code, msg)
        }
        Event::TaskCreated(_) => Outcome::Other("server created a task (not declared)".into()),
        Event::Unrelated(_) => Outcome::Other("unrelated".into()),
    }
}

/// A small deterministic PRNG for think times (no RNG in the core; the
/// driver only needs spread, not secrecy).
pub fn mix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Drives one call to its end. `next_id` hands out increasing ids.
pub fn run_flow(
    method: CallMethod,
    params: &[u8],
    opts: &FlowOpts,
    seed: u64,
    transport: &mut dyn Transport,
    next_id: &mut dyn FnMut() -> i64,
) -> FlowReport {
    let start = Instant::now();
    let mut report = FlowReport {
        end: End::Violation("not started".into()),
        legs: Vec::new(),
        resends: 0,
        duration: Duration::ZERO,
        spent: None,
        restarted: false,
    };
    let mut config = CallConfig::new(method, params);
    config.caps = opts.caps;
    config.limits = opts.limits;
    let mut state = CallSlot::default();
    let mut ws = vec![0u8; Call::workspace_size(&opts.limits)];
    let mut call = match Call::init(&mut state, &mut ws, &config) {
        Ok(c) => c,
        Err(e) => {
            report.end = End::Violation(format!("cannot start the call: {e:?}"));
            return report;
        }
    };
    let mut out = vec![0u8; 8 * 1024];
    let mut resend = false;
    let mut leg_resends = 0u32;
    let mut round = 1u32;
    let mut rng = mix(seed);
    // A new flow: no previous leg to route around.
    transport.avoid_next(None);
    let end = loop {
        let id = next_id();
        let written = if resend {
            call.resend(id, &mut out)
        } else {
            call.write_request(id, &mut out)
        };
        let n = match written {
            Ok(n) => n,
            Err(CallError::BufferTooSmall { needed }) => {
                out.resize(needed, 0);
                // The id was not used; the next one is larger, which the
                // call accepts.
                continue;
            }
            Err(e) => break End::Violation(describe_call_error(&e)),
        };
        let carries_state = call.request_state().is_some();
        let t0 = Instant::now();
        let mut outcome = None;
        let res = transport.exchange(&out[..n], &mut |bytes| match call.feed(bytes) {
            Ok(Event::Unrelated(_)) => false,
            Ok(ev) => {
                outcome = Some(describe_event(&ev));
                true
            }
            Err(e) => {
                outcome = Some(Outcome::Failed(e));
                true
            }
        });
        let latency = t0.elapsed();
        let (info, err) = match res {
            Ok(info) => (info, None),
            Err(e) => (LegInfo::default(), Some(e)),
        };
        let ok = outcome.is_some();
        if ok && info.upstream.is_some() {
            // Every next leg of this flow goes to another instance.
            transport.avoid_next(info.upstream.as_deref());
        }
        report.legs.push(Leg {
            round,
            ok,
            latency,
            sent_at: t0.saturating_duration_since(opts.epoch),
            info,
            error: err.as_ref().map(ToString::to_string),
            state_kid: None,
        });
        let Some(outcome) = outcome else {
            let e = err.unwrap_or(TransportError::NoAnswer);
            if e.is_final() {
                break End::Transport(format!("round {round}: {e}"));
            }
            leg_resends += 1;
            if leg_resends > opts.max_resends {
                break End::Transport(format!(
                    "round {round}: {e} (after {} resends)",
                    opts.max_resends
                ));
            }
            report.resends += 1;
            std::thread::sleep(opts.resend_backoff * leg_resends);
            resend = true;
            continue;
        };
        resend = false;
        leg_resends = 0;
        if carries_state && !matches!(outcome, Outcome::RpcError(..)) {
            report.spent = Some((
                out[..n].to_vec(),
                report.legs.last().and_then(|l| l.info.upstream.clone()),
            ));
        }
        match outcome {
            Outcome::Complete(r) => break End::Complete(r),
            Outcome::RpcError(code, message) => break End::RpcError { code, message },
            Outcome::Failed(e) => break End::Violation(describe_call_error(&e)),
            Outcome::Other(why) => break End::Violation(why),
            Outcome::RetryAfter(ms) => {
                if let Some(l) = report.legs.last_mut() {
                    l.state_kid = kid_of(call.request_state());
                }
                round += 1;
                std::thread::sleep(Duration::from_millis(u64::from(ms)));
            }
            Outcome::InputRequired => {
                if let Some(l) = report.legs.last_mut() {
                    l.state_kid = kid_of(call.request_state());
                }
                round += 1;
                let mut answers = Vec::new();
                let mut failed = None;
                for i in 0..call.input_count() {
                    if let Some((_, req)) = call.input_at(i) {
                        match answer::answer(&req, &opts.policy) {
                            Ok(a) => answers.push((i, a)),
                            Err(e) => {
                                failed = Some(e);
                                break;
                            }
                        }
                    }
                }
                if let Some(e) = failed {
                    break End::Answer(e);
                }
                for (i, a) in &answers {
                    if let Err(e) = call.answer_at(*i, a.as_answer()) {
                        failed = Some(describe_call_error(&e));
                        break;
                    }
                }
                if let Some(e) = failed {
                    break End::Answer(e);
                }
                if !opts.think.is_zero() {
                    rng = mix(rng);
                    let us = rng % (opts.think.as_micros() as u64 + 1);
                    std::thread::sleep(Duration::from_micros(us));
                }
            }
        }
    };
    report.end = end;
    report.duration = start.elapsed();
    report
}

/// [`run_flow`], started over once when the server refuses, as invalid,
/// a token the flow had to resend after a transport failure. With one-shot
/// tokens that is what an instance dying mid-round leaves behind: it spent
/// the token (recorded it in the replay store) and never answered, so the
/// resent leg is a replay. The call begins again from its first request
/// (no `requestState`), and the legs of both attempts are kept.
pub fn run_flow_restarting(
    method: CallMethod,
    params: &[u8],
    opts: &FlowOpts,
    seed: u64,
    transport: &mut dyn Transport,
    next_id: &mut dyn FnMut() -> i64,
) -> FlowReport {
    let first = run_flow(method, params, opts, seed, transport, next_id);
    let spent_on_resend = first.resends > 0
        && matches!(&first.end, End::RpcError { code: -32602, .. })
        && first.legs.iter().rev().nth(1).is_some_and(|l| !l.ok);
    if !spent_on_resend {
        return first;
    }
    let mut again = run_flow(method, params, opts, mix(seed), transport, next_id);
    let mut legs = first.legs;
    legs.append(&mut again.legs);
    again.legs = legs;
    again.resends += first.resends;
    again.duration += first.duration;
    again.restarted = true;
    again
}

/// A one-line account of a call error for people.
pub fn describe_call_error(e: &CallError) -> String {
    match e {
        CallError::TooManyRounds { limit } => {
            format!("round cap reached: the server asked for input more than {limit} times")
        }
        CallError::TooManyStateOnlyRounds { limit } => format!(
            "state-only round cap reached: more than {limit} consecutive rounds without questions"
        ),
        CallError::StateTooLarge { needed, limit } => {
            format!("requestState too large: {needed} bytes, limit {limit}")
        }
        CallError::InputsTooLarge { needed, limit } => {
            format!("inputRequests too large: {needed} bytes, limit {limit}")
        }
        CallError::Malformed(w) => format!("malformed message from the server: {w:?}"),
        CallError::Protocol(v) => format!("protocol violation by the server: {v:?}"),
        other => format!("{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::transport::LegInfo;
    use std::collections::VecDeque;

    /// A peer that answers from a script: `Ok(body)` with `{ID}` replaced by
    /// the request's id, or a transport failure.
    struct Scripted {
        script: VecDeque<Option<&'static str>>,
        sent: Vec<String>,
    }

    impl Transport for Scripted {
        fn exchange(
            &mut self,
            body: &[u8],
            on_message: &mut dyn FnMut(&[u8]) -> bool,
        ) -> Result<LegInfo, TransportError> {
            let text = String::from_utf8_lossy(body).into_owned();
            let id = text
                .split("\"id\":")
                .nth(1)
                .and_then(|r| r.split([',', '}']).next())
                .unwrap_or("0")
                .to_string();
            self.sent.push(text);
            match self.script.pop_front().flatten() {
                Some(reply) => {
                    on_message(reply.replace("{ID}", &id).as_bytes());
                    Ok(LegInfo::default())
                }
                None => Err(TransportError::Closed),
            }
        }
    }

    const ASK: &str = r#"{"jsonrpc":"2.0","id":{ID},"result":{"resultType":"input_required","inputRequests":{"n":{"method":"elicitation/create","params":{"mode":"form","message":"n?","requestedSchema":{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}}}},"requestState":"m2.spent"}}"#;
    const DONE: &str =
        r#"{"jsonrpc":"2.0","id":{ID},"result":{"resultType":"complete","content":[]}}"#;
    const SPENT: &str = r#"{"jsonrpc":"2.0","id":{ID},"error":{"code":-32602,"message":"Invalid or expired requestState"}}"#;

    fn opts() -> FlowOpts {
        FlowOpts {
            limits: CallLimits::default(),
            caps: ClientCapabilities {
                elicitation_form: true,
                ..ClientCapabilities::default()
            },
            policy: Policy::default(),
            max_resends: 2,
            resend_backoff: Duration::ZERO,
            think: Duration::ZERO,
            epoch: Instant::now(),
        }
    }

    fn drive(script: &[Option<&'static str>]) -> (FlowReport, Vec<String>) {
        let mut t = Scripted {
            script: script.iter().copied().collect(),
            sent: Vec::new(),
        };
        let mut id = 0;
        let mut next = || {
            id += 1;
            id
        };
        let r = run_flow_restarting(
            CallMethod::ToolsCall,
            br#"{"name":"t","arguments":{}}"#,
            &opts(),
            1,
            &mut t,
            &mut next,
        );
        (r, t.sent)
    }

    #[test]
    fn a_token_refused_after_its_leg_was_resent_starts_the_flow_over_once() {
        // Round 2 is lost in transport (the instance spent the token and
        // died); its resend is a replay, refused; the flow starts over.
        let (r, sent) = drive(&[Some(ASK), None, Some(SPENT), Some(ASK), Some(DONE)]);
        assert!(matches!(r.end, End::Complete(_)), "{:?}", r.end);
        assert!(r.restarted);
        assert_eq!(r.resends, 1);
        assert_eq!(sent.len(), 5);
        assert!(!sent[3].contains("requestState"), "{}", sent[3]);
        assert!(
            sent[4].contains(r#""requestState":"m2.spent""#),
            "{}",
            sent[4]
        );
        // The last leg that echoed the token and was answered is the one to
        // replay.
        let (bytes, _) = r.spent.expect("a spent leg");
        assert_eq!(String::from_utf8(bytes).unwrap(), sent[4]);
    }

    #[test]
    fn a_token_refused_without_a_resend_is_a_lost_flow_not_a_restart() {
        let (r, sent) = drive(&[Some(ASK), Some(SPENT)]);
        assert!(
            matches!(&r.end, End::RpcError { code: -32602, .. }),
            "{:?}",
            r.end
        );
        assert!(!r.restarted);
        assert_eq!(sent.len(), 2);
        assert!(r.spent.is_none());
    }

    #[test]
    fn kid_prefix_of_a_sealed_token() {
        assert_eq!(kid_of(Some(b"\"m2.AbCdEfGhIj\"")).as_deref(), Some("AbCdE"));
        assert_eq!(kid_of(Some(b"\"opaque\"")), None);
        assert_eq!(kid_of(Some(b"\"m2.abc\"")), None);
        assert_eq!(kid_of(None), None);
    }
}
