//! JSON-RPC ids stay within +-(2^53-1), the integers a JavaScript peer
//! echoes unchanged (issue 16): a first id outside is refused where it is
//! given, and the next id after 2^53-1 is an error, never a wrapped or
//! unsendable id.
#![cfg(feature = "client")]

use mrtr_core::client::call::{check_id_range, id_after, MAX_SAFE_ID};
use mrtr_core::client::{
    Call, CallConfig, CallError, CallMethod, CallSlot, Counter, Task, TaskConfig, TaskSlot,
};
use mrtr_core::wire::TaskDialect;

const MAX: i64 = (1 << 53) - 1;

#[test]
fn the_range_is_plus_minus_two_to_the_53_minus_one() {
    assert_eq!(MAX_SAFE_ID, MAX);
    assert_eq!(check_id_range(MAX), Ok(MAX));
    assert_eq!(check_id_range(-MAX), Ok(-MAX));
    assert_eq!(check_id_range(0), Ok(0));
    for bad in [MAX + 1, -MAX - 1, i64::MIN, i64::MAX] {
        assert_eq!(check_id_range(bad), Err(CallError::IdOutOfRange(bad)));
    }
}

#[test]
fn the_id_after_the_top_is_exhausted_not_wrapped() {
    assert_eq!(id_after(MAX - 1, 1), Ok(MAX));
    assert_eq!(id_after(MAX, 1), Err(CallError::IdsExhausted));
    assert_eq!(id_after(MAX - 1, 2), Err(CallError::IdsExhausted));
    assert_eq!(id_after(i64::MAX, 1), Err(CallError::IdsExhausted));
    assert_eq!(id_after(-MAX, 1), Ok(-MAX + 1));
    // Ids increase: a step must be positive.
    assert_eq!(id_after(1, 0), Err(CallError::IdOutOfRange(0)));
    assert_eq!(
        CallError::IdsExhausted.to_string(),
        "no id left: the next would pass 2^53-1"
    );
}

#[test]
fn a_counter_refuses_a_first_id_outside_the_range() {
    assert_eq!(
        Counter::new(i64::MIN),
        Err(CallError::IdOutOfRange(i64::MIN))
    );
    assert_eq!(Counter::new(MAX + 1), Err(CallError::IdOutOfRange(MAX + 1)));
    assert_eq!(Counter::new(MAX), Ok(Counter::starting_at(MAX)));
    assert_eq!(Counter::new(-MAX), Ok(Counter::starting_at(-MAX)));
}

#[test]
fn a_call_suggests_ids_until_the_top_and_then_refuses() {
    let config = CallConfig::new(CallMethod::ToolsCall, br#"{"name":"t"}"#);
    let mut st = CallSlot::default();
    let mut buf = vec![0u8; Call::workspace_size(&config.limits)];
    let mut call = Call::init(&mut st, &mut buf, &config).unwrap();
    assert_eq!(
        call.next_id(i64::MIN),
        Err(CallError::IdOutOfRange(i64::MIN))
    );
    assert_eq!(call.next_id(MAX + 1), Err(CallError::IdOutOfRange(MAX + 1)));
    assert_eq!(call.next_id(MAX), Ok(MAX));
    let mut out = vec![0u8; 4096];
    call.write_request(MAX, &mut out).unwrap();
    // The first id no longer matters once a leg went out.
    assert_eq!(call.next_id(1), Err(CallError::IdsExhausted));
    assert_eq!(
        call.resend(MAX + 1, &mut out),
        Err(CallError::IdOutOfRange(MAX + 1))
    );
}

#[test]
fn a_task_suggests_ids_the_same_way() {
    let config = TaskConfig::new(TaskDialect::Extension, "t-1");
    let mut st = TaskSlot::default();
    let mut buf = vec![0u8; Task::workspace_size(&config.limits)];
    let mut task = Task::init(&mut st, &mut buf, &config).unwrap();
    assert_eq!(
        task.next_id(-MAX - 1),
        Err(CallError::IdOutOfRange(-MAX - 1))
    );
    assert_eq!(task.next_id(-MAX), Ok(-MAX));
    let mut out = vec![0u8; 4096];
    task.write_request(-MAX, &mut out).unwrap();
    assert_eq!(task.next_id(7), Ok(-MAX + 1));
    task.write_cancel(MAX, &mut out).unwrap();
    assert_eq!(task.next_id(7), Err(CallError::IdsExhausted));
}
