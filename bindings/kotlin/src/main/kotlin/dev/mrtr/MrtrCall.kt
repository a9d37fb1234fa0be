package dev.mrtr

import java.nio.ByteBuffer

/**
 * One logical request (`tools/call`, `prompts/get`, `resources/read`) through all its
 * legs, and through its task when the server moves it to one: the C `mrtr_call`, one
 * handle for both, in a native workspace this object owns.
 *
 * The step API: [writeRequest] -> send -> [feed] what arrives -> on
 * [CallEvent.InputRequired] answer every input -> [writeRequest] again ... until
 * [CallEvent.Complete] or [CallEvent.RpcError]. After [CallEvent.TaskCreated] the same
 * object follows the task ([progress] says [Flow.TASK]): wait [Progress.pollMs] (then each
 * [CallEvent.TaskPoll]'s wait) before [writeRequest]; [writeCancel] cancels it. A task whose
 * id was stored is followed again with [restartTask]. [run] drives the whole loop.
 *
 * Memory: the workspace ([workspaceSize] bytes of native memory) is freed, and wiped,
 * by [close]; any use after that throws [IllegalStateException]. A call that is never
 * closed is freed by its finalizer, late: close it (`use { }`).
 * Threads: methods are synchronized; one call is one conversation, drive it from one
 * coroutine at a time.
 */
class MrtrCall private constructor(private var ws: ByteBuffer?) : AutoCloseable {
    companion object {
        /** Workspace bytes a call (and the task it may become) needs under [limits] (null: the defaults). */
        fun workspaceSize(limits: CallLimits? = null): Long {
            val out = LongArray(1)
            check(Native.callWorkspaceSize(limits?.toLongs(), out), "mrtr_call_workspace_size")
            return out[0]
        }

        /**
         * Starts a call. [params] is the params object as JSON (e.g.
         * `{"name":"get_weather","arguments":{"location":"Paris"}}`), without
         * `inputResponses`/`requestState`; [capabilities] are declared on every request;
         * [clientName]/[clientVersion] null send the library's identity;
         * [sendClientInfo] false omits `clientInfo`; [firstId] 0 means 1.
         */
        fun create(
            method: CallMethod,
            params: ByteArray,
            capabilities: Set<Capability>,
            clientName: String? = null,
            clientVersion: String? = null,
            sendClientInfo: Boolean = true,
            firstId: Long = 0,
            limits: CallLimits? = null,
        ): MrtrCall = init(
            method.code, params, capabilities, clientName, clientVersion, sendClientInfo, false, firstId,
            limits, TaskDialect.NONE, null, 0,
        )

        /**
         * Follows again a task whose id was stored: [taskId] in [dialect]. [taskIdIsJson]: the
         * id is the JSON string token as the server wrote it (as [CallEvent.TaskCreated.taskId]);
         * else plain text. [capabilities] are declared on every request (the extension dialect
         * needs [Capability.TASKS]); [pollMs] is the creation's poll hint, 0 for none.
         */
        fun restartTask(
            dialect: TaskDialect,
            taskId: ByteArray,
            capabilities: Set<Capability>,
            taskIdIsJson: Boolean = false,
            clientName: String? = null,
            clientVersion: String? = null,
            sendClientInfo: Boolean = true,
            pollMs: Long = 0,
            firstId: Long = 0,
            limits: CallLimits? = null,
        ): MrtrCall = init(
            0, null, capabilities, clientName, clientVersion, sendClientInfo, taskIdIsJson, firstId, limits,
            dialect, taskId, pollMs,
        )

        private fun init(
            method: Int,
            params: ByteArray?,
            capabilities: Set<Capability>,
            clientName: String?,
            clientVersion: String?,
            sendClientInfo: Boolean,
            taskIdIsJson: Boolean,
            firstId: Long,
            limits: CallLimits?,
            dialect: TaskDialect,
            taskId: ByteArray?,
            pollMs: Long,
        ): MrtrCall {
            val ws = allocWorkspace(workspaceSize(limits))
            val flags = (if (sendClientInfo) 0 else FLAG_NO_CLIENT_INFO) or (if (taskIdIsJson) FLAG_TASK_ID_JSON else 0)
            val reason = arrayOfNulls<String>(1)
            val st = Native.callInit(
                ws, method, params, Capability.bits(capabilities),
                clientName?.toByteArray(Charsets.UTF_8), clientVersion?.toByteArray(Charsets.UTF_8),
                flags, firstId, limits?.toLongs(), dialect.code, taskId, pollMs, LongArray(1), reason,
            )
            if (st != Status.OK.code) {
                Native.wsFree(ws)
                throw exceptionFor(st, "mrtr_call_init", reason[0])
            }
            return MrtrCall(ws)
        }

        /**
         * Restores a call or task from [save] bytes (untrusted: validated again) under [limits].
         * A refusal names its cause in [MrtrException.reason]: `"Decode"` (not a save),
         * `"Version"`, `"ProtocolVersion"`, `"TooLarge"`, `"BadLimits"`, a broken invariant.
         */
        fun restore(saved: ByteArray, limits: CallLimits? = null): MrtrCall {
            val ws = allocWorkspace(workspaceSize(limits))
            val why = why()
            val st = Native.callRestore(ws, limits?.toLongs(), saved, why)
            if (st != Status.OK.code) {
                Native.wsFree(ws)
                throw exceptionFor(st, "mrtr_call_restore", why[0])
            }
            return MrtrCall(ws)
        }

        private const val FLAG_NO_CLIENT_INFO = 1
        private const val FLAG_TASK_ID_JSON = 1 shl 1
        private const val TEXT_KEY = 1
        private const val TEXT_MESSAGE = 1 shl 1
        private const val TEXT_URL = 1 shl 2
        private const val TEXT_SYSTEM_PROMPT = 1 shl 3
    }

