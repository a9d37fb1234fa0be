//! The call workspace each flow of the spec and the SEP needs, at the least.
//!
//! Each flow runs once with the default limits while its high-water marks
//! are recorded: rendered params, the largest `inputRequests` copy, the
//! largest `requestState` token, the most answer bytes of one round, the
//! most input keys of one round. Limits set exactly to those marks are then
//! checked: the flow must pass with them, and must fail with one byte less
//! in any region. The table printed is what `Call::workspace_size` gives for
//! those tight limits (and the longest request, the message buffer the app
//! needs). `scripts/footprint` prints it; it exits non-zero when a check
//! fails.
//!
//! Run: `cargo run -p mrtr-core --example flow_workspace`.

use mrtr_core::client::{
    Answer, Call, CallConfig, CallError, CallLimits, CallMethod, CallSlot, Event,
};
use mrtr_core::wire::{ClientCapabilities, ClientInfo, ElicitAction, Root};
use std::process::ExitCode;

// The SEP's work-item messages, as recorded for the core's client tests and
// the Cortex-M example; this example reads only some of them.
#[allow(dead_code)]
#[path = "../src/client/tests/work_item.rs"]
mod recorded;

/// One answer the app gives.
#[derive(Clone, Copy)]
enum Reply {
    Accept(&'static str),
    Sampling(&'static str),
    Roots(&'static [Root<'static>]),
}

/// One server reply and the app's answers to it (none: state only).
struct Round {
    reply: &'static str,
    answers: &'static [(&'static str, Reply)],
}

/// One flow: the call, its rounds and the final result.
struct Flow {
    name: &'static str,
    params: &'static str,
    caps: ClientCapabilities,
    rounds: &'static [Round],
    done: &'static str,
}

const NONE: ClientCapabilities = ClientCapabilities {
    elicitation_form: false,
    elicitation_url: false,
    sampling: false,
    sampling_tools: false,
    sampling_context: false,
    roots: false,
    tasks: false,
};
const FORM: ClientCapabilities = ClientCapabilities {
    elicitation_form: true,
    ..NONE
};

const EXAMPLE_CLIENT: ClientInfo<'static> = ClientInfo {
    name: "ExampleClient",
    version: "1.0.0",
};

const SAMPLING_ANSWER: &str = r#"{"role":"assistant","content":{"type":"text","text":"The capital of France is Paris."},"model":"claude-3-sonnet-20240307","stopReason":"endTurn"}"#;

const ROOTS: &[Root<'static>] = &[
    Root {
        uri: "file:///home/user/repos/frontend",
        name: Some("Frontend Repository"),
    },
    Root {
        uri: "file:///home/user/repos/backend",
        name: Some("Backend Repository"),
    },
];

