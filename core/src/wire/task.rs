//! Tasks: the status record both task dialects share, read from spans the
//! JSON reader has already validated.
//!
//! Two dialects exist and the caller picks one:
//! - [`TaskDialect::Seed`]: the SEP draft and the 2025-11-25 Tasks utility. A
//!   task-augmented request is answered with `{"task": {..}}`; `tasks/get`
//!   returns the task record; `tasks/result` carries `inputRequests` (and an
//!   optional `requestState`) while the task waits for input and the final
//!   result once it is done; answers go in `tasks/input_response`. The poll
//!   hint is `pollInterval` (milliseconds).
//! - [`TaskDialect::Extension`]: the Tasks extension
//!   (`io.modelcontextprotocol/tasks`). A request is answered with a flat
//!   `CreateTaskResult` (`resultType: "task"`); `tasks/get` returns a
//!   `DetailedTask` whose `input_required` form carries `inputRequests`, whose
//!   `completed` form carries `result` and whose `failed` form carries
//!   `error`; answers go in `tasks/update`. The poll hint is `pollIntervalMs`.
//!
//! Why not serde-json-core here: task ids may contain escapes, which it can
//! only decode into a scratch buffer, while a client must echo the id; and
//! the three fields read here are one `get_unique` each on our reader.

use super::error::Violation;
use crate::json::{JsonStr, Object, Value};

/// `_meta` key that ties a request to a task (seed dialect,
/// `tasks/input_response`).
pub const META_RELATED_TASK: &str = super::c_text(c"io.modelcontextprotocol/related-task");

/// Which task protocol a client speaks with a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum TaskDialect {
    /// The SEP draft / 2025-11-25 flow: `tasks/result` + `tasks/input_response`.
    Seed = 1,
    /// The Tasks extension: `inputRequests` on `tasks/get`, `tasks/update`.
    Extension = 2,
}

/// The status of a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum TaskStatus {
    /// The server is working on it.
    Working = 1,
    /// The server waits for input from the client.
    InputRequired = 2,
    /// Finished with a result.
    Completed = 3,
    /// Finished with an error.
    Failed = 4,
    /// Cancelled before it finished.
    Cancelled = 5,
}

impl TaskStatus {
    /// The wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Working => "working",
            TaskStatus::InputRequired => "input_required",
            TaskStatus::Completed => "completed",
            TaskStatus::Failed => "failed",
            TaskStatus::Cancelled => "cancelled",
        }
    }

    /// Parses a status. The extension's schema fixes lowercase constants;
    /// the seed dialect is matched ignoring ASCII case because the SEP's own
    /// worked example spells `"Working"` and `"Completed"` (an enum compared
    /// case-insensitively admits nothing new).
    pub fn parse(s: &JsonStr<'_>, dialect: TaskDialect) -> Option<Self> {
        const ALL: [TaskStatus; 5] = [
            TaskStatus::Working,
            TaskStatus::InputRequired,
            TaskStatus::Completed,
            TaskStatus::Failed,
            TaskStatus::Cancelled,
        ];
        ALL.into_iter().find(|st| match dialect {
            TaskDialect::Extension => s.eq_str(st.as_str()),
            TaskDialect::Seed => s
                .chars()
                .map(|c| c.to_ascii_lowercase())
                .eq(st.as_str().chars()),
        })
    }

    /// Whether the task can no longer change.
    pub const fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled
        )
    }
}

/// The fields of a task record a client acts on. Other members (`createdAt`,
/// `ttl`, ...) are not checked: the client does not use them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskRecord<'a> {
    /// The server-assigned id, as its token (escapes preserved).
    pub task_id: JsonStr<'a>,
    /// The status.
    pub status: TaskStatus,
    /// The server's polling hint in milliseconds (`pollInterval` in the seed
    /// dialect, `pollIntervalMs` in the extension); negative values read as 0.
    pub poll_interval_ms: Option<u64>,
    /// `statusMessage`, when present.
    pub status_message: Option<JsonStr<'a>>,
}

