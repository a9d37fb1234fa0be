package dev.mrtr

import kotlinx.coroutines.delay

/** Default of [run]'s `maxUnrelated`: the C runner's `MRTR_RUN_DEFAULT_MAX_UNRELATED`. */
val RUN_DEFAULT_MAX_UNRELATED: Int = Native.runDefaultMaxUnrelated()

/**
 * Runs the call to its end and returns the final result object (raw JSON). The loop is
 * the library's (`mrtr_runner_*`): it says when to send (a fresh leg, or a resend with a
 * fresh id), when to wait (with [delay]), which input to ask [handler] about, and when the
 * run is over; this function only moves bytes. When the server moves the call to a task,
 * the run follows it to the task's result.
 *
 * [transport] sends a request and returns the next message received for it; an empty
 * array means "the next message, send nothing" (the last one was unrelated, e.g. a
 * notification), at most [maxUnrelated] times per request: one more throws
 * [MrtrCapacityException] (`LIMIT_EXCEEDED`), the call staying `SENT`.
 *
 * Ends: the result; [MrtrRpcException] for a JSON-RPC error response or a failed task
 * (code, message, data); [MrtrFlowException] (`ABORTED`) when the handler answered
 * [InputAnswer.Error] (the call is `FAILED`) or the task was cancelled; the call's
 * terminal errors as [MrtrCall.feed] throws them. Cancellation of the coroutine leaves the
 * call where it was (resumable with [MrtrCall.resend] / [run]).
 */
suspend fun MrtrCall.run(
    transport: suspend (ByteArray) -> ByteArray,
    handler: InputHandler,
    maxUnrelated: Int = RUN_DEFAULT_MAX_UNRELATED,
): ByteArray {
    val runner = allocWorkspace(Native.runnerSize())
    try {
        val why = why()
        withWorkspace { check(Native.runnerInit(it, runner, 0, 0, maxUnrelated, why), "mrtr_runner_init", why) }
        var out = ByteArray(4096)
        val step = LongArray(Slots.STEP_LEN)
        var last: CallEvent? = null
        while (true) {
            why[0] = null
            var st = withWorkspace { Native.runnerNext(it, runner, out, step, why) }
            if (st == Status.ERR_BUFFER_TOO_SMALL.code) {
                out = ByteArray(step[Slots.STEP_REQUEST_LEN].toInt())
                why[0] = null
                st = withWorkspace { Native.runnerNext(it, runner, out, step, why) }
            }
            check(st, "mrtr_runner_next", why)
            when (step[Slots.STEP_KIND].toInt()) {
                STEP_SEND -> {
                    var request = out.copyOf(step[Slots.STEP_REQUEST_LEN].toInt())
                    val ev = LongArray(Slots.EVENT_LEN)
                    val again = LongArray(1)
                    do {
                        val message = transport(request)
                        request = ByteArray(0)
                        withWorkspace { check(Native.runnerReceived(it, runner, message, ev, again, why), "mrtr_runner_received", why) }
                        last = event(message, ev)
                    } while (again[0] != 0L)
                }
                STEP_ASK -> {
                    val index = step[Slots.STEP_INDEX].toInt()
                    answer(index, handler.answer(input(index)))
                    withWorkspace { check(Native.runnerAnswered(it, runner, index.toLong(), 0, why), "mrtr_runner_answered", why) }
                }
                STEP_WAIT -> delay(step[Slots.STEP_WAIT_MS])
                else -> return when (val e = last) {
                    is CallEvent.Complete -> e.result
                    is CallEvent.RpcError -> throw rpcException(e.code, e.message, e.data)
                    is CallEvent.TaskFailed -> throw rpcException(e.code, e.message, e.data)
                    else -> throw exceptionFor(step[Slots.STEP_STATUS].toInt(), "run: the task was cancelled")
                }
            }
        }
    } finally {
        Native.wsFree(runner)
    }
}

private const val STEP_SEND = 1
private const val STEP_ASK = 2
private const val STEP_WAIT = 3

private fun rpcException(code: Long, message: String, data: ByteArray?) = MrtrRpcException(
    Status.ERR_RPC_ERROR, Status.ERR_RPC_ERROR.code, "run: JSON-RPC error $code: $message", code, message, data,
)
