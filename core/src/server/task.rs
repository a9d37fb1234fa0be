//! The task side, in both dialects.
//!
//! - [`TaskDialect::Seed`]: the SEP's persistent workflow on 2025-11-25 style
//!   tasks. `tasks/get` returns the task's status (`ttl`, `pollInterval`),
//!   `tasks/result` returns `inputRequests` (+ `requestState`) while the task
//!   is `input_required` (use [`super::InputRequiredBuilder`] with
//!   [`super::InputRequiredBuilder::related_task`]), answers arrive in
//!   `tasks/input_response` and are acknowledged with
//!   [`write_input_response_ack`].
//! - [`TaskDialect::Extension`]: the Tasks extension
//!   (`io.modelcontextprotocol/tasks`). `tasks/get` returns a `DetailedTask`
//!   (`ttlMs`, `pollIntervalMs`) carrying `inputRequests`
//!   ([`TaskInputRequiredBuilder`]), `result` or `error`; answers arrive in
//!   `tasks/update` and are acknowledged with [`write_update_task_result`].
//!
//! Timestamps are strings the app formats (the core reads no clock);
//! [`format_rfc3339`] formats unix seconds for apps without a date library.

use core::fmt;

use crate::json::{self, ParseLimits, Writer};
use crate::wire::envelope::write_result_head;
use crate::wire::task::META_RELATED_TASK;
pub use crate::wire::task::{TaskDialect, TaskStatus};
use crate::wire::{ClientCapabilities, Id, WireLimits};

use super::builder::{BuildError, RequestsWriter};
use super::emit::{write_complete_object, APP_JSON_LIMITS};

/// The largest integer the Tasks schema allows (`2^53 - 1`, exact in every
/// JSON implementation).
pub const MAX_SAFE_INTEGER: u64 = 9_007_199_254_740_991;

/// Nesting above a task's `result` / `error.data` value in the emitted
/// message (envelope, result object).
const DEPTH_ABOVE_TASK_PAYLOAD: usize = 2;

/// What a server knows about one task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskInfo<'k> {
    /// The task id.
    pub task_id: &'k str,
    /// Its status.
    pub status: TaskStatus,
    /// A human-readable status line.
    pub status_message: Option<&'k str>,
    /// Creation time, ISO 8601 (see [`format_rfc3339`]).
    pub created_at: &'k str,
    /// Last status change, ISO 8601.
    pub last_updated_at: &'k str,
    /// How long the task is kept after creation, in ms (`None`: unlimited,
    /// written as `null`). At most [`MAX_SAFE_INTEGER`].
    pub ttl_ms: Option<u64>,
    /// Suggested polling interval in ms. At most [`MAX_SAFE_INTEGER`].
    pub poll_interval_ms: Option<u64>,
}

/// What a `DetailedTask` carries besides its status fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskDetail<'r> {
    /// Nothing (`working`, `cancelled`).
    None,
    /// The final result of the task's request, a raw JSON object
    /// (`completed`).
    Result(&'r [u8]),
    /// The error the task's request failed with (`failed`).
    Error {
        /// Error code.
        code: i64,
        /// Error message.
        message: &'r str,
        /// Optional raw JSON `data`.
        data: Option<&'r [u8]>,
    },
}

/// Why a task message was not written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskWriteError {
    /// `ttl_ms` or `poll_interval_ms` exceeds [`MAX_SAFE_INTEGER`].
    NumberOutOfRange,
    /// The detail does not fit the status (`completed` needs a result,
    /// `failed` an error, `working` and `cancelled` neither). An
    /// `input_required` task status is built with [`TaskInputRequiredBuilder`].
    StatusMismatch,
    /// The result is not a JSON object, or the error `data` is not JSON;
    /// for [`write_task_result_seed`], also a result whose `_meta` is not
    /// one object or already names the related task (the writer adds it).
    InvalidPayload,
    /// The task's result has a `resultType` other than `"complete"`, or more
    /// than one (a completed task's result is a complete result: the writer
    /// adds `"resultType":"complete"` when it is absent).
    ConflictingResultType,
    /// The output buffer is too small; `needed` is the exact size.
    BufferTooSmall {
        /// Bytes the whole message needs.
        needed: usize,
    },
}

