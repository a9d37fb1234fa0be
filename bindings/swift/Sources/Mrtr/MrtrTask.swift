import CMrtr
import Foundation

/// The request a task sends next or has in flight (`mrtr_task_request`).
public enum TaskRequest: UInt32, Sendable, CaseIterable {
    case get = 1
    case result = 2
    case respond = 3
    case cancel = 4
}

/// Every capacity and cap of a task (`mrtr_task_limits`). `TaskLimits.default` comes from the
/// library (those of a call, 1 KiB of params, 100,000 polls, polls every 1 s unless the server
/// hints, clamped to 100 ms .. 60 s).
public struct TaskLimits: Sendable, Equatable {
    public var maxMessageBytes: Int
    public var maxDepth: Int
    public var maxInputRequests: Int
    public var maxKeyBytes: Int
    public var maxParamsBytes: Int
    public var maxInputsBytes: Int
    public var maxStateBytes: Int
    public var maxAnswersBytes: Int
    public var maxRounds: UInt32
    public var maxPolls: UInt32
    public var defaultPollMs: UInt64
    public var minPollMs: UInt64
    public var maxPollMs: UInt64

    var c: mrtr_task_limits {
        mrtr_task_limits(
            max_message_bytes: maxMessageBytes, max_depth: maxDepth, max_input_requests: maxInputRequests,
            max_key_bytes: maxKeyBytes, max_params_bytes: maxParamsBytes, max_inputs_bytes: maxInputsBytes,
            max_state_bytes: maxStateBytes, max_answers_bytes: maxAnswersBytes, max_rounds: maxRounds,
            max_polls: maxPolls, default_poll_ms: defaultPollMs, min_poll_ms: minPollMs, max_poll_ms: maxPollMs)
    }

    /// The library's defaults.
    public static let `default`: TaskLimits = {
        var l = mrtr_task_limits()
        _ = mrtr_task_limits_default(&l)
        return TaskLimits(
            maxMessageBytes: l.max_message_bytes, maxDepth: l.max_depth, maxInputRequests: l.max_input_requests,
            maxKeyBytes: l.max_key_bytes, maxParamsBytes: l.max_params_bytes, maxInputsBytes: l.max_inputs_bytes,
            maxStateBytes: l.max_state_bytes, maxAnswersBytes: l.max_answers_bytes, maxRounds: l.max_rounds,
            maxPolls: l.max_polls, defaultPollMs: l.default_poll_ms, minPollMs: l.min_poll_ms, maxPollMs: l.max_poll_ms)
    }()
}

/// Follows a task the server created (`mrtr_task`, both dialects: the SEP draft's
/// `tasks/result` + `tasks/input_response`, and the Tasks extension's `tasks/get` +
/// `tasks/update`). The same step API as `MrtrCall`, plus `nextRequest`, `pollMs` and
/// `writeCancel`; `run` drives it, polling with `Task.sleep`. Memory and threads as `MrtrCall`.
public final class MrtrTask: @unchecked Sendable {
    private var ws: UnsafeMutableRawPointer?
    private let size: Int
    private let lock = NSLock()

    private init(ws: UnsafeMutableRawPointer, size: Int) {
        self.ws = ws
        self.size = size
    }

    /// Workspace bytes a task needs under `limits` (nil: the defaults).
    public static func workspaceSize(limits: TaskLimits? = nil) throws -> Int {
        var out = 0
        if var l = limits?.c {
            try check(mrtr_task_workspace_size(&l, &out), "mrtr_task_workspace_size")
        } else {
            try check(mrtr_task_workspace_size(nil, &out), "mrtr_task_workspace_size")
        }
        return out
    }

