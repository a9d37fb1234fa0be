//! The loop every client runs around a [`Machine`], decided once for every
//! language: which id the next request gets, when to resend, how long to
//! wait (state-only backoff, a task's poll interval), which input to ask
//! the app about next, what a declined question means, how many unrelated
//! messages to tolerate, and when the run is over.
//!
//! [`Runner`] is sans-IO: it says what to do next ([`Step`]) and is told
//! what happened ([`Runner::received`], [`Runner::answered`]); the caller
//! does the I/O and asks the user. No borrow of the machine is held between
//! steps, so a C callback may call back into the same handle. [`run`] is
//! the blocking loop over it for Rust programs, over the [`Transport`] and
//! [`Answerer`] traits.

use super::call::{id_after, Answer, CallError, Event, Phase};
use super::machine::{Machine, MachineEvent};
use super::task::TaskEvent;
use crate::wire::{ElicitAction, InputKind};

/// Default of [`RunConfig::max_unrelated`].
pub const DEFAULT_MAX_UNRELATED: u32 = 16;

/// How a run numbers its requests and how patient it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunConfig {
    /// The id of the first request this run writes; `None`: the machine's
    /// [`Machine::next_id`].
    pub first_id: Option<i64>,
    /// Added to the id for each further request (> 0), e.g. 2 when two runs
    /// share a connection with odd and even ids.
    pub id_step: i64,
    /// Most unrelated messages accepted while waiting for one answer.
    pub max_unrelated: u32,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            first_id: None,
            id_step: 1,
            max_unrelated: DEFAULT_MAX_UNRELATED,
        }
    }
}

impl RunConfig {
    /// A configuration given as plain numbers, where 0 selects each
    /// default (the C API's `mrtr_runner_init`, `mrtr_run_callbacks`):
    /// `first_id` 0 is the machine's next id, `id_step` 0 is 1,
    /// `max_unrelated` 0 is [`DEFAULT_MAX_UNRELATED`]. Other values are
    /// taken as given ([`Runner::new`] checks them).
    pub fn or_defaults(first_id: i64, id_step: i64, max_unrelated: u32) -> Self {
        let d = RunConfig::default();
        RunConfig {
            first_id: (first_id != 0).then_some(first_id),
            id_step: if id_step == 0 { d.id_step } else { id_step },
            max_unrelated: if max_unrelated == 0 {
                d.max_unrelated
            } else {
                max_unrelated
            },
        }
    }
}

/// What to do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Send the request written to `out[..len]`, receive the next message
    /// and hand it to [`Runner::received`].
    Send {
        /// Bytes of the request.
        len: usize,
    },
    /// Ask the app about input `index`; report with [`Runner::answered`].
    Ask {
        /// The input's index.
        index: usize,
        /// Its kind.
        kind: InputKind,
    },
    /// Wait this many milliseconds, then ask for the next step.
    Wait(u64),
    /// The run is over.
    Done(Outcome),
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The result came (the machine's [`Machine::result`]).
    Complete,
    /// The server answered the request with a JSON-RPC error.
    RpcError,
    /// The task failed (Tasks extension).
    TaskFailed,
    /// The task was cancelled.
    TaskCancelled,
}

/// What the app did with a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    /// It answered through the machine (`answer_at` or `answer`).
    Answered,
    /// The user declined: elicitations are answered `decline`; sampling and
    /// roots have no refusal in MRTR, so the run stops.
    Decline,
    /// The user dismissed it: elicitations are answered `cancel`; otherwise
    /// as [`Reply::Decline`].
    Cancel,
    /// Stop the run now; the machine is left as it is.
    Abort,
}

/// Why a run stopped before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunError<E = core::convert::Infallible> {
    /// The machine refused (terminal errors leave it `Failed`).
    Call(CallError),
    /// A bad [`RunConfig`] (an id step that is not positive, a first id
    /// outside +-(2^53-1)).
    BadConfig,
    /// The transport reported a message longer than the buffer it got.
    BadLength,
    /// The machine is done or failed: nothing to run.
    NotRunnable(Phase),
    /// More unrelated messages than [`RunConfig::max_unrelated`] while
    /// waiting for one answer (the machine stays `Sent`).
    TooManyUnrelated,
    /// The app aborted, refused a question that has no refusal, or ended
    /// the machine with an error answer.
    Aborted,
    /// The app said it answered input `index` but did not.
    Unanswered {
        /// The input's index.
        index: usize,
    },
    /// The transport failed (the machine stays `Sent`).
    Transport(E),
}

