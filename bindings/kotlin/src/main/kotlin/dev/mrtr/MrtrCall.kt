package dev.mrtr

import java.nio.ByteBuffer

/**
 * One logical request (`tools/call`, `prompts/get`, `resources/read`) through all its
 * legs: the C `mrtr_call`, in a native workspace this object owns.
 *
 * The step API: [writeRequest] -> send -> [feed] what arrives -> on
 * [CallEvent.InputRequired] answer every input -> [writeRequest] again ... until
 * [CallEvent.Complete] or [CallEvent.RpcError]. [run] drives the whole loop.
 *
 * Memory: the workspace ([workspaceSize] bytes of native memory) is freed, and wiped,
 * by [close]; any use after that throws [IllegalStateException]. A call that is never
 * closed is freed by its finalizer, late: close it (`use { }`).
 * Threads: methods are synchronized; one call is one conversation, drive it from one
 * coroutine at a time.
 */
class MrtrCall private constructor(private var ws: ByteBuffer?) : AutoCloseable {

    companion object {
        /** Workspace bytes a call needs under [limits] (null: the defaults). */
        fun workspaceSize(limits: CallLimits? = null): Long {
            val out = LongArray(1)
            check(Native.callWorkspaceSize(limits?.toLongs(), out), "mrtr_call_workspace_size")
            return out[0]
        }

        /**
         * Starts a call. [params] is the params object as JSON (e.g.
         * `{"name":"get_weather","arguments":{"location":"Paris"}}`), without
         * `inputResponses`/`requestState`; [capabilities] are declared on every leg;
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
        ): MrtrCall {
            val ws = allocWorkspace(workspaceSize(limits))
            val out = LongArray(1)
            val st = Native.callInit(
                ws, method.code, params, Capability.bits(capabilities),
                clientName?.toByteArray(Charsets.UTF_8), clientVersion?.toByteArray(Charsets.UTF_8),
                if (sendClientInfo) 0 else FLAG_NO_CLIENT_INFO, firstId, limits?.toLongs(), out,
            )
            if (st != Status.OK.code) {
                Native.wsFree(ws)
                throw exceptionFor(st, "mrtr_call_init")
            }
            return MrtrCall(ws)
        }

        /** Restores a call from [save] bytes (untrusted: validated again) under [limits]. */
        fun restore(saved: ByteArray, limits: CallLimits? = null): MrtrCall {
            val ws = allocWorkspace(workspaceSize(limits))
            val st = Native.callRestore(ws, limits?.toLongs(), saved)
            if (st != Status.OK.code) {
                Native.wsFree(ws)
                throw exceptionFor(st, "mrtr_call_restore")
            }
            return MrtrCall(ws)
        }

        private const val FLAG_NO_CLIENT_INFO = 1
    }

    /** The call's phase. */
    val phase: Phase
        @Synchronized get() = Phase.of(long("mrtr_call_state") { w, o -> Native.callState(w, o) })

    /** The number of `input_required` results received so far. */
    val round: Long
        @Synchronized get() = long("mrtr_call_round") { w, o -> Native.callRound(w, o) }

    /** The id to use for the next leg. */
    val nextId: Long
        @Synchronized get() = long("mrtr_call_next_id") { w, o -> Native.callNextId(w, o) }

    /** The last JSON-RPC id the call used, null before the first request. */
    val lastId: Long?
        @Synchronized get() {
            val out = LongArray(1)
            val st = Native.callLastId(live(), out)
            if (st == Status.ERR_NOT_FOUND.code) return null
            check(st, "mrtr_call_last_id")
            return out[0]
        }

    /**
     * The `requestState` the next leg echoes (decoded), null when the last round carried
     * none. For logs and audits: the call echoes it by itself, byte for byte.
     */
    val requestState: String?
        @Synchronized get() {
            val w = live()
            val out = LongArray(2)
            val st = Native.callRequestState(w, out)
            if (st == Status.ERR_NOT_FOUND.code) return null
            check(st, "mrtr_call_request_state")
            val token = wsBytes(w, out[0], out[1])
            return String(decodeJsonString(token, 0, token.size), Charsets.UTF_8)
        }

    /** Writes the next leg with JSON-RPC [id] (`READY` -> `SENT`): the bytes to send. */
    @Synchronized
    fun writeRequest(id: Long = nextId): ByteArray {
        val w = live()
        return writeOut("mrtr_call_write_request", 1024) { out, n -> Native.callWriteRequest(w, id, out, n) }
    }

    /** After a transport failure (`SENT`): the request in flight again, with a fresh [id]. */
    @Synchronized
    fun resend(id: Long = nextId): ByteArray {
        val w = live()
        return writeOut("mrtr_call_resend", 1024) { out, n -> Native.callResend(w, id, out, n) }
    }

