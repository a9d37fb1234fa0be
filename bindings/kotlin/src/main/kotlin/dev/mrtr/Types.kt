package dev.mrtr

/**
 * The method of a call (`mrtr_method`).
 *
 * @property code The entry's C value (`mrtr_method`).
 * @property wireName The JSON-RPC method name.
 */
enum class CallMethod(val code: Int, val wireName: String) {
    /** `tools/call` (params need `name`). */
    TOOLS_CALL(1, "tools/call"),
    /** `prompts/get` (params need `name`). */
    PROMPTS_GET(2, "prompts/get"),
    /** `resources/read` (params need `uri`). */
    RESOURCES_READ(3, "resources/read"),
}

/**
 * A client capability a call declares on every leg (`MRTR_CAP_*`): the server may only ask these kinds.
 *
 * @property bit The entry's C bit (`MRTR_CAP_*`).
 */
enum class Capability(val bit: Int) {
    /** Capability bit: form-mode elicitation (`elicitation.form`). */
    ELICITATION_FORM(1),
    /** Capability bit: URL-mode elicitation (`elicitation.url`). */
    ELICITATION_URL(1 shl 1),
    /** Capability bit: sampling (`sampling`). */
    SAMPLING(1 shl 2),
    /** Capability bit: sampling with tools (`sampling.tools`; implies sampling). */
    SAMPLING_TOOLS(1 shl 3),
    /** Capability bit: sampling with context inclusion (`sampling.context`; implies sampling). */
    SAMPLING_CONTEXT(1 shl 4),
    /** Capability bit: roots (`roots`). */
    ROOTS(1 shl 5),
    /** Capability bit: the Tasks extension (`extensions["io.modelcontextprotocol/tasks"]`). */
    TASKS(1 shl 6),
    ;

    companion object {
        internal fun bits(caps: Set<Capability>): Int = caps.fold(0) { acc, c -> acc or c.bit }
    }
}

/**
 * Where a call is in its flow (`mrtr_phase`).
 *
 * @property code The entry's C value (`mrtr_phase`).
 */
enum class Phase(val code: Int) {
    /** Write the next request. */
    READY(1),
    /** A request is in flight: feed what arrives. */
    SENT(2),
    /** Answer every input. */
    ANSWERING(3),
    /** Finished: result, JSON-RPC error, or failed/cancelled task. */
    DONE(4),
    /** Ended by an error: `failure()` says why. */
    FAILED(5),
    ;

    internal companion object {
        fun of(code: Long): Phase = entries.firstOrNull { it.code.toLong() == code }
            ?: throw exceptionFor(Status.ERR_INTERNAL.code, "unknown phase $code")
    }
}

/**
 * Every capacity and cap of a call and of the task it may become (`mrtr_call_limits`).
 * [DEFAULT] comes from the library (1 MiB messages, depth 32, 64 inputs of keys up to
 * 256 bytes, params/inputs/answers 16 KiB, `requestState` 4 KiB, 10 rounds, 3 state-only
 * rounds, backoff 50 ms doubling to 250 ms, 100,000 polls every 1 s unless the server
 * hints, clamped to 100 ms .. 60 s); change fields with `copy`.
 */
