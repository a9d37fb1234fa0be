//! Tasks: the Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663)
//! and, behind `--seed-tasks`, the SEP's older seed dialect.
//!
//! Task state lives in this process (a bounded table): that is what tasks
//! are for, state the server keeps while the client comes and goes. A task
//! belongs to the principal that created it; another principal (or stdio vs
//! a bearer token) sees "Unknown taskId".
//!
//! Extension: a tool listed with `execution.taskSupport` runs as a task
//! when the request declares the extension in its `clientCapabilities`
//! (`required`: only then, `-32021` otherwise). `tasks/get`, `tasks/update`
//! and `tasks/cancel` need the extension declared (`-32021`); `tasks/result`
//! and `tasks/input_response` are not part of it (`-32601`).
//!
//! Seed dialect (opt-in, [`Demo::with_seed_tasks`]): `long_export` with
//! `params.task`, answered through `tasks/get`, `tasks/result`,
//! `tasks/input_response` and `tasks/cancel` from requests that do not
//! declare the extension.
//!
//! The "background work" is simulated and evaluated when the task is looked
//! at: a task that asks is `working` when created and `input_required` by
//! the time the client first looks; once answered it is `completed`. A task
//! that only runs (`slow_compute`, `failing_job`, `protocol_error_job`) is
//! `working` until its run time has passed on the server's clock.

use mrtr_core::server::{
    format_rfc3339, write_create_task, write_detailed_task, write_input_response_ack,
    write_method_not_found, write_task_result_seed, write_task_status_seed,
    write_update_task_result, InputRequiredBuilder, Method, ServerRequest, TaskDetail, TaskInfo,
    TaskInputRequiredBuilder,
};
use mrtr_core::wire::{ClientCapabilities, ErrorCode, TaskDialect, TaskStatus};

use crate::emit;
use crate::flows::{
    self, compute_args, compute_text, confirm_message, delete_text, export_text, filename_arg,
    greeting_text, import_text, multi_text, tasks_extension, TaskSupport, CONFIRM_SCHEMA,
    EXPORT_FORMAT_SCHEMA, FAILING_JOB_TEXT, IMPORT_POLICY_SCHEMA, MULTI_QUESTIONS, MULTI_SCHEMA,
};
use crate::server::{text, Answer, Caller, Ctx, Demo, Reply};

/// Most tasks the table holds at once (expired ones are dropped first,
/// then the oldest finished ones).
pub const MAX_TASKS: usize = 1024;
/// How long a task is kept after creation, in ms (`ttl` / `ttlMs`).
pub const TASK_TTL_MS: u64 = 600_000;
/// The polling interval suggested to clients, in ms.
pub const POLL_INTERVAL_MS: u64 = 100;
/// Random bytes in a task id.
const TASK_ID_BYTES: usize = 16;
/// Seconds `failing_job` and `protocol_error_job` run before they end.
pub const JOB_SECONDS: u64 = 1;
/// The error `protocol_error_job` fails with (`-32603`).
pub const PROTOCOL_ERROR_MESSAGE: &str = "Internal error: protocol_error_job crashed";

/// Which tool a task runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Job {
    /// `long_export` (seed dialect): asks the export format.
    Export {
        /// The dataset argument.
        dataset: String,
    },
    /// `long_import` (Tasks extension): asks the conflict policy.
    Import {
        /// The source argument.
        source: String,
    },
    /// `slow_compute`: runs `seconds`, then completes.
    Compute {
        /// Run time.
        seconds: u64,
        /// The label argument.
        label: String,
    },
    /// `failing_job`: completes with a tool error after [`JOB_SECONDS`].
    Failing,
    /// `protocol_error_job`: fails with `-32603` after [`JOB_SECONDS`].
    ProtocolError,
    /// `confirm_delete`: asks `confirm`.
    ConfirmDelete {
        /// The filename argument.
        filename: String,
    },
    /// `multi_input`: asks `first` and `second` at once.
    MultiInput,
    /// `test_tool_with_task`: the name gathered inline (`None`: declined),
    /// greeted at once.
    Greeting {
        /// The answered name.
        name: Option<String>,
    },
}

/// One question a task asks.
struct Question {
    key: &'static str,
    field: &'static str,
    message: String,
    schema: &'static str,
}

