import CMrtr

/// An mrtr function returned an error status. `code` names the precise status
/// (every `mrtr_status` of `include/mrtr.h`; `scripts/test-bindings-parity`
/// checks the list against the header and the Kotlin `Status` enum); `group`
/// is the same grouping the Kotlin exception subclasses use.
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
    /// The cause the library names for a refusal (`MissingTarget`), when it names one.
    var cause: String? = nil

    init(rawCode: Int32, operation: String) {
        self.code = Code(rawValue: rawCode)
        self.rawCode = rawCode
        self.operation = operation
    }

    /// The C name (`"MRTR_ERR_JSON"`), from the library itself.
    public var statusName: String { String(cString: mrtr_status_str(rawCode)) }

    public var description: String {
        "\(operation): \(statusName) (\(rawCode))" + (cause.map { ": \($0)" } ?? "")
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