data class CallLimits(
    /** Largest server message, bytes (default 1 MiB). */
    val maxMessageBytes: Long,
    /** Deepest JSON nesting (default 32; 4 to the library's maximum depth). */
    val maxDepth: Long,
    /** Most inputs in one round (default 64; 1 to 256; 23 workspace bytes each). */
    val maxInputRequests: Long,
    /** Longest input key, decoded bytes (default 256; at least 1). */
    val maxKeyBytes: Long,
    /** The params as sent, `_meta` included, or a task's `_meta` and id, bytes (default 16 KiB). */
    val maxParamsBytes: Long,
    /** One round's `inputRequests`, bytes (default 16 KiB). */
    val maxInputsBytes: Long,
    /** The `requestState` token, quotes included, bytes (default 4 KiB). */
    val maxStateBytes: Long,
    /** One round's answers, JSON bytes (default 16 KiB). */
    val maxAnswersBytes: Long,
    /** Most `input_required` rounds (default 10). */
    val maxRounds: Long,
    /** Most consecutive state-only rounds (default 3). */
    val maxStateOnlyRounds: Long,
    /** Wait after the first state-only round, ms (default 50). */
    val backoffInitialMs: Long,
    /** Ceiling of the doubling state-only backoff, ms (default 250). */
    val backoffMaxMs: Long,
    /** Most `tasks/get` requests of a task (default 100,000). */
    val maxPolls: Long,
    /** Poll interval when the server gives none, ms (default 1,000). */
    val defaultPollMs: Long,
    /** Poll interval floor, ms (default 100). */
    val minPollMs: Long,
    /** Poll interval ceiling, ms (default 60,000). */
    val maxPollMs: Long,
) {
    internal fun toLongs(): LongArray {
        val v = LongArray(Slots.LIMITS_LEN)
        v[Slots.LIMITS_MAX_MESSAGE_BYTES] = maxMessageBytes
        v[Slots.LIMITS_MAX_DEPTH] = maxDepth
        v[Slots.LIMITS_MAX_INPUT_REQUESTS] = maxInputRequests
        v[Slots.LIMITS_MAX_KEY_BYTES] = maxKeyBytes
        v[Slots.LIMITS_MAX_PARAMS_BYTES] = maxParamsBytes
        v[Slots.LIMITS_MAX_INPUTS_BYTES] = maxInputsBytes
        v[Slots.LIMITS_MAX_STATE_BYTES] = maxStateBytes
        v[Slots.LIMITS_MAX_ANSWERS_BYTES] = maxAnswersBytes
        v[Slots.LIMITS_MAX_ROUNDS] = maxRounds
        v[Slots.LIMITS_MAX_STATE_ONLY_ROUNDS] = maxStateOnlyRounds
        v[Slots.LIMITS_BACKOFF_INITIAL_MS] = backoffInitialMs
        v[Slots.LIMITS_BACKOFF_MAX_MS] = backoffMaxMs
        v[Slots.LIMITS_MAX_POLLS] = maxPolls
        v[Slots.LIMITS_DEFAULT_POLL_MS] = defaultPollMs
        v[Slots.LIMITS_MIN_POLL_MS] = minPollMs
        v[Slots.LIMITS_MAX_POLL_MS] = maxPollMs
        return v
    }

    companion object {
        /** The library's defaults. */
        val DEFAULT: CallLimits by lazy {
            val v = LongArray(Slots.LIMITS_LEN)
            check(Native.callLimitsDefault(v), "mrtr_call_limits_default")
            CallLimits(
                v[Slots.LIMITS_MAX_MESSAGE_BYTES], v[Slots.LIMITS_MAX_DEPTH], v[Slots.LIMITS_MAX_INPUT_REQUESTS],
                v[Slots.LIMITS_MAX_KEY_BYTES], v[Slots.LIMITS_MAX_PARAMS_BYTES], v[Slots.LIMITS_MAX_INPUTS_BYTES],
                v[Slots.LIMITS_MAX_STATE_BYTES], v[Slots.LIMITS_MAX_ANSWERS_BYTES], v[Slots.LIMITS_MAX_ROUNDS],
                v[Slots.LIMITS_MAX_STATE_ONLY_ROUNDS], v[Slots.LIMITS_BACKOFF_INITIAL_MS],
                v[Slots.LIMITS_BACKOFF_MAX_MS], v[Slots.LIMITS_MAX_POLLS], v[Slots.LIMITS_DEFAULT_POLL_MS],
                v[Slots.LIMITS_MIN_POLL_MS], v[Slots.LIMITS_MAX_POLL_MS],
            )
        }
    }
}

/**
 * Which flow a call is in (`mrtr_flow`).
 *
 * @property code The entry's C value (`mrtr_flow`).
 */
enum class Flow(val code: Int) {
    /** The call's own request and its retries. */
    CALL(1),
    /** The task the call became, or was restarted as. */
    TASK(2),
    ;

