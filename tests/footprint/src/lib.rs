//! Footprint probe: one exported function per entry point of the mrtr-core
//! feature set this build enables. `scripts/footprint` builds it as an LTO
//! staticlib and links the archive with `--gc-sections`, rooted at these
//! symbols, so the linked image holds exactly the code an application that
//! calls these entry points carries (core library code and compiler
//! built-ins included, nothing unused).
//!
//! Every input comes in through the arguments and every output goes back, so
//! nothing is constant-folded away. The symbols are Rust-ABI `#[no_mangle]`
//! functions: they are never called, only linked.
#![no_std]
#![deny(missing_docs)]
// `#[no_mangle]` is all this crate does; it has no unsafe blocks.
#![allow(unsafe_code)]

#[cfg(feature = "call")]
mod call {
    use mrtr_core::client::{Answer, Call, CallConfig, CallError, CallSlot, Event};

    /// `Call::init`.
    #[no_mangle]
    pub fn mrtr_fp_call_init(
        state: &mut CallSlot,
        workspace: &mut [u8],
        config: &CallConfig<'_>,
    ) -> Result<(), CallError> {
        Call::init(state, workspace, config).map(|_| ())
    }

    /// `Call::attach` + `write_request`.
    #[no_mangle]
    pub fn mrtr_fp_call_write_request(
        state: &mut CallSlot,
        workspace: &mut [u8],
        id: i64,
        out: &mut [u8],
    ) -> Result<usize, CallError> {
        Call::attach(state, workspace)?.write_request(id, out)
    }

    /// `Call::attach` + `feed`: the event's kind and its first number.
    #[no_mangle]
    pub fn mrtr_fp_call_feed(
        state: &mut CallSlot,
        workspace: &mut [u8],
        bytes: &[u8],
    ) -> Result<(u8, usize), CallError> {
        Ok(match Call::attach(state, workspace)?.feed(bytes)? {
            Event::Complete(r) => (0, r.len()),
            Event::InputRequired(n) => (1, n),
            Event::RetryAfter(ms) => (2, ms as usize),
            Event::RpcError(e) => (3, e.message.raw_token().len()),
            Event::TaskCreated(t) => (4, t.task.task_id.raw_token().len()),
            Event::Unrelated(_) => (5, 0),
        })
    }

    /// `Call::attach` + `input_at`: the key's length and the request kind.
    #[no_mangle]
    pub fn mrtr_fp_call_input_at(
        state: &mut CallSlot,
        workspace: &mut [u8],
        index: usize,
    ) -> Option<(usize, u8)> {
        let call = Call::attach(state, workspace).ok()?;
        let (key, request) = call.input_at(index)?;
        Some((key.raw_token().len(), request.kind() as u8))
    }

    /// `Call::attach` + `answer` by key.
    #[no_mangle]
    pub fn mrtr_fp_call_answer(
        state: &mut CallSlot,
        workspace: &mut [u8],
        key: &str,
        answer: &Answer<'_>,
    ) -> Result<(), CallError> {
        Call::attach(state, workspace)?.answer(key, *answer)
    }
}

#[cfg(feature = "client")]
mod client {
    use mrtr_core::client::http::{encode_value, RequestHeaders};
    use mrtr_core::client::roots::{check_root_uri, path_to_file_uri, write_roots_into};
    use mrtr_core::client::sse::SseDecoder;
    use mrtr_core::client::{
        Answer, Call, CallError, CallLimits, CallSlot, Task, TaskConfig, TaskEvent, TaskSlot,
    };
    use mrtr_core::wire::{Root, WireLimits};

    /// `Call::resend`.
    #[no_mangle]
    pub fn mrtr_fp_call_resend(
        state: &mut CallSlot,
        workspace: &mut [u8],
        id: i64,
        out: &mut [u8],
    ) -> Result<usize, CallError> {
        Call::attach(state, workspace)?.resend(id, out)
    }

    /// `Call::feed_copy`.
    #[no_mangle]
    pub fn mrtr_fp_call_feed_copy(
        state: &mut CallSlot,
        workspace: &mut [u8],
        bytes: &[u8],
        result: &mut [u8],
    ) -> Result<usize, CallError> {
        Call::attach(state, workspace)?
            .feed_copy(bytes, result)
            .map(|(_, n)| n)
    }

    /// `Call::save`.
    #[no_mangle]
    pub fn mrtr_fp_call_save(
        state: &mut CallSlot,
        workspace: &mut [u8],
        out: &mut [u8],
    ) -> Result<usize, CallError> {
        Call::attach(state, workspace)?.save(out)
    }

    /// `Call::restore`.
    #[no_mangle]
    pub fn mrtr_fp_call_restore(
        state: &mut CallSlot,
        workspace: &mut [u8],
        limits: &CallLimits,
        saved: &[u8],
    ) -> Result<(), CallError> {
        Call::restore(state, workspace, limits, saved).map(|_| ())
    }