    /**
     * Feeds one complete JSON-RPC message the transport received while `SENT`. Terminal
     * errors (not JSON, not JSON-RPC, an MRTR violation, an undeclared kind, a cap) throw
     * and leave the call `FAILED` ([failure] tells why).
     */
    @Synchronized
    fun feed(message: ByteArray): CallEvent {
        val w = live()
        val e = LongArray(Native.EVENT_LEN)
        check(Native.callFeed(w, message, e), "mrtr_call_feed")
        fun span(off: Int) = message.copyOfRange(e[off].toInt(), (e[off] + e[off + 1]).toInt())
        return when (e[0].toInt()) {
            1 -> CallEvent.Complete(span(4))
            2 -> CallEvent.InputRequired(inputsLocked())
            3 -> CallEvent.RetryAfter(e[2])
            4 -> CallEvent.RpcError(
                e[3],
                String(decodeJsonString(message, e[6].toInt(), e[7].toInt()), Charsets.UTF_8),
                if (e[9] == 0L) null else span(8),
            )
            5 -> CallEvent.TaskCreated(span(10), TaskDialect.of(e[12]), TaskStatus.of(e[13]), if (e[15] != 0L) e[14] else null)
            6 -> CallEvent.Unrelated
            else -> throw exceptionFor(Status.ERR_INTERNAL.code, "mrtr_call_feed: event kind ${e[0]}")
        }
    }

    /** The number of input requests of the current round. */
    val inputCount: Int
        @Synchronized get() = long("mrtr_call_input_count") { w, o -> Native.callInputCount(w, o) }.toInt()

    /** Input request [index] of the current round. */
    @Synchronized
    fun input(index: Int): InputRequest = inputLocked(index)

    /** Every input request of the current round, in the server's order. */
    @Synchronized
    fun inputs(): List<InputRequest> = inputsLocked()

    /** The index of the input whose key is [key] (compared after decoding escapes). */
    @Synchronized
    fun indexOf(key: String): Int {
        val w = live()
        val out = LongArray(1)
        check(Native.callInputFind(w, key.toByteArray(Charsets.UTF_8), out), "mrtr_call_input_find")
        return out[0].toInt()
    }

    /**
     * Answers elicitation [index]. [content] (a JSON object) goes with a form `ACCEPT`
     * only; it is checked against the form first, and a failing check throws
     * [MrtrInvalidValueException] with its [FormError].
     */
    @Synchronized
    fun answerElicit(index: Int, action: ElicitAction, content: ByteArray? = null) {
        val w = live()
        if (content != null && action == ElicitAction.ACCEPT) {
            // Only the kind and the schema are needed: no field list is built here.
            val v = LongArray(Native.INPUT_LEN)
            check(Native.callInputAt(w, index.toLong(), v), "mrtr_call_input_at")
            if (v[0] == 1L) {
                val problem = Form.validate(wsBytes(w, v[7], v[8]), content)
                if (problem != null) {
                    throw MrtrInvalidValueException(
                        Status.ERR_INVALID_VALUE, Status.ERR_INVALID_VALUE.code,
                        "mrtr_form_validate: ${problem.reason} (${problem.field})", problem,
                    )
                }
            }
        }
        check(Native.callAnswerElicit(w, index.toLong(), action.code, content), "mrtr_call_answer_elicit")
    }

    /** Answers input [index] with a raw JSON result (a `CreateMessageResult` for sampling). */
    @Synchronized
    fun answerJson(index: Int, json: ByteArray) {
        check(Native.callAnswerJson(live(), index.toLong(), json), "mrtr_call_answer_json")
    }

    /** Answers `roots/list` input [index]. */
    @Synchronized
    fun answerRoots(index: Int, roots: List<Root>) {
        val uris = Array<ByteArray?>(roots.size) { roots[it].uri.toByteArray(Charsets.UTF_8) }
        val names = Array(roots.size) { roots[it].name?.toByteArray(Charsets.UTF_8) }
        check(Native.callAnswerRoots(live(), index.toLong(), uris, names), "mrtr_call_answer_roots")
    }

    /** The application will not answer input [index]: the call ends `FAILED`. */
    @Synchronized
    fun answerError(index: Int, code: Long) {
        check(Native.callAnswerError(live(), index.toLong(), code), "mrtr_call_answer_error")
    }