    private fun live(): ByteBuffer = ws ?: throw IllegalStateException("MrtrCall is closed")

    /** Where the call is: phase, flow, rounds, inputs, ids, the task's next request and poll interval. */
    @Synchronized
    fun progress(): Progress {
        val w = live()
        val v = LongArray(Slots.PROGRESS_LEN)
        val why = why()
        check(Native.callProgress(w, v, why), "mrtr_call_progress", why)
        fun view(off: Int, len: Int) = if (v[len] == 0L) null else wsBytes(w, v[off], v[len])
        return Progress(
            Phase.of(v[Slots.PROGRESS_PHASE]), Flow.of(v[Slots.PROGRESS_FLOW]),
            TaskRequest.of(v[Slots.PROGRESS_TASK_REQUEST]), TaskDialect.of(v[Slots.PROGRESS_TASK_DIALECT]),
            v[Slots.PROGRESS_ROUND], v[Slots.PROGRESS_POLLS], v[Slots.PROGRESS_INPUT_COUNT].toInt(),
            v[Slots.PROGRESS_ANSWERED_COUNT].toInt(),
            if (v[Slots.PROGRESS_HAS_LAST_ID] != 0L) v[Slots.PROGRESS_LAST_ID] else null,
            if (v[Slots.PROGRESS_HAS_NEXT_ID] != 0L) v[Slots.PROGRESS_NEXT_ID] else null,
            v[Slots.PROGRESS_POLL_MS],
            view(Slots.PROGRESS_STATE_OFF, Slots.PROGRESS_STATE_LEN),
            view(Slots.PROGRESS_TASK_ID_OFF, Slots.PROGRESS_TASK_ID_LEN),
        )
    }

    /** The phase. */
    val phase: Phase
        @Synchronized get() = progress().phase

    /** Input rounds received so far in the current flow. */
    val round: Long
        @Synchronized get() = progress().round

    /** The last JSON-RPC id used, null before the first request. */
    val lastId: Long?
        @Synchronized get() = progress().lastId

    /** The id to use for the next request; throws `LIMIT_EXCEEDED` once the ids are used up. */
    val nextId: Long
        @Synchronized get() = progress().nextId
            ?: throw exceptionFor(Status.ERR_LIMIT_EXCEEDED.code, "mrtr_call_progress: the ids are used up")

    /**
     * The `requestState` the next request echoes (decoded), null when the last round carried
     * none. For logs and audits: the call echoes it by itself, byte for byte.
     */
    val requestState: String?
        @Synchronized get() = progress().requestState?.let {
            String(decodeJsonString(it, 0, it.size), Charsets.UTF_8)
        }

    private fun write(what: String, f: (ByteBuffer?, Long, ByteArray?, LongArray?, Array<String?>?) -> Int, id: Long): ByteArray {
        val w = live()
        val why = why()
        return writeOut("mrtr_call_$what", 1024, why) { out, n -> f(w, id, out, n, why) }
    }