    internal companion object {
        fun of(code: Long): Flow = entries.firstOrNull { it.code.toLong() == code }
            ?: throw exceptionFor(Status.ERR_INTERNAL.code, "unknown flow $code")
    }
}

/**
 * The task request a call writes next or has in flight (`mrtr_task_request`).
 *
 * @property code The entry's C value (`mrtr_task_request`).
 */
enum class TaskRequest(val code: Int) {
    /** Not a task: the call's own request. */
    NONE(0),
    /** `tasks/get`. */
    GET(1),
    /** `tasks/result` (seed dialect). */
    RESULT(2),
    /** The answers: `tasks/input_response` (seed), `tasks/update` (extension). */
    RESPOND(3),
    /** `tasks/cancel`. */
    CANCEL(4),
    ;

    internal companion object {
        fun of(code: Long): TaskRequest = entries.firstOrNull { it.code.toLong() == code }
            ?: throw exceptionFor(Status.ERR_INTERNAL.code, "unknown task request $code")
    }
}

/**
 * Where a call is (`mrtr_progress`): every scalar at once. [requestState] and [taskId] are
 * the raw JSON string tokens (null when absent); [lastId] null before the first request,
 * [nextId] null once the ids are used up.
 */
data class Progress(
    /** The phase. */
    val phase: Phase,
    /** The flow: the call's own request, or the task it became. */
    val flow: Flow,
    /** Task: the request written next or in flight (`NONE` outside a task). */
    val taskRequest: TaskRequest,
    /** Task: its dialect (`NONE` outside a task). */
    val taskDialect: TaskDialect,
    /** Input rounds received so far in the current flow. */
    val round: Long,
    /** Task: `tasks/get` requests written so far. */
    val polls: Long,
    /** Inputs asked in the current round. */
    val inputCount: Int,
    /** Inputs answered in the current round. */
    val answeredCount: Int,
    /** The last JSON-RPC id used; null before the first request. */
    val lastId: Long?,
    /** The next request's id (the first id, then the last id + 1); null once the ids are used up (past 2^53-1). */
    val nextId: Long?,
    /** Task: the poll interval, ms (the server's hint, clamped to the limits). */
    val pollMs: Long,
    /** The `requestState` the next request echoes, the raw JSON string token; null when none. */
    val requestState: ByteArray?,
    /** Task: the task id as sent, the raw JSON string token; null outside a task. */
    val taskId: ByteArray?,
)

/**
 * A task protocol (`mrtr_task_dialect`).
 *
 * @property code The entry's C value (`mrtr_task_dialect`).
 */
enum class TaskDialect(val code: Int) {
    /** Not a task. */
    NONE(0),
    /** SEP draft / 2025-11-25: `tasks/result`, `tasks/input_response`. */
    SEED(1),
    /** Tasks extension: `inputRequests` on `tasks/get`, `tasks/update`. */
    EXTENSION(2),
    ;

    internal companion object {
        fun of(code: Long) = entries.firstOrNull { it.code.toLong() == code } ?: NONE
    }
}

/**
 * The status of a task (`mrtr_task_status`).
 *
 * @property code The entry's C value (`mrtr_task_status`).
 */
enum class TaskStatus(val code: Int) {
    /** Not a task. */
    NONE(0),
    /** `working`. */
    WORKING(1),
    /** `input_required`. */
    INPUT_REQUIRED(2),
    /** `completed`. */
    COMPLETED(3),
    /** `failed`. */
    FAILED(4),
    /** `cancelled`. */
    CANCELLED(5),
    ;

    internal companion object {
        fun of(code: Long) = entries.firstOrNull { it.code.toLong() == code } ?: NONE
    }
}

/** What a fed message meant (`mrtr_event`). Byte fields are copies; nothing points into the call. */
sealed class CallEvent {
    /**
     * The final result object (raw JSON). The call is done.
     *
     * @property result The result object, raw JSON.
     */
    class Complete(val result: ByteArray) : CallEvent()

