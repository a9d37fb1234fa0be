package dev.mrtr

import java.nio.ByteBuffer

/**
 * The native surface: one function per C function of `include/mrtr.h`, in the
 * header's order, implemented in `jni/mrtr_jni.c`. Each returns the C status
 * (an `Int`) and writes outputs into the arrays it is given; the layout of
 * every `LongArray` output is documented at its function. Nothing here throws
 * for a status: the typed layer ([MrtrCall], [Mrtr], ...) does.
 *
 * Loading: `System.loadLibrary("mrtr_jni")` (Android: the jniLibs the Gradle
 * build packs), or the absolute path in the system property `mrtr.jni.path`.
 */
internal object Native {
    init {
        val path = System.getProperty("mrtr.jni.path")
        if (path != null) System.load(path) else System.loadLibrary("mrtr_jni")
    }

    // Workspaces: zeroed native memory behind a direct ByteBuffer, freed (and wiped) by wsFree.
    @JvmStatic external fun wsAlloc(size: Long): ByteBuffer?
    @JvmStatic external fun wsFree(ws: ByteBuffer?): Int

    // Library information.
    @JvmStatic external fun version(): String
    @JvmStatic external fun protocolVersion(): String
    @JvmStatic external fun statusStr(status: Int): String

    /** out[0]: error offset on ERR_JSON / ERR_LIMIT_EXCEEDED. */
    @JvmStatic external fun jsonValidate(json: ByteArray?, off: Int, len: Int, maxDepth: Long, out: LongArray?): Int

    /** written[0]: bytes written, or needed on ERR_BUFFER_TOO_SMALL. */
    @JvmStatic external fun jsonWriteString(text: ByteArray?, out: ByteArray?, written: LongArray?): Int

    /** written[0] as [jsonWriteString]. */
    @JvmStatic external fun jsonDecodeString(token: ByteArray?, off: Int, len: Int, out: ByteArray?, written: LongArray?): Int

    // Call. Objects are addressed by their workspace (the C handle is its address).
    const val LIMITS_LEN = 12
    const val EVENT_LEN = 16
    const val INPUT_LEN = 11
    const val FAILURE_LEN = 7

    /** out[0..12): the limits in [CallLimits] order. */
    @JvmStatic external fun callLimitsDefault(out: LongArray?): Int
    /** out[0]: bytes. */
    @JvmStatic external fun callWorkspaceSize(limits: LongArray?, out: LongArray?): Int
    /** out[0]: the size needed on ERR_WORKSPACE_TOO_SMALL. */
    @JvmStatic external fun callInit(
        ws: ByteBuffer?, method: Int, params: ByteArray?, caps: Int, clientName: ByteArray?,
        clientVersion: ByteArray?, flags: Int, firstId: Long, limits: LongArray?, out: LongArray?,
    ): Int
    @JvmStatic external fun callWriteRequest(ws: ByteBuffer?, id: Long, out: ByteArray?, written: LongArray?): Int
    @JvmStatic external fun callResend(ws: ByteBuffer?, id: Long, out: ByteArray?, written: LongArray?): Int
    @JvmStatic external fun callNextId(ws: ByteBuffer?, out: LongArray?): Int
    /**
     * out[0..16): kind, input count, wait ms, error code, result off/len, error message off/len,
     * error data off/len, task id off/len (offsets into msg), task dialect, task status, poll ms, has poll ms.
     */
    @JvmStatic external fun callFeed(ws: ByteBuffer?, msg: ByteArray?, out: LongArray?): Int
    @JvmStatic external fun callState(ws: ByteBuffer?, out: LongArray?): Int
    @JvmStatic external fun callRound(ws: ByteBuffer?, out: LongArray?): Int
    @JvmStatic external fun callInputCount(ws: ByteBuffer?, out: LongArray?): Int
    /**
     * out[0..11): kind, max tokens, escaped bits, has tools, wants context, has system prompt,
     * answered, requested schema off/len, params off/len (offsets into ws).
     */
    @JvmStatic external fun callInputAt(ws: ByteBuffer?, index: Long, out: LongArray?): Int
    @JvmStatic external fun callInputFind(ws: ByteBuffer?, key: ByteArray?, out: LongArray?): Int
    @JvmStatic external fun callInputText(ws: ByteBuffer?, index: Long, field: Int, out: ByteArray?, written: LongArray?): Int
    @JvmStatic external fun callAnswerElicit(ws: ByteBuffer?, index: Long, action: Int, content: ByteArray?): Int
    @JvmStatic external fun callAnswerJson(ws: ByteBuffer?, index: Long, json: ByteArray?): Int
    /** names[i] null: no name. */
    @JvmStatic external fun callAnswerRoots(ws: ByteBuffer?, index: Long, uris: Array<ByteArray?>?, names: Array<ByteArray?>?): Int
    @JvmStatic external fun callAnswerError(ws: ByteBuffer?, index: Long, code: Long): Int
    /** out[0..2): the result's offset and length in fed. */
    @JvmStatic external fun callResult(ws: ByteBuffer?, fed: ByteArray?, out: LongArray?): Int
    @JvmStatic external fun callSave(ws: ByteBuffer?, out: ByteArray?, written: LongArray?): Int
    @JvmStatic external fun callRestore(ws: ByteBuffer?, limits: LongArray?, saved: ByteArray?): Int
    @JvmStatic external fun callLastId(ws: ByteBuffer?, out: LongArray?): Int
    /** out[0..2): the raw JSON string token's offset and length in ws. */
    @JvmStatic external fun callRequestState(ws: ByteBuffer?, out: LongArray?): Int
    /** out[0..7): status, kind, offset, index, code, needed, limit; reason[0]: the cause's name. */
    @JvmStatic external fun callFailure(ws: ByteBuffer?, out: LongArray?, reason: Array<String?>?): Int