impl fmt::Display for TaskWriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TaskWriteError::NumberOutOfRange => write!(
                f,
                "task ttl_ms or poll_interval_ms exceeds {MAX_SAFE_INTEGER}"
            ),
            TaskWriteError::StatusMismatch => f.write_str(
                "task detail does not fit its status: completed needs a result, \
                 failed an error, working and cancelled neither",
            ),
            TaskWriteError::InvalidPayload => f.write_str(
                "task result is not a JSON object (or its _meta is not one, or already \
                 names the related task), or error data is not JSON",
            ),
            TaskWriteError::ConflictingResultType => {
                f.write_str("task result has a resultType other than \"complete\", or has it twice")
            }
            TaskWriteError::BufferTooSmall { needed } => {
                write!(f, "output buffer too small: needs {needed} bytes")
            }
        }
    }
}

impl core::error::Error for TaskWriteError {}

fn finish(w: Writer<'_>) -> Result<usize, TaskWriteError> {
    w.finish()
        .map_err(|e| TaskWriteError::BufferTooSmall { needed: e.needed })
}

impl TaskInfo<'_> {
    fn check(&self) -> Result<(), TaskWriteError> {
        let too_big = |v: Option<u64>| v.is_some_and(|n| n > MAX_SAFE_INTEGER);
        if too_big(self.ttl_ms) || too_big(self.poll_interval_ms) {
            return Err(TaskWriteError::NumberOutOfRange);
        }
        Ok(())
    }

    /// Writes the task's members (no braces), led by `taskId`.
    fn write_members(&self, w: &mut Writer<'_>, dialect: TaskDialect) {
        let (ttl, poll) = match dialect {
            TaskDialect::Seed => ("ttl", "pollInterval"),
            TaskDialect::Extension => ("ttlMs", "pollIntervalMs"),
        };
        w.raw(b"\"taskId\":")
            .str(self.task_id)
            .raw(b",\"status\":")
            .str(self.status.as_str());
        if let Some(m) = self.status_message {
            w.raw(b",\"statusMessage\":").str(m);
        }
        w.raw(b",\"createdAt\":")
            .str(self.created_at)
            .raw(b",\"lastUpdatedAt\":")
            .str(self.last_updated_at)
            .byte(b',')
            .key(ttl);
        match self.ttl_ms {
            Some(n) => w.u64(n),
            None => w.raw(b"null"),
        };
        if let Some(p) = self.poll_interval_ms {
            w.byte(b',').key(poll).u64(p);
        }
    }
}

/// Writes the `tasks/get` answer of the seed dialect:
/// `{"resultType":"complete","taskId":..,"status":..,"statusMessage":..,
/// "createdAt":..,"lastUpdatedAt":..,"ttl":..,"pollInterval":..}`. When the
/// status is `input_required` the client then calls `tasks/result`.
pub fn write_task_status_seed(
    out: &mut [u8],
    id: &Id<'_>,
    task: &TaskInfo<'_>,
) -> Result<usize, TaskWriteError> {
    task.check()?;
    let mut w = Writer::new(out);
    write_result_head(&mut w, id);
    w.raw(b"{\"resultType\":\"complete\",");
    task.write_members(&mut w, TaskDialect::Seed);
    w.raw(b"}}");
    finish(w)
}

/// Writes the answer to a task-augmented request: a `CreateTaskResult` with
/// `resultType: "task"`. Seed dialect: the task nested under `task`
/// (`{"resultType":"task","task":{..}}`); extension dialect: the task's
/// members at the top of the result.
pub fn write_create_task(
    out: &mut [u8],
    id: &Id<'_>,
    dialect: TaskDialect,
    task: &TaskInfo<'_>,
) -> Result<usize, TaskWriteError> {
    task.check()?;
    let mut w = Writer::new(out);
    write_result_head(&mut w, id);
    w.raw(b"{\"resultType\":\"task\",");
    match dialect {
        TaskDialect::Seed => {
            w.raw(b"\"task\":{");
            task.write_members(&mut w, dialect);
            w.byte(b'}');
        }
        TaskDialect::Extension => task.write_members(&mut w, dialect),
    }
    w.raw(b"}}");
    finish(w)
}