const FLOWS: &[Flow] = &[
    Flow {
        name: "MRTR page: github_login + capital_of_france",
        params: r#"{"name":"get_weather","arguments":{"location":"New York"}}"#,
        caps: ClientCapabilities {
            sampling: true,
            ..FORM
        },
        rounds: &[Round {
            reply: r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"github_login":{"method":"elicitation/create","params":{"mode":"form","message":"Please provide your GitHub username","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}},"capital_of_france":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"What is the capital of France?"}}],"modelPreferences":{"hints":[{"name":"claude-3-sonnet"}],"intelligencePriority":0.8,"speedPriority":0.5},"systemPrompt":"You are a helpful assistant.","maxTokens":100}}},"requestState":"AEAD-protected blob"}}"#,
            answers: &[
                ("github_login", Reply::Accept(r#"{"name":"octocat"}"#)),
                ("capital_of_france", Reply::Sampling(SAMPLING_ANSWER)),
            ],
        }],
        done: r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"Current weather in New York:\nTemperature: 72°F\nConditions: Partly cloudy"}],"isError":false}}"#,
    },
    Flow {
        name: "SEP: weather (ephemeral)",
        params: r#"{"name":"get_weather","arguments":{"location":"New York"}}"#,
        caps: FORM,
        rounds: &[Round {
            reply: r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"github_login":{"method":"elicitation/create","params":{"mode":"form","message":"Please provide your GitHub username","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}},"requestState":"foo"}}"#,
            answers: &[("github_login", Reply::Accept(r#"{"name":"octocat"}"#))],
        }],
        done: r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"Current weather in New York:\nTemperature: 72°F\nConditions: Partly cloudy"}],"isError":false}}"#,
    },
    Flow {
        name: "SEP: work item (2 rounds)",
        params: recorded::PARAMS,
        caps: FORM,
        rounds: &[
            Round {
                reply: recorded::ROUND_1,
                answers: &[("resolution", Reply::Accept(r#"{"resolution":"Duplicate"}"#))],
            },
            Round {
                reply: recorded::ROUND_2,
                answers: &[("duplicate_of", Reply::Accept(r#"{"duplicateOfId":4301}"#))],
            },
        ],
        done: recorded::DONE,
    },
    Flow {
        name: "SEP: rolling upgrade (2 rounds)",
        params: r#"{"name":"get_weather","arguments":{"location":"New York"}}"#,
        caps: FORM,
        rounds: &[
            Round {
                reply: r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"github_login":{"method":"elicitation/create","params":{"mode":"form","message":"Please provide your GitHub username","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}},"google_login":{"method":"elicitation/create","params":{"mode":"form","message":"Please provide your Google account","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}}}}"#,
                answers: &[
                    ("github_login", Reply::Accept(r#"{"name":"octocat"}"#)),
                    (
                        "google_login",
                        Reply::Accept(r#"{"name":"octo@example.com"}"#),
                    ),
                ],
            },
            Round {
                reply: r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","inputRequests":{"microsoft_login":{"method":"elicitation/create","params":{"mode":"form","message":"Please provide your Microsoft account","requestedSchema":{"type":"object","properties":{"email":{"type":"string","format":"email"}},"required":["email"]}}}},"requestState":"c3RhdGU6Z2l0aHViX2xvZ2luPW9jdG9jYXQ"}}"#,
                answers: &[(
                    "microsoft_login",
                    Reply::Accept(r#"{"email":"octo@outlook.com"}"#),
                )],
            },
        ],
        done: r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[]}}"#,
    },
    Flow {
        name: "SEP: load shedding (state only)",
        params: r#"{"name":"get_weather","arguments":{"location":"New York"}}"#,
        caps: NONE,
        rounds: &[Round {
            reply: r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"c2hlZDpzdGVwPTQyO3BhcnRpYWw9MTI4"}}"#,
            answers: &[],
        }],
        done: r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"42"}]}}"#,
    },
    Flow {
        name: "roots/list in inputRequests (spec roots)",
        params: r#"{"name":"index_repos"}"#,
        caps: ClientCapabilities {
            roots: true,
            ..NONE
        },
        rounds: &[Round {
            reply: r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"roots":{"method":"roots/list"}}}}"#,
            answers: &[("roots", Reply::Roots(ROOTS))],
        }],
        done: r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[]}}"#,
    },
];

/// High-water marks of one run.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Marks {
    params: usize,
    inputs: usize,
    state: usize,
    answers: usize,
    keys: usize,
    longest_request: usize,
}

