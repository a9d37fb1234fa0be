import CMrtr
import Foundation

/// Default of `run`'s `maxUnrelated`, as the C runner's `MRTR_RUN_DEFAULT_MAX_UNRELATED`.
public let runDefaultMaxUnrelated = 16

extension MrtrCall {
    /// Runs the call to its end and returns the final result object (raw JSON): writes each
    /// leg, hands it to `transport`, feeds what comes back, asks `handler` for every input,
    /// waits out state-only rounds with `Task.sleep`, and repeats. A call restored in `sent`
    /// is first resent with a fresh id; a call left `answering` gets its unanswered inputs asked.
    ///
    /// `transport` sends a request and returns the next message received for it. When that
    /// message is not the answer (a notification, another id), `run` calls `transport` again
    /// with empty `Data`, meaning "the next message, send nothing", at most `maxUnrelated`
    /// times per leg; one more throws `.limitExceeded`, the call staying `sent`.
    ///
    /// Ends: the result; `.rpcError` (with `rpcCode`, `rpcMessage`, `rpcData`); a
    /// `TaskCreatedError` when the server made a task (follow it with `MrtrTask.fromEvent`
    /// and `MrtrTask.run`); `.aborted` when the handler answered `.error` (the call is
    /// `failed`); the call's terminal errors as `feed` throws them. Cancellation leaves the
    /// call where it was (resumable with `resend` / `run`).
    public func run(
        transport: (Data) async throws -> Data,
        handler: some InputHandler,
        maxUnrelated: Int = runDefaultMaxUnrelated
    ) async throws -> Data {
        try await runLoop(
            phase: { try self.phase }, writeRequest: { try self.writeRequest() }, resend: { try self.resend() },
            inputs: { try self.inputs() }, feed: { try self.feed($0) }, answer: { try self.answer($0, $1) },
            transport: transport, handler: handler, maxUnrelated: maxUnrelated)
    }
}

extension MrtrTask {
    /// Runs the task to its end, as `MrtrCall.run`: polls (`tasks/get`) after the interval
    /// the server hints (`Task.sleep`), fetches and answers its questions, and returns the
    /// task's result object. A failed task throws `.rpcError` with its error; a cancelled
    /// one `.aborted`.
    public func run(
        transport: (Data) async throws -> Data,
        handler: some InputHandler,
        maxUnrelated: Int = runDefaultMaxUnrelated
    ) async throws -> Data {
        try await runLoop(
            phase: { try self.phase }, writeRequest: { try self.writeRequest() }, resend: { try self.resend() },
            inputs: { try self.inputs() }, feed: { try self.feed($0) }, answer: { try self.answer($0, $1) },
            transport: transport, handler: handler, maxUnrelated: maxUnrelated)
    }
}

private func rpcError(_ code: Int64, _ message: String, _ data: [UInt8]?) -> MrtrError {
    var e = MrtrError(rawCode: Int32(MRTR_ERR_RPC_ERROR.rawValue), operation: "run")
    e.rpcCode = code
    e.rpcMessage = message
    e.rpcData = data
    return e
}

/// The loop both `run`s share.
private func runLoop(
    phase: () throws -> Phase,
    writeRequest: () throws -> [UInt8],
    resend: () throws -> [UInt8],
    inputs: () throws -> [InputRequest],
    feed: ([UInt8]) throws -> CallEvent,
    answer: (Int, InputAnswer) throws -> Void,
    transport: (Data) async throws -> Data,
    handler: some InputHandler,
    maxUnrelated: Int
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
        switch try phase() {
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
                throw TaskCreatedError(event: event)
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
