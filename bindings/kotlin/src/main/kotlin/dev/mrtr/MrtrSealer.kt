package dev.mrtr

import java.nio.ByteBuffer
import java.security.SecureRandom

/**
 * Why a `requestState` token was refused (`mrtr_unseal_reason`), for the server's log.
 *
 * @property code The entry's C value (`mrtr_unseal_reason`).
 */
enum class UnsealReason(val code: Int) {
    /** Refused: not a well-formed token. */
    MALFORMED(1),
    /** Refused: the token is larger than the maximum. */
    TOO_LARGE(2),
    /** Refused: sealed under a key this sealer does not hold. */
    UNKNOWN_KEY(3),
    /** Refused: the token failed authentication. */
    TAMPERED(4),
    /** Refused: the token's lifetime is over. */
    EXPIRED(5),
    /** Refused: the token was issued in the future (beyond the allowed clock skew). */
    NOT_YET_VALID(6),
    /** Refused: sealed for another audience. */
    WRONG_AUDIENCE(7),
    /** Refused: bound to another request (method, target or arguments differ). */
    WRONG_REQUEST(8),
    /** Refused: bound to another principal. */
    WRONG_PRINCIPAL(9),
    /** Refused: the current time is past the latest time a token can carry. */
    CLOCK_OUT_OF_RANGE(10),
    ;

    /** The library's short description (`"token expired"`, ...). */
    val description: String get() = Native.unsealReasonStr(code)
}

/**
 * Seals and unseals `requestState` for a server (the C `mrtr_sealer`): XChaCha20-Poly1305
 * tokens bound to the request (method, target, canonical arguments), an audience, a
 * lifetime and optionally a principal. The key material lives in native memory this
 * object owns; [close] wipes and frees it (use after close throws [IllegalStateException]).
 *
 * [keys]: 1 to 8 secrets of at least 32 random bytes (not all one byte value); `keys[0]`
 * seals, every key unseals (rotate with `[OLD, NEW]`, then `[NEW, OLD]`, then one TTL later
 * `[NEW]`). [audience] names the service. [ttlSeconds] 0: 600 s, at most 86,400.
 * [skewSeconds]: clock disagreement allowed, at most 300. [maxTokenBytes] 0: 4,094 bytes
 * (with its quotes a token then fits a default call's 4 KiB `requestState` bound).
 */
class MrtrSealer(
    keys: List<ByteArray>,
    audience: String,
    ttlSeconds: Long = 0,
    skewSeconds: Long = 60,
    maxTokenBytes: Long = 0,
) : AutoCloseable {
    private var ws: ByteBuffer? = null
    /** The largest token this sealer accepts (for the unseal scratch). */
    private val maxToken: Long = if (maxTokenBytes == 0L) 4094 else maxTokenBytes

    init {
        val w = allocWorkspace(Native.sealerSize())
        val why = why()
        val st = Native.sealerInit(w, keys.toTypedArray<ByteArray?>(), audience.toByteArray(Charsets.UTF_8), ttlSeconds, skewSeconds, maxTokenBytes, why)
        if (st != Status.OK.code) {
            Native.wsFree(w)
            throw exceptionFor(st, "mrtr_sealer_init", why[0])
        }
        ws = w
    }

    companion object {
        /** The JSON-RPC error code for every `requestState` that fails to unseal (-32602). */
        const val INVALID_REQUEST_STATE_CODE: Long = -32602

        /** The one error message for every refused `requestState`: `"Invalid or expired requestState"`. */
        val invalidRequestStateMessage: String get() = Native.invalidRequestStateMessage()

        /**
         * The 32-byte binding digest of a request: [method], [target] (tool or prompt
         * name, resource URI) and the canonical form of [arguments] (the JSON of
         * `params.arguments`, null when absent).
         */
        fun bindingDigest(method: String, target: String, arguments: ByteArray?): ByteArray {
            val out = ByteArray(32)
            check(
                Native.bindingDigest(method.toByteArray(Charsets.UTF_8), target.toByteArray(Charsets.UTF_8), arguments, out),
                "mrtr_binding_digest",
            )
            return out
        }

        /** The exact token length for [stateLength] bytes of state. */
        fun tokenLength(stateLength: Int, principal: Boolean): Long = Native.sealTokenLen(stateLength.toLong(), principal)

        /** 24 fresh nonce bytes from [SecureRandom] (the library draws no randomness itself). */
        fun freshNonce(): ByteArray = ByteArray(24).also { SecureRandom().nextBytes(it) }
    }

    /**
     * Seals [state] into a token (ASCII) to send as `requestState`. [nowSeconds]: unix
     * time; [nonce]: 24 random bytes or a counter (a repeat is safe: the token's nonce is derived from it, the key and everything sealed); [binding]: [bindingDigest] of the request
     * being answered; [principal]: the authenticated caller, or null.
     */
    @Synchronized
    fun seal(nowSeconds: Long, binding: ByteArray, state: ByteArray, principal: ByteArray? = null, nonce: ByteArray = freshNonce()): ByteArray {
        val w = live()
        val guess = tokenLength(state.size, principal != null).coerceIn(16, Int.MAX_VALUE.toLong() - 8).toInt()
        return writeOut("mrtr_seal", guess) { out, n -> Native.seal(w, nowSeconds, nonce, binding, principal, state, out, n) }
    }

    /**
     * The state carried by an echoed [token], or [MrtrSealException] with the precise
     * [MrtrSealException.unsealReason] (log it; answer the client with
     * [INVALID_REQUEST_STATE_CODE] and [invalidRequestStateMessage] whatever it is).
     */
    @Synchronized
    fun unseal(nowSeconds: Long, token: ByteArray, binding: ByteArray, principal: ByteArray? = null): ByteArray {
        val w = live()
        val scratch = ByteArray(Native.unsealScratchLen(minOf(token.size.toLong(), maxToken)).coerceIn(0, Int.MAX_VALUE.toLong() - 8).toInt())
        val out = LongArray(3)
        val st = Native.unseal(w, nowSeconds, token, binding, principal, scratch, out)
        if (st == Status.ERR_INVALID_REQUEST_STATE.code) {
            val reason = UnsealReason.entries.firstOrNull { it.code.toLong() == out[2] }
            throw MrtrSealException(
                Status.ERR_INVALID_REQUEST_STATE, st,
                "mrtr_unseal: ${Status.ERR_INVALID_REQUEST_STATE.cName} (${reason?.description})", reason,
            )
        }
        check(st, "mrtr_unseal")
        val state = scratch.copyOfRange(out[0].toInt(), (out[0] + out[1]).toInt())
        scratch.fill(0)
        return state
    }

    /** Wipes the key material and frees the native memory. Idempotent. */
    @Synchronized
    override fun close() {
        val w = ws ?: return
        ws = null
        Native.sealerWipe(w)
        Native.wsFree(w)
    }

    @Suppress("removal", "DEPRECATION")
    protected fun finalize() {
        close()
    }

    private fun live(): ByteBuffer = ws ?: throw IllegalStateException("MrtrSealer is closed")
}
