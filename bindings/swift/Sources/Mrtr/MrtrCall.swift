import CMrtr
import Foundation

/// One logical request (`tools/call`, `prompts/get`, `resources/read`) through all its
/// legs, and through its task when the server moves it to one: the C `mrtr_call`, one
/// handle for both, in a workspace this object owns.
///
/// The step API: `writeRequest` -> send -> `feed` what arrives -> on `.inputRequired`
/// answer every input -> `writeRequest` again ... until `.complete` or `.rpcError`. After
/// `.taskCreated` the same object follows the task (`progress()` says `.task`): wait
/// `progress().pollMs` (then each `.taskPoll`'s wait) before `writeRequest`; `writeCancel`
/// cancels it. A task whose id was stored is followed again with `restartTask`. `run` drives
/// the whole loop.
///
/// Memory: the workspace (`workspaceSize` bytes) is wiped and freed by `close()` or, at the
/// latest, `deinit`; any use after `close()` throws `MrtrCallClosed`.
/// Threads: every method takes the call's lock, so sharing it is safe (`Sendable`); one
/// call is still one conversation: drive it from one task at a time.
public final class MrtrCall: @unchecked Sendable {
    private var ws: UnsafeMutableRawPointer?
    private let size: Int
    private let lock = NSLock()

    private init(ws: UnsafeMutableRawPointer, size: Int) {
        self.ws = ws
        self.size = size
    }

    /// Workspace bytes a call needs under `limits` (nil: the defaults).
    public static func workspaceSize(limits: CallLimits? = nil) throws -> Int {
        var out = 0
        if var l = limits?.c {
            try check(mrtr_call_workspace_size(&l, &out), "mrtr_call_workspace_size")
        } else {
            try check(mrtr_call_workspace_size(nil, &out), "mrtr_call_workspace_size")
        }
        return out
    }

    /// Starts a call. `params` is the params object as JSON (e.g.
    /// `{"name":"get_weather","arguments":{"location":"Paris"}}`), without
    /// `inputResponses`/`requestState`; `capabilities` are declared on every request;
    /// `clientName`/`clientVersion` nil send the library's identity; `sendClientInfo`
    /// false omits `clientInfo`; `firstId` 0 means 1.
    public static func create(
        method: CallMethod,
        params: [UInt8],
        capabilities: Set<Capability>,
        clientName: String? = nil,
        clientVersion: String? = nil,
        sendClientInfo: Bool = true,
        firstId: Int64 = 0,
        limits: CallLimits? = nil
    ) throws -> MrtrCall {
        try start(
            method: method.rawValue, params: params, capabilities: capabilities, clientName: clientName,
            clientVersion: clientVersion, sendClientInfo: sendClientInfo, taskIdIsJson: false, firstId: firstId,
            limits: limits, dialect: .none, taskId: [], pollMs: 0)
    }

    /// Follows again a task whose id was stored: `taskId` in `dialect`. `taskIdIsJson`: the id
    /// is the JSON string token as the server wrote it (as `.taskCreated`'s `taskId`); else
    /// plain text. `capabilities` are declared on every request (the extension dialect needs
    /// `.tasks`); `pollMs` is the creation's poll hint, 0 for none.
    public static func restartTask(
        dialect: TaskDialect,
        taskId: [UInt8],
        capabilities: Set<Capability>,
        taskIdIsJson: Bool = false,
        clientName: String? = nil,
        clientVersion: String? = nil,
        sendClientInfo: Bool = true,
        pollMs: UInt64 = 0,
        firstId: Int64 = 0,
        limits: CallLimits? = nil
    ) throws -> MrtrCall {
        try start(
            method: 0, params: [], capabilities: capabilities, clientName: clientName, clientVersion: clientVersion,
            sendClientInfo: sendClientInfo, taskIdIsJson: taskIdIsJson, firstId: firstId, limits: limits,
            dialect: dialect, taskId: taskId, pollMs: pollMs)
    }

