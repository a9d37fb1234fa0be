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
class MrtrCall private constructor(ws: ByteBuffer) : AutoCloseable {
    private val ex = Exchange(ws, ExchangeOps.CALL, "MrtrCall")

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
        @Synchronized get() = ex.phase

    /** The number of `input_required` results received so far. */
    val round: Long
        @Synchronized get() = ex.round

    /** The id to use for the next leg. */
    val nextId: Long
        @Synchronized get() = ex.nextId

    /** The last JSON-RPC id the call used, null before the first request. */
    val lastId: Long?
        @Synchronized get() = ex.lastId

    /**
     * The `requestState` the next leg echoes (decoded), null when the last round carried
     * none. For logs and audits: the call echoes it by itself, byte for byte.
     */
    val requestState: String?
        @Synchronized get() = ex.with { w ->
            val out = LongArray(2)
            val st = Native.callRequestState(w, out)
            if (st == Status.ERR_NOT_FOUND.code) return@with null
            check(st, "mrtr_call_request_state")
            val token = wsBytes(w, out[0], out[1])
            String(decodeJsonString(token, 0, token.size), Charsets.UTF_8)
        }

    /** Writes the next leg with JSON-RPC [id] (`READY` -> `SENT`): the bytes to send. */
    @Synchronized
    fun writeRequest(id: Long = nextId): ByteArray = ex.write("write_request", Native::callWriteRequest, id)

    /** After a transport failure (`SENT`): the request in flight again, with a fresh [id]. */
    @Synchronized
    fun resend(id: Long = nextId): ByteArray = ex.write("resend", Native::callResend, id)

    /**
     * Feeds one complete JSON-RPC message the transport received while `SENT`. Terminal
     * errors (not JSON, not JSON-RPC, an MRTR violation, an undeclared kind, a cap) throw
     * and leave the call `FAILED` ([failure] tells why).
     */
    @Synchronized
    fun feed(message: ByteArray): CallEvent = ex.feed(message)

    /** The number of input requests of the current round. */
    val inputCount: Int
        @Synchronized get() = ex.inputCount

    /** Input request [index] of the current round. */
    @Synchronized
    fun input(index: Int): InputRequest = ex.input(index)

    /** Every input request of the current round, in the server's order. */
    @Synchronized
    fun inputs(): List<InputRequest> = ex.inputs()

    /** The index of the input whose key is [key] (compared after decoding escapes). */
    @Synchronized
    fun indexOf(key: String): Int = ex.indexOf(key)

    /**
     * Answers elicitation [index]. [content] (a JSON object) goes with a form `ACCEPT`
     * only; it is checked against the form first, and a failing check throws
     * [MrtrInvalidValueException] with its [FormError].
     */
    @Synchronized
    fun answerElicit(index: Int, action: ElicitAction, content: ByteArray? = null) = ex.answerElicit(index, action, content)

    /** Answers input [index] with a raw JSON result (a `CreateMessageResult` for sampling). */
    @Synchronized
    fun answerJson(index: Int, json: ByteArray) = ex.answerJson(index, json)

    /** Answers `roots/list` input [index]. */
    @Synchronized
    fun answerRoots(index: Int, roots: List<Root>) = ex.answerRoots(index, roots)

    /** The application will not answer input [index]: the call ends `FAILED`. */
    @Synchronized
    fun answerError(index: Int, code: Long) = ex.answerError(index, code)

    /** Answers input [index] with [answer] (dispatches to the `answer*` functions). */
    @Synchronized
    fun answer(index: Int, answer: InputAnswer) = ex.answer(index, answer)

    /** The final result object: a copy out of [fed], the exact message whose feeding completed the call. */
    @Synchronized
    fun result(fed: ByteArray): ByteArray = ex.result(fed)

    /** A versioned record of the call (in `READY`, `SENT` or `ANSWERING`) for [restore]. */
    @Synchronized
    fun save(): ByteArray = ex.save()

    /** Why the call is `FAILED`, or null when it has not failed. */
    @Synchronized
    fun failure(): Failure? = ex.failure()

    /** Frees (and wipes) the workspace. Idempotent. */
    @Synchronized
    override fun close() = ex.close()

    /** Safety net for a call never closed; [close] is the deterministic way. */
    @Suppress("removal", "DEPRECATION")
    protected fun finalize() {
        close()
    }
}
