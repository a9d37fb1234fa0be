//! Server-side flows of the MRTR page and the SEP, leg by leg: request bytes
//! -> app logic -> exact response bytes. `requestState` here is a plain
//! placeholder token (a real server seals it; the seal is tested elsewhere).

use std::string::{String, ToString};
use std::vec::Vec;

use super::*;
use crate::wire::ElicitAction;

/// The accepted text of form field `field` under `key`, if answered.
fn accepted_text(req: &ServerRequest<'_>, key: &str, field: &str) -> Option<String> {
    let answer = req.elicit_answer(key).expect("usable answer")?;
    if answer.action != ElicitAction::Accept {
        return None;
    }
    let v = answer.field(field).expect("unique field")?;
    Some(v.as_str()?.chars().collect())
}

/// The placeholder state: `k=v` pairs joined by `;`.
fn state_pairs(req: &ServerRequest<'_>) -> Vec<(String, String)> {
    let mut buf = [0u8; 512];
    let Some(text) = req.request_state_text(&mut buf).unwrap() else {
        return Vec::new();
    };
    text.split(';')
        .filter_map(|p| p.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn lookup(pairs: &[(String, String)], key: &str) -> Option<String> {
    pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
}

// ---------------------------------------------------------------------------
// The SEP's real-world example: resolving a work item takes two rounds, the
// first answer travelling in requestState.

const RESOLUTION_SCHEMA: &str = r#"{"type":"object","properties":{"resolution":{"type":"string","enum":["Fixed","Won't Fix","Duplicate","By Design"],"description":"Resolution type for this bug"}},"required":["resolution"]}"#;
const DUPLICATE_SCHEMA: &str = r#"{"type":"object","properties":{"duplicateOfId":{"type":"number","description":"Work item ID of the original bug"}},"required":["duplicateOfId"]}"#;
const WORK_ITEM_ARGS: &str =
    r#","arguments":{"workItemId":4522,"fields":{"System.State":"Resolved"}}"#;

fn work_item_app(bytes: &[u8], out: &mut [u8]) -> Result<usize, Fail> {
    let req = request(bytes);
    assert!(req.name.unwrap().eq_str("update_work_item"));
    let item = req
        .arguments
        .and_then(|a| a.get("workItemId"))
        .and_then(|v| v.as_u64())
        .expect("workItemId");
    let mut buf = [0u8; 128];
    let from_state = match req.request_state_text(&mut buf)? {
        None => None,
        Some(s) => match s.strip_prefix("resolution:") {
            Some(r) => Some(r.to_string()),
            // What an unseal failure looks like on the wire.
            None => return Ok(write_invalid_request_state(out, &req.id)?),
        },
    };
    let Some(resolution) = from_state.or_else(|| accepted_text(&req, "resolution", "resolution"))
    else {
        let mut b = InputRequiredBuilder::for_request(out, &req)?;
        let msg =
            std::format!("Resolving Bug #{item} requires a resolution. How was this bug resolved?");
        b.elicit_form("resolution", &msg, RESOLUTION_SCHEMA.as_bytes())?;
        return Ok(b.finish()?);
    };
    let mut text = std::format!("Bug #{item} resolved as {resolution}.");
    if resolution == "Duplicate" {
        let original = req
            .elicit_answer("duplicate_of")
            .unwrap()
            .and_then(|a| a.field("duplicateOfId").unwrap())
            .and_then(|v| v.as_u64());
        let Some(original) = original else {
            let state = std::format!("resolution:{resolution}");
            let mut b = InputRequiredBuilder::for_request(out, &req)?;
            b.elicit_form(
                "duplicate_of",
                "Since this is a duplicate, which work item is the original?",
                DUPLICATE_SCHEMA.as_bytes(),
            )?
            .request_state(&state);
            return Ok(b.finish()?);
        };
        text = std::format!(
            "Bug #{item} resolved as Duplicate of Bug #{original}. State set to Resolved and duplicate link created."
        );
    }
    let members = std::format!(r#""content":[{{"type":"text","text":"{text}"}}],"isError":false"#);
    Ok(write_complete(out, &req.id, members.as_bytes())?)
}

#[test]
fn resolving_a_work_item_takes_two_rounds_with_the_first_answer_carried_in_request_state() {
    let caps = r#"{"elicitation":{}}"#;
    // Round 1: the state change triggers rule 1; the server asks, no state yet.
    let leg1 = tools_call(1, caps, "update_work_item", WORK_ITEM_ARGS);
    let r1 = emit(|o| work_item_app(&leg1, o));
    assert_eq!(
        r1,
        std::format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","inputRequests":{{"resolution":{{"method":"elicitation/create","params":{{"mode":"form","message":"Resolving Bug #4522 requires a resolution. How was this bug resolved?","requestedSchema":{RESOLUTION_SCHEMA}}}}}}}}}}}"#
        )
    );
    assert_json(&r1);
    // Round 2: the client answers in the SEP's wrapped shape; "Duplicate"
    // triggers rule 2 and the first answer moves into requestState.
    let leg2 = tools_call(
        2,
        caps,
        "update_work_item",
        &std::format!(
            r#"{WORK_ITEM_ARGS},"inputResponses":{{"resolution":{{"result":{{"action":"accept","content":{{"resolution":"Duplicate"}}}}}}}}"#
        ),
    );
    let r2 = emit(|o| work_item_app(&leg2, o));
    assert_eq!(
        r2,
        std::format!(
            r#"{{"jsonrpc":"2.0","id":2,"result":{{"resultType":"input_required","inputRequests":{{"duplicate_of":{{"method":"elicitation/create","params":{{"mode":"form","message":"Since this is a duplicate, which work item is the original?","requestedSchema":{DUPLICATE_SCHEMA}}}}}}},"requestState":"resolution:Duplicate"}}}}"#
        )
    );
    assert_json(&r2);
    // Round 3: the released revision's bare shape, the state echoed; the
    // server has everything and completes.
    let leg3 = tools_call(
        3,
        caps,
        "update_work_item",
        &std::format!(
            r#"{WORK_ITEM_ARGS},"inputResponses":{{"duplicate_of":{{"action":"accept","content":{{"duplicateOfId":4301}}}}}},"requestState":"resolution:Duplicate""#
        ),
    );
    assert_eq!(
        emit(|o| work_item_app(&leg3, o)),
        r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[{"type":"text","text":"Bug #4522 resolved as Duplicate of Bug #4301. State set to Resolved and duplicate link created."}],"isError":false}}"#
    );
}