    /**
     * The server asked questions: answer every one, then write the next request.
     *
     * @property inputs The round's questions, in the server's order.
     */
    class InputRequired(val inputs: List<InputRequest>) : CallEvent()

    /**
     * A state-only round: write the next request after [waitMs] milliseconds.
     *
     * @property waitMs Milliseconds to wait before writing the next request.
     */
    data class RetryAfter(val waitMs: Long) : CallEvent()

    /**
     * A JSON-RPC error response. The call is done.
     *
     * @property code The JSON-RPC error code.
     * @property message The error message, decoded.
     * @property data The error's `data`, raw JSON; null when absent.
     */
    class RpcError(val code: Long, val message: String, val data: ByteArray?) : CallEvent()

    /**
     * The server moved the call to a task, which the same [MrtrCall] now follows ([MrtrCall.progress]
     * says `TASK`, `READY` for its first `tasks/get` after [MrtrCall.progress]`.pollMs`). [taskId] is
     * the JSON string token as the server wrote it: store it to restart the task later
     * ([MrtrCall.restartTask]).
     *
     * @property taskId The task id, the JSON string token as the server wrote it.
     * @property dialect The task protocol the server speaks.
     * @property status The task's status at creation.
     * @property pollMs The server's poll hint, ms; null when it gave none.
     */
    class TaskCreated(
        val taskId: ByteArray,
        val dialect: TaskDialect,
        val status: TaskStatus,
        val pollMs: Long?,
    ) : CallEvent()

    /** Not the answer to the request in flight (another id, a notification): nothing changed. */
    object Unrelated : CallEvent()

    /**
     * Task: wait [waitMs], then write the next request (`tasks/get`).
     *
     * @property waitMs Milliseconds to wait before the next `tasks/get`.
     */
    data class TaskPoll(val waitMs: Long) : CallEvent()

    /** Task: write the next request now (seed dialect: `tasks/result`). */
    object TaskNext : CallEvent()

    /**
     * Task: the task failed with a JSON-RPC error (Tasks extension). The task is done.
     *
     * @property code The JSON-RPC error code.
     * @property message The error message, decoded.
     * @property data The error's `data`, raw JSON; null when absent.
     */
    class TaskFailed(val code: Long, val message: String, val data: ByteArray?) : CallEvent()

    /** Task: the task was cancelled. The task is done. */
    object TaskCancelled : CallEvent()
}

/** Why a call ended `FAILED` (`mrtr_failure`). */
data class Failure(
    /** The status the failing function returned; null for a code this binding does not know. */
    val status: Status?,
    /** The cause; null for a kind this binding does not know. */
    val kind: FailureKind?,
    /** The precise cause's name (`"TooDeep"`, `"UndeclaredCapability"`, ...), for logs. */
    val reason: String,
    /** `JSON`: the byte offset where reading stopped. */
    val offset: Long,
    /** `ANSWERED_WITH_ERROR`: the index of the input answered with an error. */
    val index: Long,
    /** `ANSWERED_WITH_ERROR`: the application's error code. */
    val code: Long,
    /** `INPUTS_TOO_LARGE`, `STATE_TOO_LARGE`: the bytes needed. */
    val needed: Long,
    /** `*_TOO_LARGE`, `TOO_MANY_*`: the limit that was exceeded. */
    val limit: Long,
)

/**
 * The cause of a failure (`mrtr_failure_kind`).
 *
 * @property code The entry's C value (`mrtr_failure_kind`).
 */
enum class FailureKind(val code: Int) {
    /** Not acceptable JSON (syntax, UTF-8, depth, size); see `offset`. */
    JSON(1),
    /** Not a JSON-RPC 2.0 message. */
    ENVELOPE(2),
    /** Breaks an MRTR rule; `reason` names which. */
    PROTOCOL(3),
    /** `inputRequests` over `maxInputsBytes` (`needed`, `limit`). */
    INPUTS_TOO_LARGE(4),
    /** `requestState` over `maxStateBytes` (`needed`, `limit`). */
    STATE_TOO_LARGE(5),
    /** More rounds than `maxRounds` (`limit`). */
    TOO_MANY_ROUNDS(6),
    /** More consecutive state-only rounds than `maxStateOnlyRounds` (`limit`). */
    TOO_MANY_STATE_ONLY_ROUNDS(7),
    /** More `tasks/get` requests than `maxPolls` (`limit`). */
    TOO_MANY_POLLS(8),
    /** The application answered input `index` with error `code`. */
    ANSWERED_WITH_ERROR(9),
}

