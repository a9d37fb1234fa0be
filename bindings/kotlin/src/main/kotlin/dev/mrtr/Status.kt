package dev.mrtr

/**
 * Every `mrtr_status` of `include/mrtr.h`, with its C code and C name.
 *
 * `scripts/test-bindings-parity` checks this list against the header (and the
 * Swift `MrtrError.Code` enum against both), so a status added to the C API
 * cannot be forgotten here.
 *
 * @property code The C status code.
 * @property cName The C name of the status (`"MRTR_ERR_JSON"`, ...).
 */
enum class Status(val code: Int, val cName: String) {
    /** Success. */
    OK(0, "MRTR_OK"),
    /** A required pointer is NULL, or NULL comes with a non-zero length (a C-level misuse). */
    ERR_NULL_POINTER(1, "MRTR_ERR_NULL_POINTER"),
    /** An argument is out of range (a length above `PTRDIFF_MAX`, an output overlapping an input, a handle that is no live object, a bad limit). */
    ERR_INVALID_ARGUMENT(2, "MRTR_ERR_INVALID_ARGUMENT"),
    /** A string argument is not valid UTF-8. */
    ERR_INVALID_UTF8(3, "MRTR_ERR_INVALID_UTF8"),
    /** A pointer is not aligned as its type or workspace requires. */
    ERR_MISALIGNED(4, "MRTR_ERR_MISALIGNED"),
    /** The object's state does not allow this call (e.g. feeding before sending). */
    ERR_WRONG_STATE(5, "MRTR_ERR_WRONG_STATE"),
    /** No item with that key or index. */
    ERR_NOT_FOUND(6, "MRTR_ERR_NOT_FOUND"),
    /** An application value breaks its rules (an answer of the wrong shape, form content failing its schema, a root that is not a `file://` URI). */
    ERR_INVALID_VALUE(7, "MRTR_ERR_INVALID_VALUE"),
    /** An output buffer is too small for the result. */
    ERR_BUFFER_TOO_SMALL(10, "MRTR_ERR_BUFFER_TOO_SMALL"),
    /** The workspace is smaller than the library needs. */
    ERR_WORKSPACE_TOO_SMALL(11, "MRTR_ERR_WORKSPACE_TOO_SMALL"),
    /** A configured limit is exceeded (depth, size, count, ids, unrelated messages). */
    ERR_LIMIT_EXCEEDED(12, "MRTR_ERR_LIMIT_EXCEEDED"),
    /** Not valid JSON (RFC 8259), or a key twice where keys must be unique. */
    ERR_JSON(20, "MRTR_ERR_JSON"),
    /** Not a JSON-RPC 2.0 message. */
    ERR_ENVELOPE(21, "MRTR_ERR_ENVELOPE"),
    /** JSON-RPC, but against an MCP/MRTR rule. */
    ERR_PROTOCOL_VIOLATION(22, "MRTR_ERR_PROTOCOL_VIOLATION"),
    /** An input kind the request did not declare, or a capability the server needs and the request lacks. */
    ERR_UNDECLARED_CAPABILITY(23, "MRTR_ERR_UNDECLARED_CAPABILITY"),
    /** A protocol revision this library does not speak. */
    ERR_UNSUPPORTED_VERSION(24, "MRTR_ERR_UNSUPPORTED_VERSION"),
    /** A form schema outside the protocol's subset (the form cannot be shown as asked), or a tool's invalid `x-mcp-header` (do not call the tool). */
    ERR_INVALID_SCHEMA(25, "MRTR_ERR_INVALID_SCHEMA"),
    /** A URL a consent screen cannot show honestly: do not offer to open it. */
    ERR_REFUSED_URL(26, "MRTR_ERR_REFUSED_URL"),
    /** The call ended with a JSON-RPC error response (or a failed task). */
    ERR_RPC_ERROR(30, "MRTR_ERR_RPC_ERROR"),
    /** The server asked past the round cap (or the state-only round cap). */
    ERR_ROUND_CAP(31, "MRTR_ERR_ROUND_CAP"),
    /** An input is still unanswered (or a callback did not answer it). */
    ERR_UNANSWERED_INPUT(32, "MRTR_ERR_UNANSWERED_INPUT"),
    /** The run stopped: the app asked, refused, or the task was cancelled. */
    ERR_ABORTED(33, "MRTR_ERR_ABORTED"),
    /** A `requestState` failed verification; the reason is for logs only. */
    ERR_INVALID_REQUEST_STATE(40, "MRTR_ERR_INVALID_REQUEST_STATE"),
    /** A sealing key is unusable (too short, duplicate key id, empty ring). */
    ERR_KEY_ERROR(41, "MRTR_ERR_KEY_ERROR"),
    /** A bug in mrtr: a state the library believed unreachable. Please report. */
    ERR_INTERNAL(99, "MRTR_ERR_INTERNAL"),
    ;

