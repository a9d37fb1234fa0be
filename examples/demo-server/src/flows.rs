//! The demo's tools, prompts and resource template, and the list results.
//!
//! Every flow is a function of one request: its arguments, the answers it
//! carries and the verified state. Nothing is remembered between legs; what
//! a later leg needs travels in the sealed `requestState`.

use mrtr_core::json::{Value, Writer};
use mrtr_core::server::Method;
use mrtr_core::wire::{ClientCapabilities, ElicitAction, PROTOCOL_VERSION, TASKS_EXTENSION};

use crate::emit::{self, text_result};
use crate::server::{text, Answer, Ask, Ctx, Demo, Reply, Step, VERSION};
use crate::state::target;

/// Whether a tool runs as a task of the Tasks extension
/// (`execution.taskSupport` in `tools/list`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskSupport {
    /// Never a task (no `execution` in the listing).
    Forbidden,
    /// A task when the request declares the Tasks extension, inline
    /// otherwise.
    Optional,
    /// Only as a task: a request that does not declare the Tasks extension
    /// gets `-32021` naming it.
    Required,
}

impl TaskSupport {
    /// The `taskSupport` value, when the listing carries one.
    pub fn wire(self) -> Option<&'static str> {
        match self {
            TaskSupport::Forbidden => None,
            TaskSupport::Optional => Some("optional"),
            TaskSupport::Required => Some("required"),
        }
    }
}

/// One tool: its listing and its flow.
pub struct Tool {
    /// Name.
    pub name: &'static str,
    /// Description for `tools/list`.
    pub description: &'static str,
    /// `inputSchema`, raw JSON.
    pub input_schema: &'static str,
    /// Task support (Tasks extension).
    pub task_support: TaskSupport,
    /// The flow (inline, when no task runs it).
    pub run: fn(&Ctx<'_, '_>) -> Result<Step, Reply>,
}

const NO_ARGS: &str = r#"{"type":"object","properties":{}}"#;