    private static func start(
        method: UInt32, params: [UInt8], capabilities: Set<Capability>, clientName: String?,
        clientVersion: String?, sendClientInfo: Bool, taskIdIsJson: Bool, firstId: Int64, limits: CallLimits?,
        dialect: TaskDialect, taskId: [UInt8], pollMs: UInt64
    ) throws -> MrtrCall {
        let size = try workspaceSize(limits: limits)
        let ws = allocWorkspace(size)
        var limitsC = limits?.c ?? mrtr_call_limits()
        let name = clientName.map { Array($0.utf8) + [0] }
        let version = clientVersion.map { Array($0.utf8) + [0] }
        var handle: OpaquePointer?
        var why: UnsafePointer<CChar>? = nil
        let st: mrtr_status = withOptStr(name) { n in
            withOptStr(version) { v in
                withStr(params) { p in
                    withStr(taskId) { t in
                        withUnsafeMutablePointer(to: &limitsC) { lp in
                            var cfg = mrtr_call_config()
                            cfg.method = method
                            cfg.params = p
                            cfg.caps = Capability.bits(capabilities)
                            cfg.client_name = n
                            cfg.client_version = v
                            // MRTR_CALL_NO_CLIENT_INFO, MRTR_CALL_TASK_ID_JSON
                            cfg.flags = (sendClientInfo ? 0 : 1) | (taskIdIsJson ? 2 : 0)
                            cfg.first_id = firstId
                            cfg.limits = limits == nil ? nil : UnsafePointer(lp)
                            cfg.task_dialect = dialect.rawValue
                            cfg.task_id = t
                            cfg.task_poll_ms = pollMs
                            return withUnsafeMutablePointer(to: &why) { wp in
                                cfg.out_reason = wp
                                return mrtr_call_init(ws, size, &cfg, &handle)
                            }
                        }
                    }
                }
            }
        }
        if st != MRTR_OK {
            freeWorkspace(ws, size)
            throw MrtrError(rawCode: Int32(st.rawValue), operation: "mrtr_call_init", reason: cName(why))
        }
        return MrtrCall(ws: ws, size: size)
    }

    /// Restores a call or task from `save()` bytes (untrusted: validated again) under `limits`.
    /// A refusal names its cause in `MrtrError.reason`: `"Decode"` (not a save), `"Version"`,
    /// `"ProtocolVersion"`, `"TooLarge"`, `"BadLimits"`, a broken invariant.
    public static func restore(_ saved: [UInt8], limits: CallLimits? = nil) throws -> MrtrCall {
        let size = try workspaceSize(limits: limits)
        let ws = allocWorkspace(size)
        var limitsC = limits?.c ?? mrtr_call_limits()
        var handle: OpaquePointer?
        var why: UnsafePointer<CChar>?
        let st = saved.withUnsafeBufferPointer { s in
            withUnsafeMutablePointer(to: &limitsC) { lp in
                mrtr_call_restore(ws, size, limits == nil ? nil : UnsafePointer(lp), s.baseAddress, s.count, &handle, &why)
            }
        }
        if st != MRTR_OK {
            freeWorkspace(ws, size)
            throw MrtrError(rawCode: Int32(st.rawValue), operation: "mrtr_call_restore", reason: cName(why))
        }
        return MrtrCall(ws: ws, size: size)
    }

    /// Where the call is: phase, flow, rounds, inputs, ids, the task's next request and poll interval.
    public func progress() throws -> Progress { try locked { h in try progressLocked(h) } }

    /// The phase.
    public var phase: Phase {
        get throws { try progress().phase }
    }

    /// Input rounds received so far in the current flow.
    public var round: UInt32 {
        get throws { try progress().round }
    }

    /// The last JSON-RPC id used, nil before the first request.
    public var lastId: Int64? {
        get throws { try progress().lastId }
    }

    /// The id to use for the next request; throws `.limitExceeded` once the ids are used up.
    public var nextId: Int64 {
        get throws { try locked { h in try nextIdLocked(h) } }
    }

