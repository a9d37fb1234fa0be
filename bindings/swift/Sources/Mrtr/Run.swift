import CMrtr
import Foundation

/// Default of `run`'s `maxUnrelated`, as the C runner's `MRTR_RUN_DEFAULT_MAX_UNRELATED`.
public let runDefaultMaxUnrelated = 16

extension MrtrCall {
    /// Runs the call to its end and returns the final result object (raw JSON): writes each
    /// request, hands it to `transport`, feeds what comes back, asks `handler` for every input,
    /// waits out state-only rounds and a task's poll interval with `Task.sleep`, and repeats.
    /// When the server moves the call to a task, the run follows it (polls, answers its
    /// questions) to the task's result. A call restored in `sent` is first resent with a fresh
    /// id; a call left `answering` gets its unanswered inputs asked.
    ///
    /// `transport` sends a request and returns the next message received for it. When that
    /// message is not the answer (a notification, another id), `run` calls `transport` again
    /// with empty `Data`, meaning "the next message, send nothing", at most `maxUnrelated`
    /// times per request; one more throws `.limitExceeded`, the call staying `sent`.
    ///
    /// Ends: the result; `.rpcError` (with `rpcCode`, `rpcMessage`, `rpcData`) for a JSON-RPC
    /// error response or a failed task; `.aborted` when the handler answered `.error` (the
    /// call is `failed`) or the task was cancelled; the call's terminal errors as `feed`
    /// throws them. Cancellation leaves the call where it was (resumable with `resend` / `run`).
    public func run(
        transport: (Data) async throws -> Data,
        handler: some InputHandler,
        maxUnrelated: Int = runDefaultMaxUnrelated
    ) async throws -> Data {
        func answerAll(_ list: [InputRequest]) async throws {
            for input in list where !input.answered {
                let a = try await handler.answer(input)
                try answer(input.index, a)
                if case .error = a {
                    throw MrtrError(rawCode: Int32(MRTR_ERR_ABORTED.rawValue), operation: "run")
                }
            }
        }
        while true {
            var request: [UInt8]?
            let current = try phase
            switch current {
            case .ready: request = try writeRequest()
            case .sent: request = try resend()
            case .answering:
                try await answerAll(try inputs())
                continue
            case .done, .failed:
                throw MrtrError(rawCode: Int32(MRTR_ERR_WRONG_STATE.rawValue), operation: "run")
            }
            var unrelated = 0
            legLoop: while true {
                let message = try await transport(Data(request ?? []))
                request = nil
                let event = try feed([UInt8](message))
                switch event {
                case .complete(let result):
                    return Data(result)
                case .rpcError(let code, let message, let data), .taskFailed(let code, let message, let data):
                    throw rpcError(code, message, data)
                case .taskCancelled:
                    throw MrtrError(rawCode: Int32(MRTR_ERR_ABORTED.rawValue), operation: "run")
                case .taskCreated:
                    // The call now follows its task: wait the task's interval first.
                    try await Task.sleep(nanoseconds: try progress().pollMs * 1_000_000)
                    break legLoop
                case .inputRequired(let list):
                    try await answerAll(list)
                    break legLoop
                case .retryAfter(let waitMs), .taskPoll(let waitMs):
                    try await Task.sleep(nanoseconds: waitMs * 1_000_000)
                    break legLoop
                case .taskNext:
                    break legLoop
                case .unrelated:
                    unrelated += 1
                    if unrelated > maxUnrelated {
                        throw MrtrError(rawCode: Int32(MRTR_ERR_LIMIT_EXCEEDED.rawValue), operation: "run")
                    }
                }
            }
        }
    }
}

private func rpcError(_ code: Int64, _ message: String, _ data: [UInt8]?) -> MrtrError {
    var e = MrtrError(rawCode: Int32(MRTR_ERR_RPC_ERROR.rawValue), operation: "run")
    e.rpcCode = code
    e.rpcMessage = message
    e.rpcData = data
    return e
}