#[test]
fn a_request_state_that_fails_verification_gets_the_one_frozen_error() {
    let leg = tools_call(
        4,
        r#"{"elicitation":{}}"#,
        "update_work_item",
        &std::format!(r#"{WORK_ITEM_ARGS},"requestState":"tampered""#),
    );
    assert_eq!(
        emit(|o| work_item_app(&leg, o)),
        r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid or expired requestState"}}"#
    );
}

// ---------------------------------------------------------------------------
// Rolling upgrade: the old version asked github_login + google_login, the
// new one needs github_login + microsoft_login.

const LOGIN_SCHEMA: &str =
    r#"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}"#;
const NEW_VERSION_KEYS: [(&str, &str); 2] = [
    ("github_login", "Please provide your GitHub username"),
    ("microsoft_login", "Please provide your Microsoft account"),
];

fn sign_in_app(bytes: &[u8], out: &mut [u8]) -> Result<usize, Fail> {
    let req = request(bytes);
    let state = state_pairs(&req);
    let mut known: Vec<(&str, String)> = Vec::new();
    let mut missing: Vec<(&str, &str)> = Vec::new();
    for (key, message) in NEW_VERSION_KEYS {
        match lookup(&state, key).or_else(|| accepted_text(&req, key, "name")) {
            Some(v) => known.push((key, v)),
            None => missing.push((key, message)),
        }
    }
    if missing.is_empty() {
        let text = std::format!(
            "Signed in as {} (GitHub) and {} (Microsoft)",
            known[0].1,
            known[1].1
        );
        let members = std::format!(r#""content":[{{"type":"text","text":"{text}"}}]"#);
        return Ok(write_complete(out, &req.id, members.as_bytes())?);
    }
    let state: Vec<String> = known.iter().map(|(k, v)| std::format!("{k}={v}")).collect();
    let state = state.join(";");
    let mut b = InputRequiredBuilder::for_request(out, &req)?;
    for (key, message) in missing {
        b.elicit_form(key, message, LOGIN_SCHEMA.as_bytes())?;
    }
    if !state.is_empty() {
        b.request_state(&state);
    }
    Ok(b.finish()?)
}

fn ask(key: &str, message: &str) -> String {
    std::format!(
        r#""{key}":{{"method":"elicitation/create","params":{{"mode":"form","message":"{message}","requestedSchema":{LOGIN_SCHEMA}}}}}"#
    )
}

fn login_answer(key: &str, name: &str) -> String {
    std::format!(r#""{key}":{{"action":"accept","content":{{"name":"{name}"}}}}"#)
}

#[test]
fn after_a_rolling_upgrade_old_answers_are_kept_and_only_the_new_key_is_asked() {
    let caps = r#"{"elicitation":{"form":{}}}"#;
    // Leg 2 reaches the new version with the answers the old version asked for.
    let leg2 = tools_call(
        2,
        caps,
        "sign_in",
        &std::format!(
            r#","arguments":{{}},"inputResponses":{{{},{}}}"#,
            login_answer("github_login", "octocat"),
            login_answer("google_login", "octo@gmail.com")
        ),
    );
    let r2 = emit(|o| sign_in_app(&leg2, o));
    assert_eq!(
        r2,
        std::format!(
            r#"{{"jsonrpc":"2.0","id":2,"result":{{"resultType":"input_required","inputRequests":{{{}}},"requestState":"github_login=octocat"}}}}"#,
            ask("microsoft_login", "Please provide your Microsoft account")
        )
    );
    // Leg 3: the new answer plus the echoed state complete the call; the
    // user was never asked for GitHub twice.
    let leg3 = tools_call(
        3,
        caps,
        "sign_in",
        &std::format!(
            r#","arguments":{{}},"inputResponses":{{{}}},"requestState":"github_login=octocat""#,
            login_answer("microsoft_login", "octo@outlook.com")
        ),
    );
    assert_eq!(
        emit(|o| sign_in_app(&leg3, o)),
        r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[{"type":"text","text":"Signed in as octocat (GitHub) and octo@outlook.com (Microsoft)"}]}}"#
    );
}

#[test]
fn partial_answers_are_re_asked_and_the_given_ones_kept() {
    let caps = r#"{"elicitation":{}}"#;
    let leg1 = tools_call(1, caps, "sign_in", "");
    assert_eq!(
        emit(|o| sign_in_app(&leg1, o)),
        std::format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","inputRequests":{{{},{}}}}}}}"#,
            ask("github_login", "Please provide your GitHub username"),
            ask("microsoft_login", "Please provide your Microsoft account")
        )
    );
    // The client answers one of two: the other is asked again, not an error.
    let leg2 = tools_call(
        2,
        caps,
        "sign_in",
        &std::format!(
            r#","inputResponses":{{{}}}"#,
            login_answer("microsoft_login", "octo@outlook.com")
        ),
    );
    assert_eq!(
        emit(|o| sign_in_app(&leg2, o)),
        std::format!(
            r#"{{"jsonrpc":"2.0","id":2,"result":{{"resultType":"input_required","inputRequests":{{{}}},"requestState":"microsoft_login=octo@outlook.com"}}}}"#,
            ask("github_login", "Please provide your GitHub username")
        )
    );
    // A declined answer is no answer either: asked again, state kept.
    let leg3 = tools_call(
        3,
        caps,
        "sign_in",
        r#","inputResponses":{"github_login":{"action":"decline"}},"requestState":"microsoft_login=octo@outlook.com""#,
    );
    assert_eq!(
        emit(|o| sign_in_app(&leg3, o)),
        std::format!(
            r#"{{"jsonrpc":"2.0","id":3,"result":{{"resultType":"input_required","inputRequests":{{{}}},"requestState":"microsoft_login=octo@outlook.com"}}}}"#,
            ask("github_login", "Please provide your GitHub username")
        )
    );
    let leg4 = tools_call(
        4,
        caps,
        "sign_in",
        &std::format!(
            r#","inputResponses":{{{}}},"requestState":"microsoft_login=octo@outlook.com""#,
            login_answer("github_login", "octocat")
        ),
    );
    assert_eq!(
        emit(|o| sign_in_app(&leg4, o)),
        r#"{"jsonrpc":"2.0","id":4,"result":{"resultType":"complete","content":[{"type":"text","text":"Signed in as octocat (GitHub) and octo@outlook.com (Microsoft)"}]}}"#
    );
}

