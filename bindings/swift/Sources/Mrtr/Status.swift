import CMrtr

/// An mrtr function returned an error status. `code` names the precise status
/// (every `mrtr_status` of `include/mrtr.h`; `scripts/test-bindings-parity`
/// checks the list against the header and the Kotlin `Status` enum); `group`
/// is the same grouping the Kotlin exception subclasses use; `reason` names
/// the cause (Kotlin `MrtrException.reason`).
public struct MrtrError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Every `mrtr_status`, with its C code as raw value.
    public enum Code: Int32, Sendable, CaseIterable {
        /// Success.
        case ok = 0
        /// A required pointer is NULL, or NULL comes with a non-zero length (a C-level misuse).
        case nullPointer = 1
        /// An argument is out of range (a length above `PTRDIFF_MAX`, an output overlapping an input, a handle that is no live object, a bad limit).
        case invalidArgument = 2
        /// A string argument is not valid UTF-8.
        case invalidUtf8 = 3
        /// A pointer is not aligned as its type or workspace requires.
        case misaligned = 4
        /// The object's state does not allow this call (e.g. feeding before sending).
        case wrongState = 5
        /// No item with that key or index.
        case notFound = 6
        /// An application value breaks its rules (an answer of the wrong shape, form content failing its schema, a root that is not a `file://` URI).
        case invalidValue = 7
        /// An output buffer is too small for the result.
        case bufferTooSmall = 10
        /// The workspace is smaller than the library needs.
        case workspaceTooSmall = 11
        /// A configured limit is exceeded (depth, size, count, ids, unrelated messages).
        case limitExceeded = 12
        /// Not valid JSON (RFC 8259), or a key twice where keys must be unique.
        case json = 20
        /// Not a JSON-RPC 2.0 message.
        case envelope = 21
        /// JSON-RPC, but against an MCP/MRTR rule.
        case protocolViolation = 22
        /// An input kind the request did not declare, or a capability the server needs and the request lacks.
        case undeclaredCapability = 23
        /// A protocol revision this library does not speak.
        case unsupportedVersion = 24
        /// A form schema outside the protocol's subset (the form cannot be shown as asked), or a tool's invalid `x-mcp-header` (do not call the tool).
        case invalidSchema = 25
        /// A URL a consent screen cannot show honestly: do not offer to open it.
        case refusedUrl = 26
        /// The call ended with a JSON-RPC error response (or a failed task).
        case rpcError = 30
        /// The server asked past the round cap (or the state-only round cap).
        case roundCap = 31
        /// An input is still unanswered (or a callback did not answer it).
        case unansweredInput = 32
        /// The run stopped: the app asked, refused, or the task was cancelled.
        case aborted = 33
        /// A `requestState` failed verification; the reason is for logs only.
        case invalidRequestState = 40
        /// A sealing key is unusable (too short, duplicate key id, empty ring).
        case keyError = 41
        /// A bug in mrtr: a state the library believed unreachable. Please report.
        case `internal` = 99
    }

    /// The status groups: one per Kotlin `MrtrException` subclass.
    public enum Group: Sendable, Equatable {
        /// NULL, bad length or range, invalid UTF-8, misalignment (Kotlin `MrtrArgumentException`).
        case argument
        /// `wrongState` (Kotlin `MrtrWrongStateException`).
        case wrongState
        /// `notFound` (Kotlin `MrtrNotFoundException`).
        case notFound
        /// An answer the application gave breaks its rules; `formError` may say why (Kotlin `MrtrInvalidValueException`).
        case invalidValue
        /// A buffer, workspace or limit too small (Kotlin `MrtrCapacityException`).
        case capacity
        /// The peer's message is unacceptable (Kotlin `MrtrMessageException`).
        case message
        /// A JSON-RPC error response ended the call (Kotlin `MrtrRpcException`).
        case rpc
        /// Round cap, unanswered input, abort (Kotlin `MrtrFlowException`).
        case flow
        /// A `requestState` that does not verify, an unusable key (Kotlin `MrtrSealException`).
        case seal
        /// A bug in mrtr, or a status this binding does not know (Kotlin `MrtrInternalException`).
        case `internal`
    }

    /// The status, or nil for a code this binding does not know.
    public let code: Code?
    /// The C status code.
    public let rawCode: Int32
    /// The operation that failed (the C function's name).
    public let operation: String
    /// `rpcError`: the JSON-RPC error code, message (decoded) and data (raw JSON, nil when absent).
    public var rpcCode: Int64 = 0
    /// `rpcError`: the JSON-RPC error message, decoded.
    public var rpcMessage: String = ""
    /// `rpcError`: the JSON-RPC error data, raw JSON; nil when absent.
    public var rpcData: [UInt8]? = nil
    /// `invalidValue` from a form check: the first problem of the content.
    public var formError: FormError? = nil
    /// `invalidRequestState` from `MrtrSealer.unseal`: why, for the log only (answer the
    /// client with `MrtrSealer.invalidRequestStateCode` and `.invalidRequestStateMessage`).
    public var unsealReason: UnsealReason? = nil
    /// The cause the library names for the status, as C reads it: for a call function
    /// `mrtr_call_check`'s (`"NotAnOption"`: a form value that is none of its options,
    /// `"IdNotFresh"`, `"Overlap"`, ...) or, when the function failed the call,
    /// `mrtr_call_failure`'s (`"InputRequiredWithoutFields"`); for `MrtrCall.restore` and
    /// `MrtrSealer` their `out_reason` (`"Decode"`, `"EmptyAudience"`); else the status's
    /// own name (`"MRTR_ERR_NOT_FOUND"`). Also at the end of `description`.
    public internal(set) var reason: String

    /// `reason` nil: the status's own name stands for the cause.
    init(rawCode: Int32, operation: String, reason: String? = nil) {
        self.code = Code(rawValue: rawCode)
        self.rawCode = rawCode
        self.operation = operation
        self.reason = reason ?? String(cString: mrtr_status_str(rawCode))
    }

    /// The C name (`"MRTR_ERR_JSON"`), from the library itself.
    public var statusName: String { String(cString: mrtr_status_str(rawCode)) }

    /// `"mrtr_call_answer_elicit: MRTR_ERR_INVALID_VALUE (7): NotAnOption"` (the reason
    /// left out when it is the status's name).
    public var description: String {
        "\(operation): \(statusName) (\(rawCode))" + (reason == statusName ? "" : ": \(reason)")
    }

    /// The group of this status.
    public var group: Group {
        guard let code else { return .internal }
        switch code {
        case .ok: return .internal
        case .nullPointer, .invalidArgument, .invalidUtf8, .misaligned: return .argument
        case .wrongState: return .wrongState
        case .notFound: return .notFound
        case .invalidValue: return .invalidValue
        case .bufferTooSmall, .workspaceTooSmall, .limitExceeded: return .capacity
        case .json, .envelope, .protocolViolation, .undeclaredCapability, .unsupportedVersion, .invalidSchema,
             .refusedUrl:
            return .message
        case .rpcError: return .rpc
        case .roundCap, .unansweredInput, .aborted: return .flow
        case .invalidRequestState, .keyError: return .seal
        case .internal: return .internal
        }
    }
}