    /** Writes the next request with JSON-RPC [id] (`READY` -> `SENT`): the bytes to send. */
    @Synchronized
    fun writeRequest(id: Long = nextId): ByteArray = write("write_request", Native::callWriteRequest, id)

    /** After a transport failure (`SENT`): the request in flight again, with a fresh [id]. */
    @Synchronized
    fun resend(id: Long = nextId): ByteArray = write("resend", Native::callResend, id)

    /** Task flow: writes `tasks/cancel` (from `READY`, `SENT` or `ANSWERING`); the acknowledgement is [CallEvent.TaskCancelled]. */
    @Synchronized
    fun writeCancel(id: Long = nextId): ByteArray = write("write_cancel", Native::callWriteCancel, id)

    /**
     * Feeds one complete JSON-RPC message the transport received while `SENT`. Terminal
     * errors (not JSON, not JSON-RPC, an MRTR violation, an undeclared kind, a cap) throw
     * and leave the call `FAILED` ([failure] tells why); the exception's
     * [MrtrException.reason] names the cause (`"InputRequiredWithoutFields"`, ...).
     */
    @Synchronized
    fun feed(message: ByteArray): CallEvent {
        val e = LongArray(Slots.EVENT_LEN)
        val why = why()
        check(Native.callFeed(live(), message, e, why), "mrtr_call_feed", why)
        return event(message, e)
    }

    /** The workspace, for the run steps of [run]. */
    @Synchronized
    internal fun <T> withWorkspace(f: (ByteBuffer) -> T): T = f(live())

    /** The event [e] (EVENT_* slots) that feeding [message] produced. */
    @Synchronized
    internal fun event(message: ByteArray, e: LongArray): CallEvent {
        fun span(off: Int, len: Int) = message.copyOfRange(e[off].toInt(), (e[off] + e[len]).toInt())
        fun text() = String(
            decodeJsonString(message, e[Slots.EVENT_MESSAGE_OFF].toInt(), e[Slots.EVENT_MESSAGE_LEN].toInt()),
            Charsets.UTF_8,
        )
        fun data() = if (e[Slots.EVENT_DATA_LEN] == 0L) null else span(Slots.EVENT_DATA_OFF, Slots.EVENT_DATA_LEN)
        return when (e[Slots.EVENT_KIND].toInt()) {
            1 -> CallEvent.Complete(span(Slots.EVENT_RESULT_OFF, Slots.EVENT_RESULT_LEN))
            2 -> CallEvent.InputRequired(inputs())
            3 -> CallEvent.RetryAfter(e[Slots.EVENT_WAIT_MS])
            4 -> CallEvent.RpcError(e[Slots.EVENT_ERROR_CODE], text(), data())
            5 -> CallEvent.TaskCreated(
                span(Slots.EVENT_TASK_ID_OFF, Slots.EVENT_TASK_ID_LEN), TaskDialect.of(e[Slots.EVENT_TASK_DIALECT]),
                TaskStatus.of(e[Slots.EVENT_TASK_STATUS]),
                if (e[Slots.EVENT_HAS_POLL_MS] != 0L) e[Slots.EVENT_POLL_MS] else null,
            )
            6 -> CallEvent.Unrelated
            7 -> CallEvent.TaskPoll(e[Slots.EVENT_WAIT_MS])
            8 -> CallEvent.TaskNext
            9 -> CallEvent.TaskFailed(e[Slots.EVENT_ERROR_CODE], text(), data())
            10 -> CallEvent.TaskCancelled
            else -> throw exceptionFor(Status.ERR_INTERNAL.code, "mrtr_call_feed: event kind ${e[0]}")
        }
    }

    /** The number of input requests of the current round. */
    val inputCount: Int
        @Synchronized get() = progress().inputCount

    /** Every input request of the current round, in the server's order. */
    @Synchronized
    fun inputs(): List<InputRequest> = (0 until inputCount).map { input(it) }