// ---------------------------------------------------------------------------
// Load shedding: instance A hands its progress to the client in a state-only
// round; instance B resumes from it.

fn summing_app(bytes: &[u8], out: &mut [u8], overloaded: bool) -> Result<usize, Fail> {
    let req = request(bytes);
    let upto = req
        .arguments
        .and_then(|a| a.get("upto"))
        .and_then(|v| v.as_u64())
        .unwrap();
    let state = state_pairs(&req);
    let (mut next, mut sum) = match (lookup(&state, "next"), lookup(&state, "sum")) {
        (Some(n), Some(s)) => (n.parse::<u64>().unwrap(), s.parse::<u64>().unwrap()),
        _ => (1, 0),
    };
    while next <= upto {
        sum += next;
        next += 1;
        if overloaded && next == upto / 2 + 1 {
            let state = std::format!("next={next};sum={sum}");
            let mut b = InputRequiredBuilder::for_request(out, &req)?;
            b.request_state(&state);
            return Ok(b.finish()?);
        }
    }
    let members = std::format!(r#""content":[{{"type":"text","text":"sum={sum}"}}]"#);
    Ok(write_complete(out, &req.id, members.as_bytes())?)
}

#[test]
fn an_overloaded_server_sheds_load_with_state_only_and_another_instance_resumes() {
    let leg1 = tools_call(1, "{}", "sum", r#","arguments":{"upto":200}"#);
    let r1 = emit(|o| summing_app(&leg1, o, true));
    assert_eq!(
        r1,
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"next=101;sum=5050"}}"#
    );
    let leg2 = tools_call(
        2,
        "{}",
        "sum",
        r#","arguments":{"upto":200},"requestState":"next=101;sum=5050""#,
    );
    assert_eq!(
        emit(|o| summing_app(&leg2, o, false)),
        r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"sum=20100"}]}}"#
    );
}