/// Writes the extension dialect's `tasks/get` answer (a `DetailedTask`) for
/// every status but `input_required` (see [`TaskInputRequiredBuilder`]):
/// `completed` carries `result`, `failed` carries `error`.
///
/// The `result` of a completed task is the final result of its request, so
/// it always carries `"resultType":"complete"` (the 2026-07-28 `Result`
/// requires it, and clients decode the task's result as one): put first
/// when the app's object lacks it, kept when it says `"complete"`, refused
/// ([`TaskWriteError::ConflictingResultType`]) when it names another.
pub fn write_detailed_task(
    out: &mut [u8],
    id: &Id<'_>,
    task: &TaskInfo<'_>,
    detail: TaskDetail<'_>,
) -> Result<usize, TaskWriteError> {
    task.check()?;
    let fits = matches!(
        (task.status, detail),
        (
            TaskStatus::Working | TaskStatus::Cancelled,
            TaskDetail::None
        ) | (TaskStatus::Completed, TaskDetail::Result(_))
            | (TaskStatus::Failed, TaskDetail::Error { .. })
    );
    if !fits {
        return Err(TaskWriteError::StatusMismatch);
    }
    let limits = ParseLimits {
        max_depth: ParseLimits::default()
            .max_depth
            .saturating_sub(DEPTH_ABOVE_TASK_PAYLOAD + 1),
        ..ParseLimits::default()
    };
    // Validate before writing anything.
    let (result, data) = match detail {
        TaskDetail::Result(raw) => {
            let obj = json::parse_with(raw, &limits)
                .ok()
                .and_then(|v| v.as_object())
                .ok_or(TaskWriteError::InvalidPayload)?;
            if !result_type_is_complete(&obj)? {
                // Checked here so nothing is written on a conflict.
                return Err(TaskWriteError::ConflictingResultType);
            }
            (Some(obj), None)
        }
        TaskDetail::Error { data: Some(d), .. } => {
            let v = json::parse_with(d, &limits).map_err(|_| TaskWriteError::InvalidPayload)?;
            (None, Some(v.raw()))
        }
        _ => (None, None),
    };
    let mut w = Writer::new(out);
    write_result_head(&mut w, id);
    w.raw(b"{\"resultType\":\"complete\",");
    task.write_members(&mut w, TaskDialect::Extension);
    if let Some(r) = result {
        w.raw(b",\"result\":");
        write_complete_object(&mut w, &r).map_err(|_| TaskWriteError::ConflictingResultType)?;
    }
    if let TaskDetail::Error { code, message, .. } = detail {
        w.raw(b",\"error\":{\"code\":")
            .i64(code)
            .raw(b",\"message\":")
            .str(message);
        if let Some(d) = data {
            w.raw(b",\"data\":").raw(d);
        }
        w.byte(b'}');
    }
    w.raw(b"}}");
    finish(w)
}

/// Writes the seed dialect's acknowledgement of `tasks/input_response`:
/// `{"resultType":"complete","_meta":{"io.modelcontextprotocol/related-task":
/// {"taskId":..}}}`. (Answers that do not suffice leave the task
/// `input_required`; the next `tasks/result` asks again.)
pub fn write_input_response_ack(
    out: &mut [u8],
    id: &Id<'_>,
    task_id: &str,
) -> Result<usize, TaskWriteError> {
    let mut w = Writer::new(out);
    write_result_head(&mut w, id);
    w.raw(b"{\"resultType\":\"complete\",\"_meta\":{")
        .key(META_RELATED_TASK)
        .raw(b"{\"taskId\":")
        .str(task_id)
        .raw(b"}}}}");
    finish(w)
}