    /// Starts following task `taskId` in `dialect`. `taskIdIsJson`: the id is the JSON string
    /// token as the server wrote it (as `.taskCreated`'s `taskId`); else plain text.
    /// `capabilities` are declared on every request (the extension dialect needs `.tasks`);
    /// `pollMs` is the creation's poll hint, 0 for none.
    public static func create(
        dialect: TaskDialect,
        taskId: [UInt8],
        capabilities: Set<Capability>,
        taskIdIsJson: Bool = false,
        clientName: String? = nil,
        clientVersion: String? = nil,
        sendClientInfo: Bool = true,
        pollMs: UInt64 = 0,
        firstId: Int64 = 0,
        limits: TaskLimits? = nil
    ) throws -> MrtrTask {
        let size = try workspaceSize(limits: limits)
        let ws = allocWorkspace(size)
        var limitsC = limits?.c ?? mrtr_task_limits()
        let name = clientName.map { Array($0.utf8) + [0] }
        let version = clientVersion.map { Array($0.utf8) + [0] }
        var handle: OpaquePointer?
        let st: mrtr_status = withOptStr(name) { n in
            withOptStr(version) { v in
                withStr(taskId) { id in
                    withUnsafeMutablePointer(to: &limitsC) { lp in
                        var cfg = mrtr_task_config()
                        cfg.dialect = dialect.rawValue
                        cfg.task_id = id
                        cfg.flags = (taskIdIsJson ? 1 : 0) | (sendClientInfo ? 0 : 2) // MRTR_TASK_ID_JSON, MRTR_TASK_NO_CLIENT_INFO
                        cfg.caps = Capability.bits(capabilities)
                        cfg.client_name = n
                        cfg.client_version = v
                        cfg.poll_ms = pollMs
                        cfg.first_id = firstId
                        cfg.limits = limits == nil ? nil : UnsafePointer(lp)
                        return mrtr_task_init(ws, size, &cfg, &handle)
                    }
                }
            }
        }
        if st != MRTR_OK {
            freeWorkspace(ws, size)
            throw MrtrError(rawCode: Int32(st.rawValue), operation: "mrtr_task_init")
        }
        return MrtrTask(ws: ws, size: size)
    }

    /// Follows the task of a `.taskCreated` event, declaring `capabilities` (those of the
    /// call). `firstId`: the creating call's `nextId` keeps ids unique on a shared connection.
    public static func fromEvent(
        _ event: CallEvent,
        capabilities: Set<Capability>,
        clientName: String? = nil,
        clientVersion: String? = nil,
        firstId: Int64 = 0,
        limits: TaskLimits? = nil
    ) throws -> MrtrTask {
        guard case .taskCreated(let taskId, let dialect, _, let pollMs) = event else {
            throw MrtrError(rawCode: Int32(MRTR_ERR_INVALID_ARGUMENT.rawValue), operation: "MrtrTask.fromEvent")
        }
        return try create(
            dialect: dialect, taskId: taskId, capabilities: capabilities, taskIdIsJson: true, clientName: clientName,
            clientVersion: clientVersion, pollMs: pollMs ?? 0, firstId: firstId, limits: limits)
    }

    /// Restores a task from `save()` bytes (untrusted: validated again) under `limits`.
    public static func restore(_ saved: [UInt8], limits: TaskLimits? = nil) throws -> MrtrTask {
        let size = try workspaceSize(limits: limits)
        let ws = allocWorkspace(size)
        var limitsC = limits?.c ?? mrtr_task_limits()
        var handle: OpaquePointer?
        let st = saved.withUnsafeBufferPointer { s in
            withUnsafeMutablePointer(to: &limitsC) { lp in
                mrtr_task_restore(ws, size, limits == nil ? nil : UnsafePointer(lp), s.baseAddress, s.count, &handle)
            }
        }
        if st != MRTR_OK {
            freeWorkspace(ws, size)
            throw MrtrError(rawCode: Int32(st.rawValue), operation: "mrtr_task_restore")
        }
        return MrtrTask(ws: ws, size: size)
    }

    /// The task's phase.
    public var phase: Phase {
        get throws {
            try locked { h in
                var p = mrtr_phase(rawValue: 0)
                try check(mrtr_task_state(h, &p), "mrtr_task_state")
                return Phase(rawValue: p.rawValue) ?? .failed
            }
        }
    }

    /// The number of `input_required` results received so far.
    public var round: UInt32 {
        get throws { try locked { h in var r: UInt32 = 0; try check(mrtr_task_round(h, &r), "mrtr_task_round"); return r } }
    }