    /// `Task::init`.
    #[no_mangle]
    pub fn mrtr_fp_task_init(
        state: &mut TaskSlot,
        workspace: &mut [u8],
        config: &TaskConfig<'_>,
    ) -> Result<(), CallError> {
        Task::init(state, workspace, config).map(|_| ())
    }

    /// `Task::write_request`.
    #[no_mangle]
    pub fn mrtr_fp_task_write_request(
        state: &mut TaskSlot,
        workspace: &mut [u8],
        id: i64,
        out: &mut [u8],
    ) -> Result<usize, CallError> {
        Task::attach(state, workspace)?.write_request(id, out)
    }

    /// `Task::write_cancel`.
    #[no_mangle]
    pub fn mrtr_fp_task_write_cancel(
        state: &mut TaskSlot,
        workspace: &mut [u8],
        id: i64,
        out: &mut [u8],
    ) -> Result<usize, CallError> {
        Task::attach(state, workspace)?.write_cancel(id, out)
    }

    /// `Task::feed`: whether the task is done.
    #[no_mangle]
    pub fn mrtr_fp_task_feed(
        state: &mut TaskSlot,
        workspace: &mut [u8],
        bytes: &[u8],
    ) -> Result<bool, CallError> {
        let event = Task::attach(state, workspace)?.feed(bytes)?;
        Ok(matches!(event, TaskEvent::Complete(_)))
    }

    /// `Task::answer`.
    #[no_mangle]
    pub fn mrtr_fp_task_answer(
        state: &mut TaskSlot,
        workspace: &mut [u8],
        key: &str,
        answer: &Answer<'_>,
    ) -> Result<(), CallError> {
        Task::attach(state, workspace)?.answer(key, *answer)
    }

    /// `Task::save`.
    #[no_mangle]
    pub fn mrtr_fp_task_save(
        state: &mut TaskSlot,
        workspace: &mut [u8],
        out: &mut [u8],
    ) -> Result<usize, CallError> {
        Task::attach(state, workspace)?.save(out)
    }

    /// `Task::restore`.
    #[no_mangle]
    pub fn mrtr_fp_task_restore(
        state: &mut TaskSlot,
        workspace: &mut [u8],
        limits: &CallLimits,
        saved: &[u8],
    ) -> Result<(), CallError> {
        Task::restore(state, workspace, limits, saved).map(|_| ())
    }

    /// Roots: check a URI, turn a path into one, write a result.
    #[no_mangle]
    pub fn mrtr_fp_roots(
        uri: &str,
        path: &str,
        scratch: &mut [u8],
        roots: &[Root<'_>],
        out: &mut [u8],
    ) -> Option<usize> {
        check_root_uri(uri).ok()?;
        path_to_file_uri(path, scratch).ok()?;
        write_roots_into(out, roots).ok()
    }

    /// HTTP: the request headers of a message and one encoded value.
    #[no_mangle]
    pub fn mrtr_fp_http(body: &[u8], value: &str, buf: &mut [u8]) -> Option<usize> {
        let headers = RequestHeaders::for_message(body, &WireLimits::default()).ok()?;
        let n = headers.write(buf).ok()?.method().len();
        Some(n + encode_value(value, buf).ok()?.len())
    }

    /// SSE: decode events from a chunk.
    #[no_mangle]
    pub fn mrtr_fp_sse(data: &mut [u8], mut input: &[u8]) -> usize {
        let mut decoder = SseDecoder::new(data);
        let mut events = 0;
        while let Some(event) = decoder.feed(&mut input) {
            if event.is_ok() {
                events += 1;
            }
        }
        events
    }
}

#[cfg(feature = "ui")]
mod ui {
    use mrtr_core::client::form::{ContentWriter, ElicitForm, FieldValue};
    use mrtr_core::client::url::UrlConsent;
    use mrtr_core::json;

    /// `ElicitForm::parse` of a `requestedSchema`, then `validate` of the
    /// user's content and a `ContentWriter` for one text field.
    #[no_mangle]
    pub fn mrtr_fp_form(
        schema: &[u8],
        content: &[u8],
        field: &str,
        text: &str,
        out: &mut [u8],
    ) -> Option<usize> {
        let schema = json::parse(schema).ok()?;
        let form = ElicitForm::parse(schema.as_object()?).ok()?;
        let content = json::parse(content).ok()?;
        form.validate(content.as_object()?).ok()?;
        let mut writer = ContentWriter::accept_result(&form, out);
        writer.set(field, FieldValue::Text(text)).ok()?;
        writer.finish().ok()
    }