/// `resultType` of `obj` is absent or `"complete"`, once (`Ok(false)`: another
/// value; a repeated member is [`TaskWriteError::ConflictingResultType`]).
fn result_type_is_complete(obj: &json::Object<'_>) -> Result<bool, TaskWriteError> {
    match obj
        .get_unique("resultType")
        .map_err(|_| TaskWriteError::ConflictingResultType)?
    {
        None => Ok(true),
        Some(rt) => Ok(rt.as_str().is_some_and(|s| s.eq_str("complete"))),
    }
}

/// Writes the seed dialect's `tasks/result` answer for a completed task: the
/// final result of the task's request (`result`, a JSON object) as a
/// complete result naming its task,
/// `{"resultType":"complete",..,"_meta":{"io.modelcontextprotocol/related-task":
/// {"taskId":..},..}}`.
///
/// `resultType` is put first when `result` lacks it (another value, or two:
/// [`TaskWriteError::ConflictingResultType`]); the other members are kept as
/// sent, `_meta` last with the related task first in it and the app's own
/// `_meta` members after it. A `_meta` that is not an object, appears twice,
/// or already names the related task is [`TaskWriteError::InvalidPayload`].
/// Everything is checked before anything is written.
pub fn write_task_result_seed(
    out: &mut [u8],
    id: &Id<'_>,
    task_id: &str,
    result: &[u8],
) -> Result<usize, TaskWriteError> {
    let obj = json::parse_with(result, &APP_JSON_LIMITS)
        .ok()
        .and_then(|v| v.as_object())
        .ok_or(TaskWriteError::InvalidPayload)?;
    if !result_type_is_complete(&obj)? {
        return Err(TaskWriteError::ConflictingResultType);
    }
    let meta = match obj
        .get_unique("_meta")
        .map_err(|_| TaskWriteError::InvalidPayload)?
    {
        None => None,
        Some(m) => {
            let m = m.as_object().ok_or(TaskWriteError::InvalidPayload)?;
            if m.iter().any(|(k, _)| k.eq_str(META_RELATED_TASK)) {
                return Err(TaskWriteError::InvalidPayload);
            }
            Some(m)
        }
    };
    let mut w = Writer::new(out);
    write_result_head(&mut w, id);
    w.raw(b"{\"resultType\":\"complete\"");
    for (k, v) in obj.iter() {
        if k.eq_str("resultType") || k.eq_str("_meta") {
            continue;
        }
        w.byte(b',').raw(k.raw_token()).byte(b':').raw(v.raw());
    }
    w.raw(b",\"_meta\":{")
        .key(META_RELATED_TASK)
        .raw(b"{\"taskId\":")
        .str(task_id)
        .byte(b'}');
    for (k, v) in meta.iter().flat_map(|m| m.iter()) {
        w.byte(b',').raw(k.raw_token()).byte(b':').raw(v.raw());
    }
    w.raw(b"}}}");
    finish(w)
}

/// Writes the extension dialect's `tasks/update` answer (`UpdateTaskResult`):
/// `{"resultType":"complete"}`.
pub fn write_update_task_result(out: &mut [u8], id: &Id<'_>) -> Result<usize, TaskWriteError> {
    let mut w = Writer::new(out);
    write_result_head(&mut w, id);
    w.raw(b"{\"resultType\":\"complete\"}}");
    finish(w)
}

/// Builds the extension dialect's `tasks/get` answer for a task waiting on
/// the client: a `DetailedTask` with status `input_required` and
/// `inputRequests` (at least one). The same rules as
/// [`super::InputRequiredBuilder`] apply to the requests (declared
/// capabilities, keys, count).
#[derive(Debug)]
pub struct TaskInputRequiredBuilder<'o, 'k> {
    inner: RequestsWriter<'o, 'k>,
}