    /// The `requestState` the next request echoes (decoded), nil when the last round carried
    /// none. For logs and audits: the call echoes it by itself, byte for byte.
    public var requestState: String? {
        get throws {
            guard let token = try progress().requestState else { return nil }
            return String(decoding: try decodeJsonString(token), as: UTF8.self)
        }
    }

    /// Writes the next request with JSON-RPC `id` (nil: `nextId`) (`ready` -> `sent`): the bytes to send.
    public func writeRequest(id: Int64? = nil) throws -> [UInt8] {
        try locked { h in
            let i = try id ?? nextIdLocked(h)
            return try writeOut("mrtr_call_write_request", guess: 1024, call: h) { out, cap, w in mrtr_call_write_request(h, i, out, cap, w) }
        }
    }

    /// After a transport failure (`sent`): the request in flight again, with a fresh `id`.
    public func resend(id: Int64? = nil) throws -> [UInt8] {
        try locked { h in
            let i = try id ?? nextIdLocked(h)
            return try writeOut("mrtr_call_resend", guess: 1024, call: h) { out, cap, w in mrtr_call_resend(h, i, out, cap, w) }
        }
    }

    /// Task flow: writes `tasks/cancel` (from `ready`, `sent` or `answering`); the
    /// acknowledgement is `.taskCancelled`.
    public func writeCancel(id: Int64? = nil) throws -> [UInt8] {
        try locked { h in
            let i = try id ?? nextIdLocked(h)
            return try writeOut("mrtr_call_write_cancel", guess: 1024, call: h) { out, cap, w in mrtr_call_write_cancel(h, i, out, cap, w) }
        }
    }

    /// Feeds one complete JSON-RPC message the transport received while `sent`. Terminal
    /// errors throw and leave the call `failed` (`failure()` tells why); the error's `reason`
    /// names the cause (`"InputRequiredWithoutFields"`, ...).
    public func feed(_ message: [UInt8]) throws -> CallEvent {
        try locked { h in
            var ev = mrtr_event()
            let st = message.withUnsafeBufferPointer { mrtr_call_feed(h, $0.baseAddress, $0.count, &ev) }
            try check(st, "mrtr_call_feed", call: h)
            return try eventLocked(h, message, ev)
        }
    }

    /// The handle, under the call's lock, for the run steps of `run`.
    func withHandle<T>(_ body: (OpaquePointer) throws -> T) throws -> T { try locked(body) }

    /// The event `ev` that feeding `message` produced (the lock held).
    func eventLocked(_ h: OpaquePointer, _ message: [UInt8], _ ev: mrtr_event) throws -> CallEvent {
        func span(_ s: mrtr_span) -> [UInt8] { Array(message[s.offset..<(s.offset + s.len)]) }
        switch ev.kind {
        case MRTR_EVENT_COMPLETE: return .complete(result: span(ev.result))
        case MRTR_EVENT_INPUT_REQUIRED: return .inputRequired(inputs: try inputsLocked(h))
        case MRTR_EVENT_RETRY_AFTER: return .retryAfter(waitMs: ev.wait_ms)
        case MRTR_EVENT_RPC_ERROR:
            return .rpcError(
                code: ev.error_code,
                message: String(decoding: try decodeJsonString(span(ev.error_message)), as: UTF8.self),
                data: ev.error_data.len == 0 ? nil : span(ev.error_data))
        case MRTR_EVENT_TASK_CREATED:
            return .taskCreated(
                taskId: span(ev.task_id), dialect: TaskDialect(rawValue: ev.task_dialect.rawValue) ?? .none,
                status: TaskStatus(rawValue: ev.task_status.rawValue) ?? .none,
                pollMs: ev.has_task_poll_ms ? ev.task_poll_ms : nil)
        case MRTR_EVENT_UNRELATED: return .unrelated
        case MRTR_EVENT_TASK_POLL: return .taskPoll(waitMs: ev.wait_ms)
        case MRTR_EVENT_TASK_NEXT: return .taskNext
        case MRTR_EVENT_TASK_FAILED:
            return .taskFailed(
                code: ev.error_code,
                message: String(decoding: try decodeJsonString(span(ev.error_message)), as: UTF8.self),
                data: ev.error_data.len == 0 ? nil : span(ev.error_data))
        case MRTR_EVENT_TASK_CANCELLED: return .taskCancelled
        default: throw MrtrError(rawCode: Int32(MRTR_ERR_INTERNAL.rawValue), operation: "mrtr_call_feed")
        }
    }