/// Every tool, in `tools/list` order.
pub const TOOLS: &[Tool] = &[
    Tool {
        name: "provision_database",
        description: "Provision a database; asks which region (one form round).",
        input_schema: r#"{"type":"object","properties":{"name":{"type":"string"}}}"#,
        task_support: TaskSupport::Forbidden,
        run: provision_database,
    },
    Tool {
        name: "update_work_item",
        description: "Update an Azure DevOps work item. Resolving a bug asks for the resolution (form), and a Duplicate asks which item it duplicates (second round, first answer kept in requestState).",
        input_schema: r#"{"type":"object","properties":{"workItemId":{"type":"integer"},"fields":{"type":"object","properties":{"System.State":{"type":"string"}},"required":["System.State"]}},"required":["workItemId","fields"]}"#,
        task_support: TaskSupport::Forbidden,
        run: update_work_item,
    },
    Tool {
        name: "summarize",
        description: "Summarize a text with the client's LLM (sampling); the result quotes the sampled text.",
        input_schema: r#"{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}"#,
        task_support: TaskSupport::Forbidden,
        run: summarize,
    },
    Tool {
        name: "scan_project",
        description: "Scan the project roots the client shares (roots/list); the result lists them.",
        input_schema: NO_ARGS,
        task_support: TaskSupport::Forbidden,
        run: scan_project,
    },
    Tool {
        name: "link_account",
        description: "Link an external account through a browser page (URL-mode elicitation); completes when the user accepts.",
        input_schema: r#"{"type":"object","properties":{"service":{"type":"string","pattern":"^[a-z0-9-]{1,32}$"}}}"#,
        task_support: TaskSupport::Forbidden,
        run: link_account,
    },
    Tool {
        name: "generate_report",
        description: "Compile a report over three requests: the server sheds load twice with a state-only InputRequiredResult carrying its progress.",
        input_schema: r#"{"type":"object","properties":{"topic":{"type":"string"}}}"#,
        task_support: TaskSupport::Forbidden,
        run: generate_report,
    },
    Tool {
        name: "plan_trip",
        description: "Plan a trip: one round asks a form, a sampling request and roots at once; partial answers are kept in requestState and only the missing ones asked again.",
        input_schema: r#"{"type":"object","properties":{"destination":{"type":"string"}},"required":["destination"]}"#,
        task_support: TaskSupport::Forbidden,
        run: plan_trip,
    },
    Tool {
        name: "long_export",
        description: "Export a dataset as a task (seed dialect: send params.task; tasks/get, tasks/result, tasks/input_response). Without params.task it asks inline.",
        input_schema: r#"{"type":"object","properties":{"dataset":{"type":"string"}}}"#,
        task_support: TaskSupport::Forbidden,
        run: long_export_inline,
    },
    Tool {
        name: "long_import",
        description: "Import a dataset as a task (Tasks extension: declare extensions[\"io.modelcontextprotocol/tasks\"]; tasks/get carries inputRequests, answer with tasks/update). Without the extension it asks inline.",
        input_schema: r#"{"type":"object","properties":{"source":{"type":"string"}}}"#,
        task_support: TaskSupport::Optional,
        run: long_import_inline,
    },
    Tool {
        name: "test_input_required_result_elicitation",
        description: "Conformance: one elicitation (user_name).",
        input_schema: NO_ARGS,
        task_support: TaskSupport::Forbidden,
        run: conf_elicitation,
    },
    Tool {
        name: "test_input_required_result_sampling",
        description: "Conformance: one sampling request (capital_question).",
        input_schema: NO_ARGS,
        task_support: TaskSupport::Forbidden,
        run: conf_sampling,
    },
    Tool {
        name: "test_input_required_result_list_roots",
        description: "Conformance: one roots/list request (client_roots).",
        input_schema: NO_ARGS,
        task_support: TaskSupport::Forbidden,
        run: conf_list_roots,
    },
    Tool {
        name: "test_input_required_result_request_state",
        description: "Conformance: elicitation plus requestState; the result says state-ok once the state verified.",
        input_schema: NO_ARGS,
        task_support: TaskSupport::Forbidden,
        run: conf_request_state,
    },
    Tool {
        name: "test_input_required_result_multiple_inputs",
        description: "Conformance: elicitation, sampling and roots in one round, plus requestState.",
        input_schema: NO_ARGS,
        task_support: TaskSupport::Forbidden,
        run: conf_multiple_inputs,
    },
    Tool {
        name: "test_input_required_result_multi_round",
        description: "Conformance: two elicitation rounds with an evolving requestState.",
        input_schema: NO_ARGS,
        task_support: TaskSupport::Forbidden,
        run: conf_multi_round,
    },
    Tool {
        name: "test_input_required_result_tampered_state",
        description: "Conformance: integrity-protected requestState; a modified one is rejected with -32602.",
        input_schema: NO_ARGS,
        task_support: TaskSupport::Forbidden,
        run: conf_tampered_state,
    },
    Tool {
        name: "test_input_required_result_capabilities",
        description: "Conformance: asks only for what the request's clientCapabilities declare.",
        input_schema: NO_ARGS,
        task_support: TaskSupport::Forbidden,
        run: conf_capabilities,
    },
    Tool {
        name: "route_ticket",
        description: "SEP-2243: files a ticket; region and priority are mirrored into the Mcp-Param-Region and Mcp-Param-Priority headers, which the server checks against the body (-32020 on a mismatch). Completes at once.",
        input_schema: r#"{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"priority":{"type":"integer","x-mcp-header":"Priority"}},"required":["region"]}"#,
        run: route_ticket,
        task_support: TaskSupport::Forbidden,
    },
    Tool {
        name: "test_streaming_elicitation",
        description: "Conformance (server-stateless): asks a name by returning an InputRequiredResult, never by a request on the response stream.",
        input_schema: NO_ARGS,
        run: conf_streaming_elicitation,
        task_support: TaskSupport::Forbidden,
    },
    Tool {
        name: "test_logging_tool",
        description: "Conformance (server-stateless): completes at once; it would log only when the request's _meta sets a logLevel, and the demo sends no log notifications.",
        input_schema: NO_ARGS,
        run: conf_logging,
        task_support: TaskSupport::Forbidden,
    },
    Tool {
        name: "test_trigger_tool_change",
        description: "Conformance (server-stateless): announces a tool-list change on every subscriptions/listen stream that asked for toolsListChanged (the list itself is static).",
        input_schema: NO_ARGS,
        run: conf_trigger_tool_change,
        task_support: TaskSupport::Forbidden,
    },
    Tool {
        name: "test_trigger_prompt_change",
        description: "Conformance (server-stateless): announces a prompt-list change on every subscriptions/listen stream that asked for promptsListChanged (the list itself is static).",
        input_schema: NO_ARGS,
        run: conf_trigger_prompt_change,
        task_support: TaskSupport::Forbidden,
    },
    Tool {
        name: "test_missing_capability",
        description: "Conformance (server-stateless): needs sampling; a request that does not declare it gets -32021.",
        input_schema: NO_ARGS,
        task_support: TaskSupport::Forbidden,
        run: conf_missing_capability,
    },
    Tool {
        name: "greet",
        description: "Tasks conformance fixture: sync only, says hello.",
        input_schema: r#"{"type":"object","properties":{"name":{"type":"string"}}}"#,
        task_support: TaskSupport::Forbidden,
        run: greet,
    },
    Tool {
        name: "slow_compute",
        description: "Tasks conformance fixture: a task of `seconds` seconds (0 to 600) that then completes; cancellable while it runs. Inline (no Tasks extension) it answers at once.",
        input_schema: r#"{"type":"object","properties":{"seconds":{"type":"integer","minimum":0,"maximum":600},"label":{"type":"string"}}}"#,
        task_support: TaskSupport::Optional,
        run: slow_compute,
    },
    Tool {
        name: "failing_job",
        description: "Tasks conformance fixture: task only; after about a second it completes with a tool error (isError: true).",
        input_schema: NO_ARGS,
        task_support: TaskSupport::Required,
        run: task_only,
    },
    Tool {
        name: "protocol_error_job",
        description: "Tasks conformance fixture: task only; after about a second it fails with a protocol error (-32603).",
        input_schema: NO_ARGS,
        task_support: TaskSupport::Required,
        run: task_only,
    },
    Tool {
        name: "confirm_delete",
        description: "Tasks conformance fixture: asks to confirm the deletion (form `confirm`), as a task (tasks/get, tasks/update) or inline.",
        input_schema: r#"{"type":"object","properties":{"filename":{"type":"string"}}}"#,
        task_support: TaskSupport::Optional,
        run: confirm_delete,
    },
    Tool {
        name: "multi_input",
        description: "Tasks conformance fixture: asks two forms at once (`first`, `second`); a task stays input_required until both are answered.",
        input_schema: NO_ARGS,
        task_support: TaskSupport::Optional,
        run: multi_input,
    },
    Tool {
        name: "test_tool_with_task",
        description: "Tasks conformance fixture (task required): asks user_name inline (InputRequiredResult), then the answered call creates a task whose result greets the name.",
        input_schema: NO_ARGS,
        task_support: TaskSupport::Required,
        run: conf_tool_with_task,
    },
];