    /// The id to use for the next leg.
    public var nextId: Int64 {
        get throws { try locked { h in try nextIdLocked(h) } }
    }

    /// The last JSON-RPC id the task used, nil before the first request.
    public var lastId: Int64? {
        get throws {
            try locked { h in
                var id: Int64 = 0
                let st = mrtr_task_last_id(h, &id)
                if st == MRTR_ERR_NOT_FOUND { return nil }
                try check(st, "mrtr_task_last_id")
                return id
            }
        }
    }

    /// The request `writeRequest` sends next (in `ready`) or the one in flight (in `sent`).
    public var nextRequest: TaskRequest {
        get throws {
            try locked { h in
                var r = mrtr_task_request(rawValue: 0)
                try check(mrtr_task_next_request(h, &r), "mrtr_task_next_request")
                guard let v = TaskRequest(rawValue: r.rawValue) else {
                    throw MrtrError(rawCode: Int32(MRTR_ERR_INTERNAL.rawValue), operation: "mrtr_task_next_request")
                }
                return v
            }
        }
    }

    /// The current poll interval: the server's latest hint or the default, clamped by the limits.
    public var pollMs: UInt64 {
        get throws { try locked { h in var ms: UInt64 = 0; try check(mrtr_task_poll_ms(h, &ms), "mrtr_task_poll_ms"); return ms } }
    }

    /// Writes the next leg with JSON-RPC `id` (nil: `nextId`) (`ready` -> `sent`): the bytes to send.
    public func writeRequest(id: Int64? = nil) throws -> [UInt8] {
        try locked { h in
            let i = try id ?? nextIdLocked(h)
            return try writeOut("mrtr_task_write_request", guess: 1024) { out, cap, w in mrtr_task_write_request(h, i, out, cap, w) }
        }
    }

    /// Writes `tasks/cancel` (from `ready`, `sent` or `answering`); the acknowledgement is `.taskCancelled`.
    public func writeCancel(id: Int64? = nil) throws -> [UInt8] {
        try locked { h in
            let i = try id ?? nextIdLocked(h)
            return try writeOut("mrtr_task_write_cancel", guess: 1024) { out, cap, w in mrtr_task_write_cancel(h, i, out, cap, w) }
        }
    }

    /// After a transport failure (`sent`): the request in flight again, with a fresh `id`.
    public func resend(id: Int64? = nil) throws -> [UInt8] {
        try locked { h in
            let i = try id ?? nextIdLocked(h)
            return try writeOut("mrtr_task_resend", guess: 1024) { out, cap, w in mrtr_task_resend(h, i, out, cap, w) }
        }
    }