    /// The number of input requests of the current round.
    public var inputCount: Int {
        get throws { try progress().inputCount }
    }

    /// Every input request of the current round, in the server's order.
    public func inputs() throws -> [InputRequest] { try locked { h in try inputsLocked(h) } }

    /// Input request `index` of the current round.
    public func input(_ index: Int) throws -> InputRequest { try locked { h in try inputLocked(h, index) } }

    /// The index of the input whose key is `key` (compared after decoding escapes).
    public func indexOf(_ key: String) throws -> Int {
        try locked { h in
            var i = 0
            try withStr(Array(key.utf8)) { k in try check(mrtr_call_input_find(h, k, &i), "mrtr_call_input_find", call: h) }
            return i
        }
    }

    /// Answers elicitation `index`. `content` (a JSON object) goes with a form `accept` only;
    /// the library checks it against the form (as for every language), and a refused answer
    /// throws `.invalidValue` with the library's `reason` (`"NotAnOption"`: a value none of the
    /// field's options, `"ContentRequired"`, ...) and its `FormError` (which field, and why).
    /// A form outside the schema subset cannot judge content: the answer goes as it is, as in C.
    public func answerElicit(_ index: Int, action: ElicitAction, content: [UInt8]? = nil) throws {
        try locked { h in
            let st = withStr(content ?? []) { c in mrtr_call_answer_elicit(h, index, action.rawValue, c) }
            if st == MRTR_ERR_INVALID_VALUE, let content, action == .accept {
                // The library refused the content; the field and the problem come from the
                // same check (a schema the subset does not take has no details to give).
                var e = MrtrError(rawCode: Int32(st.rawValue), operation: "mrtr_call_answer_elicit", reason: callReason(h, st))
                var i = mrtr_input()
                if mrtr_call_input_at(h, index, &i) == MRTR_OK, i.kind == MRTR_INPUT_ELICIT_FORM {
                    e.formError = (try? Form.validate(bytes(i.requested_schema), content)) ?? nil
                }
                throw e
            }
            try check(st, "mrtr_call_answer_elicit", call: h)
        }
    }

    /// Answers input `index` with a raw JSON result (a `CreateMessageResult` for sampling).
    public func answerJson(_ index: Int, _ json: [UInt8]) throws {
        try locked { h in try withStr(json) { j in try check(mrtr_call_answer_json(h, index, j), "mrtr_call_answer_json", call: h) } }
    }

    /// Answers `roots/list` input `index`; the core checks every URI (`file://`, no dot segments).
    public func answerRoots(_ index: Int, _ roots: [Root]) throws {
        try locked { h in
            // All texts in one buffer (plus a sentinel, so an empty name still has an address).
            var storage: [UInt8] = [0]
            var spans: [(Int, Int, Int?, Int)] = []
            for r in roots {
                let u = Array(r.uri.utf8), uo = storage.count
                storage += u
                let no = storage.count, n = r.name.map { Array($0.utf8) }
                storage += n ?? []
                spans.append((uo, u.count, n == nil ? nil : no, n?.count ?? 0))
            }
            try storage.withUnsafeBufferPointer { b in
                try b.withMemoryRebound(to: CChar.self) { c in
                    let base = c.baseAddress!
                    let cRoots = spans.map { s in
                        mrtr_root(uri: mrtr_str(ptr: base + s.0, len: s.1),
                                  name: mrtr_str(ptr: s.2.map { base + $0 }, len: s.3))
                    }
                    try check(mrtr_call_answer_roots(h, index, cRoots, cRoots.count), "mrtr_call_answer_roots", call: h)
                }
            }
        }
    }