impl<'o, 'k> TaskInputRequiredBuilder<'o, 'k> {
    /// Starts the answer for request `id` about `task` (status must be
    /// `input_required`), for a client that declared `caps`.
    pub fn new(
        out: &'o mut [u8],
        id: &Id<'_>,
        task: &TaskInfo<'_>,
        caps: &ClientCapabilities,
    ) -> Result<Self, BuildError> {
        Self::with_limits(out, id, task, caps, &WireLimits::default())
    }

    /// [`Self::new`] with explicit limits.
    pub fn with_limits(
        out: &'o mut [u8],
        id: &Id<'_>,
        task: &TaskInfo<'_>,
        caps: &ClientCapabilities,
        limits: &WireLimits,
    ) -> Result<Self, BuildError> {
        if task.status != TaskStatus::InputRequired {
            return Err(BuildError::StatusNotInputRequired);
        }
        task.check().map_err(|_| BuildError::InvalidTask)?;
        let mut w = Writer::new(out);
        write_result_head(&mut w, id);
        w.raw(b"{\"resultType\":\"complete\",");
        task.write_members(&mut w, TaskDialect::Extension);
        Ok(TaskInputRequiredBuilder {
            inner: RequestsWriter::new(w, caps, limits),
        })
    }

    /// See [`super::InputRequiredBuilder::elicit_form`].
    pub fn elicit_form(
        &mut self,
        key: &'k str,
        message: &str,
        requested_schema: &[u8],
    ) -> Result<&mut Self, BuildError> {
        self.inner.elicit_form(key, message, requested_schema)?;
        Ok(self)
    }

    /// See [`super::InputRequiredBuilder::elicit_url`].
    pub fn elicit_url(
        &mut self,
        key: &'k str,
        message: &str,
        url: &str,
    ) -> Result<&mut Self, BuildError> {
        self.inner.elicit_url(key, message, url)?;
        Ok(self)
    }

    /// See [`super::InputRequiredBuilder::sampling`].
    pub fn sampling(&mut self, key: &'k str, params: &[u8]) -> Result<&mut Self, BuildError> {
        self.inner.sampling(key, params)?;
        Ok(self)
    }

    /// See [`super::InputRequiredBuilder::roots`].
    pub fn roots(&mut self, key: &'k str) -> Result<&mut Self, BuildError> {
        self.inner.roots(key)?;
        Ok(self)
    }

    /// Closes the message: [`BuildError::Empty`] without any request (the
    /// schema requires `inputRequests` on an `input_required` task).
    pub fn finish(mut self) -> Result<usize, BuildError> {
        if self.inner.count() == 0 {
            return Err(BuildError::Empty);
        }
        self.inner.close_map();
        self.inner.w.raw(b"}}");
        self.inner.finish()
    }
}

/// The largest time [`format_rfc3339`] formats: 9999-12-31T23:59:59Z.
pub const MAX_RFC3339_SECONDS: u64 = 253_402_300_799;

/// Formats unix seconds as `YYYY-MM-DDThh:mm:ssZ` into `buf`; `None` past
/// [`MAX_RFC3339_SECONDS`].
pub fn format_rfc3339(unix_seconds: u64, buf: &mut [u8; 20]) -> Option<&str> {
    if unix_seconds > MAX_RFC3339_SECONDS {
        return None;
    }
    let days = unix_seconds / 86_400;
    let secs = unix_seconds % 86_400;
    // Civil date from days since 1970-01-01 (proleptic Gregorian), by
    // shifting the year to start in March so leap days fall last.
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    let fields: [(u64, usize); 6] = [
        (year, 4),
        (month, 2),
        (day, 2),
        (secs / 3600, 2),
        (secs / 60 % 60, 2),
        (secs % 60, 2),
    ];
    let seps = [b'-', b'-', b'T', b':', b':', b'Z'];
    let mut pos = 0usize;
    for ((value, width), sep) in fields.into_iter().zip(seps) {
        let mut v = value;
        for k in (0..width).rev() {
            *buf.get_mut(pos + k)? = b'0' + (v % 10) as u8;
            v /= 10;
        }
        pos += width;
        *buf.get_mut(pos)? = sep;
        pos += 1;
    }
    core::str::from_utf8(buf).ok()
}
