import CMrtr
import Foundation

/// Default of `run`'s `maxUnrelated`: the C runner's `MRTR_RUN_DEFAULT_MAX_UNRELATED`.
public let runDefaultMaxUnrelated = Int(MRTR_RUN_DEFAULT_MAX_UNRELATED)

extension MrtrCall {
    /// Runs the call to its end and returns the final result object (raw JSON). The loop is
    /// the library's (`mrtr_runner_*`): it says when to send (a fresh leg, or a resend with a
    /// fresh id), when to wait (with `Task.sleep`), which input to ask `handler` about, and
    /// when the run is over; this function only moves bytes. When the server moves the call
    /// to a task, the run follows it to the task's result.
    ///
    /// `transport` sends a request and returns the next message received for it; empty `Data`
    /// means "the next message, send nothing" (the last one was unrelated, e.g. a
    /// notification), at most `maxUnrelated` times per request: one more throws
    /// `.limitExceeded`, the call staying `sent`.
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
        let runner = UnsafeMutablePointer<mrtr_runner>.allocate(capacity: 1)
        defer { runner.deallocate() }
        try withHandle { h in
            try check(mrtr_runner_init(runner, h, 0, 0, UInt32(clamping: maxUnrelated)), "mrtr_runner_init", call: h)
        }
        var out = [UInt8](repeating: 0, count: 4096)
        var last: CallEvent?
        while true {
            var step = mrtr_step()
            func next() throws -> mrtr_status {
                try withHandle { h in
                    out.withUnsafeMutableBufferPointer { mrtr_runner_next(runner, h, $0.baseAddress, $0.count, &step) }
                }
            }
            var st = try next()
            if st == MRTR_ERR_BUFFER_TOO_SMALL {
                out = [UInt8](repeating: 0, count: step.len)
                st = try next()
            }
            try withHandle { h in try check(st, "mrtr_runner_next", call: h) }
            switch step.kind {
            case MRTR_STEP_SEND:
                var request = Data(out[0..<step.len])
                var again = true
                while again {
                    let message = [UInt8](try await transport(request))
                    request = Data()
                    var ev = mrtr_event()
                    var unrelated = false
                    last = try withHandle { h -> CallEvent in
                        let received = message.withUnsafeBufferPointer {
                            mrtr_runner_received(runner, h, $0.baseAddress, $0.count, &ev, &unrelated)
                        }
                        try check(received, "mrtr_runner_received", call: h)
                        return try eventLocked(h, message, ev)
                    }
                    again = unrelated
                }
            case MRTR_STEP_ASK:
                let index = step.index
                try answer(index, try await handler.answer(try input(index)))
                try withHandle { h in
                    try check(mrtr_runner_answered(runner, h, index, MRTR_CB_ANSWERED), "mrtr_runner_answered", call: h)
                }
            case MRTR_STEP_WAIT:
                try await Task.sleep(nanoseconds: step.wait_ms * 1_000_000)
            default:
                switch last {
                case .complete(let result)?:
                    return Data(result)
                case .rpcError(let code, let message, let data)?, .taskFailed(let code, let message, let data)?:
                    throw rpcError(code, message, data)
                default:
                    throw MrtrError(rawCode: Int32(step.status.rawValue), operation: "run")
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
