package dev.mrtr

import kotlinx.coroutines.delay

/** Default of [run]'s `maxUnrelated`, as the C runner's `MRTR_RUN_DEFAULT_MAX_UNRELATED`. */
const val RUN_DEFAULT_MAX_UNRELATED: Int = 16

/**
 * Runs the call to its end and returns the final result object (raw JSON): writes each
 * request, hands it to [transport], feeds what comes back, asks [handler] for every input,
 * waits out state-only rounds and a task's poll interval with [delay], and repeats. When
 * the server moves the call to a task, the run follows it (polls, answers its questions)
 * to the task's result. A call restored in `SENT` is first resent with a fresh id; a call
 * left `ANSWERING` gets its unanswered inputs asked.
 *
 * [transport] sends a request and returns the next message received for it. When that
 * message is not the answer (a notification, another id), [run] calls [transport] again
 * with an empty array, meaning "the next message, send nothing", at most [maxUnrelated]
 * times per request; one more throws [MrtrCapacityException] (`LIMIT_EXCEEDED`), the call
 * staying `SENT`.
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
    suspend fun answerAll(list: List<InputRequest>) {
        for (input in list) {
            if (input.answered) continue
            val a = handler.answer(input)
            answer(input.index, a)
            if (a is InputAnswer.Error) {
                throw exceptionFor(Status.ERR_ABORTED.code, "run: input ${input.key} answered with error ${a.code}")
            }
        }
    }
    while (true) {
        var request: ByteArray? = when (phase) {
            Phase.READY -> writeRequest()
            Phase.SENT -> resend()
            Phase.ANSWERING -> {
                answerAll(inputs())
                continue
            }
            Phase.DONE, Phase.FAILED -> throw exceptionFor(Status.ERR_WRONG_STATE.code, "run: it has ended")
        }
        var unrelated = 0
        while (true) {
            val message = transport(request ?: ByteArray(0))
            request = null
            when (val event = feed(message)) {
                is CallEvent.Complete -> return event.result
                is CallEvent.RpcError -> throw rpcException(event.code, event.message, event.data)
                is CallEvent.TaskFailed -> throw rpcException(event.code, event.message, event.data)
                CallEvent.TaskCancelled -> throw exceptionFor(Status.ERR_ABORTED.code, "run: the task was cancelled")
                is CallEvent.TaskCreated -> {
                    // The call now follows its task: wait the task's interval first.
                    delay(progress().pollMs)
                    break
                }
                is CallEvent.InputRequired -> {
                    answerAll(event.inputs)
                    break
                }
                is CallEvent.RetryAfter -> {
                    delay(event.waitMs)
                    break
                }
                is CallEvent.TaskPoll -> {
                    delay(event.waitMs)
                    break
                }
                CallEvent.TaskNext -> break
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

private fun rpcException(code: Long, message: String, data: ByteArray?) = MrtrRpcException(
    Status.ERR_RPC_ERROR, Status.ERR_RPC_ERROR.code, "run: JSON-RPC error $code: $message", code, message, data,
)
