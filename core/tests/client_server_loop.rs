//! mrtr's client half against mrtr's server half, bytes only: a trip planner
//! that asks all three kinds, sheds load once with a state-only round, re-asks
//! an answer the user declined, and completes. Every leg goes through the
//! real writers and parsers of both sides.
#![cfg(all(feature = "client", feature = "server"))]

use mrtr_core::client::{Answer, Call, CallConfig, CallLimits, CallMethod, CallSlot, Event};
use mrtr_core::server::{
    write_complete, write_invalid_request_state, Incoming, InputRequiredBuilder, ServerRequest,
};
use mrtr_core::wire::{ClientCapabilities, ElicitAction, InputKind, Root, WireLimits};

const DATES_SCHEMA: &[u8] = br#"{"type":"object","properties":{"start":{"type":"string"},"end":{"type":"string"}},"required":["start","end"]}"#;
const IDEA: &[u8] =
    br#"{"messages":[{"role":"user","content":{"type":"text","text":"One city for May?"}}],"maxTokens":20}"#;

/// The server: stateless between legs; what it knows travels in requestState
/// (plain text here; a real server seals it).
fn trip_server(request: &[u8], out: &mut [u8], legs_seen: &mut Vec<String>) -> usize {
    let Ok(Incoming::Request(req)) = ServerRequest::parse(request, &WireLimits::default()) else {
        panic!("the client sent something the server cannot parse")
    };
    legs_seen.push(String::from_utf8(request.to_vec()).unwrap());
    let mut buf = [0u8; 256];
    let state = req.request_state_text(&mut buf).unwrap().unwrap_or("");
    if !state.is_empty() && !state.starts_with("v1;") {
        return write_invalid_request_state(out, &req.id).unwrap();
    }
    let kept = |k: &str| {
        state
            .split(';')
            .find_map(|p| p.strip_prefix(k).map(str::to_string))
    };
    let dates = kept("dates=").or_else(|| {
        let a = req.elicit_answer("dates").unwrap()?;
        if a.action != ElicitAction::Accept {
            return None;
        }
        let start: String = a.field("start").unwrap()?.as_str()?.chars().collect();
        let end: String = a.field("end").unwrap()?.as_str()?.chars().collect();
        Some(format!("{start}..{end}"))
    });
    let city = kept("city=").or_else(|| {
        let s = req.sampling_answer("idea").unwrap()?;
        Some(s.text()?.chars().collect())
    });
    let dir = kept("dir=").or_else(|| {
        let r = req.roots_answer("dir").unwrap()?;
        let first = r.iter().next()?;
        Some(first.uri.chars().collect())
    });
    let mut next_state = String::from("v1;");
    for (k, v) in [("dates=", &dates), ("city=", &city), ("dir=", &dir)] {
        if let Some(v) = v {
            next_state.push_str(&format!("{k}{v};"));
        }
    }
    match (&dates, &city, &dir) {
        (Some(d), Some(c), Some(p)) if state.contains("resumed") => {
            let text = format!("{c} {d} -> {p}");
            let members = format!(r#""content":[{{"type":"text","text":"{text}"}}]"#);
            write_complete(out, &req.id, members.as_bytes()).unwrap()
        }
        (Some(_), Some(_), Some(_)) => {
            // Everything known: shed load once, state only.
            next_state.push_str("resumed;");
            let mut b = InputRequiredBuilder::for_request(out, &req).unwrap();
            b.request_state(&next_state);
            b.finish().unwrap()
        }
        _ => {
            let mut b = InputRequiredBuilder::for_request(out, &req).unwrap();
            if dates.is_none() {
                b.elicit_form("dates", "When?", DATES_SCHEMA).unwrap();
            }
            if city.is_none() {
                b.sampling("idea", IDEA).unwrap();
            }
            if dir.is_none() {
                b.roots("dir").unwrap();
            }
            if next_state != "v1;" {
                b.request_state(&next_state);
            }
            b.finish().unwrap()
        }
    }
}

#[test]
fn the_client_half_and_the_server_half_complete_a_three_kind_flow_over_bytes() {
    let caps = ClientCapabilities {
        elicitation_form: true,
        sampling: true,
        roots: true,
        ..Default::default()
    };
    let config = CallConfig {
        caps,
        ..CallConfig::new(
            CallMethod::ToolsCall,
            br#"{"name":"plan_trip","arguments":{"month":"May"}}"#,
        )
    };
    let limits = CallLimits::default();
    let mut state = CallSlot::default();
    let mut work = vec![0u8; Call::workspace_size(&limits)];
    let mut call = Call::init(&mut state, &mut work, &config).unwrap();
    let mut legs = Vec::new();
    let mut declined_once = false;
    let mut events = Vec::new();
    let mut final_result = None;
    for id in 1..=10i64 {
        let mut request = vec![0u8; 8192];
        let n = call.write_request(id, &mut request).unwrap();
        let mut response = vec![0u8; 8192];
        let m = trip_server(&request[..n], &mut response, &mut legs);
        let response = &response[..m];
        match call.feed(response).unwrap() {
            Event::InputRequired(count) => {
                events.push(format!("input_required({count})"));
                let kinds: Vec<(String, InputKind)> = call
                    .inputs()
                    .map(|(k, r)| (k.chars().collect(), r.kind()))
                    .collect();
                for (key, kind) in kinds {
                    let answer = match kind {
                        InputKind::ElicitForm if !declined_once => {
                            declined_once = true;
                            Answer::Elicit {
                                action: ElicitAction::Decline,
                                content: None,
                            }
                        }
                        InputKind::ElicitForm => Answer::Elicit {
                            action: ElicitAction::Accept,
                            content: Some(br#"{"start":"2026-05-01","end":"2026-05-08"}"#),
                        },
                        InputKind::Sampling => Answer::Sampling(
                            br#"{"role":"assistant","content":{"type":"text","text":"Lisbon"},"model":"m"}"#,
                        ),
                        InputKind::Roots => Answer::Roots(&[Root {
                            uri: "file:///home/ana/trips",
                            name: Some("Trips"),
                        }]),
                        InputKind::ElicitUrl => panic!("not asked"),
                    };
                    call.answer(&key, answer).unwrap();
                }
            }
            Event::RetryAfter(ms) => events.push(format!("retry_after({ms})")),
            Event::Complete(result) => {
                final_result = Some(String::from_utf8(result.to_vec()).unwrap());
                break;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    // Round 1: three questions. Round 2: the declined form is asked again,
    // the other two answers ride in requestState. Round 3: state only.
    assert_eq!(
        events,
        ["input_required(3)", "input_required(1)", "retry_after(50)"]
    );
    assert_eq!(
        final_result.as_deref(),
        Some(
            r#"{"resultType":"complete","content":[{"type":"text","text":"Lisbon 2026-05-01..2026-05-08 -> file:///home/ana/trips"}]}"#
        )
    );
    assert_eq!(legs.len(), 4);
    // The client echoed the server's state byte for byte and sent each
    // round's answers only on the retry that followed it.
    assert!(legs[0].contains(r#""arguments":{"month":"May"}}}"#));
    assert!(legs[1].contains(r#""inputResponses":{"dates":{"action":"decline"},"idea":"#));
    assert!(!legs[1].contains("requestState"));
    assert!(legs[2].contains(r#""requestState":"v1;city=Lisbon;dir=file:///home/ana/trips;""#));
    assert!(legs[3].contains(
        r#""requestState":"v1;dates=2026-05-01..2026-05-08;city=Lisbon;dir=file:///home/ana/trips;resumed;""#
    ));
    assert!(!legs[3].contains("inputResponses"));
}
