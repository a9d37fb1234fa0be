//! The two task tools, one per task dialect, and the task methods.
//!
//! Task state lives in this process (a bounded table): that is what tasks
//! are for, state the server keeps while the client comes and goes. A task
//! belongs to the principal that created it; another principal (or stdio vs
//! a bearer token) sees "Unknown taskId".
//!
//! The "background work" is instantaneous: a task is `working` when created
//! and `input_required` by the time the client first looks at it (it needs
//! one answer); once answered it is `completed`.

use mrtr_core::server::{
    format_rfc3339, write_create_task, write_detailed_task, write_input_response_ack,
    write_task_status_seed, write_update_task_result, InputRequiredBuilder, Method, ServerRequest,
    TaskDetail, TaskInfo, TaskInputRequiredBuilder,
};
use mrtr_core::wire::task::META_RELATED_TASK;
use mrtr_core::wire::{ClientCapabilities, ErrorCode, TaskDialect, TaskStatus};

use crate::emit;
use crate::flows::{export_text, import_text, EXPORT_FORMAT_SCHEMA, IMPORT_POLICY_SCHEMA};
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
}

impl Job {
    fn question(&self) -> (&'static str, &'static str, String, &'static str) {
        match self {
            Job::Export { dataset } => (
                "format",
                "format",
                format!("Export '{dataset}' in which format?"),
                EXPORT_FORMAT_SCHEMA,
            ),
            Job::Import { source } => (
                "policy",
                "policy",
                format!("Some rows of '{source}' already exist. Skip or overwrite them?"),
                IMPORT_POLICY_SCHEMA,
            ),
        }
    }

    fn accepts(&self, value: &str) -> bool {
        match self {
            Job::Export { .. } => ["csv", "json", "parquet"].contains(&value),
            Job::Import { .. } => ["skip", "overwrite"].contains(&value),
        }
    }

