import CMrtr

/// The method of a call (`mrtr_method`).
public enum CallMethod: UInt32, Sendable, CaseIterable {
    /// `tools/call` (params need `name`).
    case toolsCall = 1
    /// `prompts/get` (params need `name`).
    case promptsGet = 2
    /// `resources/read` (params need `uri`).
    case resourcesRead = 3

    /// The JSON-RPC method name.
    public var wireName: String {
        switch self {
        case .toolsCall: return "tools/call"
        case .promptsGet: return "prompts/get"
        case .resourcesRead: return "resources/read"
        }
    }
}

/// A client capability a call declares on every leg (`MRTR_CAP_*`): the server may only ask these kinds.
public enum Capability: UInt32, Sendable, CaseIterable {
    /// Capability bit: form-mode elicitation (`elicitation.form`).
    case elicitationForm = 1
    /// Capability bit: URL-mode elicitation (`elicitation.url`).
    case elicitationUrl = 2
    /// Capability bit: sampling (`sampling`).
    case sampling = 4
    /// Capability bit: sampling with tools (`sampling.tools`; implies sampling).
    case samplingTools = 8
    /// Capability bit: sampling with context inclusion (`sampling.context`; implies sampling).
    case samplingContext = 16
    /// Capability bit: roots (`roots`).
    case roots = 32
    /// Capability bit: the Tasks extension (`extensions["io.modelcontextprotocol/tasks"]`).
    case tasks = 64

    static func bits(_ caps: Set<Capability>) -> UInt32 { caps.reduce(0) { $0 | $1.rawValue } }
}

/// Where a call is in its flow (`mrtr_phase`).
public enum Phase: UInt32, Sendable, CaseIterable {
    /// Write the next request.
    case ready = 1
    /// A request is in flight: feed what arrives.
    case sent = 2
    /// Answer every input.
    case answering = 3
    /// Finished: result, JSON-RPC error, or failed/cancelled task.
    case done = 4
    /// Ended by an error: `failure()` says why.
    case failed = 5
}

/// Every capacity and cap of a call and of the task it may become (`mrtr_call_limits`).
/// `CallLimits.default` comes from the library (1 MiB messages, depth 32, 64 inputs of keys up
/// to 256 bytes, params/inputs/answers 16 KiB, `requestState` 4 KiB, 10 rounds, 3 state-only
/// rounds, backoff 50 ms doubling to 250 ms, 100,000 polls every 1 s unless the server hints,
/// clamped to 100 ms .. 60 s).
public struct CallLimits: Sendable, Equatable {
    /// Largest server message, bytes (default 1 MiB).
    public var maxMessageBytes: Int
    /// Deepest JSON nesting (default 32; 4 to the library's maximum depth).
    public var maxDepth: Int
    /// Most inputs in one round (default 64; 1 to 256; 23 workspace bytes each).
    public var maxInputRequests: Int
    /// Longest input key, decoded bytes (default 256; at least 1).
    public var maxKeyBytes: Int
    /// The params as sent, `_meta` included, or a task's `_meta` and id, bytes (default 16 KiB).
    public var maxParamsBytes: Int
    /// One round's `inputRequests`, bytes (default 16 KiB).
    public var maxInputsBytes: Int
    /// The `requestState` token, quotes included, bytes (default 4 KiB).
    public var maxStateBytes: Int
    /// One round's answers, JSON bytes (default 16 KiB).
    public var maxAnswersBytes: Int
    /// Most `input_required` rounds (default 10).
    public var maxRounds: UInt32
    /// Most consecutive state-only rounds (default 3).
    public var maxStateOnlyRounds: UInt32
    /// Wait after the first state-only round, ms (default 50).
    public var backoffInitialMs: UInt32
    /// Ceiling of the doubling state-only backoff, ms (default 250).
    public var backoffMaxMs: UInt32
    /// Most `tasks/get` requests of a task (default 100,000).
    public var maxPolls: UInt32
    /// Poll interval when the server gives none, ms (default 1,000).
    public var defaultPollMs: UInt64
    /// Poll interval floor, ms (default 100).
    public var minPollMs: UInt64
    /// Poll interval ceiling, ms (default 60,000).
    public var maxPollMs: UInt64