impl<E> RunError<E> {
    /// The cause's name, NUL-terminated for C: the variant, or for a
    /// refusal of the machine the [`CallError::name`] (`"AlreadyAnswered"`).
    pub const fn name(&self) -> &'static core::ffi::CStr {
        packed_name!(self, RunError:
            BadConfig BadLength NotRunnable TooManyUnrelated Aborted Unanswered Transport;
            RunError::Call(e) => e.name(),
        )
    }
}

impl<E: core::fmt::Display> core::fmt::Display for RunError<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RunError::Call(e) => write!(f, "the call failed: {e}"),
            RunError::BadConfig => f.write_str(
                "bad run configuration (id step not positive, or first id beyond 2^53-1)",
            ),
            RunError::BadLength => {
                f.write_str("the transport reported a message longer than its buffer")
            }
            RunError::NotRunnable(phase) => write!(f, "nothing to run: the machine is {phase:?}"),
            RunError::TooManyUnrelated => {
                f.write_str("too many unrelated messages while waiting for the answer")
            }
            RunError::Aborted => f.write_str("the application aborted the run"),
            RunError::Unanswered { index } => {
                write!(f, "the application did not answer input {index}")
            }
            RunError::Transport(e) => write!(f, "transport error: {e}"),
        }
    }
}

impl<E: core::error::Error + 'static> core::error::Error for RunError<E> {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            RunError::Call(e) => Some(e),
            RunError::Transport(e) => Some(e),
            _ => None,
        }
    }
}

impl<E> From<CallError> for RunError<E> {
    fn from(e: CallError) -> Self {
        RunError::Call(e)
    }
}

/// The planner of one run (plain data; see the module doc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Runner {
    next_id: Result<i64, CallError>,
    id_step: i64,
    max_unrelated: u32,
    unrelated: u32,
    wait: u64,
    outcome: Option<Outcome>,
}

impl Runner {
    /// A run of `m` under `config`.
    pub fn new<E>(m: &Machine<'_>, config: &RunConfig) -> Result<Self, RunError<E>> {
        if config.id_step <= 0 {
            return Err(RunError::BadConfig);
        }
        let next_id = match config.first_id {
            Some(id) => Ok(super::call::check_id_range(id).map_err(|_| RunError::BadConfig)?),
            None => m.next_id(),
        };
        Ok(Runner {
            next_id,
            id_step: config.id_step,
            max_unrelated: config.max_unrelated,
            unrelated: 0,
            wait: 0,
            outcome: None,
        })
    }

    /// The next step. For [`Step::Send`] the request (a fresh leg, or the
    /// one in flight again after a restore) is written into `out` first.
    pub fn next<E>(&mut self, m: &mut Machine<'_>, out: &mut [u8]) -> Result<Step, RunError<E>> {
        if let Some(o) = self.outcome {
            return Ok(Step::Done(o));
        }
        if self.wait > 0 {
            return Ok(Step::Wait(core::mem::take(&mut self.wait)));
        }
        match m.phase() {
            phase @ (Phase::Ready | Phase::Sent) => {
                // Past 2^53-1 the ids are used up: an error before anything
                // is written, never a wrapped or unsendable id.
                let id = self.next_id?;
                let len = m.send(id, out, phase == Phase::Sent)?;
                self.next_id = id_after(id, self.id_step);
                self.unrelated = 0;
                Ok(Step::Send { len })
            }
            Phase::Answering => {
                let index = (0..m.input_count())
                    .find(|&i| m.answer_json(i).is_none())
                    .ok_or(RunError::Call(CallError::WrongState(Phase::Answering)))?;
                let (_, req) = m
                    .input_at(index)
                    .ok_or(RunError::Call(CallError::UnknownKey))?;
                Ok(Step::Ask {
                    index,
                    kind: req.kind(),
                })
            }
            p => Err(RunError::NotRunnable(p)),
        }
    }