    /** Answers input [index] with [answer] (dispatches to the `answer*` functions). */
    @Synchronized
    fun answer(index: Int, answer: InputAnswer) {
        when (answer) {
            is InputAnswer.Accept -> answerElicit(index, ElicitAction.ACCEPT, answer.content)
            InputAnswer.Decline -> answerElicit(index, ElicitAction.DECLINE)
            InputAnswer.Cancel -> answerElicit(index, ElicitAction.CANCEL)
            is InputAnswer.Json -> answerJson(index, answer.json)
            is InputAnswer.Roots -> answerRoots(index, answer.roots)
            is InputAnswer.Error -> answerError(index, answer.code)
        }
    }

    /** The final result object: a copy out of [fed], the exact message whose feeding completed the call. */
    @Synchronized
    fun result(fed: ByteArray): ByteArray {
        val out = LongArray(2)
        check(Native.callResult(live(), fed, out), "mrtr_call_result")
        return fed.copyOfRange(out[0].toInt(), (out[0] + out[1]).toInt())
    }

    /** A versioned record of the call (in `READY`, `SENT` or `ANSWERING`) for [restore]. */
    @Synchronized
    fun save(): ByteArray {
        val w = live()
        return writeOut("mrtr_call_save", 4096) { out, n -> Native.callSave(w, out, n) }
    }

    /** Why the call is `FAILED`, or null when it has not failed. */
    @Synchronized
    fun failure(): Failure? {
        val v = LongArray(Native.FAILURE_LEN)
        val reason = arrayOfNulls<String>(1)
        val st = Native.callFailure(live(), v, reason)
        if (st == Status.ERR_WRONG_STATE.code) return null
        check(st, "mrtr_call_failure")
        return Failure(
            Status.of(v[0].toInt()), FailureKind.entries.firstOrNull { it.code.toLong() == v[1] },
            reason[0] ?: "", v[2], v[3], v[4], v[5], v[6],
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

    private fun live(): ByteBuffer = ws ?: throw IllegalStateException("MrtrCall is closed")

    private inline fun long(what: String, f: (ByteBuffer, LongArray) -> Int): Long {
        val out = LongArray(1)
        check(f(live(), out), what)
        return out[0]
    }

    private fun inputsLocked(): List<InputRequest> {
        val n = long("mrtr_call_input_count") { w, o -> Native.callInputCount(w, o) }.toInt()
        return (0 until n).map { inputLocked(it) }
    }

    private fun inputLocked(index: Int): InputRequest {
        val w = live()
        val v = LongArray(Native.INPUT_LEN)
        check(Native.callInputAt(w, index.toLong(), v), "mrtr_call_input_at")
        val key = text(w, index, TEXT_KEY) ?: ""
        val answered = v[6] != 0L
        return when (v[0].toInt()) {
            1 -> {
                val schema = wsBytes(w, v[7], v[8])
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
                index, key, answered, wsBytes(w, v[9], v[10]), v[1],
                if (v[5] != 0L) text(w, index, TEXT_SYSTEM_PROMPT) else null, v[3] != 0L, v[4] != 0L,
            )
            4 -> InputRequest.Roots(index, key, answered)
            else -> throw exceptionFor(Status.ERR_INTERNAL.code, "mrtr_call_input_at: kind ${v[0]}")
        }
    }

    /** A decoded text field of input [index]; null when the input has none. */
    private fun text(w: ByteBuffer, index: Int, field: Int): String? {
        val written = LongArray(1)
        var buf = ByteArray(256)
        var st = Native.callInputText(w, index.toLong(), field, buf, written)
        if (st == Status.ERR_BUFFER_TOO_SMALL.code) {
            buf = ByteArray(written[0].toInt())
            st = Native.callInputText(w, index.toLong(), field, buf, written)
        }
        if (st == Status.ERR_NOT_FOUND.code) return null
        check(st, "mrtr_call_input_text")
        return String(buf, 0, written[0].toInt(), Charsets.UTF_8)
    }

    private fun wsBytes(w: ByteBuffer, off: Long, len: Long): ByteArray {
        val out = ByteArray(len.toInt())
        val d = w.duplicate()
        d.position(off.toInt())
        d.get(out)
        return out
    }

    private val TEXT_KEY = 1
    private val TEXT_MESSAGE = 1 shl 1
    private val TEXT_URL = 1 shl 2
    private val TEXT_SYSTEM_PROMPT = 1 shl 3
}

/** A zeroed native workspace of [size] bytes, or an exception when it cannot be had. */
internal fun allocWorkspace(size: Long): ByteBuffer {
    if (size <= 0 || size > Int.MAX_VALUE) throw exceptionFor(Status.ERR_LIMIT_EXCEEDED.code, "workspace of $size bytes")
    return Native.wsAlloc(size) ?: throw OutOfMemoryError("mrtr workspace of $size bytes")
}