/// Throws the error for `status` unless it is `MRTR_OK`.
@inline(__always)
func check(_ status: mrtr_status, _ operation: String) throws {
    if status != MRTR_OK { throw MrtrError(rawCode: Int32(status.rawValue), operation: operation) }
}

/// Throws the error for `status` of a function on call `h` unless it is `MRTR_OK`, with
/// the cause the call names (`callReason`).
func check(_ status: mrtr_status, _ operation: String, call h: OpaquePointer) throws {
    if status != MRTR_OK {
        throw MrtrError(rawCode: Int32(status.rawValue), operation: operation, reason: callReason(h, status))
    }
}

/// A C string the library returned as a static name, or nil.
func cName(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }

/// The cause of `status` that a function on call `h` just returned: `mrtr_call_check`'s, or
/// `mrtr_call_failure`'s (finer) when that function failed the call with it; the handle's
/// refusal for no live call. Read in that order: every function on the call replaces what
/// it remembers.
func callReason(_ h: OpaquePointer, _ status: mrtr_status) -> String? {
    var why: UnsafePointer<CChar>?
    if mrtr_call_check(h, &why) != MRTR_OK { return cName(why) }
    var f = mrtr_failure()
    if mrtr_call_failure(h, &f) == MRTR_OK, f.status == status, let r = cName(f.reason), !r.isEmpty {
        return r
    }
    return cName(why)
}