impl<'a> TaskRecord<'a> {
    /// Reads a task record (the object holding `taskId` and `status`).
    // One copy: the call's created-task check and the task's poll share it.
    #[inline(never)]
    pub fn parse(obj: Object<'a>, dialect: TaskDialect) -> Result<Self, Violation> {
        let poll_key = match dialect {
            TaskDialect::Seed => "pollInterval",
            TaskDialect::Extension => "pollIntervalMs",
        };
        // One walk of the record for the four members, read through
        // references and judged in this order.
        let [task_id, status, poll, message] =
            &obj.get_unique_many(["taskId", "status", poll_key, "statusMessage"]);
        let task_id = Violation::BadTask
            .or_if_repeated(task_id)?
            .and_then(|v| v.as_str())
            .ok_or(Violation::BadTask)?;
        let status = Violation::BadTask
            .or_if_repeated(status)?
            .and_then(|v| v.as_str())
            .ok_or(Violation::BadTask)?;
        let status = TaskStatus::parse(&status, dialect).ok_or(Violation::UnknownTaskStatus)?;
        let poll_interval_ms = match Violation::BadTask.or_if_repeated(poll)? {
            None => None,
            Some(v) if v.is_null() => None,
            Some(v) => {
                let ms = v.as_i64().ok_or(Violation::BadTask)?;
                Some(u64::try_from(ms).unwrap_or(0))
            }
        };
        let status_message = match Violation::BadTask.or_if_repeated(message)? {
            None => None,
            Some(v) => Some(v.as_str().ok_or(Violation::BadTask)?),
        };
        Ok(TaskRecord {
            task_id,
            status,
            poll_interval_ms,
            status_message,
        })
    }
}

/// Reads the task a task-augmented request created.
///
/// Extension: `result` is a `CreateTaskResult` (the caller has checked
/// `resultType: "task"`), the record is the result itself. Seed: the record
/// is `result.task`; `Ok(None)` when there is no `task` member (the server
/// chose to answer directly).
pub fn created_task<'a>(
    result: Object<'a>,
    dialect: TaskDialect,
) -> Result<Option<TaskRecord<'a>>, Violation> {
    match dialect {
        TaskDialect::Extension => TaskRecord::parse(result, dialect).map(Some),
        TaskDialect::Seed => match result.get_unique("task").map_err(|_| Violation::BadTask)? {
            None => Ok(None),
            Some(t) => {
                let t = t.as_object().ok_or(Violation::BadTask)?;
                TaskRecord::parse(t, dialect).map(Some)
            }
        },
    }
}

/// The `error` of a failed task (extension): a JSON-RPC error object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskError<'a> {
    /// The error code.
    pub code: i64,
    /// The error message.
    pub message: JsonStr<'a>,
    /// Optional error data.
    pub data: Option<Value<'a>>,
}

impl<'a> TaskError<'a> {
    /// Reads an error object `{code, message, data?}`.
    pub fn parse(v: Value<'a>) -> Result<Self, Violation> {
        let obj = v.as_object().ok_or(Violation::BadTask)?;
        // One walk for the three members; every fault is the same error,
        // so a repeated one is refused at once for all three.
        let [Ok(code), Ok(message), Ok(data)] = obj.get_unique_many(["code", "message", "data"])
        else {
            return Err(Violation::BadTask);
        };
        match (
            code.and_then(|c| c.as_i64()),
            message.and_then(|m| m.as_str()),
        ) {
            (Some(code), Some(message)) => Ok(TaskError {
                code,
                message,
                data,
            }),
            _ => Err(Violation::BadTask),
        }
    }
}

impl core::fmt::Display for TaskError<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "task failed with error {}: ", self.code)?;
        self.message.write_chars(f)
    }
}