    /// The application will not answer input `index`: the call ends `failed` (this succeeds).
    public func answerError(_ index: Int, code: Int64) throws {
        try locked { h in try check(mrtr_call_answer_error(h, index, code), "mrtr_call_answer_error", call: h) }
    }

    /// Answers input `index` with `answer` (dispatches to the `answer*` functions).
    public func answer(_ index: Int, _ answer: InputAnswer) throws {
        switch answer {
        case .accept(let content): try answerElicit(index, action: .accept, content: content)
        case .decline: try answerElicit(index, action: .decline)
        case .cancel: try answerElicit(index, action: .cancel)
        case .json(let json): try answerJson(index, json)
        case .roots(let roots): try answerRoots(index, roots)
        case .error(let code): try answerError(index, code: code)
        }
    }

    /// The final result object: a copy out of `fed`, the exact message whose feeding completed the call.
    public func result(_ fed: [UInt8]) throws -> [UInt8] {
        try locked { h in
            var r = mrtr_str()
            return try fed.withUnsafeBufferPointer { f in
                try check(mrtr_call_result(h, f.baseAddress, f.count, &r), "mrtr_call_result", call: h)
                return bytes(r)
            }
        }
    }

    /// A versioned record of the call or its task (in `ready`, `sent` or `answering`) for `restore`.
    public func save() throws -> [UInt8] {
        try locked { h in try writeOut("mrtr_call_save", guess: 4096, call: h) { out, cap, w in mrtr_call_save(h, out, cap, w) } }
    }

    /// Why the call is `failed`, or nil when it has not failed.
    public func failure() throws -> Failure? {
        try locked { h in
            var f = mrtr_failure()
            let st = mrtr_call_failure(h, &f)
            if st == MRTR_ERR_WRONG_STATE { return nil }
            try check(st, "mrtr_call_failure")
            return Failure(
                status: MrtrError.Code(rawValue: Int32(f.status.rawValue)), kind: FailureKind(rawValue: f.kind.rawValue),
                reason: f.reason.map { String(cString: $0) } ?? "", offset: f.offset, index: f.index, code: f.code,
                needed: f.needed, limit: f.limit)
        }
    }