    /// `UrlConsent::parse`: the warnings shown on the consent screen.
    #[no_mangle]
    pub fn mrtr_fp_url(url: &str) -> Option<u16> {
        UrlConsent::parse(url).ok().map(|c| c.warnings.bits())
    }
}

#[cfg(feature = "server")]
mod server {
    use mrtr_core::json::{IndexSlot, Writer};
    use mrtr_core::server::{Incoming, MetaPolicy, ServerRequest};
    use mrtr_core::wire::reply::{
        write_error_response, write_invalid_request_state, write_missing_capability,
        write_unsupported_version,
    };
    use mrtr_core::wire::{
        parse_message, ClientCapabilities, Id, InputResponses, Message, WireLimits,
        META_CLIENT_CAPABILITIES,
    };

    /// Reads a request: envelope, `_meta` capabilities, `inputResponses`
    /// (both shapes) and the kind of the answer under `key`.
    #[no_mangle]
    pub fn mrtr_fp_server_read(bytes: &[u8], limits: &WireLimits, key: &str) -> Option<u8> {
        let Ok(Message::Request {
            params: Some(params),
            ..
        }) = parse_message(bytes, limits)
        else {
            return None;
        };
        let meta = params.get("_meta")?.as_object()?;
        let caps = ClientCapabilities::parse(meta.get(META_CLIENT_CAPABILITIES)?.as_object()?);
        let responses = InputResponses::parse(params.get("inputResponses")?, limits).ok()?;
        let kind = responses.get(key)?.kind()? as u8;
        Some(kind + caps.ok()?.sampling as u8)
    }

    /// `ServerRequest::parse_indexed`, the server's reader of a request
    /// (envelope, `_meta`, the method's params, `inputResponses`, the deep
    /// repeated-member check): the kind of the answer under `key`, or the
    /// length of the error response written for a refused message.
    #[no_mangle]
    pub fn mrtr_fp_server_request(
        bytes: &[u8],
        limits: &WireLimits,
        slots: &mut [IndexSlot],
        key: &str,
        out: &mut [u8],
    ) -> Option<usize> {
        match ServerRequest::parse_indexed(bytes, limits, MetaPolicy::Required, slots) {
            Ok(Incoming::Request(r)) => {
                let kind = r.input_responses?.get(key)?.kind()? as usize;
                Some(kind + r.method.code() as usize)
            }
            Ok(_) => Some(0),
            Err(e) => e.write(out).ok(),
        }
    }

    /// Writes the protocol's error responses.
    #[no_mangle]
    pub fn mrtr_fp_server_errors(
        out: &mut [u8],
        id: i64,
        which: u8,
        required: &ClientCapabilities,
        requested: &str,
    ) -> Option<usize> {
        let id = Id::Number(id);
        let mut w = Writer::new(out);
        match which {
            0 => write_missing_capability(&mut w, Some(&id), required),
            1 => write_unsupported_version(&mut w, Some(&id), requested, &["2026-07-28"]),
            2 => write_invalid_request_state(&mut w, Some(&id)),
            _ => write_error_response(&mut w, None, -32600, requested, None),
        }
        w.finish().ok()
    }
}

#[cfg(feature = "seal")]
mod seal {
    use mrtr_core::json;
    use mrtr_core::seal::{binding_digest, SealConfig, Sealer, NONCE_BYTES};

    /// `Sealer::new`.
    #[no_mangle]
    pub fn mrtr_fp_sealer_new(key: &[u8], audience: &[u8], out: &mut Option<Sealer>) -> bool {
        *out = Sealer::new(&[key], audience, SealConfig::default()).ok();
        out.is_some()
    }

    /// `binding_digest` of a request's arguments, then `Sealer::seal`.
    #[no_mangle]
    pub fn mrtr_fp_seal(
        sealer: &Sealer,
        now: u64,
        nonce: &[u8; NONCE_BYTES],
        target: &str,
        arguments: &[u8],
        state: &[u8],
        out: &mut [u8],
    ) -> Option<usize> {
        let args = json::parse(arguments).ok()?;
        let binding = binding_digest("tools/call", target, Some(args)).ok()?;
        sealer.seal(now, nonce, &binding, None, state, out).ok()
    }

    /// `binding_digest`, then `Sealer::unseal`: the state's length.
    #[no_mangle]
    pub fn mrtr_fp_unseal(
        sealer: &Sealer,
        now: u64,
        token: &[u8],
        target: &str,
        arguments: &[u8],
        principal: Option<&[u8]>,
        scratch: &mut [u8],
    ) -> Option<usize> {
        let args = json::parse(arguments).ok()?;
        let binding = binding_digest("tools/call", target, Some(args)).ok()?;
        sealer
            .unseal(now, token, &binding, principal, scratch)
            .ok()
            .map(|u| u.state.len())
    }
}

/// The code does not panic by design; a panic that a bug reaches stops here.
/// The handler is a loop, so the footprint counts no formatting machinery
/// that only a reporting handler would pull in.
#[panic_handler]
fn on_panic(_info: &core::panic::PanicInfo<'_>) -> ! {
    loop {
        core::hint::spin_loop();
    }
}