impl core::error::Error for TaskError<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn obj(s: &str) -> Object<'_> {
        json::parse(s.as_bytes()).unwrap().as_object().unwrap()
    }

    #[test]
    fn status_case_is_ignored_only_in_the_seed_dialect() {
        let s = json::parse(br#""Input_Required""#)
            .unwrap()
            .as_str()
            .unwrap();
        assert_eq!(
            TaskStatus::parse(&s, TaskDialect::Seed),
            Some(TaskStatus::InputRequired)
        );
        assert_eq!(TaskStatus::parse(&s, TaskDialect::Extension), None);
        let s = json::parse(br#""w\u006frking""#).unwrap().as_str().unwrap();
        assert_eq!(
            TaskStatus::parse(&s, TaskDialect::Extension),
            Some(TaskStatus::Working)
        );
        let s = json::parse(br#""workingx""#).unwrap().as_str().unwrap();
        assert_eq!(TaskStatus::parse(&s, TaskDialect::Seed), None);
    }

    #[test]
    fn a_task_record_needs_an_id_and_a_known_status() {
        let r = TaskRecord::parse(
            obj(r#"{"taskId":"t","status":"failed","pollIntervalMs":-3,"statusMessage":"x"}"#),
            TaskDialect::Extension,
        )
        .unwrap();
        assert_eq!(r.task_id.raw_token(), br#""t""#);
        assert_eq!(r.status, TaskStatus::Failed);
        assert!(r.status.is_terminal());
        assert_eq!(r.poll_interval_ms, Some(0));
        assert!(r.status_message.unwrap().eq_str("x"));
        let e = |s| TaskRecord::parse(obj(s), TaskDialect::Seed).map(|_| ());
        assert_eq!(e(r#"{"status":"working"}"#), Err(Violation::BadTask));
        assert_eq!(
            e(r#"{"taskId":1,"status":"working"}"#),
            Err(Violation::BadTask)
        );
        assert_eq!(
            e(r#"{"taskId":"t","status":"done"}"#),
            Err(Violation::UnknownTaskStatus)
        );
        assert_eq!(
            e(r#"{"taskId":"t","taskId":"u","status":"working"}"#),
            Err(Violation::BadTask)
        );
        assert_eq!(
            e(r#"{"taskId":"t","status":"working","pollInterval":1.5}"#),
            Err(Violation::BadTask)
        );
        assert_eq!(
            e(r#"{"taskId":"t","status":"working","pollInterval":null}"#),
            Ok(())
        );
    }

    #[test]
    fn created_task_reads_both_shapes() {
        let seed = obj(r#"{"task":{"taskId":"s","status":"working","pollInterval":100}}"#);
        let t = created_task(seed, TaskDialect::Seed).unwrap().unwrap();
        assert_eq!(
            (t.task_id.raw_token(), t.poll_interval_ms),
            (&br#""s""#[..], Some(100))
        );
        assert_eq!(
            created_task(obj(r#"{"content":[]}"#), TaskDialect::Seed),
            Ok(None)
        );
        assert_eq!(
            created_task(obj(r#"{"task":[]}"#), TaskDialect::Seed),
            Err(Violation::BadTask)
        );
        let ext =
            obj(r#"{"resultType":"task","taskId":"e","status":"working","pollIntervalMs":7}"#);
        let t = created_task(ext, TaskDialect::Extension).unwrap().unwrap();
        assert_eq!(
            (t.task_id.raw_token(), t.poll_interval_ms),
            (&br#""e""#[..], Some(7))
        );
    }

    #[test]
    fn a_task_error_is_a_json_rpc_error_object() {
        let v = json::parse(br#"{"code":-1,"message":"m","data":[1]}"#).unwrap();
        let e = TaskError::parse(v).unwrap();
        assert_eq!((e.code, e.data.unwrap().raw()), (-1, &b"[1]"[..]));
        let v = json::parse(br#"{"code":"x","message":"m"}"#).unwrap();
        assert_eq!(TaskError::parse(v), Err(Violation::BadTask));
    }
}