    // Task: the same shapes as the call functions (one C body for both in mrtr_jni.c), plus its own.
    const val TASK_LIMITS_LEN = 13

    /** out[0..13): the limits in [TaskLimits] order. */
    @JvmStatic external fun taskLimitsDefault(out: LongArray?): Int
    @JvmStatic external fun taskWorkspaceSize(limits: LongArray?, out: LongArray?): Int
    /** out[0]: the size needed on ERR_WORKSPACE_TOO_SMALL. */
    @JvmStatic external fun taskInit(
        ws: ByteBuffer?, dialect: Int, taskId: ByteArray?, flags: Int, caps: Int, clientName: ByteArray?,
        clientVersion: ByteArray?, pollMs: Long, firstId: Long, limits: LongArray?, out: LongArray?,
    ): Int
    @JvmStatic external fun taskWriteRequest(ws: ByteBuffer?, id: Long, out: ByteArray?, written: LongArray?): Int
    @JvmStatic external fun taskWriteCancel(ws: ByteBuffer?, id: Long, out: ByteArray?, written: LongArray?): Int
    @JvmStatic external fun taskResend(ws: ByteBuffer?, id: Long, out: ByteArray?, written: LongArray?): Int
    @JvmStatic external fun taskNextId(ws: ByteBuffer?, out: LongArray?): Int
    /** out: as [callFeed]. */
    @JvmStatic external fun taskFeed(ws: ByteBuffer?, msg: ByteArray?, out: LongArray?): Int
    @JvmStatic external fun taskState(ws: ByteBuffer?, out: LongArray?): Int
    /** out[0]: the mrtr_task_request. */
    @JvmStatic external fun taskNextRequest(ws: ByteBuffer?, out: LongArray?): Int
    @JvmStatic external fun taskPollMs(ws: ByteBuffer?, out: LongArray?): Int
    @JvmStatic external fun taskRound(ws: ByteBuffer?, out: LongArray?): Int
    @JvmStatic external fun taskInputCount(ws: ByteBuffer?, out: LongArray?): Int
    /** out: as [callInputAt]. */
    @JvmStatic external fun taskInputAt(ws: ByteBuffer?, index: Long, out: LongArray?): Int
    @JvmStatic external fun taskInputFind(ws: ByteBuffer?, key: ByteArray?, out: LongArray?): Int
    @JvmStatic external fun taskInputText(ws: ByteBuffer?, index: Long, field: Int, out: ByteArray?, written: LongArray?): Int
    @JvmStatic external fun taskAnswerElicit(ws: ByteBuffer?, index: Long, action: Int, content: ByteArray?): Int
    @JvmStatic external fun taskAnswerJson(ws: ByteBuffer?, index: Long, json: ByteArray?): Int
    @JvmStatic external fun taskAnswerRoots(ws: ByteBuffer?, index: Long, uris: Array<ByteArray?>?, names: Array<ByteArray?>?): Int
    @JvmStatic external fun taskAnswerError(ws: ByteBuffer?, index: Long, code: Long): Int
    @JvmStatic external fun taskResult(ws: ByteBuffer?, fed: ByteArray?, out: LongArray?): Int
    @JvmStatic external fun taskSave(ws: ByteBuffer?, out: ByteArray?, written: LongArray?): Int
    @JvmStatic external fun taskRestore(ws: ByteBuffer?, limits: LongArray?, saved: ByteArray?): Int
    @JvmStatic external fun taskLastId(ws: ByteBuffer?, out: LongArray?): Int
    @JvmStatic external fun taskFailure(ws: ByteBuffer?, out: LongArray?, reason: Array<String?>?): Int