/**
 * The answer to an elicitation (`MRTR_ELICIT_*`).
 *
 * @property code The entry's C value (`MRTR_ELICIT_*`).
 */
enum class ElicitAction(val code: Int) {
    /** Elicitation action: submitted or confirmed. */
    ACCEPT(1),
    /** Elicitation action: explicitly declined. */
    DECLINE(2),
    /** Elicitation action: dismissed. */
    CANCEL(3),
}

/**
 * One root of a `roots/list` answer: a plain `file://` URI and an optional display name.
 *
 * @property uri A plain `file://` URI.
 * @property name The name to show for it; null for none.
 */
data class Root(val uri: String, val name: String? = null)

/**
 * One HTTP header of a POST ([Mrtr.httpHeadersForToolCall]), ready to send.
 *
 * @property name The header's name.
 * @property value The header's value, ready to send.
 */
data class HttpHeader(val name: String, val value: String)

/**
 * One tool of a `tools/list` page ([Mrtr.toolList]): its decoded [name], the
 * name's JSON token [nameJson] as the server wrote it, the raw [inputSchema],
 * whether the client may call it ([usable] is false when its `x-mcp-header`
 * designations are invalid, SEP-2243) and how many arguments it designates.
 */
class Tool(
    /** The tool's name, escapes decoded. */
    val name: String,
    /** The name's JSON string token as the server wrote it, quotes included. */
    val nameJson: ByteArray,
    /** The tool's `inputSchema`, raw JSON. */
    val inputSchema: ByteArray,
    /** False when its `x-mcp-header` designations are invalid (SEP-2243): do not call it. */
    val usable: Boolean,
    /** How many of its input properties carry an `x-mcp-header` designation (0 when not usable). */
    val designationCount: Int,
)

/**
 * One `tools/list` page: the readable [tools] in list order, how many
 * entries were [malformed] (left out), and the next page's cursor as its
 * JSON token ([nextCursor], null on the last page).
 *
 * @property tools The readable tools, in list order.
 * @property malformed How many entries were malformed and left out.
 * @property nextCursor The next page's cursor as its JSON token; null on the last page.
 */
class ToolPage(val tools: List<Tool>, val malformed: Int, val nextCursor: ByteArray?)

/** What the application answers to one [InputRequest]. */
sealed class InputAnswer {
    /**
     * Elicitation accepted; [content] is the form's answer as a JSON object (form mode only; null for URL mode).
     *
     * @property content The form's answer as a JSON object; null for URL mode.
     */
    class Accept(val content: ByteArray? = null) : InputAnswer()

    /** Elicitation explicitly declined. */
    object Decline : InputAnswer()

    /** Elicitation dismissed without a choice. */
    object Cancel : InputAnswer()

    /**
     * A raw JSON result: a `CreateMessageResult` for sampling (or an `ElicitResult` / `ListRootsResult`).
     *
     * @property json The answer, raw JSON.
     */
    class Json(val json: ByteArray) : InputAnswer()

    /**
     * The roots for a `roots/list` request.
     *
     * @property roots The roots the user shares.
     */
    class Roots(val roots: List<Root>) : InputAnswer()

    /**
     * The application cannot answer: the call ends `FAILED` (MRTR has no error input response).
     *
     * @property code The application's error code, reported in the call's `Failure.code`.
     */
    class Error(val code: Long) : InputAnswer()
}

/** Answers the questions of a call's rounds, for [run]. */
fun interface InputHandler {
    /** The answer to [input]; may suspend (show a form, run a model). */
    suspend fun answer(input: InputRequest): InputAnswer
}
