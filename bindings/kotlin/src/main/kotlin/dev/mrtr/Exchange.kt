package dev.mrtr

import java.nio.ByteBuffer

/**
 * The C functions calls and tasks share (`mrtr_call_*` / `mrtr_task_*` have the same
 * shapes), as one table per object type, so [MrtrCall] and [MrtrTask] run one body.
 */
internal class ExchangeOps(
    val name: String,
    val writeRequest: (ByteBuffer?, Long, ByteArray?, LongArray?) -> Int,
    val resend: (ByteBuffer?, Long, ByteArray?, LongArray?) -> Int,
    val nextId: (ByteBuffer?, LongArray?) -> Int,
    val feed: (ByteBuffer?, ByteArray?, LongArray?) -> Int,
    val state: (ByteBuffer?, LongArray?) -> Int,
    val round: (ByteBuffer?, LongArray?) -> Int,
    val inputCount: (ByteBuffer?, LongArray?) -> Int,
    val inputAt: (ByteBuffer?, Long, LongArray?) -> Int,
    val inputFind: (ByteBuffer?, ByteArray?, LongArray?) -> Int,
    val inputText: (ByteBuffer?, Long, Int, ByteArray?, LongArray?) -> Int,
    val answerElicit: (ByteBuffer?, Long, Int, ByteArray?) -> Int,
    val answerJson: (ByteBuffer?, Long, ByteArray?) -> Int,
    val answerRoots: (ByteBuffer?, Long, Array<ByteArray?>?, Array<ByteArray?>?) -> Int,
    val answerError: (ByteBuffer?, Long, Long) -> Int,
    val result: (ByteBuffer?, ByteArray?, LongArray?) -> Int,
    val save: (ByteBuffer?, ByteArray?, LongArray?) -> Int,
    val lastId: (ByteBuffer?, LongArray?) -> Int,
    val failure: (ByteBuffer?, LongArray?, Array<String?>?) -> Int,
) {
    companion object {
        val CALL = ExchangeOps(
            "mrtr_call", Native::callWriteRequest, Native::callResend, Native::callNextId, Native::callFeed,
            Native::callState, Native::callRound, Native::callInputCount, Native::callInputAt, Native::callInputFind,
            Native::callInputText, Native::callAnswerElicit, Native::callAnswerJson, Native::callAnswerRoots,
            Native::callAnswerError, Native::callResult, Native::callSave, Native::callLastId, Native::callFailure,
        )
        val TASK = ExchangeOps(
            "mrtr_task", Native::taskWriteRequest, Native::taskResend, Native::taskNextId, Native::taskFeed,
            Native::taskState, Native::taskRound, Native::taskInputCount, Native::taskInputAt, Native::taskInputFind,
            Native::taskInputText, Native::taskAnswerElicit, Native::taskAnswerJson, Native::taskAnswerRoots,
            Native::taskAnswerError, Native::taskResult, Native::taskSave, Native::taskLastId, Native::taskFailure,
        )
    }
}

/**
 * The shared body of [MrtrCall] and [MrtrTask] over one native workspace. Not
 * synchronized itself: its owner's public methods are.
 */
internal class Exchange(private var ws: ByteBuffer?, private val ops: ExchangeOps, private val owner: String) {
    fun live(): ByteBuffer = ws ?: throw IllegalStateException("$owner is closed")

    fun close() {
        val w = ws ?: return
        ws = null
        Native.wsFree(w)
    }

    /** Runs [f] on the live workspace (for the owner's own native functions). */
    inline fun <T> with(f: (ByteBuffer) -> T): T = f(live())

    fun long(what: String, f: (ByteBuffer?, LongArray?) -> Int): Long {
        val out = LongArray(1)
        check(f(live(), out), "${ops.name}_$what")
        return out[0]
    }

    val phase: Phase get() = Phase.of(long("state", ops.state))
    val round: Long get() = long("round", ops.round)
    val nextId: Long get() = long("next_id", ops.nextId)

    val lastId: Long?
        get() {
            val out = LongArray(1)
            val st = ops.lastId(live(), out)
            if (st == Status.ERR_NOT_FOUND.code) return null
            check(st, "${ops.name}_last_id")
            return out[0]
        }

    fun write(what: String, f: (ByteBuffer?, Long, ByteArray?, LongArray?) -> Int, id: Long): ByteArray {
        val w = live()
        return writeOut("${ops.name}_$what", 1024) { out, n -> f(w, id, out, n) }
    }

