package dev.mrtr

import java.nio.ByteBuffer

/** The request a task sends next or has in flight (`mrtr_task_request`). */
enum class TaskRequest(val code: Int) {
    GET(1),
    RESULT(2),
    RESPOND(3),
    CANCEL(4),
}

/**
 * Every capacity and cap of a task (`mrtr_task_limits`). [DEFAULT] comes from the library
 * (those of a call, 1 KiB of params, 100,000 polls, polls every 1 s unless the server
 * hints, clamped to 100 ms .. 60 s).
 */
data class TaskLimits(
    val maxMessageBytes: Long,
    val maxDepth: Long,
    val maxInputRequests: Long,
    val maxKeyBytes: Long,
    val maxParamsBytes: Long,
    val maxInputsBytes: Long,
    val maxStateBytes: Long,
    val maxAnswersBytes: Long,
    val maxRounds: Long,
    val maxPolls: Long,
    val defaultPollMs: Long,
    val minPollMs: Long,
    val maxPollMs: Long,
) {
    internal fun toLongs() = longArrayOf(
        maxMessageBytes, maxDepth, maxInputRequests, maxKeyBytes, maxParamsBytes, maxInputsBytes,
        maxStateBytes, maxAnswersBytes, maxRounds, maxPolls, defaultPollMs, minPollMs, maxPollMs,
    )

    companion object {
        /** The library's defaults. */
        val DEFAULT: TaskLimits by lazy {
            val v = LongArray(Native.TASK_LIMITS_LEN)
            check(Native.taskLimitsDefault(v), "mrtr_task_limits_default")
            TaskLimits(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12])
        }
    }
}

/**
 * Follows a task the server created (`mrtr_task`, both dialects: the SEP draft's
 * `tasks/result` + `tasks/input_response`, and the Tasks extension's `tasks/get` +
 * `tasks/update`). The same step API as [MrtrCall] ([writeRequest], [feed], answers),
 * plus [nextRequest], [pollMs] and [writeCancel]; [run] drives it, polling with `delay`.
 * Memory and threads as [MrtrCall].
 */
class MrtrTask private constructor(ws: ByteBuffer) : AutoCloseable {
    private val ex = Exchange(ws, ExchangeOps.TASK, "MrtrTask")

    companion object {
        /** Workspace bytes a task needs under [limits] (null: the defaults). */
        fun workspaceSize(limits: TaskLimits? = null): Long {
            val out = LongArray(1)
            check(Native.taskWorkspaceSize(limits?.toLongs(), out), "mrtr_task_workspace_size")
            return out[0]
        }

        /**
         * Starts following task [taskId] in [dialect]. [taskIdIsJson]: the id is the JSON
         * string token as the server wrote it (as [CallEvent.TaskCreated.taskId]); else
         * plain text. [capabilities] are declared on every request (the extension dialect
         * needs [Capability.TASKS]); [pollMs] is the creation's poll hint, 0 for none.
         */
        fun create(
            dialect: TaskDialect,
            taskId: ByteArray,
            capabilities: Set<Capability>,
            taskIdIsJson: Boolean = false,
            clientName: String? = null,
            clientVersion: String? = null,
            sendClientInfo: Boolean = true,
            pollMs: Long = 0,
            firstId: Long = 0,
            limits: TaskLimits? = null,
        ): MrtrTask {
            val ws = allocWorkspace(workspaceSize(limits))
            val flags = (if (taskIdIsJson) FLAG_ID_JSON else 0) or (if (sendClientInfo) 0 else FLAG_NO_CLIENT_INFO)
            val st = Native.taskInit(
                ws, dialect.code, taskId, flags, Capability.bits(capabilities),
                clientName?.toByteArray(Charsets.UTF_8), clientVersion?.toByteArray(Charsets.UTF_8),
                pollMs, firstId, limits?.toLongs(), LongArray(1),
            )
            if (st != Status.OK.code) {
                Native.wsFree(ws)
                throw exceptionFor(st, "mrtr_task_init")
            }
            return MrtrTask(ws)
        }

        /**
         * Follows the task of a [CallEvent.TaskCreated] event, declaring [capabilities] (those
         * of the call). [firstId]: the creating call's [MrtrCall.nextId] keeps ids unique on
         * a shared connection.
         */
        fun fromEvent(
            event: CallEvent.TaskCreated,
            capabilities: Set<Capability>,
            clientName: String? = null,
            clientVersion: String? = null,
            firstId: Long = 0,
            limits: TaskLimits? = null,
        ): MrtrTask = create(
            event.dialect, event.taskId, capabilities, taskIdIsJson = true, clientName = clientName,
            clientVersion = clientVersion, pollMs = event.pollMs ?: 0, firstId = firstId, limits = limits,
        )

        /** Restores a task from [save] bytes (untrusted: validated again) under [limits]. */
        fun restore(saved: ByteArray, limits: TaskLimits? = null): MrtrTask {
            val ws = allocWorkspace(workspaceSize(limits))
            val st = Native.taskRestore(ws, limits?.toLongs(), saved)
            if (st != Status.OK.code) {
                Native.wsFree(ws)
                throw exceptionFor(st, "mrtr_task_restore")
            }
            return MrtrTask(ws)
        }

        private const val FLAG_ID_JSON = 1
        private const val FLAG_NO_CLIENT_INFO = 1 shl 1
    }

