import CMrtr

/// An mrtr function returned an error status. `code` names the precise status
/// (every `mrtr_status` of `include/mrtr.h`; `scripts/test-bindings-parity`
/// checks the list against the header and the Kotlin `Status` enum); `group`
/// is the same grouping the Kotlin exception subclasses use; `reason` names
/// the cause (Kotlin `MrtrException.reason`).
public struct MrtrError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Every `mrtr_status`, with its C code as raw value.
    public enum Code: Int32, Sendable, CaseIterable {
        case ok = 0
        case nullPointer = 1
        case invalidArgument = 2
        case invalidUtf8 = 3
        case misaligned = 4
        case wrongState = 5
        case notFound = 6
        case invalidValue = 7
        case bufferTooSmall = 10
        case workspaceTooSmall = 11
        case limitExceeded = 12
        case json = 20
        case envelope = 21
        case protocolViolation = 22
        case undeclaredCapability = 23
        case unsupportedVersion = 24
        case invalidSchema = 25
        case refusedUrl = 26
        case rpcError = 30
        case roundCap = 31
        case unansweredInput = 32
        case aborted = 33
        case invalidRequestState = 40
        case keyError = 41
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
    public var rpcMessage: String = ""
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