    companion object {
        /** The status with C code [code], or null for an integer that is none. */
        fun of(code: Int): Status? = entries.firstOrNull { it.code == code }
    }
}

/**
 * An mrtr function returned an error status. One subclass per group of
 * statuses, so callers can catch what they can act on; [status] and [code]
 * name the precise one, [reason] its cause.
 */
sealed class MrtrException(
    /** The status, or null when the library returned a code this binding does not know. */
    val status: Status?,
    /** The C status code. */
    val code: Int,
    message: String,
    /**
     * The cause the library names for the status (also at the end of the message), as
     * C reads it: for a call function `mrtr_call_check`'s (`"NotAnOption"`: a form value
     * that is none of its options, `"AlreadyAnswered"`, `"IdNotFresh"`, `"Overlap"`, ...),
     * for [MrtrCall.restore] and [MrtrSealer] their `out_reason` (`"Decode"`,
     * `"EmptyAudience"`, ...), else the status's own name (`"MRTR_ERR_NOT_FOUND"`).
     * Null only for a check this binding made itself (e.g. [MrtrInvalidValueException]
     * from [Form.validate] details). A stable name for logs and tests.
     */
    val reason: String? = null,
) : Exception(message) {
    /** The C name (`"MRTR_ERR_JSON"`), from the library itself. */
    val statusName: String get() = Native.statusStr(code)
}

/** The caller passed something the C API refuses: NULL, a bad length or range, invalid UTF-8, misalignment. */
class MrtrArgumentException internal constructor(s: Status, c: Int, m: String, r: String? = null) : MrtrException(s, c, m, r)

/** The object is not in a state that allows the call (`MRTR_ERR_WRONG_STATE`). */
class MrtrWrongStateException internal constructor(s: Status, c: Int, m: String, r: String? = null) : MrtrException(s, c, m, r)

/** No item with that key or index (`MRTR_ERR_NOT_FOUND`). */
class MrtrNotFoundException internal constructor(s: Status, c: Int, m: String, r: String? = null) : MrtrException(s, c, m, r)

/**
 * A value the application supplied breaks its rules (`MRTR_ERR_INVALID_VALUE`): an answer of
 * the wrong shape, form content that fails its schema ([formError] then says which field and
 * why), a root that is not an acceptable `file://` URI.
 */
class MrtrInvalidValueException internal constructor(
    s: Status,
    c: Int,
    m: String,
    /** The first problem of form content, when a form check failed. */
    val formError: FormError? = null,
    r: String? = null,
) : MrtrException(s, c, m, r)

/** A buffer, workspace or configured limit is too small for the input (`BUFFER_TOO_SMALL`, `WORKSPACE_TOO_SMALL`, `LIMIT_EXCEEDED`). */
class MrtrCapacityException internal constructor(s: Status, c: Int, m: String, r: String? = null) : MrtrException(s, c, m, r)

/**
 * The peer's message is unacceptable: not JSON, not JSON-RPC, breaking an MCP/MRTR rule, a form
 * schema outside the allowed subset (`INVALID_SCHEMA`), or a URL that cannot be shown honestly
 * (`REFUSED_URL`).
 */
class MrtrMessageException internal constructor(s: Status, c: Int, m: String, r: String? = null) : MrtrException(s, c, m, r)

/**
 * The call ended with a JSON-RPC error response (`MRTR_ERR_RPC_ERROR`):
 * [rpcCode], [rpcMessage] (decoded) and [rpcData] (raw JSON, null when absent).
 */
class MrtrRpcException internal constructor(
    s: Status,
    c: Int,
    m: String,
    /** The JSON-RPC error code. */
    val rpcCode: Long = 0,
    /** The JSON-RPC error message, decoded. */
    val rpcMessage: String = "",
    /** The JSON-RPC error data as raw JSON bytes, or null when absent. */
    val rpcData: ByteArray? = null,
    r: String? = null,
) : MrtrException(s, c, m, r)