/// Routes an MRTR request to its flow.
pub fn run(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    let name = target(c.req);
    match c.req.method {
        Method::ToolsCall => match TOOLS.iter().find(|t| t.name == name) {
            Some(tool) => (tool.run)(c),
            None => Err(c.invalid(&format!("Unknown tool: {name}"))),
        },
        Method::PromptsGet => match name.as_str() {
            "team_greeting" => team_greeting(c),
            "test_input_required_result_prompt" => conf_prompt(c),
            _ => Err(c.invalid(&format!("Unknown prompt: {name}"))),
        },
        Method::ResourcesRead => notes(c, &name),
        _ => Err(c.invalid("not a tools/call, prompts/get or resources/read request")),
    }
}

// ---- building blocks ------------------------------------------------------

fn done(text: impl AsRef<str>) -> Result<Step, Reply> {
    Ok(Step::Done(text_result(text.as_ref(), false)))
}

/// A tool-level failure the model should see (`isError: true`).
fn refused(text: impl AsRef<str>) -> Result<Step, Reply> {
    Ok(Step::Done(text_result(text.as_ref(), true)))
}

fn ask(asks: Vec<Ask>, state: Option<Vec<u8>>) -> Result<Step, Reply> {
    Ok(Step::Ask { asks, state })
}

fn form(key: &'static str, message: impl Into<String>, schema: &str) -> Ask {
    Ask::Form {
        key,
        message: message.into(),
        schema: schema.as_bytes().to_vec(),
    }
}

