//! Target `client_feed`: arbitrary server message sequences against a live
//! [`Call`].
//!
//! Input: `control 0xFF msg1 0xFF msg2 ...` (see [`crate::segments`]).
//! Control: byte 0 = capabilities *not* declared (bit 0 form, 1 url,
//! 2 sampling, 3 sampling tools, 4 roots, 5 tasks; 0 declares all), bits
//! 6-7 = method (tools/call, prompts/get, resources/read); byte 1 = bit 0
//! tight limits, bit 1 a seed-dialect `task` in the params; the rest are
//! choices. A message segment of exactly `0xFE` means "resend" (a transport
//! failure), any other segment is fed as it is.
//!
//! The harness writes the request, feeds the messages in turn while the
//! call waits, answers every input with a valid answer it picks from the
//! choices (in a chosen order, by index or by key, sometimes after a
//! refused wrong-kind answer), writes the retry, and checks on every
//! emitted request, by re-parsing it with the wire parser:
//! - a fresh id (greater than every id before), the call's method, the same
//!   params members as the first leg, byte for byte;
//! - `inputResponses` present iff the last round asked, its keys exactly the
//!   asked key tokens in the server's order, each value the answer given;
//! - `requestState` present iff the last round had one, byte for byte;
//! - a resend is the request in flight with only the id changed;
//! - events agree with the message (results and errors are the message's
//!   own), terminal errors move to `Failed`, other bytes leave the call as it
//!   was, and rounds and legs stay within the caps.

use mrtr_core::client::call::{Event, Phase};
use mrtr_core::client::{Call, CallConfig, CallLimits, CallMethod, CallSlot};
use mrtr_core::json::Value;
use mrtr_core::wire::{ClientCapabilities, WireLimits};

use crate::oracle::{
    answer_all, check_round_members, fixed_members, pick_id, request_parts, result_of, round_of,
    Expect,
};
use crate::{segments, with_id, Choices, RESEND};

/// Capabilities from a "not declared" bit mask (0 declares everything).
pub fn caps_from(mask: u8) -> ClientCapabilities {
    let on = |bit: u8| mask & (1 << bit) == 0;
    ClientCapabilities {
        elicitation_form: on(0),
        elicitation_url: on(1),
        sampling: on(2),
        sampling_tools: on(2) && on(3),
        sampling_context: false,
        roots: on(4),
        tasks: on(5),
    }
}

/// Small regions and caps, so the limit paths are reached.
pub fn tight_wire() -> WireLimits {
    WireLimits {
        max_input_requests: 4,
        max_key_bytes: 8,
        ..WireLimits::default()
    }
}

fn limits(tight: bool) -> CallLimits {
    if !tight {
        return CallLimits::default();
    }
    CallLimits {
        wire: tight_wire(),
        max_inputs_bytes: 600,
        max_state_bytes: 40,
        max_answers_bytes: 300,
        max_rounds: 3,
        max_state_only_rounds: 1,
        ..CallLimits::default()
    }
}

fn params(method: CallMethod, seed_task: bool) -> &'static [u8] {
    match (method, seed_task) {
        (CallMethod::ResourcesRead, false) => br#"{"uri":"file:///a\/b.txt"}"#,
        (CallMethod::ResourcesRead, true) => br#"{"uri":"file:///a","task":{"ttl":60000}}"#,
        (_, false) => {
            br#"{"name":"get_weather","arguments":{"q":[1,"\u00e9"],"n":{}},"_meta":{"progressToken":7,"io.modelcontextprotocol/clientInfo":"dropped"}}"#
        }
        (_, true) => br#"{"name":"echo","task":{"ttl":60000},"arguments":{}}"#,
    }
}