    /** Input request [index] of the current round. */
    @Synchronized
    fun input(index: Int): InputRequest {
        val w = live()
        val v = LongArray(Slots.INPUT_LEN)
        val why = why()
        check(Native.callInputAt(w, index.toLong(), v, why), "mrtr_call_input_at", why)
        val key = text(w, index, TEXT_KEY) ?: ""
        val answered = v[Slots.INPUT_ANSWERED] != 0L
        return when (v[Slots.INPUT_KIND].toInt()) {
            1 -> {
                val schema = wsBytes(w, v[Slots.INPUT_SCHEMA_OFF], v[Slots.INPUT_SCHEMA_LEN])
                val schemaError = Form.schemaError(schema)
                InputRequest.ElicitForm(
                    index, key, answered, text(w, index, TEXT_MESSAGE) ?: "", schema,
                    if (schemaError == null) Form.fields(schema) else null, schemaError,
                )
            }
            2 -> {
                val url = text(w, index, TEXT_URL) ?: ""
                val (consent, refusal) = Form.urlConsent(url)
                InputRequest.ElicitUrl(index, key, answered, text(w, index, TEXT_MESSAGE) ?: "", url, consent, refusal)
            }
            3 -> InputRequest.Sampling(
                index, key, answered, wsBytes(w, v[Slots.INPUT_PARAMS_OFF], v[Slots.INPUT_PARAMS_LEN]),
                v[Slots.INPUT_MAX_TOKENS],
                if (v[Slots.INPUT_HAS_SYSTEM_PROMPT] != 0L) text(w, index, TEXT_SYSTEM_PROMPT) else null,
                v[Slots.INPUT_HAS_TOOLS] != 0L, v[Slots.INPUT_WANTS_CONTEXT] != 0L,
            )
            4 -> InputRequest.Roots(index, key, answered)
            else -> throw exceptionFor(Status.ERR_INTERNAL.code, "mrtr_call_input_at: kind ${v[0]}")
        }
    }

    /** The index of the input whose key is [key] (compared after decoding escapes). */
    @Synchronized
    fun indexOf(key: String): Int {
        val out = LongArray(1)
        val why = why()
        check(Native.callInputFind(live(), key.toByteArray(Charsets.UTF_8), out, why), "mrtr_call_input_find", why)
        return out[0].toInt()
    }

    /**
     * Answers elicitation [index]. [content] (a JSON object) goes with a form `ACCEPT`
     * only; the library checks it against the form (as for every language), and a
     * refused answer throws [MrtrInvalidValueException] with the library's
     * [MrtrException.reason] (`"NotAnOption"`: a value none of the field's options,
     * `"ContentRequired"`, ...) and its [FormError] (which field, and why). A form
     * outside the schema subset cannot judge content: the answer goes as it is, as in C.
     */
    @Synchronized
    fun answerElicit(index: Int, action: ElicitAction, content: ByteArray? = null) {
        val w = live()
        val why = why()
        val st = Native.callAnswerElicit(w, index.toLong(), action.code, content, why)
        if (st == Status.ERR_INVALID_VALUE.code && content != null && action == ElicitAction.ACCEPT) {
            // The library refused the content; the field and the problem come from the
            // same check (a schema the subset does not take has no details to give).
            val v = LongArray(Slots.INPUT_LEN)
            val problem = if (Native.callInputAt(w, index.toLong(), v, null) == Status.OK.code && v[Slots.INPUT_KIND] == 1L) {
                try {
                    Form.validate(wsBytes(w, v[Slots.INPUT_SCHEMA_OFF], v[Slots.INPUT_SCHEMA_LEN]), content)
                } catch (e: MrtrException) {
                    null
                }
            } else {
                null
            }
            val reason = why[0] ?: Status.ERR_INVALID_VALUE.cName
            throw MrtrInvalidValueException(
                Status.ERR_INVALID_VALUE, st,
                "mrtr_call_answer_elicit: ${Status.ERR_INVALID_VALUE.cName} ($st): $reason" +
                    (problem?.let { " (${it.field}: ${it.reason})" } ?: ""),
                problem, reason,
            )
        }
        check(st, "mrtr_call_answer_elicit", why)
    }

    /** Answers input [index] with a raw JSON result (a `CreateMessageResult` for sampling). */
    @Synchronized
    fun answerJson(index: Int, json: ByteArray) {
        val why = why()
        check(Native.callAnswerJson(live(), index.toLong(), json, why), "mrtr_call_answer_json", why)
    }

    /** Answers `roots/list` input [index]; the core checks every URI (`file://`, no dot segments). */
    @Synchronized
    fun answerRoots(index: Int, roots: List<Root>) {
        val uris = Array<ByteArray?>(roots.size) { roots[it].uri.toByteArray(Charsets.UTF_8) }
        val names = Array(roots.size) { roots[it].name?.toByteArray(Charsets.UTF_8) }
        val why = why()
        check(Native.callAnswerRoots(live(), index.toLong(), uris, names, why), "mrtr_call_answer_roots", why)
    }