/// A sampling request for one user message.
fn sampling(key: &'static str, prompt: &str, max_tokens: u64, system: Option<&str>) -> Ask {
    let params = emit::json(|w| {
        w.raw(br#"{"messages":[{"role":"user","content":{"type":"text","text":"#)
            .str(prompt)
            .raw(b"}}]");
        if let Some(s) = system {
            w.raw(br#","systemPrompt":"#).str(s);
        }
        w.raw(br#","maxTokens":"#).u64(max_tokens).byte(b'}');
    });
    Ask::Sampling { key, params }
}

/// State minted by `tool`: `{"t":tool` + the members `more` writes + `}`.
fn state(tool: &str, more: impl Fn(&mut Writer<'_>)) -> Vec<u8> {
    emit::json(|w| {
        w.raw(br#"{"t":"#).str(tool);
        more(w);
        w.byte(b'}');
    })
}

fn verb(action: ElicitAction) -> &'static str {
    match action {
        ElicitAction::Decline => "declined",
        _ => "cancelled",
    }
}

/// An integer, or a number with no fraction (a client may send `4301.0`
/// for a `"type":"number"` field).
fn whole_number(v: Value<'_>) -> Option<i64> {
    v.as_i64().or_else(|| {
        let f: f64 = std::str::from_utf8(v.raw()).ok()?.parse().ok()?;
        // 2^53: beyond it not every integer is a float.
        (f.fract() == 0.0 && f.abs() <= 9_007_199_254_740_992.0).then_some(f as i64)
    })
}

fn roots_text(roots: &[(String, Option<String>)]) -> String {
    roots
        .iter()
        .map(|(uri, name)| match name {
            Some(n) => format!("{uri} ({n})"),
            None => uri.clone(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

// ---- update_work_item: the SEP's Azure DevOps example -----------------------

const RESOLUTIONS: [&str; 4] = ["Fixed", "Won't Fix", "Duplicate", "By Design"];
const RESOLUTION_SCHEMA: &str = r#"{"type":"object","properties":{"resolution":{"type":"string","enum":["Fixed","Won't Fix","Duplicate","By Design"],"description":"Resolution type for this bug"}},"required":["resolution"]}"#;
const DUPLICATE_SCHEMA: &str = r#"{"type":"object","properties":{"duplicateOfId":{"type":"number","description":"Work item ID of the original bug"}},"required":["duplicateOfId"]}"#;

fn update_work_item(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    const TOOL: &str = "update_work_item";
    let Some(id) = c.arg_int("workItemId") else {
        return Err(c.invalid("update_work_item: workItemId must be an integer"));
    };
    let new_state = c
        .arg("fields")
        .and_then(|f| f.as_object())
        .and_then(|f| f.get_unique("System.State").ok().flatten())
        .and_then(|v| v.as_str())
        .map(|s| text(&s));
    let Some(new_state) = new_state else {
        return Err(c.invalid("update_work_item: fields[\"System.State\"] must be a string"));
    };
    if new_state != "Resolved" {
        return done(format!("Bug #{id} updated: State set to {new_state}."));
    }
    // Rule 1: Resolved needs a resolution (kept in the state after round 1).
    let kept = c.state_of(TOOL).and_then(|s| s.str("resolution"));
    let resolution = match kept {
        Some(r) if RESOLUTIONS.contains(&r.as_str()) => r,
        _ => match c.form_str("resolution", "resolution")? {
            Answer::Given(r) if RESOLUTIONS.contains(&r.as_str()) => r,
            Answer::Refused(a) => {
                return refused(format!(
                    "Bug #{id} was not resolved: the resolution question was {}.",
                    verb(a)
                ))
            }
            _ => {
                // No requestState yet: the retry re-sends the arguments.
                return ask(
                    vec![form(
                        "resolution",
                        format!(
                            "Resolving Bug #{id} requires a resolution. How was this bug resolved?"
                        ),
                        RESOLUTION_SCHEMA,
                    )],
                    None,
                );
            }
        },
    };
    if resolution != "Duplicate" {
        return done(format!(
            "Bug #{id} resolved as {resolution}. State set to Resolved."
        ));
    }
    // Rule 2: Duplicate needs the original; the resolution rides along.
    match c.form("duplicate_of", "duplicateOfId", whole_number)? {
        Answer::Given(original) if original != id => done(format!(
            "Bug #{id} resolved as Duplicate of Bug #{original}. State set to Resolved and duplicate link created."
        )),
        Answer::Refused(a) => refused(format!(
            "Bug #{id} was not resolved: the duplicate question was {}.",
            verb(a)
        )),
        _ => ask(
            vec![form(
                "duplicate_of",
                "Since this is a duplicate, which work item is the original?",
                DUPLICATE_SCHEMA,
            )],
            Some(state(TOOL, |w| {
                w.raw(br#","resolution":"#).str(&resolution);
            })),
        ),
    }
}

// ---- one-kind flows -------------------------------------------------------

const REGIONS: [&str; 3] = ["us-east-1", "eu-west-1", "ap-southeast-2"];
const REGION_SCHEMA: &str = r#"{"type":"object","properties":{"region":{"type":"string","title":"Region","enum":["us-east-1","eu-west-1","ap-southeast-2"]}},"required":["region"]}"#;

fn route_ticket(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    let Some(region) = c.arg_str("region") else {
        return Err(c.invalid("route_ticket: region must be a string"));
    };
    match c.arg("priority") {
        None => done(format!("Ticket routed to {region}.")),
        Some(_) => match c.arg_int("priority") {
            Some(p) => done(format!("Ticket routed to {region} with priority {p}.")),
            None => Err(c.invalid("route_ticket: priority must be an integer")),
        },
    }
}

fn provision_database(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    let name = c.arg_str("name").unwrap_or_else(|| "app-db".to_string());
    match c.form_str("region", "region")? {
        Answer::Given(r) if REGIONS.contains(&r.as_str()) => {
            done(format!("Provisioned database '{name}' in {r}."))
        }
        Answer::Refused(a) => refused(format!(
            "Database '{name}' was not provisioned: the region question was {}.",
            verb(a)
        )),
        _ => ask(
            vec![form(
                "region",
                format!("Which region should database '{name}' live in?"),
                REGION_SCHEMA,
            )],
            None,
        ),
    }
}

fn summarize(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    let Some(input) = c.arg_str("text") else {
        return Err(c.invalid("summarize: text must be a string"));
    };
    match c.sampled("summary")? {
        Answer::Given((summary, model)) => done(format!("Summary by {model}: \"{summary}\"")),
        _ => ask(
            vec![sampling(
                "summary",
                &format!("Summarize in one sentence:\n\n{input}"),
                200,
                Some("You are a concise technical writer."),
            )],
            None,
        ),
    }
}

fn scan_project(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    match c.roots("project_roots")? {
        Answer::Given(roots) if roots.is_empty() => {
            done("Scanned 0 roots: the client shared none.")
        }
        Answer::Given(roots) => done(format!(
            "Scanned {} root(s): {}.",
            roots.len(),
            roots_text(&roots)
        )),
        _ => ask(
            vec![Ask::Roots {
                key: "project_roots",
            }],
            None,
        ),
    }
}

fn link_account(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    const TOOL: &str = "link_account";
    let service = c.arg_str("service").unwrap_or_else(|| "github".to_string());
    let plain = !service.is_empty()
        && service.len() <= 32
        && service
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !plain {
        return Err(c.invalid("link_account: service must match ^[a-z0-9-]{1,32}$"));
    }
    let session = c.state_of(TOOL).and_then(|s| s.str("session"));
    match (c.url_done("link")?, session) {
        (Answer::Given(()), Some(session)) => {
            done(format!("Account {service} linked (session {session})."))
        }
        (Answer::Refused(a), _) => refused(format!("Linking {service} was {}.", verb(a))),
        _ => {
            // The session names this linking attempt; the state remembers it
            // so the completion can refer to the page the user saw.
            let session = c.random_hex(8);
            ask(
                vec![Ask::Url {
                    key: "link",
                    message: format!(
                        "Open the page to link your {service} account, then come back."
                    ),
                    url: format!(
                        "https://auth.example.com/link?service={service}&session={session}"
                    ),
                }],
                Some(state(TOOL, |w| {
                    w.raw(br#","session":"#).str(&session);
                })),
            )
        }
    }
}

const REPORT_SECTIONS: [&str; 3] = ["Summary", "Trends", "Outlook"];

fn generate_report(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    const TOOL: &str = "generate_report";
    let topic = c
        .arg_str("topic")
        .unwrap_or_else(|| "quarterly sales".to_string());
    let before = c
        .state_of(TOOL)
        .and_then(|s| s.int("sections"))
        .unwrap_or(0)
        .clamp(0, 2);
    // Each leg compiles one section, then sheds load with its progress.
    let compiled = before + 1;
    if compiled >= 3 {
        return done(format!(
            "Report on {topic}: {} sections ({}), compiled over 3 requests.",
            REPORT_SECTIONS.len(),
            REPORT_SECTIONS.join(", ")
        ));
    }
    ask(
        Vec::new(),
        Some(state(TOOL, |w| {
            w.raw(br#","sections":"#).i64(compiled);
        })),
    )
}

// ---- plan_trip: three kinds at once, partial answers kept -------------------

const TRAVELERS_SCHEMA: &str = r#"{"type":"object","properties":{"travelers":{"type":"integer","minimum":1,"maximum":20,"title":"Travelers"}},"required":["travelers"]}"#;

fn plan_trip(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    const TOOL: &str = "plan_trip";
    let Some(dest) = c.arg_str("destination") else {
        return Err(c.invalid("plan_trip: destination must be a string"));
    };
    let kept = c.state_of(TOOL);
    let mut travelers = kept.and_then(|s| s.int("travelers"));
    if travelers.is_none() {
        match c.form_int("travelers", "travelers")? {
            Answer::Given(n) if (1..=20).contains(&n) => travelers = Some(n),
            Answer::Refused(a) => {
                return refused(format!(
                    "Trip to {dest} not planned: the travelers question was {}.",
                    verb(a)
                ))
            }
            _ => {}
        }
    }
    let mut itinerary = kept.and_then(|s| s.str("itinerary"));
    if itinerary.is_none() {
        if let Answer::Given((t, _)) = c.sampled("itinerary")? {
            itinerary = Some(t);
        }
    }
    // "" records that the client shared no root.
    let mut folder = kept.and_then(|s| s.str("folder"));
    if folder.is_none() {
        if let Answer::Given(roots) = c.roots("workspace")? {
            folder = Some(roots.first().map(|r| r.0.clone()).unwrap_or_default());
        }
    }
    if let (Some(n), Some(plan), Some(dir)) = (travelers, &itinerary, &folder) {
        let saved = if dir.is_empty() {
            "not saved (no root shared)".to_string()
        } else {
            format!("saved under {dir}")
        };
        return done(format!(
            "Trip to {dest} for {n} traveler(s). Itinerary: {plan} Plan {saved}."
        ));
    }
    let mut asks = Vec::new();
    if travelers.is_none() {
        asks.push(form(
            "travelers",
            format!("How many people are traveling to {dest}?"),
            TRAVELERS_SCHEMA,
        ));
    }
    if itinerary.is_none() {
        asks.push(sampling(
            "itinerary",
            &format!("Suggest a one-day itinerary for {dest} in two sentences."),
            300,
            None,
        ));
    }
    if folder.is_none() {
        asks.push(Ask::Roots { key: "workspace" });
    }
    let any_kept = travelers.is_some() || itinerary.is_some() || folder.is_some();
    let st = any_kept.then(|| {
        state(TOOL, |w| {
            if let Some(n) = travelers {
                w.raw(br#","travelers":"#).i64(n);
            }
            if let Some(t) = &itinerary {
                w.raw(br#","itinerary":"#).str(t);
            }
            if let Some(f) = &folder {
                w.raw(br#","folder":"#).str(f);
            }
        })
    });
    ask(asks, st)
}

// ---- task tools, asked inline when the client did not ask for a task --------

/// The question `long_export` asks (inline or as a task).
pub const EXPORT_FORMAT_SCHEMA: &str = r#"{"type":"object","properties":{"format":{"type":"string","enum":["csv","json","parquet"]}},"required":["format"]}"#;
/// The question `long_import` asks (inline or as a task).
pub const IMPORT_POLICY_SCHEMA: &str = r#"{"type":"object","properties":{"policy":{"type":"string","enum":["skip","overwrite"],"description":"What to do with rows that already exist"}},"required":["policy"]}"#;

/// The completion text of `long_export`.
pub fn export_text(dataset: &str, format: &str) -> String {
    format!("Exported dataset '{dataset}' (1204 rows) as {format}.")
}

/// The completion text of `long_import`.
pub fn import_text(source: &str, policy: &str) -> String {
    format!("Imported '{source}': 873 rows, existing rows handled with policy '{policy}'.")
}

fn long_export_inline(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    let dataset = c
        .arg_str("dataset")
        .unwrap_or_else(|| "customers".to_string());
    match c.form_str("format", "format")? {
        Answer::Given(f) if ["csv", "json", "parquet"].contains(&f.as_str()) => {
            done(export_text(&dataset, &f))
        }
        Answer::Refused(a) => refused(format!("Export of '{dataset}' {}.", verb(a))),
        _ => ask(
            vec![form(
                "format",
                format!("Export '{dataset}' in which format?"),
                EXPORT_FORMAT_SCHEMA,
            )],
            None,
        ),
    }
}

fn long_import_inline(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    let source = c
        .arg_str("source")
        .unwrap_or_else(|| "orders.csv".to_string());
    match c.form_str("policy", "policy")? {
        Answer::Given(p) if ["skip", "overwrite"].contains(&p.as_str()) => {
            done(import_text(&source, &p))
        }
        Answer::Refused(a) => refused(format!("Import of '{source}' {}.", verb(a))),
        _ => ask(
            vec![form(
                "policy",
                format!("Some rows of '{source}' already exist. Skip or overwrite them?"),
                IMPORT_POLICY_SCHEMA,
            )],
            None,
        ),
    }
}

// ---- conformance tools (scenario texts of the conformance package) ---------

const NAME_SCHEMA: &str =
    r#"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}"#;
const OK_SCHEMA: &str =
    r#"{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}"#;
const COLOR_SCHEMA: &str =
    r#"{"type":"object","properties":{"color":{"type":"string"}},"required":["color"]}"#;
const CONTEXT_SCHEMA: &str =
    r#"{"type":"object","properties":{"context":{"type":"string"}},"required":["context"]}"#;

fn ask_name(key: &'static str, message: &str) -> Ask {
    form(key, message, NAME_SCHEMA)
}

fn capital_question() -> Ask {
    sampling(
        "capital_question",
        "What is the capital of France?",
        100,
        None,
    )
}

fn conf_elicitation(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    match c.form_str("user_name", "name")? {
        Answer::Given(name) => done(format!("Hello, {name}!")),
        Answer::Refused(a) => done(format!("Hello, stranger! (the name was {})", verb(a))),
        Answer::Missing => ask(vec![ask_name("user_name", "What is your name?")], None),
    }
}

fn conf_streaming_elicitation(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    match c.form_str("user_name", "name")? {
        Answer::Given(name) => done(format!("Hello, {name}! (asked by InputRequiredResult)")),
        Answer::Refused(a) => done(format!("The name was {}.", verb(a))),
        Answer::Missing => ask(vec![ask_name("user_name", "What is your name?")], None),
    }
}

fn conf_trigger_tool_change(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    let n = c.demo.hub.notify(crate::subscriptions::Change::Tools);
    done(format!(
        "Tool-list change announced to {n} subscription(s)."
    ))
}

fn conf_trigger_prompt_change(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    let n = c.demo.hub.notify(crate::subscriptions::Change::Prompts);
    done(format!(
        "Prompt-list change announced to {n} subscription(s)."
    ))
}

fn conf_logging(_c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    done("Done; no log level was requested, so nothing was logged.")
}

fn conf_sampling(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    match c.sampled("capital_question")? {
        Answer::Given((answer, _)) => done(answer),
        _ => ask(vec![capital_question()], None),
    }
}

fn conf_missing_capability(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    match c.sampled("capital_question")? {
        Answer::Given((answer, _)) => done(format!("Sampling answered: {answer}")),
        _ => ask(vec![capital_question()], None),
    }
}

fn conf_list_roots(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    match c.roots("client_roots")? {
        Answer::Given(roots) if roots.is_empty() => done("Client roots: none."),
        Answer::Given(roots) => done(format!("Client roots: {}", roots_text(&roots))),
        _ => ask(
            vec![Ask::Roots {
                key: "client_roots",
            }],
            None,
        ),
    }
}

/// The request-state and tampered-state tools: confirm, with a state that
/// must come back intact.
fn confirm_with_state(c: &Ctx<'_, '_>, tool: &str, done_text: &str) -> Result<Step, Reply> {
    let answer = c.form("confirm", "ok", |v| v.as_bool())?;
    match (c.state_of(tool), answer) {
        (Some(_), Answer::Given(ok)) => done(format!("{done_text}; confirmed={ok}")),
        (Some(_), Answer::Refused(a)) => done(format!("{done_text}; confirmation {}", verb(a))),
        _ => ask(
            vec![form("confirm", "Please confirm", OK_SCHEMA)],
            Some(state(tool, |_| {})),
        ),
    }
}

fn conf_request_state(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    confirm_with_state(
        c,
        "test_input_required_result_request_state",
        "state-ok: requestState verified",
    )
}

fn conf_tampered_state(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    confirm_with_state(
        c,
        "test_input_required_result_tampered_state",
        "state-ok: requestState integrity verified",
    )
}

fn conf_multiple_inputs(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    const TOOL: &str = "test_input_required_result_multiple_inputs";
    let kept = c.state_of(TOOL);
    let mut name = kept.and_then(|s| s.str("name"));
    if name.is_none() {
        match c.form_str("user_name", "name")? {
            Answer::Given(n) => name = Some(n),
            Answer::Refused(_) => name = Some("stranger".to_string()),
            Answer::Missing => {}
        }
    }
    let mut greeting = kept.and_then(|s| s.str("greeting"));
    if greeting.is_none() {
        if let Answer::Given((g, _)) = c.sampled("greeting")? {
            greeting = Some(g);
        }
    }
    let mut roots = kept.and_then(|s| s.strings("roots"));
    if roots.is_none() {
        if let Answer::Given(r) = c.roots("client_roots")? {
            roots = Some(r.into_iter().map(|(uri, _)| uri).collect());
        }
    }
    if let (Some(n), Some(g), Some(r)) = (&name, &greeting, &roots) {
        return done(format!(
            "Hello, {n}! Greeting: {g} Roots: {}.",
            if r.is_empty() {
                "none".to_string()
            } else {
                r.join(", ")
            }
        ));
    }
    let mut asks = Vec::new();
    if name.is_none() {
        asks.push(ask_name("user_name", "What is your name?"));
    }
    if greeting.is_none() {
        asks.push(sampling("greeting", "Generate a greeting", 50, None));
    }
    if roots.is_none() {
        asks.push(Ask::Roots {
            key: "client_roots",
        });
    }
    let st = state(TOOL, |w| {
        if let Some(n) = &name {
            w.raw(br#","name":"#).str(n);
        }
        if let Some(g) = &greeting {
            w.raw(br#","greeting":"#).str(g);
        }
        if let Some(r) = &roots {
            w.raw(br#","roots":["#);
            let mut first = true;
            for uri in r {
                w.comma(&mut first).str(uri);
            }
            w.byte(b']');
        }
    });
    ask(asks, Some(st))
}

fn conf_multi_round(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    const TOOL: &str = "test_input_required_result_multi_round";
    let kept = c.state_of(TOOL);
    let name = kept
        .filter(|s| s.int("round") == Some(2))
        .and_then(|s| s.str("name"));
    let step2 = |name: &str| {
        ask(
            vec![form(
                "step2",
                "Step 2: What is your favorite color?",
                COLOR_SCHEMA,
            )],
            Some(state(TOOL, |w| {
                w.raw(br#","round":2,"name":"#).str(name);
            })),
        )
    };
    if let Some(name) = name {
        return match c.form_str("step2", "color")? {
            Answer::Given(color) => done(format!("Hello, {name}! Your favorite color is {color}.")),
            Answer::Refused(a) => done(format!("Hello, {name}! (the color was {})", verb(a))),
            Answer::Missing => step2(&name),
        };
    }
    match c.form_str("step1", "name")? {
        Answer::Given(name) => step2(&name),
        Answer::Refused(_) => step2("stranger"),
        Answer::Missing => ask(
            vec![ask_name("step1", "Step 1: What is your name?")],
            Some(state(TOOL, |w| {
                w.raw(br#","round":1"#);
            })),
        ),
    }
}

fn conf_capabilities(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    let caps = c.req.client_capabilities();
    if !(caps.elicitation_form || caps.sampling || caps.roots) {
        // Nothing this tool can ask was declared: the one request it needs
        // at least is sampling, which `finish` turns into -32021.
        return ask(vec![capital_question()], None);
    }
    let mut asks = Vec::new();
    let mut got = Vec::new();
    if caps.elicitation_form {
        match c.form_str("user_name", "name")? {
            Answer::Missing => asks.push(ask_name("user_name", "What is your name?")),
            _ => got.push("elicitation"),
        }
    }
    if caps.sampling {
        match c.sampled("capital_question")? {
            Answer::Missing => asks.push(capital_question()),
            _ => got.push("sampling"),
        }
    }
    if caps.roots {
        match c.roots("client_roots")? {
            Answer::Missing => asks.push(Ask::Roots {
                key: "client_roots",
            }),
            _ => got.push("roots"),
        }
    }
    if asks.is_empty() {
        return done(format!("Answers received for: {}.", got.join(", ")));
    }
    ask(asks, None)
}

// ---- prompts and the resource template -------------------------------------

fn prompt_result(description: &str, message: &str) -> Vec<u8> {
    emit::json(|w| {
        w.raw(br#"{"description":"#)
            .str(description)
            .raw(br#","messages":[{"role":"user","content":{"type":"text","text":"#)
            .str(message)
            .raw(b"}}]}");
    })
}

fn team_greeting(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    let team = c.arg_str("team").unwrap_or_else(|| "platform".to_string());
    let description = format!("A greeting for the {team} team");
    match c.form_str("sender", "name")? {
        Answer::Given(name) => Ok(Step::Done(prompt_result(
            &description,
            &format!("Write a short, warm greeting from {name} to the {team} team."),
        ))),
        Answer::Refused(_) => Ok(Step::Done(prompt_result(
            &description,
            &format!("Write a short, warm greeting to the {team} team."),
        ))),
        Answer::Missing => ask(
            vec![form(
                "sender",
                format!("Who is the greeting for the {team} team from?"),
                NAME_SCHEMA,
            )],
            None,
        ),
    }
}

fn conf_prompt(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    match c.form_str("user_context", "context")? {
        Answer::Given(context) => Ok(Step::Done(prompt_result(
            "A prompt built from the context the user gave",
            &format!("Use this context: {context}"),
        ))),
        Answer::Refused(_) => Ok(Step::Done(prompt_result(
            "A prompt without context",
            "No context was given.",
        ))),
        Answer::Missing => ask(
            vec![form(
                "user_context",
                "What context should the prompt use?",
                CONTEXT_SCHEMA,
            )],
            None,
        ),
    }
}

const DETAIL_SCHEMA: &str = r#"{"type":"object","properties":{"level":{"type":"string","enum":["summary","full"]}},"required":["level"]}"#;

/// `notes://{topic}`: asks how detailed the notes should be.
fn notes(c: &Ctx<'_, '_>, uri: &str) -> Result<Step, Reply> {
    let topic = uri.strip_prefix("notes://").filter(|t| {
        !t.is_empty()
            && t.len() <= 64
            && t.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    });
    let Some(topic) = topic else {
        return Err(c.resource_not_found(uri));
    };
    let level = match c.form_str("detail", "level")? {
        Answer::Given(l) if l == "summary" || l == "full" => l,
        Answer::Refused(_) => "summary".to_string(),
        _ => {
            return ask(
                vec![form(
                    "detail",
                    format!("How detailed should the notes on {topic} be?"),
                    DETAIL_SCHEMA,
                )],
                None,
            )
        }
    };
    let body = format!("# Notes on {topic}\n\nDetail level: {level}.");
    Ok(Step::Done(emit::json(|w| {
        w.raw(br#"{"contents":[{"uri":"#)
            .str(uri)
            .raw(br#","mimeType":"text/markdown","text":"#)
            .str(&body)
            .raw(br#"}],"ttlMs":0,"cacheScope":"private"}"#);
    })))
}

// ---- Tasks conformance fixtures (scenarios tasks-*) ----------------------------

/// The form `confirm_delete` asks: key `confirm`, boolean field `confirm`.
pub const CONFIRM_SCHEMA: &str =
    r#"{"type":"object","properties":{"confirm":{"type":"boolean"}},"required":["confirm"]}"#;
/// The form each `multi_input` question asks (field `name`).
pub const MULTI_SCHEMA: &str = NAME_SCHEMA;
/// The two questions of `multi_input`: (key, message).
pub const MULTI_QUESTIONS: [(&str, &str); 2] =
    [("first", "First name?"), ("second", "Second name?")];
/// Longest `slow_compute` run, in seconds.
pub const MAX_COMPUTE_SECONDS: u64 = 600;
/// The tool error `failing_job` completes with.
pub const FAILING_JOB_TEXT: &str = "failing_job: the job ran and reported an error.";

/// `slow_compute`'s arguments: `seconds` (default 1, 0 to
/// [`MAX_COMPUTE_SECONDS`]) and `label` (default `compute`).
pub fn compute_args(c: &Ctx<'_, '_>) -> Result<(u64, String), Reply> {
    let seconds = match c.arg("seconds") {
        None => 1,
        Some(v) => match v.as_u64() {
            Some(n) if n <= MAX_COMPUTE_SECONDS => n,
            _ => {
                return Err(c.invalid(&format!(
                    "slow_compute: seconds must be an integer from 0 to {MAX_COMPUTE_SECONDS}"
                )))
            }
        },
    };
    let label = c.arg_str("label").unwrap_or_else(|| "compute".to_string());
    Ok((seconds, label))
}

/// The completion text of `slow_compute`.
pub fn compute_text(label: &str, seconds: u64) -> String {
    format!("Computed '{label}' in {seconds} s.")
}

/// `confirm_delete`'s `filename` (default `notes.txt`).
pub fn filename_arg(c: &Ctx<'_, '_>) -> String {
    c.arg_str("filename")
        .unwrap_or_else(|| "notes.txt".to_string())
}

/// The question `confirm_delete` asks.
pub fn confirm_message(filename: &str) -> String {
    format!("Delete '{filename}'?")
}

/// The completion text of `confirm_delete`.
pub fn delete_text(filename: &str, confirmed: bool) -> String {
    if confirmed {
        format!("Deleted '{filename}'.")
    } else {
        format!("Kept '{filename}': deletion not confirmed.")
    }
}

/// The completion text of `multi_input`.
pub fn multi_text(first: &str, second: &str) -> String {
    format!("Received '{first}' and '{second}'.")
}

/// The completion text of `test_tool_with_task`'s task.
pub fn greeting_text(name: &str) -> String {
    format!("Hello, {name}! (greeted by a task)")
}

/// The capability a task-only tool needs: the Tasks extension.
pub fn tasks_extension() -> ClientCapabilities {
    ClientCapabilities {
        tasks: true,
        ..ClientCapabilities::default()
    }
}

fn greet(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    let name = c.arg_str("name").unwrap_or_else(|| "World".to_string());
    done(format!("Hello, {name}!"))
}

fn slow_compute(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    let (seconds, label) = compute_args(c)?;
    done(compute_text(&label, seconds))
}

/// `failing_job`, `protocol_error_job` inline: never reached (the task gate
/// answers first), and refused the same way if it were.
fn task_only(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    Err(c.demo.missing_capability(&c.req.id, &tasks_extension()))
}

fn confirm_delete(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    let filename = filename_arg(c);
    match c.form("confirm", "confirm", |v| v.as_bool())? {
        Answer::Given(yes) => done(delete_text(&filename, yes)),
        Answer::Refused(a) => refused(format!("Deletion of '{filename}' {}.", verb(a))),
        Answer::Missing => ask(
            vec![form("confirm", confirm_message(&filename), CONFIRM_SCHEMA)],
            None,
        ),
    }
}

fn multi_input(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    let mut names = Vec::new();
    let mut asks = Vec::new();
    for (key, message) in MULTI_QUESTIONS {
        match c.form_str(key, "name")? {
            Answer::Given(n) => names.push(n),
            Answer::Refused(a) => return refused(format!("multi_input: '{key}' {}.", verb(a))),
            Answer::Missing => asks.push(form(key, message, MULTI_SCHEMA)),
        }
    }
    match names.as_slice() {
        [first, second] => done(multi_text(first, second)),
        _ => ask(asks, None),
    }
}

/// Asks `user_name`; the answered call is turned into a task before it gets
/// here (see `tasks::maybe_start`), so only the question is left.
fn conf_tool_with_task(c: &Ctx<'_, '_>) -> Result<Step, Reply> {
    match c.form_str("user_name", "name")? {
        Answer::Given(name) => done(greeting_text(&name)),
        Answer::Refused(a) => refused(format!("The name question was {}.", verb(a))),
        Answer::Missing => ask(vec![ask_name("user_name", "What is your name?")], None),
    }
}

// ---- list results ------------------------------------------------------------

/// Results of the methods that never ask (`None`: unknown method, answered
/// `-32601`). `ping` is not among them: 2026-07-28 removed it (the
/// conformance suite checks that it is answered 404 / `-32601`).
pub fn listing(
    demo: &Demo,
    _req: &mrtr_core::server::ServerRequest<'_>,
    method: &str,
) -> Option<Vec<u8>> {
    // Lists are the same for every caller: public, and not worth caching
    // across a restart of the demo.
    const CACHE: &[u8] = br#","ttlMs":0,"cacheScope":"public"}"#;
    Some(match method {
        "server/discover" => emit::json(|w| {
            w.raw(br#"{"supportedVersions":["#)
                .str(PROTOCOL_VERSION)
                .raw(br#"],"capabilities":{"tools":{"listChanged":true},"prompts":{"listChanged":true},"resources":{},"extensions":{"#)
                .key(TASKS_EXTENSION)
                .raw(br#"{}}},"instructions":"#)
                .str("Demo of MCP multi round-trip requests: its tools ask for input mid-call (a few conformance fixtures complete at once).")
                .raw(br#","ttlMs":0,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"#)
                .str(demo.name())
                .raw(br#","version":"#)
                .str(VERSION)
                .raw(b"}}}");
        }),
        "tools/list" => emit::json(|w| {
            w.raw(br#"{"tools":["#);
            let mut first = true;
            for t in TOOLS {
                w.comma(&mut first)
                    .raw(br#"{"name":"#)
                    .str(t.name)
                    .raw(br#","description":"#)
                    .str(t.description)
                    .raw(br#","inputSchema":"#)
                    .raw(t.input_schema.as_bytes());
                if let Some(support) = t.task_support.wire() {
                    w.raw(br#","execution":{"taskSupport":"#)
                        .str(support)
                        .byte(b'}');
                }
                w.byte(b'}');
            }
            w.byte(b']').raw(CACHE);
        }),
        "prompts/list" => emit::json(|w| {
            w.raw(br#"{"prompts":[{"name":"team_greeting","description":"A greeting for a team; asks who it is from (form).","arguments":[{"name":"team","description":"Team name","required":false}]},{"name":"test_input_required_result_prompt","description":"Conformance: asks for context (user_context) before returning the prompt."}]"#)
                .raw(CACHE);
        }),
        "resources/list" => emit::json(|w| {
            w.raw(br#"{"resources":[]"#).raw(CACHE);
        }),
        "resources/templates/list" => emit::json(|w| {
            w.raw(br#"{"resourceTemplates":[{"uriTemplate":"notes://{topic}","name":"notes","description":"Notes on a topic; reading asks how detailed (form).","mimeType":"text/markdown"}]"#)
                .raw(CACHE);
        }),
        _ => return None,
    })
}