/// The target.
pub fn run(data: &[u8]) {
    let (control, msgs) = segments(data);
    let mut ch = Choices::new(control);
    let flags = ch.byte();
    let options = ch.byte();
    let method = match (flags >> 6) % 3 {
        0 => CallMethod::ToolsCall,
        1 => CallMethod::PromptsGet,
        _ => CallMethod::ResourcesRead,
    };
    let tight = options & 1 == 1;
    let config = CallConfig {
        caps: caps_from(flags),
        limits: limits(tight),
        ..CallConfig::new(method, params(method, options & 2 == 2))
    };
    let mut state = CallSlot::default();
    let mut ws = vec![0u8; Call::workspace_size(&config.limits)];
    let mut call = Call::init(&mut state, &mut ws, &config).expect("init");
    let caps_limit = *call.limits();
    let mut out = vec![0u8; 1 << 17];

    let mut expect = Expect::default();
    let mut first_members: Option<Vec<(Vec<u8>, Vec<u8>)>> = None;
    let mut last_sent: Vec<u8> = Vec::new();
    let mut writes = 0u32;
    let mut next = 0usize;
    loop {
        match call.phase() {
            Phase::Ready => {
                let id = pick_id(msgs.get(next).copied(), call.last_id());
                let prev = call.last_id();
                let n = call
                    .write_request(id, &mut out)
                    .expect("write_request in Ready");
                let sent = &out[..n];
                let (got_id, got_method, params) = request_parts(sent);
                assert_eq!(got_id, id);
                assert!(prev.is_none_or(|p| id > p), "fresh id");
                assert_eq!(got_method, method.as_str().as_bytes());
                let members = fixed_members(params);
                match &first_members {
                    None => first_members = Some(members),
                    Some(first) => assert_eq!(&members, first, "params kept on every leg"),
                }
                check_round_members(params, &expect);
                assert_eq!(call.phase(), Phase::Sent);
                assert_eq!(call.in_flight_id(), Some(id));
                last_sent = sent.to_vec();
                writes += 1;
                assert!(writes <= caps_limit.max_rounds + 1, "{writes} legs");
            }
            Phase::Answering => {
                if !answer_all(&mut call, &mut ch, &mut expect) {
                    break;
                }
            }
            Phase::Sent => {
                let Some(&msg) = msgs.get(next) else { break };
                next += 1;
                let ours = call.in_flight_id().expect("in flight while Sent");
                if msg == RESEND {
                    let id = pick_id(msgs.get(next).copied(), call.last_id());
                    let n = call.resend(id, &mut out).expect("resend in Sent");
                    assert_eq!(&out[..n], &with_id(&last_sent, ours, id)[..]);
                    last_sent = out[..n].to_vec();
                    assert_eq!(call.in_flight_id(), Some(id));
                    continue;
                }
                feed(&mut call, msg, ours, &mut expect);
            }
            Phase::Done | Phase::Failed => break,
        }
    }
    assert!(call.round() <= caps_limit.max_rounds + 1);
    assert!(call.state_only_rounds() <= caps_limit.max_state_only_rounds + 1);
}

fn feed(call: &mut Call<'_>, msg: &[u8], ours: i64, expect: &mut Expect) {
    let rounds = call.round();
    match call.feed(msg) {
        Ok(Event::Unrelated(_)) => {
            assert_eq!(call.phase(), Phase::Sent);
            assert_eq!(call.in_flight_id(), Some(ours));
            assert_eq!(call.round(), rounds);
        }
        Ok(Event::InputRequired(n)) => {
            assert_eq!(call.phase(), Phase::Answering);
            let round = round_of(result_of(msg));
            let keys = round.keys.expect("questions come from inputRequests");
            assert_eq!(n, keys.len());
            assert_eq!(call.input_count(), n);
            for (i, k) in keys.iter().enumerate() {
                let (key, _) = call.input_at(i).expect("input");
                assert_eq!(key.raw_token(), &k[..], "input {i} keeps the server's key");
            }
            assert_eq!(call.request_state(), round.state.as_deref());
            expect.responses = Some(
                keys.into_iter()
                    .map(|k| (k, serde_json::Value::Null))
                    .collect(),
            );
            expect.state = round.state;
            assert_eq!(call.round(), rounds + 1);
        }
        Ok(Event::RetryAfter(ms)) => {
            assert_eq!(call.phase(), Phase::Ready);
            let l = call.limits();
            assert!((l.backoff_initial_ms.min(l.backoff_max_ms)..=l.backoff_max_ms).contains(&ms));
            let round = round_of(result_of(msg));
            assert!(
                round.keys.as_ref().is_none_or(|k| k.is_empty()),
                "state-only round"
            );
            assert!(round.state.is_some(), "state-only round has a state");
            assert_eq!(call.request_state(), round.state.as_deref());
            expect.responses = None;
            expect.state = round.state;
        }
        Ok(Event::Complete(raw)) => {
            assert_eq!(call.phase(), Phase::Done);
            assert_eq!(raw, result_of(msg).raw(), "the result is the message's own");
            assert_eq!(call.result(msg), Some(raw));
        }
        Ok(Event::TaskCreated(_)) => assert_eq!(call.phase(), Phase::Done),
        Ok(Event::RpcError(e)) => {
            assert_eq!(call.phase(), Phase::Done);
            let code = mrtr_core::json::parse(msg)
                .ok()
                .and_then(|v| v.as_object())
                .and_then(|o| o.get("error"))
                .and_then(|e| e.as_object())
                .and_then(|e| e.get("code"))
                .and_then(|c: Value<'_>| c.as_i64());
            assert_eq!(Some(e.code), code);
        }
        Err(e) => {
            assert!(e.is_terminal(), "{e:?}");
            assert_eq!(call.phase(), Phase::Failed);
            assert_eq!(call.error(), Some(e));
            assert_eq!(call.in_flight_id(), None);
        }
    }
}