    fun feed(message: ByteArray): CallEvent {
        val w = live()
        val e = LongArray(Native.EVENT_LEN)
        check(ops.feed(w, message, e), "${ops.name}_feed")
        fun span(off: Int) = message.copyOfRange(e[off].toInt(), (e[off] + e[off + 1]).toInt())
        fun text(off: Int) = String(decodeJsonString(message, e[off].toInt(), e[off + 1].toInt()), Charsets.UTF_8)
        return when (e[0].toInt()) {
            1 -> CallEvent.Complete(span(4))
            2 -> CallEvent.InputRequired(inputs())
            3 -> CallEvent.RetryAfter(e[2])
            4 -> CallEvent.RpcError(e[3], text(6), if (e[9] == 0L) null else span(8))
            5 -> CallEvent.TaskCreated(span(10), TaskDialect.of(e[12]), TaskStatus.of(e[13]), if (e[15] != 0L) e[14] else null)
            6 -> CallEvent.Unrelated
            7 -> CallEvent.TaskPoll(e[2])
            8 -> CallEvent.TaskNext
            9 -> CallEvent.TaskFailed(e[3], text(6), if (e[9] == 0L) null else span(8))
            10 -> CallEvent.TaskCancelled
            else -> throw exceptionFor(Status.ERR_INTERNAL.code, "${ops.name}_feed: event kind ${e[0]}")
        }
    }

    val inputCount: Int get() = long("input_count", ops.inputCount).toInt()

    fun inputs(): List<InputRequest> = (0 until inputCount).map { input(it) }

    fun input(index: Int): InputRequest {
        val w = live()
        val v = LongArray(Native.INPUT_LEN)
        check(ops.inputAt(w, index.toLong(), v), "${ops.name}_input_at")
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
            else -> throw exceptionFor(Status.ERR_INTERNAL.code, "${ops.name}_input_at: kind ${v[0]}")
        }
    }

    fun indexOf(key: String): Int {
        val out = LongArray(1)
        check(ops.inputFind(live(), key.toByteArray(Charsets.UTF_8), out), "${ops.name}_input_find")
        return out[0].toInt()
    }

    fun answerElicit(index: Int, action: ElicitAction, content: ByteArray?) {
        val w = live()
        if (content != null && action == ElicitAction.ACCEPT) {
            // Only the kind and the schema are needed: no field list is built here.
            val v = LongArray(Native.INPUT_LEN)
            check(ops.inputAt(w, index.toLong(), v), "${ops.name}_input_at")
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
        check(ops.answerElicit(w, index.toLong(), action.code, content), "${ops.name}_answer_elicit")
    }

    fun answerJson(index: Int, json: ByteArray) {
        check(ops.answerJson(live(), index.toLong(), json), "${ops.name}_answer_json")
    }

    fun answerRoots(index: Int, roots: List<Root>) {
        val uris = Array<ByteArray?>(roots.size) { roots[it].uri.toByteArray(Charsets.UTF_8) }
        val names = Array(roots.size) { roots[it].name?.toByteArray(Charsets.UTF_8) }
        check(ops.answerRoots(live(), index.toLong(), uris, names), "${ops.name}_answer_roots")
    }

    fun answerError(index: Int, code: Long) {
        check(ops.answerError(live(), index.toLong(), code), "${ops.name}_answer_error")
    }

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

    fun result(fed: ByteArray): ByteArray {
        val out = LongArray(2)
        check(ops.result(live(), fed, out), "${ops.name}_result")
        return fed.copyOfRange(out[0].toInt(), (out[0] + out[1]).toInt())
    }

    fun save(): ByteArray {
        val w = live()
        return writeOut("${ops.name}_save", 4096) { out, n -> ops.save(w, out, n) }
    }

    fun failure(): Failure? {
        val v = LongArray(Native.FAILURE_LEN)
        val reason = arrayOfNulls<String>(1)
        val st = ops.failure(live(), v, reason)
        if (st == Status.ERR_WRONG_STATE.code) return null
        check(st, "${ops.name}_failure")
        return Failure(
            Status.of(v[0].toInt()), FailureKind.entries.firstOrNull { it.code.toLong() == v[1] },
            reason[0] ?: "", v[2], v[3], v[4], v[5], v[6],
        )
    }

    /** A decoded text field of input [index]; null when the input has none. */
    private fun text(w: ByteBuffer, index: Int, field: Int): String? {
        val written = LongArray(1)
        var buf = ByteArray(256)
        var st = ops.inputText(w, index.toLong(), field, buf, written)
        if (st == Status.ERR_BUFFER_TOO_SMALL.code) {
            buf = ByteArray(written[0].toInt())
            st = ops.inputText(w, index.toLong(), field, buf, written)
        }
        if (st == Status.ERR_NOT_FOUND.code) return null
        check(st, "${ops.name}_input_text")
        return String(buf, 0, written[0].toInt(), Charsets.UTF_8)
    }

    private companion object {
        const val TEXT_KEY = 1
        const val TEXT_MESSAGE = 1 shl 1
        const val TEXT_URL = 1 shl 2
        const val TEXT_SYSTEM_PROMPT = 1 shl 3
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