    /** The task's phase. */
    val phase: Phase
        @Synchronized get() = ex.phase

    /** The number of input rounds so far. */
    val round: Long
        @Synchronized get() = ex.round

    /** The id to use for the next request. */
    val nextId: Long
        @Synchronized get() = ex.nextId

    /** The last JSON-RPC id the task used, null before the first request. */
    val lastId: Long?
        @Synchronized get() = ex.lastId

    /** The request [writeRequest] sends next (in `READY`) or the one in flight (in `SENT`). */
    val nextRequest: TaskRequest
        @Synchronized get() = ex.long("next_request", Native::taskNextRequest).let { c ->
            TaskRequest.entries.firstOrNull { it.code.toLong() == c } ?: throw exceptionFor(Status.ERR_INTERNAL.code, "task request $c")
        }

    /** The current poll interval: the server's latest hint or the default, clamped by the limits. */
    val pollMs: Long
        @Synchronized get() = ex.long("poll_ms", Native::taskPollMs)

    /** Writes the next request ([nextRequest]) with JSON-RPC [id] (`READY` -> `SENT`). */
    @Synchronized
    fun writeRequest(id: Long = nextId): ByteArray = ex.write("write_request", Native::taskWriteRequest, id)

    /** Writes `tasks/cancel` (from `READY`, `SENT` or `ANSWERING`); the acknowledgement is [CallEvent.TaskCancelled]. */
    @Synchronized
    fun writeCancel(id: Long = nextId): ByteArray = ex.write("write_cancel", Native::taskWriteCancel, id)

    /** After a transport failure (`SENT`): the request in flight again, with a fresh [id]. */
    @Synchronized
    fun resend(id: Long = nextId): ByteArray = ex.write("resend", Native::taskResend, id)

    /** Feeds one message received while `SENT` (as [MrtrCall.feed]). */
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

    /** The index of the input whose key is [key]. */
    @Synchronized
    fun indexOf(key: String): Int = ex.indexOf(key)

    /** Answers elicitation [index] (as [MrtrCall.answerElicit]). */
    @Synchronized
    fun answerElicit(index: Int, action: ElicitAction, content: ByteArray? = null) = ex.answerElicit(index, action, content)

    /** Answers input [index] with a raw JSON result. */
    @Synchronized
    fun answerJson(index: Int, json: ByteArray) = ex.answerJson(index, json)

    /** Answers `roots/list` input [index]. */
    @Synchronized
    fun answerRoots(index: Int, roots: List<Root>) = ex.answerRoots(index, roots)

    /** Ends the task locally: the application will not answer input [index]. */
    @Synchronized
    fun answerError(index: Int, code: Long) = ex.answerError(index, code)

    /** Answers input [index] with [answer]. */
    @Synchronized
    fun answer(index: Int, answer: InputAnswer) = ex.answer(index, answer)

    /** The task's result object, copied out of [fed], the message that completed it. */
    @Synchronized
    fun result(fed: ByteArray): ByteArray = ex.result(fed)

    /** A versioned record of the task for [restore]. */
    @Synchronized
    fun save(): ByteArray = ex.save()

    /** Why the task is `FAILED`, or null when it has not failed. */
    @Synchronized
    fun failure(): Failure? = ex.failure()

    /** Frees (and wipes) the workspace. Idempotent. */
    @Synchronized
    override fun close() = ex.close()

    /** Safety net for a task never closed; [close] is the deterministic way. */
    @Suppress("removal", "DEPRECATION")
    protected fun finalize() {
        close()
    }
}