    /// Wipes and frees the workspace. Idempotent; `deinit` does it too.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        if let w = ws {
            ws = nil
            freeWorkspace(w, size)
        }
    }

    deinit { close() }

    // ---- private

    private func locked<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        guard let w = ws else { throw MrtrCallClosed() }
        return try body(OpaquePointer(w))
    }

    private func progressLocked(_ h: OpaquePointer) throws -> Progress {
        var p = mrtr_progress()
        try check(mrtr_call_progress(h, &p), "mrtr_call_progress", call: h)
        return Progress(
            phase: Phase(rawValue: p.phase.rawValue) ?? .failed, flow: Flow(rawValue: p.flow.rawValue) ?? .call,
            taskRequest: TaskRequest(rawValue: p.task_request.rawValue) ?? .none,
            taskDialect: TaskDialect(rawValue: p.task_dialect.rawValue) ?? .none,
            round: p.round, polls: p.polls, inputCount: p.input_count, answeredCount: p.answered_count,
            lastId: p.has_last_id ? p.last_id : nil, nextId: p.has_next_id ? p.next_id : nil, pollMs: p.poll_ms,
            requestState: p.request_state.len == 0 ? nil : bytes(p.request_state),
            taskId: p.task_id.len == 0 ? nil : bytes(p.task_id))
    }

    private func nextIdLocked(_ h: OpaquePointer) throws -> Int64 {
        guard let id = try progressLocked(h).nextId else {
            throw MrtrError(rawCode: Int32(MRTR_ERR_LIMIT_EXCEEDED.rawValue), operation: "mrtr_call_progress")
        }
        return id
    }

    private func inputsLocked(_ h: OpaquePointer) throws -> [InputRequest] {
        try (0..<progressLocked(h).inputCount).map { try inputLocked(h, $0) }
    }

    private func inputLocked(_ h: OpaquePointer, _ index: Int) throws -> InputRequest {
        var i = mrtr_input()
        try check(mrtr_call_input_at(h, index, &i), "mrtr_call_input_at", call: h)
        let key = try inputText(h, index, 1) ?? "" // MRTR_TEXT_KEY
        switch i.kind {
        case MRTR_INPUT_ELICIT_FORM:
            let schema = bytes(i.requested_schema)
            let schemaError = try Form.schemaError(schema)
            return .elicitForm(.init(
                index: index, key: key, answered: i.answered, message: try inputText(h, index, 2) ?? "",
                requestedSchema: schema, fields: schemaError == nil ? try Form.fields(schema) : nil, schemaError: schemaError))
        case MRTR_INPUT_ELICIT_URL:
            let url = try inputText(h, index, 4) ?? "" // MRTR_TEXT_URL
            let (consent, refusal) = try Form.urlConsent(url)
            return .elicitUrl(.init(
                index: index, key: key, answered: i.answered, message: try inputText(h, index, 2) ?? "",
                url: url, consent: consent, refusal: refusal))
        case MRTR_INPUT_SAMPLING:
            return .sampling(.init(
                index: index, key: key, answered: i.answered, params: bytes(i.params), maxTokens: i.max_tokens,
                systemPrompt: i.has_system_prompt ? try inputText(h, index, 8) : nil, // MRTR_TEXT_SYSTEM_PROMPT
                hasTools: i.has_tools, wantsContext: i.wants_context))
        case MRTR_INPUT_ROOTS:
            return .roots(.init(index: index, key: key, answered: i.answered))
        default:
            throw MrtrError(rawCode: Int32(MRTR_ERR_INTERNAL.rawValue), operation: "mrtr_call_input_at")
        }
    }

    /// A decoded text field of input `index`; nil when the input has none.
    private func inputText(_ h: OpaquePointer, _ index: Int, _ field: UInt32) throws -> String? {
        do {
            let b = try writeOut("mrtr_call_input_text", guess: 256, call: h) { out, cap, w in
                mrtr_call_input_text(h, index, field, out, cap, w)
            }
            return String(decoding: b, as: UTF8.self)
        } catch let e as MrtrError where e.code == .notFound {
            return nil
        }
    }
}

/// Thrown by every use of an `MrtrCall` or `MrtrSealer` after `close()` (Kotlin: `IllegalStateException`).
public struct MrtrCallClosed: Error, Sendable {}

/// Zeroed memory for a workspace, aligned as `MRTR_WORKSPACE_ALIGN` needs (16 >= 8).
func allocWorkspace(_ size: Int) -> UnsafeMutableRawPointer {
    let p = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: 16)
    p.initializeMemory(as: UInt8.self, repeating: 0, count: max(size, 1))
    return p
}

/// Wipes (workspaces hold requestState tokens, answers, keys) and frees a workspace.
func freeWorkspace(_ p: UnsafeMutableRawPointer, _ size: Int) {
    memset_s_portable(p, max(size, 1))
    p.deallocate()
}

/// Zeroes memory in a way the optimizer keeps (volatile-style stores through an opaque call).
@inline(never)
func memset_s_portable(_ p: UnsafeMutableRawPointer, _ n: Int) {
    _ = memset(p, 0, n)
}

/// Calls `body` with an optional NUL-terminated string as `mrtr_str` (ptr NULL when nil).
func withOptStr<T>(_ s: [UInt8]?, _ body: (mrtr_str) -> T) -> T {
    guard let s else { return body(mrtr_str(ptr: nil, len: 0)) }
    return s.withUnsafeBufferPointer { b in
        b.withMemoryRebound(to: CChar.self) { c in body(mrtr_str(ptr: c.baseAddress, len: c.count - 1)) }
    }
}