    var c: mrtr_call_limits {
        mrtr_call_limits(
            max_message_bytes: maxMessageBytes, max_depth: maxDepth, max_input_requests: maxInputRequests,
            max_key_bytes: maxKeyBytes, max_params_bytes: maxParamsBytes, max_inputs_bytes: maxInputsBytes,
            max_state_bytes: maxStateBytes, max_answers_bytes: maxAnswersBytes, max_rounds: maxRounds,
            max_state_only_rounds: maxStateOnlyRounds, backoff_initial_ms: backoffInitialMs, backoff_max_ms: backoffMaxMs,
            max_polls: maxPolls, default_poll_ms: defaultPollMs, min_poll_ms: minPollMs, max_poll_ms: maxPollMs)
    }

    /// The library's defaults.
    public static let `default`: CallLimits = {
        var l = mrtr_call_limits()
        _ = mrtr_call_limits_default(&l)
        return CallLimits(
            maxMessageBytes: l.max_message_bytes, maxDepth: l.max_depth, maxInputRequests: l.max_input_requests,
            maxKeyBytes: l.max_key_bytes, maxParamsBytes: l.max_params_bytes, maxInputsBytes: l.max_inputs_bytes,
            maxStateBytes: l.max_state_bytes, maxAnswersBytes: l.max_answers_bytes, maxRounds: l.max_rounds,
            maxStateOnlyRounds: l.max_state_only_rounds, backoffInitialMs: l.backoff_initial_ms, backoffMaxMs: l.backoff_max_ms,
            maxPolls: l.max_polls, defaultPollMs: l.default_poll_ms, minPollMs: l.min_poll_ms, maxPollMs: l.max_poll_ms)
    }()
}

/// Which flow a call is in (`mrtr_flow`).
public enum Flow: UInt32, Sendable, CaseIterable {
    /// The call's own request and its retries.
    case call = 1
    /// The task the call became, or was restarted as.
    case task = 2
}

/// The task request a call writes next or has in flight (`mrtr_task_request`).
public enum TaskRequest: UInt32, Sendable, CaseIterable {
    /// Not a task: the call's own request.
    case none = 0
    /// `tasks/get`.
    case get = 1
    /// `tasks/result` (seed dialect).
    case result = 2
    /// The answers: `tasks/input_response` (seed), `tasks/update` (extension).
    case respond = 3
    /// `tasks/cancel`.
    case cancel = 4
}

/// Where a call is (`mrtr_progress`): every scalar at once. `requestState` and `taskId` are the
/// raw JSON string tokens (nil when absent); `lastId` nil before the first request, `nextId`
/// nil once the ids are used up.
public struct Progress: Sendable, Equatable {
    /// The phase.
    public let phase: Phase
    /// The flow: the call's own request, or the task it became.
    public let flow: Flow
    /// Task: the request written next or in flight (`.none` outside a task).
    public let taskRequest: TaskRequest
    /// Task: its dialect (`.none` outside a task).
    public let taskDialect: TaskDialect
    /// Input rounds received so far in the current flow.
    public let round: UInt32
    /// Task: `tasks/get` requests written so far.
    public let polls: UInt32
    /// Inputs asked in the current round.
    public let inputCount: Int
    /// Inputs answered in the current round.
    public let answeredCount: Int
    /// The last JSON-RPC id used; nil before the first request.
    public let lastId: Int64?
    /// The next request's id (the first id, then the last id + 1); nil once the ids are used up (past 2^53-1).
    public let nextId: Int64?
    /// Task: the poll interval, ms (the server's hint, clamped to the limits).
    public let pollMs: UInt64
    /// The `requestState` the next request echoes, the raw JSON string token; nil when none.
    public let requestState: [UInt8]?
    /// Task: the task id as sent, the raw JSON string token; nil outside a task.
    public let taskId: [UInt8]?
}