    /** The application will not answer input [index]: the call ends `FAILED` (this succeeds). */
    @Synchronized
    fun answerError(index: Int, code: Long) {
        val why = why()
        check(Native.callAnswerError(live(), index.toLong(), code, why), "mrtr_call_answer_error", why)
    }

    /** Answers input [index] with [answer] (dispatches to the `answer*` functions). */
    @Synchronized
    fun answer(index: Int, answer: InputAnswer) {
        when (answer) {
            is InputAnswer.Accept -> answerElicit(index, ElicitAction.ACCEPT, answer.content)
            InputAnswer.Decline -> answerElicit(index, ElicitAction.DECLINE, null)
            InputAnswer.Cancel -> answerElicit(index, ElicitAction.CANCEL, null)
            is InputAnswer.Json -> answerJson(index, answer.json)
            is InputAnswer.Roots -> answerRoots(index, answer.roots)
            is InputAnswer.Error -> answerError(index, answer.code)
        }
    }

    /** The final result object: a copy out of [fed], the exact message whose feeding completed the call. */
    @Synchronized
    fun result(fed: ByteArray): ByteArray {
        val out = LongArray(2)
        val why = why()
        check(Native.callResult(live(), fed, out, why), "mrtr_call_result", why)
        return fed.copyOfRange(out[0].toInt(), (out[0] + out[1]).toInt())
    }

    /** A versioned record of the call or its task (in `READY`, `SENT` or `ANSWERING`) for [restore]. */
    @Synchronized
    fun save(): ByteArray {
        val w = live()
        val why = why()
        return writeOut("mrtr_call_save", 4096, why) { out, n -> Native.callSave(w, out, n, why) }
    }

    /** Why the call is `FAILED`, or null when it has not failed. */
    @Synchronized
    fun failure(): Failure? {
        val v = LongArray(Slots.FAILURE_LEN)
        val reason = arrayOfNulls<String>(1)
        val st = Native.callFailure(live(), v, reason)
        if (st == Status.ERR_WRONG_STATE.code) return null
        check(st, "mrtr_call_failure")
        return Failure(
            Status.of(v[Slots.FAILURE_STATUS].toInt()),
            FailureKind.entries.firstOrNull { it.code.toLong() == v[Slots.FAILURE_KIND] },
            reason[0] ?: "", v[Slots.FAILURE_OFFSET], v[Slots.FAILURE_INDEX], v[Slots.FAILURE_CODE],
            v[Slots.FAILURE_NEEDED], v[Slots.FAILURE_LIMIT],
        )
    }

    /** Frees (and wipes) the workspace. Idempotent. */
    @Synchronized
    override fun close() {
        val w = ws ?: return
        ws = null
        Native.wsFree(w)
    }

    /** Safety net for a call never closed; [close] is the deterministic way. */
    @Suppress("removal", "DEPRECATION")
    protected fun finalize() {
        close()
    }

    /** A decoded text field of input [index]; null when the input has none. */
    private fun text(w: ByteBuffer, index: Int, field: Int): String? {
        val written = LongArray(1)
        var buf = ByteArray(256)
        val why = why()
        var st = Native.callInputText(w, index.toLong(), field, buf, written, why)
        if (st == Status.ERR_BUFFER_TOO_SMALL.code) {
            buf = ByteArray(written[0].toInt())
            why[0] = null
            st = Native.callInputText(w, index.toLong(), field, buf, written, why)
        }
        if (st == Status.ERR_NOT_FOUND.code) return null
        check(st, "mrtr_call_input_text", why)
        return String(buf, 0, written[0].toInt(), Charsets.UTF_8)
    }
}

/** A copy of [len] bytes at [off] of workspace [w]. */
internal fun wsBytes(w: ByteBuffer, off: Long, len: Long): ByteArray {
    val out = ByteArray(len.toInt())
    val d = w.duplicate()
    d.position(off.toInt())
    d.get(out)
    return out
}

/** A zeroed native workspace of [size] bytes, or an exception when it cannot be had. */
internal fun allocWorkspace(size: Long): ByteBuffer {
    if (size <= 0 || size > Int.MAX_VALUE) throw exceptionFor(Status.ERR_LIMIT_EXCEEDED.code, "workspace of $size bytes")
    return Native.wsAlloc(size) ?: throw OutOfMemoryError("mrtr workspace of $size bytes")
}