// ---------------------------------------------------------------------------
// A trip planner asks all three kinds in one round; one answer is missing on
// the retry and only that one is asked again.

const DATES_SCHEMA: &str = r#"{"type":"object","properties":{"start":{"type":"string","format":"date"},"end":{"type":"string","format":"date"}},"required":["start","end"]}"#;
const IDEA_PARAMS: &str = r#"{"messages":[{"role":"user","content":{"type":"text","text":"Suggest one city for a week in May."}}],"maxTokens":50}"#;

fn trip_app(bytes: &[u8], out: &mut [u8]) -> Result<usize, Fail> {
    let req = request(bytes);
    let state = state_pairs(&req);
    let dates = lookup(&state, "dates").or_else(|| {
        let s = accepted_text(&req, "travel_dates", "start")?;
        let e = accepted_text(&req, "travel_dates", "end")?;
        Some(std::format!("{s}..{e}"))
    });
    let city = req
        .sampling_answer("destination_idea")
        .unwrap()
        .and_then(|a| a.text())
        .map(|t| t.chars().collect::<String>());
    let dir = lookup(&state, "dir").or_else(|| {
        let roots = req.roots_answer("save_dir").unwrap()?;
        roots.iter().next().map(|r| r.uri.chars().collect())
    });
    match (&dates, &city, &dir) {
        (Some(d), Some(c), Some(p)) => {
            let (from, to) = d.split_once("..").unwrap();
            let members = std::format!(
                r#""content":[{{"type":"text","text":"Trip to {c} from {from} to {to}, itinerary saved in {p}"}}]"#
            );
            Ok(write_complete(out, &req.id, members.as_bytes())?)
        }
        _ => {
            let mut b = InputRequiredBuilder::for_request(out, &req)?;
            if dates.is_none() {
                b.elicit_form(
                    "travel_dates",
                    "When do you travel?",
                    DATES_SCHEMA.as_bytes(),
                )?;
            }
            if city.is_none() {
                b.sampling("destination_idea", IDEA_PARAMS.as_bytes())?;
            }
            if dir.is_none() {
                b.roots("save_dir")?;
            }
            let mut kept = Vec::new();
            if let Some(d) = &dates {
                kept.push(std::format!("dates={d}"));
            }
            if let Some(p) = &dir {
                kept.push(std::format!("dir={p}"));
            }
            let state = kept.join(";");
            if !state.is_empty() {
                b.request_state(&state);
            }
            Ok(b.finish()?)
        }
    }
}