    // Forms (over the requestedSchema bytes).
    const val SCHEMA_ERROR_LEN = 6
    const val FIELD_LEN = 20
    const val FORM_ERROR_LEN = 7

    /** out[0]: field count; on ERR_INVALID_SCHEMA err[0..6): property off/len, escaped, keyword off/len, default error. */
    @JvmStatic external fun formParse(schema: ByteArray?, out: LongArray?, err: LongArray?, reason: Array<String?>?): Int
    /**
     * out[0..20): escaped, index, kind, format, required, has min/max length, has minimum/maximum,
     * has min/max items, min length, max length, minimum bits, maximum bits, min items, max items,
     * option count, default off/len (into schema).
     */
    @JvmStatic external fun formFieldAt(schema: ByteArray?, index: Long, out: LongArray?): Int
    /** out[0..2): escaped, has title. */
    @JvmStatic external fun formOptionAt(schema: ByteArray?, field: Long, option: Long, out: LongArray?): Int
    @JvmStatic external fun formText(schema: ByteArray?, field: Long, option: Long, which: Int, out: ByteArray?, written: LongArray?): Int
    /** On ERR_INVALID_VALUE err[0..7): source (0 schema, 1 content), field off/len, escaped, index (-1 none), error, bound. */
    @JvmStatic external fun formValidate(schema: ByteArray?, content: ByteArray?, err: LongArray?, reason: Array<String?>?): Int

    // URL consent.
    const val URL_LEN = 18

    /**
     * OK: out[0..18): scheme, userinfo, host, path, query, fragment (off/len pairs into url), warnings,
     * port, has port, has userinfo, has query, has fragment. ERR_REFUSED_URL: refusal[0..2) offset, has offset.
     */
    @JvmStatic external fun urlConsent(url: ByteArray?, out: LongArray?, refusal: LongArray?, reason: Array<String?>?): Int

    // Seal.
    @JvmStatic external fun unsealReasonStr(reason: Int): String
    @JvmStatic external fun invalidRequestStateMessage(): String
    @JvmStatic external fun sealerSize(): Long
    @JvmStatic external fun sealTokenLen(stateLen: Long, principal: Boolean): Long
    @JvmStatic external fun unsealScratchLen(tokenLen: Long): Long
    @JvmStatic external fun sealerInit(ws: ByteBuffer?, keys: Array<ByteArray?>?, audience: ByteArray?, ttlSeconds: Long, skewSeconds: Long, maxToken: Long): Int
    @JvmStatic external fun sealerWipe(ws: ByteBuffer?): Int
    /** out: 32 bytes. */
    @JvmStatic external fun bindingDigest(method: ByteArray?, target: ByteArray?, arguments: ByteArray?, out: ByteArray?): Int
    @JvmStatic external fun seal(
        ws: ByteBuffer?, now: Long, nonce: ByteArray?, binding: ByteArray?, principal: ByteArray?,
        state: ByteArray?, out: ByteArray?, written: LongArray?,
    ): Int
    /** OK: out[0..2) the state's offset/len in scratch; ERR_INVALID_REQUEST_STATE: out[2] the reason. */
    @JvmStatic external fun unseal(
        ws: ByteBuffer?, now: Long, token: ByteArray?, binding: ByteArray?, principal: ByteArray?,
        scratch: ByteArray?, out: LongArray?,
    ): Int
}

/**
 * Runs a C writer that follows the header's output convention: first into a
 * buffer of [guess] bytes, then, on `MRTR_ERR_BUFFER_TOO_SMALL`, once more into
 * one of exactly the size the library reported. Returns the bytes written.
 */
internal inline fun writeOut(what: String, guess: Int, f: (ByteArray, LongArray) -> Int): ByteArray {
    val written = LongArray(1)
    var buf = ByteArray(guess)
    var st = f(buf, written)
    if (st == Status.ERR_BUFFER_TOO_SMALL.code) {
        val need = written[0]
        if (need < 0 || need > Int.MAX_VALUE - 8) throw exceptionFor(Status.ERR_LIMIT_EXCEEDED.code, what)
        buf = ByteArray(need.toInt())
        st = f(buf, written)
    }
    check(st, what)
    val n = written[0]
    if (n < 0 || n > buf.size) throw exceptionFor(Status.ERR_INTERNAL.code, what)
    return if (n.toInt() == buf.size) buf else buf.copyOf(n.toInt())
}