    fn outcome(&self, value: &str) -> String {
        match self {
            Job::Export { dataset } => export_text(dataset, value),
            Job::Import { source } => import_text(source, value),
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

/// Starts a task when the request asks for one: `long_export` with
/// `params.task` (seed dialect), `long_import` from a client that declared
/// the Tasks extension. `None`: run the tool inline.
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
    let (dialect, job) = match name.as_str() {
        "long_export" if req.task.is_some() => (
            TaskDialect::Seed,
            Job::Export {
                dataset: ctx
                    .arg_str("dataset")
                    .unwrap_or_else(|| "customers".to_string()),
            },
        ),
        "long_import" if caps.tasks => (
            TaskDialect::Extension,
            Job::Import {
                source: ctx
                    .arg_str("source")
                    .unwrap_or_else(|| "orders.csv".to_string()),
            },
        ),
        _ => return None,
    };
    let now = demo.now();
    let task = Task {
        id: format!("task-{}", ctx.random_hex(TASK_ID_BYTES)),
        dialect,
        job,
        status: TaskStatus::Working,
        created: now,
        updated: now,
        principal: caller.principal,
        caps,
        result: None,
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
    let stored = lock(demo).insert(task, now);
    if !stored {
        return Some(demo.internal_error(&req.id, "task table full"));
    }
    Some(match body {
        Ok(body) => Reply {
            body,
            error: None,
            summary,
        },
        Err(e) => demo.internal_error(&req.id, &e.to_string()),
    })
}

fn lock(demo: &Demo) -> std::sync::MutexGuard<'_, TaskStore> {
    // A poisoned lock only means another request panicked mid-update; the
    // table itself is still a valid Vec.
    demo.tasks
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// `tasks/get`, `tasks/result`, `tasks/input_response`, `tasks/update`,
/// `tasks/cancel`.
pub fn handle(demo: &Demo, req: &ServerRequest<'_>, caller: &Caller) -> Reply {
    let ctx = Ctx {
        demo,
        req,
        state: None,
    };
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
        };
    }
    let id = req.task_id.map(|t| text(&t)).unwrap_or_default();
    let now = demo.now();
    let mut store = lock(demo);
    let Some(task) = store.find(&id, caller.principal, now) else {
        return ctx.invalid(&format!("Unknown taskId: {id}"));
    };
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
    // The client looked: the instantaneous "work" has reached its question.
    if task.status == TaskStatus::Working {
        task.status = TaskStatus::InputRequired;
        task.updated = now;
    }
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

/// Reads the task's answer from `inputResponses`: completes the task when
/// it is usable, leaves it waiting when absent (the next look asks again).
fn answer(ctx: &Ctx<'_, '_>, task: &mut Task, now: u64) -> Result<(), Reply> {
    if task.status != TaskStatus::InputRequired {
        // Answers to a task that asks nothing are ignored, like extra keys.
        return Ok(());
    }
    let (key, field, _, _) = task.job.question();
    let text = match ctx.form_str(key, field)? {
        Answer::Given(v) if task.job.accepts(&v) => task.job.outcome(&v),
        Answer::Refused(a) => {
            let verb = if a == mrtr_core::wire::ElicitAction::Decline {
                "declined"
            } else {
                "cancelled"
            };
            task.result = Some(result_object(
                task,
                &format!("The task's question was {verb}; nothing was done."),
                true,
            ));
            task.status = TaskStatus::Completed;
            task.updated = now;
            return Ok(());
        }
        _ => return Ok(()),
    };
    task.result = Some(result_object(task, &text, false));
    task.status = TaskStatus::Completed;
    task.updated = now;
    Ok(())
}

/// The tool result; in the seed dialect it names its task in `_meta`.
fn result_object(task: &Task, text: &str, is_error: bool) -> Vec<u8> {
    emit::json(|w| {
        w.raw(br#"{"content":[{"type":"text","text":"#)
            .str(text)
            .raw(br#"}],"isError":"#)
            .raw(if is_error { b"true" } else { b"false" });
        if task.dialect == TaskDialect::Seed {
            w.raw(br#","_meta":{"#)
                .key(META_RELATED_TASK)
                .raw(br#"{"taskId":"#)
                .str(&task.id)
                .raw(b"}}");
        }
        w.byte(b'}');
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
            let (key, _, message, schema) = task.job.question();
            let caps = caps_for(req, task);
            let built = with_info(task, |info| {
                emit::grow(|b| {
                    let mut t = TaskInputRequiredBuilder::new(b, &req.id, info, &caps)?;
                    t.elicit_form(key, &message, schema.as_bytes())?;
                    t.finish()
                })
            });
            return match built {
                Ok(body) => Reply {
                    body,
                    error: None,
                    summary: format!("{summary} [{key}]"),
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
        (TaskDialect::Extension, _) => with_info(task, |info| {
            emit::grow(|b| write_detailed_task(b, &req.id, info, TaskDetail::None))
        }),
    };
    finish_write(demo, req, body, summary)
}

/// `tasks/result` (seed dialect): the question while waiting, the final
/// result once completed.
fn result_seed(demo: &Demo, ctx: &Ctx<'_, '_>, task: &Task) -> Reply {
    let req = ctx.req;
    match task.status {
        TaskStatus::Completed => {
            let result = task.result.clone().unwrap_or_default();
            demo.complete(req, &result, &format!("task {} result", task.id))
        }
        TaskStatus::InputRequired => {
            let (key, _, message, schema) = task.job.question();
            let caps = caps_for(req, task);
            let built = emit::grow(|b| {
                let mut ir = InputRequiredBuilder::new(b, &req.id, &caps);
                ir.elicit_form(key, &message, schema.as_bytes())?;
                ir.related_task(&task.id);
                ir.finish()
            });
            match built {
                Ok(body) => Reply {
                    body,
                    error: None,
                    summary: format!("task {} input_required [{key}]", task.id),
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