#[test]
fn a_trip_planner_asks_three_kinds_in_one_round_and_re_asks_only_the_missing_answer() {
    let caps = r#"{"elicitation":{"form":{}},"sampling":{},"roots":{}}"#;
    let leg1 = tools_call(1, caps, "plan_trip", "");
    let r1 = emit(|o| trip_app(&leg1, o));
    assert_eq!(
        r1,
        std::format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","inputRequests":{{"travel_dates":{{"method":"elicitation/create","params":{{"mode":"form","message":"When do you travel?","requestedSchema":{DATES_SCHEMA}}}}},"destination_idea":{{"method":"sampling/createMessage","params":{IDEA_PARAMS}}},"save_dir":{{"method":"roots/list","params":{{}}}}}}}}}}"#
        )
    );
    // The output is what our own client half reads back, with the right kinds.
    let v = assert_json(&r1);
    assert_eq!(v["result"]["inputRequests"].as_object().unwrap().len(), 3);
    let limits = WireLimits::default();
    let crate::wire::Message::Result { result, .. } =
        crate::wire::parse_message(r1.as_bytes(), &limits).unwrap()
    else {
        panic!()
    };
    let crate::wire::ResultOutcome::InputRequired(ir) =
        crate::wire::classify_result(result, "tools/call", &limits).unwrap()
    else {
        panic!()
    };
    let kinds: Vec<_> = ir
        .input_requests
        .unwrap()
        .iter()
        .map(|(_, r)| r.kind())
        .collect();
    use crate::wire::InputKind::*;
    assert_eq!(kinds, [ElicitForm, Sampling, Roots]);

    // Retry: dates and roots answered, the sampling answer missing.
    let leg2 = tools_call(
        2,
        caps,
        "plan_trip",
        r#","inputResponses":{"travel_dates":{"action":"accept","content":{"start":"2026-05-01","end":"2026-05-08"}},"save_dir":{"roots":[{"uri":"file:///home/ana/trips","name":"Trips"}]}}"#,
    );
    assert_eq!(
        emit(|o| trip_app(&leg2, o)),
        std::format!(
            r#"{{"jsonrpc":"2.0","id":2,"result":{{"resultType":"input_required","inputRequests":{{"destination_idea":{{"method":"sampling/createMessage","params":{IDEA_PARAMS}}}}},"requestState":"dates=2026-05-01..2026-05-08;dir=file:///home/ana/trips"}}}}"#
        )
    );
    let leg3 = tools_call(
        3,
        caps,
        "plan_trip",
        r#","inputResponses":{"destination_idea":{"result":{"role":"assistant","content":{"type":"text","text":"Lisbon"},"model":"claude-3-sonnet-20240307","stopReason":"endTurn"}}},"requestState":"dates=2026-05-01..2026-05-08;dir=file:///home/ana/trips""#,
    );
    assert_eq!(
        emit(|o| trip_app(&leg3, o)),
        r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[{"type":"text","text":"Trip to Lisbon from 2026-05-01 to 2026-05-08, itinerary saved in file:///home/ana/trips"}]}}"#
    );
}

// ---------------------------------------------------------------------------
// The SEP's ephemeral example and its error-handling guidance.

fn weather_app(bytes: &[u8], out: &mut [u8]) -> Result<usize, Fail> {
    let req = request(bytes);
    match accepted_text(&req, "github_login", "name") {
        Some(_) => Ok(write_complete(
            out,
            &req.id,
            br#"{"content":[{"type":"text","text":"Current weather in New York:\nTemperature: 72\u00b0F\nConditions: Partly cloudy"}],"isError":false}"#,
        )?),
        None => {
            let mut b = InputRequiredBuilder::for_request(out, &req)?;
            b.elicit_form(
                "github_login",
                "Please provide your GitHub username",
                LOGIN_SCHEMA.as_bytes(),
            )?
            .request_state("foo");
            Ok(b.finish()?)
        }
    }
}

#[test]
fn unrequested_input_responses_are_ignored_and_the_missing_one_is_asked_again() {
    let caps = r#"{"elicitation":{}}"#;
    let ask_again = std::format!(
        r#"{{"jsonrpc":"2.0","id":3,"result":{{"resultType":"input_required","inputRequests":{{{}}},"requestState":"foo"}}}}"#,
        ask("github_login", "Please provide your GitHub username")
    );
    // The SEP's example of well-formed but unrequested information.
    let leg = tools_call(
        3,
        caps,
        "get_weather",
        r#","arguments":{"location":"New York"},"inputResponses":{"not_requested_info":{"result":{"action":"accept","content":{"not_requested_param_name":"Information the server did not request"}}}}"#,
    );
    assert_eq!(emit(|o| weather_app(&leg, o)), ask_again);
    // Entries of no known shape under keys the server does not need are
    // ignored too (entries that are not objects at all are refused at parse).
    let leg = tools_call(
        3,
        caps,
        "get_weather",
        r#","inputResponses":{"junk":{"answer":42},"more":{"action":"maybe"},"x":{"result":{"?":1}},"":{}}"#,
    );
    assert_eq!(emit(|o| weather_app(&leg, o)), ask_again);
}

#[test]
fn the_sep_weather_example_completes_when_the_answer_and_state_come_back() {
    let leg = tools_call(
        3,
        r#"{"elicitation":{}}"#,
        "get_weather",
        r#","arguments":{"location":"New York"},"inputResponses":{"github_login":{"result":{"action":"accept","content":{"name":"octocat"}}}},"requestState":"foo""#,
    );
    assert_eq!(
        emit(|o| weather_app(&leg, o)),
        r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[{"type":"text","text":"Current weather in New York:\nTemperature: 72\u00b0F\nConditions: Partly cloudy"}],"isError":false}}"#
    );
}