impl Job {
    /// Every question the job asks, in order.
    fn questions(&self) -> Vec<Question> {
        let q = |key, field, message, schema| Question {
            key,
            field,
            message,
            schema,
        };
        match self {
            Job::Export { dataset } => vec![q(
                "format",
                "format",
                format!("Export '{dataset}' in which format?"),
                EXPORT_FORMAT_SCHEMA,
            )],
            Job::Import { source } => vec![q(
                "policy",
                "policy",
                format!("Some rows of '{source}' already exist. Skip or overwrite them?"),
                IMPORT_POLICY_SCHEMA,
            )],
            Job::ConfirmDelete { filename } => vec![q(
                "confirm",
                "confirm",
                confirm_message(filename),
                CONFIRM_SCHEMA,
            )],
            Job::MultiInput => MULTI_QUESTIONS
                .iter()
                .map(|(key, message)| q(key, "name", (*message).to_string(), MULTI_SCHEMA))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Seconds after creation a job that asks nothing ends (`None`: it asks).
    fn run_seconds(&self) -> Option<u64> {
        match self {
            Job::Compute { seconds, .. } => Some(*seconds),
            Job::Failing | Job::ProtocolError => Some(JOB_SECONDS),
            Job::Greeting { .. } => Some(0),
            _ => None,
        }
    }

    fn accepts(&self, value: &str) -> bool {
        match self {
            Job::Export { .. } => ["csv", "json", "parquet"].contains(&value),
            Job::Import { .. } => ["skip", "overwrite"].contains(&value),
            Job::ConfirmDelete { .. } => ["true", "false"].contains(&value),
            _ => !value.is_empty(),
        }
    }

    /// The result text once every question is answered (`answers` in
    /// question order).
    fn outcome(&self, answers: &[(String, String)]) -> String {
        let value = |i: usize| answers.get(i).map(|(_, v)| v.as_str()).unwrap_or_default();
        match self {
            Job::Export { dataset } => export_text(dataset, value(0)),
            Job::Import { source } => import_text(source, value(0)),
            Job::ConfirmDelete { filename } => delete_text(filename, value(0) == "true"),
            Job::MultiInput => multi_text(value(0), value(1)),
            Job::Compute { seconds, label } => compute_text(label, *seconds),
            Job::Failing => FAILING_JOB_TEXT.to_string(),
            Job::Greeting { name: Some(n) } => greeting_text(n),
            Job::Greeting { name: None } => "The name question was declined.".to_string(),
            Job::ProtocolError => String::new(),
        }
    }
}

/// One task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task {
    /// The id.
    pub id: String,
    /// The dialect it was created in (its methods answer only in it).
    pub dialect: TaskDialect,
    /// What it runs.
    pub job: Job,
    /// Its status.
    pub status: TaskStatus,
    /// Creation time, unix seconds.
    pub created: u64,
    /// Last status change, unix seconds.
    pub updated: u64,
    /// The creator.
    pub principal: Option<[u8; 32]>,
    /// What the creating request declared (used when a later task request
    /// declares nothing).
    pub caps: ClientCapabilities,
    /// The final result object, once completed.
    pub result: Option<Vec<u8>>,
    /// The error (code, message), once failed.
    pub error: Option<(i64, String)>,
    /// Answers received so far: (question key, value), in question order.
    pub answers: Vec<(String, String)>,
}

impl Task {
    fn expired(&self, now: u64) -> bool {
        now > self.created.saturating_add(TASK_TTL_MS / 1000)
    }

    fn terminal(&self) -> bool {
        matches!(
            self.status,
            TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled
        )
    }
}

/// The task table.
#[derive(Debug, Default)]
pub struct TaskStore {
    tasks: Vec<Task>,
}

impl TaskStore {
    /// Number of live entries (expired ones included until the next insert).
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// Adds a task, dropping expired then the oldest finished tasks when
    /// full. `false`: the table is full of live, unfinished tasks.
    pub fn insert(&mut self, task: Task, now: u64) -> bool {
        self.tasks.retain(|t| !t.expired(now));
        if self.tasks.len() >= MAX_TASKS {
            if let Some(i) = self.tasks.iter().position(Task::terminal) {
                self.tasks.remove(i);
            }
        }
        if self.tasks.len() >= MAX_TASKS {
            return false;
        }
        self.tasks.push(task);
        true
    }

