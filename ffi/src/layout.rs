//! The layout of every C-visible type of `include/mrtr.h` as this crate
//! compiles it for the target at hand (test builds only).
//!
//! `scripts/test-c` runs `layout_table` with `MRTR_LAYOUT_OUT` set
//! (on the host and under qemu for each cross target) and compares the table
//! with the one `tests/c/layout.c` prints from the header with the C compiler
//! of the same target: a type whose size or alignment differs between the
//! Rust definition and the C declaration fails the stage.

use core::mem::{align_of, size_of};
use std::format;
use std::string::String;
use std::vec::Vec;

use crate::*;

macro_rules! layouts {
    ($($path:ident :: $name:ident),* $(,)?) => {
        [$((stringify!($name), size_of::<$path::$name>(), align_of::<$path::$name>())),*]
    };
}

/// Every struct and enum the header declares with a body (the opaque
/// handles `mrtr_call`, `mrtr_sealer`, `mrtr_sse_decoder`
/// have no C size).
fn table() -> Vec<(&'static str, usize, usize)> {
    let mut all = Vec::from(layouts![
        server::mrtr_answer_error,
        server::mrtr_answer_kind,
        server::mrtr_build_error,
        types::mrtr_bytes,
        call::mrtr_call_config,
        call::mrtr_call_limits,
        client::mrtr_event,
        client::mrtr_event_kind,
        client::mrtr_failure,
        client::mrtr_failure_kind,
        form::mrtr_field_error,
        form::mrtr_field_kind,
        form::mrtr_form_error,
        form::mrtr_form_field,
        form::mrtr_form_option,
        form::mrtr_form_value,
        types::mrtr_http_header,
        server::mrtr_incoming_kind,
        client::mrtr_input,
        client::mrtr_input_kind,
        server::mrtr_input_required,
        server::mrtr_input_spec,
        server::mrtr_param_header_error,
        client::mrtr_method,
        client::mrtr_flow,
        call::mrtr_progress,
        client::mrtr_phase,
        server::mrtr_request_id,
        client::mrtr_root,
        run::mrtr_run_callbacks,
        run::mrtr_runner,
        form::mrtr_schema_error,
        run::mrtr_step,
        run::mrtr_step_kind,
        server::mrtr_server_answer,
        server::mrtr_server_error,
        server::mrtr_server_method,
        server::mrtr_server_request,
        server::mrtr_server_root,
        types::mrtr_span,
        sse::mrtr_sse_event,
        sse::mrtr_sse_reconnect,
        status::mrtr_status,
        types::mrtr_str,
        form::mrtr_string_format,
        client::mrtr_task_dialect,
        client::mrtr_task_request,
        client::mrtr_task_status,
        seal::mrtr_unseal_reason,
        seal::mrtr_unsealed_info,
        tools::mrtr_tool,
        tools::mrtr_tool_cursor,
        url::mrtr_url_info,
        url::mrtr_url_refusal,
    ]);
    all.sort_unstable();
    all
}

/// The names of the header's `typedef struct/enum ... { } mrtr_x;`.
fn header_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = include_str!("../../include/mrtr.h")
        .lines()
        .filter_map(|l| l.strip_prefix("} ")?.strip_suffix(';'))
        .filter(|n| n.starts_with("mrtr_"))
        .collect();
    names.sort_unstable();
    names
}

// Not under Miri: no unsafe code to check, and scanning the 150 KB header
// takes Miri some 40 s.
#[test]
#[cfg_attr(miri, ignore)]
fn layout_table() {
    let ours: Vec<&str> = table().iter().map(|t| t.0).collect();
    assert_eq!(
        ours,
        header_names(),
        "the table here lists other types than include/mrtr.h declares: add or remove them"
    );
    let text: String = table()
        .iter()
        .map(|(name, size, align)| format!("{name} size {size} align {align}\n"))
        .collect();
    if let Some(path) = std::env::var_os("MRTR_LAYOUT_OUT") {
        std::fs::write(path, text).expect("write MRTR_LAYOUT_OUT");
    }
}