/** The flow stopped: round cap, unanswered input, or an abort asked by the application. */
class MrtrFlowException internal constructor(s: Status, c: Int, m: String, r: String? = null) : MrtrException(s, c, m, r)

/**
 * Sealing failed: a `requestState` that does not verify ([unsealReason] says why, for the log
 * only: answer the client with [MrtrSealer.INVALID_REQUEST_STATE_CODE] and
 * [MrtrSealer.invalidRequestStateMessage] whatever the reason), or an unusable key.
 */
class MrtrSealException internal constructor(
    s: Status,
    c: Int,
    m: String,
    /** Why the token was refused, when unsealing failed. */
    val unsealReason: UnsealReason? = null,
    r: String? = null,
) : MrtrException(s, c, m, r)

/** A bug in mrtr (`MRTR_ERR_INTERNAL`), or a status code this binding does not know. */
class MrtrInternalException internal constructor(s: Status?, c: Int, m: String, r: String? = null) : MrtrException(s, c, m, r)

/**
 * The exception for status [code] (never called with `MRTR_OK`). [what] names
 * the operation for the message; [reason] is the cause the library named (null:
 * none, the status's own name stands for it, as in C). The message ends with
 * the reason when it says more than the status's name:
 * `"mrtr_call_answer_elicit: MRTR_ERR_INVALID_VALUE (7): NotAnOption"`.
 */
internal fun exceptionFor(code: Int, what: String, reason: String? = null): MrtrException {
    val s = Status.of(code) ?: return MrtrInternalException(null, code, "$what: unknown status $code", reason)
    val r = reason ?: s.cName
    val m = "$what: ${s.cName} ($code)" + (if (r == s.cName) "" else ": $r")
    return when (s) {
        Status.OK -> MrtrInternalException(s, code, "$what: MRTR_OK is not an error", reason)
        Status.ERR_NULL_POINTER,
        Status.ERR_INVALID_ARGUMENT,
        Status.ERR_INVALID_UTF8,
        Status.ERR_MISALIGNED -> MrtrArgumentException(s, code, m, r)
        Status.ERR_WRONG_STATE -> MrtrWrongStateException(s, code, m, r)
        Status.ERR_NOT_FOUND -> MrtrNotFoundException(s, code, m, r)
        Status.ERR_INVALID_VALUE -> MrtrInvalidValueException(s, code, m, r = r)
        Status.ERR_BUFFER_TOO_SMALL,
        Status.ERR_WORKSPACE_TOO_SMALL,
        Status.ERR_LIMIT_EXCEEDED -> MrtrCapacityException(s, code, m, r)
        Status.ERR_JSON,
        Status.ERR_ENVELOPE,
        Status.ERR_PROTOCOL_VIOLATION,
        Status.ERR_UNDECLARED_CAPABILITY,
        Status.ERR_UNSUPPORTED_VERSION,
        Status.ERR_INVALID_SCHEMA,
        Status.ERR_REFUSED_URL -> MrtrMessageException(s, code, m, r)
        Status.ERR_RPC_ERROR -> MrtrRpcException(s, code, m, r = r)
        Status.ERR_ROUND_CAP,
        Status.ERR_UNANSWERED_INPUT,
        Status.ERR_ABORTED -> MrtrFlowException(s, code, m, r)
        Status.ERR_INVALID_REQUEST_STATE,
        Status.ERR_KEY_ERROR -> MrtrSealException(s, code, m, r = r)
        Status.ERR_INTERNAL -> MrtrInternalException(s, code, m, r)
    }
}

/** Throws the exception for [code] unless it is `MRTR_OK`. */
internal fun check(code: Int, what: String) {
    if (code != Status.OK.code) throw exceptionFor(code, what)
}

/** A fresh out-array for the cause a native function names (`why[0]`, null until it does). */
internal fun why(): Array<String?> = arrayOfNulls(1)

/**
 * Throws the exception for [code] unless it is `MRTR_OK`, with the cause the native
 * function wrote to [why] (`why[0]` null: it refused before the C function ran, and
 * the status's own name stands for the cause).
 */
internal fun check(code: Int, what: String, why: Array<String?>) {
    if (code != Status.OK.code) throw exceptionFor(code, what, why[0])
}