    /// The live task `id` of `principal`.
    pub fn find(&mut self, id: &str, principal: Option<[u8; 32]>, now: u64) -> Option<&mut Task> {
        self.tasks
            .iter_mut()
            .find(|t| t.id == id && t.principal == principal && !t.expired(now))
    }
}

fn seconds_text(secs: u64) -> String {
    let mut buf = [0u8; 20];
    format_rfc3339(secs, &mut buf)
        .unwrap_or("1970-01-01T00:00:00Z")
        .to_string()
}

/// Starts a task when the request asks for one: a tool with task support
/// from a request that declares the Tasks extension (a `required` tool
/// without it: `-32021`), or `long_export` with `params.task` when the seed
/// dialect is enabled. `None`: run the tool inline.
pub fn maybe_start(demo: &Demo, req: &ServerRequest<'_>, caller: &Caller) -> Option<Reply> {
    if req.method != Method::ToolsCall {
        return None;
    }
    let ctx = Ctx {
        demo,
        req,
        state: None,
    };
    let name = req.name.map(|n| text(&n)).unwrap_or_default();
    let caps = req.client_capabilities();
    if name == "long_export" && req.task.is_some() && demo.seed_tasks() && !caps.tasks {
        let dataset = ctx
            .arg_str("dataset")
            .unwrap_or_else(|| "customers".to_string());
        return Some(create(
            &ctx,
            caller,
            TaskDialect::Seed,
            Job::Export { dataset },
        ));
    }
    let tool = flows::TOOLS.iter().find(|t| t.name == name)?;
    match (tool.task_support, caps.tasks) {
        (TaskSupport::Required, false) => {
            return Some(demo.missing_capability(&req.id, &tasks_extension()))
        }
        (TaskSupport::Forbidden, _) | (TaskSupport::Optional, false) => return None,
        _ => {}
    }
    let job = match name.as_str() {
        "long_import" => Job::Import {
            source: ctx
                .arg_str("source")
                .unwrap_or_else(|| "orders.csv".to_string()),
        },
        "slow_compute" => match compute_args(&ctx) {
            Ok((seconds, label)) => Job::Compute { seconds, label },
            Err(reply) => return Some(reply),
        },
        "failing_job" => Job::Failing,
        "protocol_error_job" => Job::ProtocolError,
        "confirm_delete" => Job::ConfirmDelete {
            filename: filename_arg(&ctx),
        },
        "multi_input" => Job::MultiInput,
        // Gathers the name inline (MRTR), then escalates to a task.
        "test_tool_with_task" => match ctx.form_str("user_name", "name") {
            Err(reply) => return Some(reply),
            Ok(Answer::Given(n)) => Job::Greeting { name: Some(n) },
            Ok(Answer::Refused(_)) => Job::Greeting { name: None },
            Ok(Answer::Missing) => return None,
        },
        _ => return None,
    };
    Some(create(&ctx, caller, TaskDialect::Extension, job))
}

/// Creates and stores a `working` task, answers its `CreateTaskResult`.
fn create(ctx: &Ctx<'_, '_>, caller: &Caller, dialect: TaskDialect, job: Job) -> Reply {
    let (demo, req) = (ctx.demo, ctx.req);
    let now = demo.now();
    let task = Task {
        id: format!("task-{}", ctx.random_hex(TASK_ID_BYTES)),
        dialect,
        job,
        status: TaskStatus::Working,
        created: now,
        updated: now,
        principal: caller.principal,
        caps: req.client_capabilities(),
        result: None,
        error: None,
        answers: Vec::new(),
    };
    let stamp = seconds_text(now);
    let info = TaskInfo {
        task_id: &task.id,
        status: TaskStatus::Working,
        status_message: Some("Task started"),
        created_at: &stamp,
        last_updated_at: &stamp,
        ttl_ms: Some(TASK_TTL_MS),
        poll_interval_ms: Some(POLL_INTERVAL_MS),
    };
    let body = emit::grow(|b| write_create_task(b, &req.id, dialect, &info));
    let summary = format!("task {} created ({dialect:?})", task.id);
    // Stored before the answer leaves: a tasks/get right after it resolves.
    let stored = lock(demo).insert(task, now);
    if !stored {
        return demo.internal_error(&req.id, "task table full");
    }
    match body {
        Ok(body) => Reply {
            body,
            error: None,
            summary,
            listen: None,
        },
        Err(e) => demo.internal_error(&req.id, &e.to_string()),
    }
}

fn lock(demo: &Demo) -> std::sync::MutexGuard<'_, TaskStore> {
    // A poisoned lock only means another request panicked mid-update; the
    // table itself is still a valid Vec.
    demo.tasks
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn method_not_found(req: &ServerRequest<'_>) -> Reply {
    let body = emit::grow(|b| write_method_not_found(b, &req.id)).unwrap_or_default();
    Reply {
        body,
        error: Some(ErrorCode::MethodNotFound.code()),
        summary: "method not found".to_string(),
        listen: None,
    }
}

/// `tasks/get`, `tasks/update`, `tasks/cancel` (Tasks extension);
/// `tasks/result`, `tasks/input_response` (seed dialect, when enabled).
pub fn handle(demo: &Demo, req: &ServerRequest<'_>, caller: &Caller) -> Reply {
    let ctx = Ctx {
        demo,
        req,
        state: None,
    };
    // Which surface the request is on: the extension when it declares it,
    // else the seed dialect when enabled, else none.
    let extension = req.client_capabilities().tasks;
    let seed = demo.seed_tasks() && !extension;
    match req.method {
        Method::TasksResult | Method::TasksInputResponse if !seed => {
            // Not methods of the Tasks extension (the result is inlined on
            // tasks/get, answers go in tasks/update).
            return method_not_found(req);
        }
        Method::TasksGet | Method::TasksCancel | Method::TasksUpdate if !extension && !seed => {
            return demo.missing_capability(&req.id, &tasks_extension());
        }
        Method::TasksUpdate if !extension => {
            return demo.missing_capability(&req.id, &tasks_extension());
        }
        _ => {}
    }
    if req.request_state.is_some() {
        // The demo mints no requestState for tasks, so none can verify.
        eprintln!(
            "[{}] requestState rejected on a task method: never minted for tasks",
            demo.name()
        );
        let body = emit::grow(|b| mrtr_core::server::write_invalid_request_state(b, &req.id))
            .unwrap_or_default();
        return Reply {
            body,
            error: Some(ErrorCode::InvalidParams.code()),
            summary: "invalid requestState (task method)".to_string(),
            listen: None,
        };
    }
    let id = req.task_id.map(|t| text(&t)).unwrap_or_default();
    let now = demo.now();
    let mut store = lock(demo);
    let Some(task) = store.find(&id, caller.principal, now) else {
        return ctx.invalid(&format!("Unknown taskId: {id}"));
    };
    if task.dialect == TaskDialect::Extension && !extension {
        // A seed-dialect request about an extension task.
        if req.method == Method::TasksGet || req.method == Method::TasksCancel {
            return demo.missing_capability(&req.id, &tasks_extension());
        }
    }
    let wanted = match req.method {
        Method::TasksResult | Method::TasksInputResponse => Some(TaskDialect::Seed),
        Method::TasksUpdate => Some(TaskDialect::Extension),
        _ => None,
    };
    if wanted.is_some_and(|d| d != task.dialect) {
        return ctx.invalid(&format!(
            "Task {id} was created in the other task dialect; {} does not apply to it",
            crate::state::method_name(req)
        ));
    }
    advance(task, now);
    match req.method {
        Method::TasksInputResponse | Method::TasksUpdate => match answer(&ctx, task, now) {
            Err(reply) => reply,
            Ok(()) => {
                let body = if req.method == Method::TasksUpdate {
                    emit::grow(|b| write_update_task_result(b, &req.id))
                } else {
                    emit::grow(|b| write_input_response_ack(b, &req.id, &task.id))
                };
                finish_write(
                    demo,
                    req,
                    body,
                    format!("task {id} answered: {}", task.status.as_str()),
                )
            }
        },
        Method::TasksCancel => {
            if !task.terminal() {
                task.status = TaskStatus::Cancelled;
                task.updated = now;
            }
            let body = match task.dialect {
                TaskDialect::Seed => with_info(task, |info| {
                    emit::grow(|b| write_task_status_seed(b, &req.id, info))
                }),
                TaskDialect::Extension => emit::grow(|b| write_update_task_result(b, &req.id)),
            };
            finish_write(
                demo,
                req,
                body,
                format!("task {id} cancel: {}", task.status.as_str()),
            )
        }
        Method::TasksResult => result_seed(demo, &ctx, task),
        _ => get(demo, req, task),
    }
}

/// Moves the simulated work on to `now`: a task that asks reaches its
/// questions when first looked at; a task that only runs ends once its run
/// time has passed (stamped with the time it ended).
fn advance(task: &mut Task, now: u64) {
    if task.terminal() {
        return;
    }
    match task.job.run_seconds() {
        None => {
            if task.status == TaskStatus::Working {
                task.status = TaskStatus::InputRequired;
                task.updated = now;
            }
        }
        Some(secs) => {
            let end = task.created.saturating_add(secs);
            if now < end {
                return;
            }
            task.updated = end;
            if task.job == Job::ProtocolError {
                task.status = TaskStatus::Failed;
                task.error = Some((
                    i64::from(ErrorCode::InternalError.code()),
                    PROTOCOL_ERROR_MESSAGE.to_string(),
                ));
                return;
            }
            let is_error = matches!(task.job, Job::Failing | Job::Greeting { name: None });
            let text = task.job.outcome(&[]);
            task.result = Some(result_object(&text, is_error));
            task.status = TaskStatus::Completed;
        }
    }
}

fn finish_write(
    demo: &Demo,
    req: &ServerRequest<'_>,
    body: Result<Vec<u8>, mrtr_core::server::TaskWriteError>,
    summary: String,
) -> Reply {
    match body {
        Ok(body) => Reply {
            body,
            error: None,
            summary,
            listen: None,
        },
        Err(e) => demo.internal_error(&req.id, &e.to_string()),
    }
}

fn with_info<T>(task: &Task, f: impl FnOnce(&TaskInfo<'_>) -> T) -> T {
    let created = seconds_text(task.created);
    let updated = seconds_text(task.updated);
    let message = match task.status {
        TaskStatus::Working => "Task started",
        TaskStatus::InputRequired => "Waiting for input",
        TaskStatus::Completed => "Task completed",
        TaskStatus::Failed => "Task failed",
        TaskStatus::Cancelled => "Task cancelled",
    };
    f(&TaskInfo {
        task_id: &task.id,
        status: task.status,
        status_message: Some(message),
        created_at: &created,
        last_updated_at: &updated,
        ttl_ms: Some(TASK_TTL_MS),
        poll_interval_ms: Some(POLL_INTERVAL_MS),
    })
}

/// The questions of `task` not answered yet.
fn pending(task: &Task) -> Vec<Question> {
    task.job
        .questions()
        .into_iter()
        .filter(|q| !task.answers.iter().any(|(k, _)| k == q.key))
        .collect()
}

/// A form answer as text: a string as is, a boolean as `true` / `false`.
fn scalar(v: mrtr_core::json::Value<'_>) -> Option<String> {
    v.as_str()
        .map(|s| text(&s))
        .or_else(|| v.as_bool().map(|b| b.to_string()))
}

/// Reads the task's pending answers from `inputResponses`: keeps each usable
/// one (a partial answer leaves the task waiting on the rest), completes the
/// task once every question is answered; an absent or unusable answer leaves
/// its question pending (the next look asks again).
fn answer(ctx: &Ctx<'_, '_>, task: &mut Task, now: u64) -> Result<(), Reply> {
    if task.status != TaskStatus::InputRequired {
        // Answers to a task that asks nothing are ignored, like extra keys.
        return Ok(());
    }
    let mut received = Vec::new();
    for q in pending(task) {
        match ctx.form(q.key, q.field, scalar)? {
            Answer::Given(v) if task.job.accepts(&v) => received.push((q.key.to_string(), v)),
            Answer::Refused(a) => {
                let verb = if a == mrtr_core::wire::ElicitAction::Decline {
                    "declined"
                } else {
                    "cancelled"
                };
                task.result = Some(result_object(
                    &format!("The task's question was {verb}; nothing was done."),
                    true,
                ));
                task.status = TaskStatus::Completed;
                task.updated = now;
                return Ok(());
            }
            _ => {}
        }
    }
    if received.is_empty() {
        return Ok(());
    }
    task.answers.extend(received);
    task.updated = now;
    if pending(task).is_empty() {
        // In question order, whatever order the answers came in.
        let order = task.job.questions();
        task.answers
            .sort_by_key(|(k, _)| order.iter().position(|q| q.key == k.as_str()));
        let text = task.job.outcome(&task.answers);
        task.result = Some(result_object(&text, false));
        task.status = TaskStatus::Completed;
    }
    Ok(())
}

/// The tool result the task ends with, as the app has it: the core's task
/// writers add `resultType` (and, for `tasks/result` of the seed dialect,
/// the related task in `_meta`) when they write it.
fn result_object(text: &str, is_error: bool) -> Vec<u8> {
    emit::json(|w| {
        w.raw(br#"{"content":[{"type":"text","text":"#)
            .str(text)
            .raw(br#"}],"isError":"#)
            .raw(if is_error { b"true" } else { b"false" })
            .byte(b'}');
    })
}

fn caps_for(req: &ServerRequest<'_>, task: &Task) -> ClientCapabilities {
    match req.meta.and_then(|m| m.client_capabilities) {
        Some(c) => c,
        None => task.caps,
    }
}

/// `tasks/get`, in the task's dialect.
fn get(demo: &Demo, req: &ServerRequest<'_>, task: &Task) -> Reply {
    let summary = format!("task {}: {}", task.id, task.status.as_str());
    let body = match (task.dialect, task.status) {
        (TaskDialect::Seed, _) => with_info(task, |info| {
            emit::grow(|b| write_task_status_seed(b, &req.id, info))
        }),
        (TaskDialect::Extension, TaskStatus::InputRequired) => {
            let questions = pending(task);
            let caps = caps_for(req, task);
            let built = with_info(task, |info| {
                emit::grow(|b| {
                    let mut t = TaskInputRequiredBuilder::new(b, &req.id, info, &caps)?;
                    for q in &questions {
                        t.elicit_form(q.key, &q.message, q.schema.as_bytes())?;
                    }
                    t.finish()
                })
            });
            let keys: Vec<&str> = questions.iter().map(|q| q.key).collect();
            return match built {
                Ok(body) => Reply {
                    body,
                    error: None,
                    summary: format!("{summary} [{}]", keys.join(", ")),
                    listen: None,
                },
                Err(mrtr_core::server::BuildError::MissingCapability { missing }) => {
                    demo.missing_capability(&req.id, &missing)
                }
                Err(e) => demo.internal_error(&req.id, &e.to_string()),
            };
        }
        (TaskDialect::Extension, TaskStatus::Completed) => {
            let result = task.result.clone().unwrap_or_default();
            with_info(task, |info| {
                emit::grow(|b| write_detailed_task(b, &req.id, info, TaskDetail::Result(&result)))
            })
        }
        (TaskDialect::Extension, TaskStatus::Failed) => {
            let (code, message) = task.error.clone().unwrap_or_default();
            with_info(task, |info| {
                emit::grow(|b| {
                    write_detailed_task(
                        b,
                        &req.id,
                        info,
                        TaskDetail::Error {
                            code,
                            message: &message,
                            data: None,
                        },
                    )
                })
            })
        }
        (TaskDialect::Extension, _) => with_info(task, |info| {
            emit::grow(|b| write_detailed_task(b, &req.id, info, TaskDetail::None))
        }),
    };
    finish_write(demo, req, body, summary)
}

/// `tasks/result` (seed dialect): the questions while waiting, the final
/// result once completed.
fn result_seed(demo: &Demo, ctx: &Ctx<'_, '_>, task: &Task) -> Reply {
    let req = ctx.req;
    match task.status {
        TaskStatus::Completed => {
            let result = task.result.clone().unwrap_or_default();
            let body = emit::grow(|b| write_task_result_seed(b, &req.id, &task.id, &result));
            finish_write(demo, req, body, format!("task {} result", task.id))
        }
        TaskStatus::InputRequired => {
            let questions = pending(task);
            let caps = caps_for(req, task);
            let built = emit::grow(|b| {
                let mut ir = InputRequiredBuilder::new(b, &req.id, &caps);
                for q in &questions {
                    ir.elicit_form(q.key, &q.message, q.schema.as_bytes())?;
                }
                ir.related_task(&task.id);
                ir.finish()
            });
            let keys: Vec<&str> = questions.iter().map(|q| q.key).collect();
            match built {
                Ok(body) => Reply {
                    body,
                    error: None,
                    summary: format!("task {} input_required [{}]", task.id, keys.join(", ")),
                    listen: None,
                },
                Err(mrtr_core::server::BuildError::MissingCapability { missing }) => {
                    demo.missing_capability(&req.id, &missing)
                }
                Err(e) => demo.internal_error(&req.id, &e.to_string()),
            }
        }
        _ => ctx.invalid(&format!(
            "Task {} has no result: it is {}",
            task.id,
            task.status.as_str()
        )),
    }
}