/// A task protocol (`mrtr_task_dialect`).
public enum TaskDialect: UInt32, Sendable, CaseIterable {
    /// Not a task.
    case none = 0
    /// SEP draft / 2025-11-25: `tasks/result`, `tasks/input_response`.
    case seed = 1
    /// Tasks extension: `inputRequests` on `tasks/get`, `tasks/update`.
    case `extension` = 2
}

/// The status of a task (`mrtr_task_status`).
public enum TaskStatus: UInt32, Sendable, CaseIterable {
    /// Not a task.
    case none = 0
    /// `working`.
    case working = 1
    /// `input_required`.
    case inputRequired = 2
    /// `completed`.
    case completed = 3
    /// `failed`.
    case failed = 4
    /// `cancelled`.
    case cancelled = 5
}

/// What a fed message meant (`mrtr_event`). Byte fields are copies; nothing points into the call.
public enum CallEvent: Sendable, Equatable {
    /// The final result object (raw JSON). The call is done.
    case complete(result: [UInt8])
    /// The server asked questions: answer every one, then write the next request.
    case inputRequired(inputs: [InputRequest])
    /// A state-only round: write the next request after `waitMs` milliseconds.
    case retryAfter(waitMs: UInt64)
    /// A JSON-RPC error response. The call is done.
    case rpcError(code: Int64, message: String, data: [UInt8]?)
    /// The server moved the call to a task, which the same `MrtrCall` now follows (`progress()`
    /// says `.task`, `ready` for its first `tasks/get` after `progress().pollMs`). `taskId` is
    /// the JSON string token as the server wrote it: store it to restart the task later
    /// (`MrtrCall.restartTask`).
    case taskCreated(taskId: [UInt8], dialect: TaskDialect, status: TaskStatus, pollMs: UInt64?)
    /// Not the answer to the request in flight (another id, a notification): nothing changed.
    case unrelated
    /// Task: wait `waitMs`, then write the next request (`tasks/get`).
    case taskPoll(waitMs: UInt64)
    /// Task: write the next request now (seed dialect: `tasks/result`).
    case taskNext
    /// Task: the task failed with a JSON-RPC error (Tasks extension). The task is done.
    case taskFailed(code: Int64, message: String, data: [UInt8]?)
    /// Task: the task was cancelled. The task is done.
    case taskCancelled
}

/// Why a call ended `failed` (`mrtr_failure`).
public struct Failure: Sendable, Equatable {
    /// The status the failing function returned; nil for a code this binding does not know.
    public let status: MrtrError.Code?
    /// The cause; nil for a kind this binding does not know.
    public let kind: FailureKind?
    /// The precise cause's name (`"TooDeep"`, `"UndeclaredCapability"`, ...), for logs.
    public let reason: String
    /// `.json`: the byte offset where reading stopped.
    public let offset: Int
    /// `.answeredWithError`: the index of the input answered with an error.
    public let index: Int
    /// `.answeredWithError`: the application's error code.
    public let code: Int64
    /// `.inputsTooLarge`, `.stateTooLarge`: the bytes needed.
    public let needed: Int
    /// `.inputsTooLarge`, `.stateTooLarge`, `.tooMany*`: the limit that was exceeded.
    public let limit: UInt64
}