/// Runs `flow` under `limits`; the marks, or the first error.
fn run(flow: &Flow, limits: CallLimits) -> Result<Marks, CallError> {
    let config = CallConfig {
        caps: flow.caps,
        client_info: Some(EXAMPLE_CLIENT),
        limits,
        ..CallConfig::new(CallMethod::ToolsCall, flow.params.as_bytes())
    };
    let mut state = CallSlot::default();
    let mut workspace = vec![0u8; Call::workspace_size(&limits)];
    let mut call = Call::init(&mut state, &mut workspace, &config)?;
    let mut out = vec![0u8; 1 << 16];
    let mut marks = Marks {
        params: call.params().len(),
        ..Marks::default()
    };
    let mut id = 1;
    for round in flow.rounds {
        let n = call.write_request(id, &mut out)?;
        marks.longest_request = marks.longest_request.max(n);
        id += 1;
        match call.feed(round.reply.as_bytes())? {
            Event::InputRequired(_) | Event::RetryAfter(_) => {}
            _ => return Err(CallError::NotInitialized),
        }
        marks.inputs = marks.inputs.max(call.inputs_json().map_or(0, <[u8]>::len));
        marks.state = marks.state.max(call.request_state().map_or(0, <[u8]>::len));
        marks.keys = marks.keys.max(call.input_count());
        for (key, reply) in round.answers {
            let answer = match *reply {
                Reply::Accept(content) => Answer::Elicit {
                    action: ElicitAction::Accept,
                    content: Some(content.as_bytes()),
                },
                Reply::Sampling(result) => Answer::Sampling(result.as_bytes()),
                Reply::Roots(roots) => Answer::Roots(roots),
            };
            call.answer(key, answer)?;
        }
        let answered: usize = (0..call.input_count())
            .map(|i| call.answer_json(i).map_or(0, <[u8]>::len))
            .sum();
        marks.answers = marks.answers.max(answered);
    }
    let n = call.write_request(id, &mut out)?;
    marks.longest_request = marks.longest_request.max(n);
    match call.feed(flow.done.as_bytes())? {
        Event::Complete(_) => Ok(marks),
        _ => Err(CallError::NotInitialized),
    }
}

/// Limits whose regions are exactly `marks`.
fn tight(marks: &Marks) -> CallLimits {
    let mut limits = CallLimits {
        max_params_bytes: marks.params,
        max_inputs_bytes: marks.inputs,
        max_state_bytes: marks.state,
        max_answers_bytes: marks.answers,
        ..CallLimits::default()
    };
    // A call needs room for at least one key (a state-only flow has none).
    limits.wire.max_input_requests = marks.keys.max(1);
    limits
}

/// A region bound of [`CallLimits`], picked out for shrinking.
type Region = fn(&mut CallLimits) -> &mut usize;

/// Checks the tight limits: the flow passes with them and fails with one
/// byte less in every region that is not empty.
fn check_tight(flow: &Flow, marks: &Marks) -> Result<(), String> {
    let limits = tight(marks);
    run(flow, limits).map_err(|e| format!("fails with its own marks: {e:?}"))?;
    let shrink: [(&str, Region); 4] = [
        ("params", |l| &mut l.max_params_bytes),
        ("inputs", |l| &mut l.max_inputs_bytes),
        ("state", |l| &mut l.max_state_bytes),
        ("answers", |l| &mut l.max_answers_bytes),
    ];
    for (region, field) in shrink {
        let mut less = limits;
        let bound = field(&mut less);
        if *bound == 0 {
            continue;
        }
        *bound -= 1;
        if run(flow, less).is_ok() {
            return Err(format!("still passes with one {region} byte less"));
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    println!(
        "{:<44} {:>6} {:>6} {:>6} {:>5} {:>7} {:>4} {:>9} {:>8}",
        "flow", "params", "inputs", "state", "answ", "rounds", "keys", "workspace", "longest"
    );
    let mut failed = false;
    for flow in FLOWS {
        let marks = match run(flow, CallLimits::default()) {
            Ok(m) => m,
            Err(e) => {
                println!("{:<44} FAIL with the default limits: {e:?}", flow.name);
                failed = true;
                continue;
            }
        };
        if let Err(why) = check_tight(flow, &marks) {
            println!("{:<44} FAIL: {why}", flow.name);
            failed = true;
            continue;
        }
        println!(
            "{:<44} {:>6} {:>6} {:>6} {:>5} {:>7} {:>4} {:>9} {:>8}",
            flow.name,
            marks.params,
            marks.inputs,
            marks.state,
            marks.answers,
            flow.rounds.len(),
            marks.keys,
            Call::workspace_size(&tight(&marks)),
            marks.longest_request
        );
    }
    println!(
        "(bytes; workspace = Call::workspace_size of limits set to the marks, \
         which adds 23 B per key; CallSlot = {} B; default limits: {} B; \
         longest = the largest request written, the message buffer to size)",
        std::mem::size_of::<CallSlot>(),
        Call::workspace_size(&CallLimits::default())
    );
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