    /// Feeds one complete JSON-RPC message the transport received while `sent`. Terminal
    /// errors throw and leave the task `failed` (`failure()` tells why).
    public func feed(_ message: [UInt8]) throws -> CallEvent {
        try locked { h in
            var ev = mrtr_event()
            let st = message.withUnsafeBufferPointer { mrtr_task_feed(h, $0.baseAddress, $0.count, &ev) }
            try check(st, "mrtr_task_feed")
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
            default: throw MrtrError(rawCode: Int32(MRTR_ERR_INTERNAL.rawValue), operation: "mrtr_task_feed")
            }
        }
    }

    /// The number of input requests of the current round.
    public var inputCount: Int {
        get throws { try locked { h in var n = 0; try check(mrtr_task_input_count(h, &n), "mrtr_task_input_count"); return n } }
    }

    /// Input request `index` of the current round.
    public func input(_ index: Int) throws -> InputRequest { try locked { h in try inputLocked(h, index) } }

    /// Every input request of the current round, in the server's order.
    public func inputs() throws -> [InputRequest] { try locked { h in try inputsLocked(h) } }

    /// The index of the input whose key is `key` (compared after decoding escapes).
    public func indexOf(_ key: String) throws -> Int {
        try locked { h in
            var i = 0
            try withStr(Array(key.utf8)) { k in try check(mrtr_task_input_find(h, k, &i), "mrtr_task_input_find") }
            return i
        }
    }

    /// Answers elicitation `index`. `content` (a JSON object) goes with a form `accept` only;
    /// it is checked against the form first, and a failing check throws `.invalidValue`
    /// with its `FormError`.
    public func answerElicit(_ index: Int, action: ElicitAction, content: [UInt8]? = nil) throws {
        try locked { h in
            // Only the kind and the schema are needed: no field list is built here.
            var i = mrtr_input()
            try check(mrtr_task_input_at(h, index, &i), "mrtr_task_input_at")
            if let content, action == .accept, i.kind == MRTR_INPUT_ELICIT_FORM,
               let problem = try Form.validate(bytes(i.requested_schema), content) {
                var e = MrtrError(rawCode: Int32(MRTR_ERR_INVALID_VALUE.rawValue), operation: "mrtr_form_validate")
                e.formError = problem
                throw e
            }
            try withStr(content ?? []) { c in
                try check(mrtr_task_answer_elicit(h, index, action.rawValue, c), "mrtr_task_answer_elicit")
            }
        }
    }

    /// Answers input `index` with a raw JSON result (a `CreateMessageResult` for sampling).
    public func answerJson(_ index: Int, _ json: [UInt8]) throws {
        try locked { h in try withStr(json) { j in try check(mrtr_task_answer_json(h, index, j), "mrtr_task_answer_json") } }
    }

    /// Answers `roots/list` input `index`.
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
                    try check(mrtr_task_answer_roots(h, index, cRoots, cRoots.count), "mrtr_task_answer_roots")
                }
            }
        }
    }

    /// The application will not answer input `index`: the task ends `failed`.
    public func answerError(_ index: Int, code: Int64) throws {
        try locked { h in try check(mrtr_task_answer_error(h, index, code), "mrtr_task_answer_error") }
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

    /// The final result object: a copy out of `fed`, the exact message whose feeding completed the task.
    public func result(_ fed: [UInt8]) throws -> [UInt8] {
        try locked { h in
            var r = mrtr_str()
            return try fed.withUnsafeBufferPointer { f in
                try check(mrtr_task_result(h, f.baseAddress, f.count, &r), "mrtr_task_result")
                return bytes(r)
            }
        }
    }

    /// A versioned record of the task (in `ready`, `sent` or `answering`) for `restore`.
    public func save() throws -> [UInt8] {
        try locked { h in try writeOut("mrtr_task_save", guess: 4096) { out, cap, w in mrtr_task_save(h, out, cap, w) } }
    }

    /// Why the task is `failed`, or nil when it has not failed.
    public func failure() throws -> Failure? {
        try locked { h in
            var f = mrtr_failure()
            let st = mrtr_task_failure(h, &f)
            if st == MRTR_ERR_WRONG_STATE { return nil }
            try check(st, "mrtr_task_failure")
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

    private func nextIdLocked(_ h: OpaquePointer) throws -> Int64 {
        var id: Int64 = 0
        try check(mrtr_task_next_id(h, &id), "mrtr_task_next_id")
        return id
    }

    private func inputsLocked(_ h: OpaquePointer) throws -> [InputRequest] {
        var n = 0
        try check(mrtr_task_input_count(h, &n), "mrtr_task_input_count")
        return try (0..<n).map { try inputLocked(h, $0) }
    }

    private func inputLocked(_ h: OpaquePointer, _ index: Int) throws -> InputRequest {
        var i = mrtr_input()
        try check(mrtr_task_input_at(h, index, &i), "mrtr_task_input_at")
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
            throw MrtrError(rawCode: Int32(MRTR_ERR_INTERNAL.rawValue), operation: "mrtr_task_input_at")
        }
    }

    /// A decoded text field of input `index`; nil when the input has none.
    private func inputText(_ h: OpaquePointer, _ index: Int, _ field: UInt32) throws -> String? {
        do {
            let b = try writeOut("mrtr_task_input_text", guess: 256) { out, cap, w in
                mrtr_task_input_text(h, index, field, out, cap, w)
            }
            return String(decoding: b, as: UTF8.self)
        } catch let e as MrtrError where e.code == .notFound {
            return nil
        }
    }
}

