package dev.mrtr

import kotlinx.coroutines.delay

/** Default of [run]'s `maxUnrelated`, as the C runner's `MRTR_RUN_DEFAULT_MAX_UNRELATED`. */
const val RUN_DEFAULT_MAX_UNRELATED: Int = 16

/**
 * Runs the call to its end and returns the final result object (raw JSON): writes each
 * leg, hands it to [transport], feeds what comes back, asks [handler] for every input,
 * waits out state-only rounds with [delay], and repeats. A call restored in `SENT` is
 * first resent with a fresh id; a call left `ANSWERING` gets its unanswered inputs asked.
 *
 * [transport] sends a request and returns the next message received for it. When that
 * message is not the answer (a notification, another id), [run] calls [transport] again
 * with an empty array, meaning "the next message, send nothing", at most [maxUnrelated]
 * times per leg; one more throws [MrtrCapacityException] (`LIMIT_EXCEEDED`), the call
 * staying `SENT`.
 *
 * Ends: the result; [MrtrRpcException] for a JSON-RPC error response (code, message,
 * data); [TaskCreatedException] when the server made a task; [MrtrFlowException]
 * (`ABORTED`) when the handler answered [InputAnswer.Error] (the call is `FAILED`); the
 * call's terminal errors as [MrtrCall.feed] throws them. Cancellation of the coroutine
 * leaves the call where it was (resumable with [MrtrCall.resend] / [run]).
 */
suspend fun MrtrCall.run(
    transport: suspend (ByteArray) -> ByteArray,
    handler: InputHandler,
    maxUnrelated: Int = RUN_DEFAULT_MAX_UNRELATED,
): ByteArray {
    while (true) {
        var request: ByteArray? = when (phase) {
            Phase.READY -> writeRequest()
            Phase.SENT -> resend()
            Phase.ANSWERING -> {
                answerAll(inputs(), handler)
                continue
            }
            Phase.DONE, Phase.FAILED -> throw exceptionFor(Status.ERR_WRONG_STATE.code, "run: the call has ended")
        }
        var unrelated = 0
        while (true) {
            val message = transport(request ?: ByteArray(0))
            request = null
            when (val event = feed(message)) {
                is CallEvent.Complete -> return event.result
                is CallEvent.RpcError -> throw MrtrRpcException(
                    Status.ERR_RPC_ERROR, Status.ERR_RPC_ERROR.code,
                    "run: JSON-RPC error ${event.code}: ${event.message}", event.code, event.message, event.data,
                )
                is CallEvent.TaskCreated -> throw TaskCreatedException(event)
                is CallEvent.InputRequired -> {
                    answerAll(event.inputs, handler)
                    break
                }
                is CallEvent.RetryAfter -> {
                    delay(event.waitMs)
                    break
                }
                CallEvent.Unrelated -> {
                    unrelated++
                    if (unrelated > maxUnrelated) {
                        throw exceptionFor(Status.ERR_LIMIT_EXCEEDED.code, "run: more than $maxUnrelated unrelated messages")
                    }
                }
            }
        }
    }
}

private suspend fun MrtrCall.answerAll(inputs: List<InputRequest>, handler: InputHandler) {
    for (input in inputs) {
        if (input.answered) continue
        val answer = handler.answer(input)
        answer(input.index, answer)
        if (answer is InputAnswer.Error) {
            throw exceptionFor(Status.ERR_ABORTED.code, "run: input ${input.key} answered with error ${answer.code}")
        }
    }
}