/// The cause of a failure (`mrtr_failure_kind`).
public enum FailureKind: UInt32, Sendable, CaseIterable {
    /// Not acceptable JSON (syntax, UTF-8, depth, size); see `offset`.
    case json = 1
    /// Not a JSON-RPC 2.0 message.
    case envelope = 2
    /// Breaks an MRTR rule; `reason` names which.
    case `protocol` = 3
    /// `inputRequests` over `maxInputsBytes` (`needed`, `limit`).
    case inputsTooLarge = 4
    /// `requestState` over `maxStateBytes` (`needed`, `limit`).
    case stateTooLarge = 5
    /// More rounds than `maxRounds` (`limit`).
    case tooManyRounds = 6
    /// More consecutive state-only rounds than `maxStateOnlyRounds` (`limit`).
    case tooManyStateOnlyRounds = 7
    /// More `tasks/get` requests than `maxPolls` (`limit`).
    case tooManyPolls = 8
    /// The application answered input `index` with error `code`.
    case answeredWithError = 9
}

/// The answer to an elicitation (`MRTR_ELICIT_*`).
public enum ElicitAction: UInt32, Sendable, CaseIterable {
    /// Elicitation action: submitted or confirmed.
    case accept = 1
    /// Elicitation action: explicitly declined.
    case decline = 2
    /// Elicitation action: dismissed.
    case cancel = 3
}

/// One root of a `roots/list` answer: a plain `file://` URI and an optional display name.
public struct Root: Sendable, Equatable {
    /// A plain `file://` URI.
    public let uri: String
    /// The name to show for it; nil for none.
    public let name: String?
    /// A root with its `file://` `uri` and, optionally, the `name` to show for it.
    public init(uri: String, name: String? = nil) {
        self.uri = uri
        self.name = name
    }
}

/// One HTTP header of a POST (`Mrtr.httpHeadersForToolCall`), ready to send.
public struct HttpHeader: Sendable, Equatable {
    /// The header's name.
    public let name: String
    /// The header's value, ready to send.
    public let value: String
}

/// One tool of a `tools/list` page (`Mrtr.toolList`): its decoded `name`,
/// the name's JSON token `nameJson` as the server wrote it, the raw
/// `inputSchema`, whether the client may call it (`usable` is false when its
/// `x-mcp-header` designations are invalid, SEP-2243) and how many arguments
/// it designates.
public struct Tool: Sendable, Equatable {
    /// The tool's name, escapes decoded.
    public let name: String
    /// The name's JSON string token as the server wrote it, quotes included.
    public let nameJson: [UInt8]
    /// The tool's `inputSchema`, raw JSON.
    public let inputSchema: [UInt8]
    /// False when its `x-mcp-header` designations are invalid (SEP-2243): do not call it.
    public let usable: Bool
    /// How many of its input properties carry an `x-mcp-header` designation (0 when not usable).
    public let designationCount: Int
}

/// One `tools/list` page: the readable `tools` in list order, how many
/// entries were `malformed` (left out), and the next page's cursor as its
/// JSON token (`nextCursor`, nil on the last page).
public struct ToolPage: Sendable, Equatable {
    /// The readable tools, in list order.
    public let tools: [Tool]
    /// How many entries were malformed and left out.
    public let malformed: Int
    /// The next page's cursor as its JSON token; nil on the last page.
    public let nextCursor: [UInt8]?
}

/// What the application answers to one `InputRequest`.
public enum InputAnswer: Sendable, Equatable {
    /// Elicitation accepted; `content` is the form's answer as a JSON object (form mode only; nil for URL mode).
    case accept(content: [UInt8]? = nil)
    /// Elicitation explicitly declined.
    case decline
    /// Elicitation dismissed without a choice.
    case cancel
    /// A raw JSON result: a `CreateMessageResult` for sampling (or an `ElicitResult` / `ListRootsResult`).
    case json(json: [UInt8])
    /// The roots for a `roots/list` request.
    case roots(roots: [Root])
    /// The application cannot answer: the call ends `failed` (MRTR has no error input response).
    case error(code: Int64)
}

/// Answers the questions of a call's rounds, for `run`.
public protocol InputHandler: Sendable {
    /// The answer to `input`; may suspend (show a form, run a model).
    func answer(_ input: InputRequest) async throws -> InputAnswer
}