    /// Feeds the message received after [`Step::Send`]. Returns the event
    /// and whether another message must be received for the same request
    /// (the message was unrelated: a notification, another id's response).
    pub fn received<'a, E>(
        &mut self,
        m: &mut Machine<'_>,
        msg: &'a [u8],
    ) -> Result<(MachineEvent<'a>, bool), RunError<E>> {
        let ev = m.feed(msg)?;
        use MachineEvent as M;
        match ev {
            M::Call(Event::Unrelated(_)) | M::Task(TaskEvent::Unrelated(_)) => {
                self.unrelated = self.unrelated.saturating_add(1);
                if self.unrelated > self.max_unrelated {
                    return Err(RunError::TooManyUnrelated);
                }
                return Ok((ev, true));
            }
            M::Call(Event::Complete(_)) | M::Task(TaskEvent::Complete(_)) => {
                self.outcome = Some(Outcome::Complete);
            }
            M::Call(Event::RpcError(_)) | M::Task(TaskEvent::RpcError(_)) => {
                self.outcome = Some(Outcome::RpcError);
            }
            M::Task(TaskEvent::Failed(_)) => self.outcome = Some(Outcome::TaskFailed),
            M::Task(TaskEvent::Cancelled) => self.outcome = Some(Outcome::TaskCancelled),
            M::Call(Event::RetryAfter(ms)) => self.wait = u64::from(ms),
            M::Task(TaskEvent::Poll(ms)) => self.wait = ms,
            // The call now follows its task: wait the task's interval first.
            M::Call(Event::TaskCreated(_)) => self.wait = m.poll_ms(),
            M::Call(Event::InputRequired(_))
            | M::Task(TaskEvent::InputRequired(_))
            | M::Task(TaskEvent::Next) => {}
        }
        Ok((ev, false))
    }

    /// Reports what the app did about input `index` after [`Step::Ask`].
    pub fn answered<E>(
        &mut self,
        m: &mut Machine<'_>,
        index: usize,
        reply: Reply,
    ) -> Result<(), RunError<E>> {
        // An error answer (`Answer::Error`) ended the machine.
        if m.phase() == Phase::Failed {
            return Err(RunError::Aborted);
        }
        let elicit = matches!(
            m.input_at(index).map(|(_, r)| r.kind()),
            Some(InputKind::ElicitForm | InputKind::ElicitUrl)
        );
        let action = match reply {
            Reply::Answered if m.answer_json(index).is_some() => return Ok(()),
            Reply::Answered => return Err(RunError::Unanswered { index }),
            Reply::Decline if elicit => ElicitAction::Decline,
            Reply::Cancel if elicit => ElicitAction::Cancel,
            _ => return Err(RunError::Aborted),
        };
        m.answer_at(
            index,
            Answer::Elicit {
                action,
                content: None,
            },
        )?;
        Ok(())
    }
}

/// Sends requests and receives messages for [`run`].
pub trait Transport {
    /// The transport's error.
    type Error;
    /// Sends `request` (`None`: only receive, the request is already out)
    /// and receives the next message into `response`; returns its length.
    fn exchange(
        &mut self,
        request: Option<&[u8]>,
        response: &mut [u8],
    ) -> Result<usize, Self::Error>;
    /// Waits `ms` milliseconds (backoff, poll interval). Default: no wait.
    fn wait(&mut self, ms: u64) {
        let _ = ms;
    }
}

/// Answers the questions of a run.
pub trait Answerer {
    /// Answers input `index` of `m` (through `m.answer_at`) or refuses.
    fn answer(&mut self, m: &mut Machine<'_>, index: usize) -> Reply;
}

/// Where a finished run's last message sits in the caller's buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunEnd {
    /// How it ended.
    pub outcome: Outcome,
    /// Offset of the last message in the buffer.
    pub offset: usize,
    /// Its length.
    pub len: usize,
}

/// Runs `m` to its end over `transport`, asking `answerer` every
/// question. `buf` holds one request at its start and the response after
/// it. The result: `m.result(&buf[end.offset..][..end.len])`.
pub fn run<T: Transport>(
    m: &mut Machine<'_>,
    transport: &mut T,
    answerer: &mut impl Answerer,
    config: &RunConfig,
    buf: &mut [u8],
) -> Result<RunEnd, RunError<T::Error>> {
    let mut runner = Runner::new(m, config)?;
    let mut last = (0, 0);
    loop {
        match runner.next(m, buf)? {
            Step::Send { len } => {
                let (req, resp) = buf.split_at_mut(len);
                let mut request = Some(&*req);
                loop {
                    let n = transport
                        .exchange(request.take(), resp)
                        .map_err(RunError::Transport)?;
                    let msg = resp.get(..n).ok_or(RunError::BadLength)?;
                    last = (len, n);
                    if !runner.received(m, msg)?.1 {
                        break;
                    }
                }
            }
            Step::Ask { index, .. } => {
                let reply = answerer.answer(m, index);
                runner.answered(m, index, reply)?;
            }
            Step::Wait(ms) => transport.wait(ms),
            Step::Done(outcome) => {
                return Ok(RunEnd {
                    outcome,
                    offset: last.0,
                    len: last.1,
                })
            }
        }
    }
}
