package dev.mrtr

import java.nio.ByteBuffer

/**
 * The native surface: one function per C function of `include/mrtr.h`, in the
 * header's order, implemented in `jni/mrtr_jni.c`. Each returns the C status
 * (an `Int`) and writes outputs into the arrays it is given; the layout of
 * every `LongArray` output is documented at its function. Nothing here throws
 * for a status: the typed layer ([MrtrCall], [Mrtr], ...) does.
 *
 * Loading: the absolute path in the system property `mrtr.jni.path` when it is
 * set, else `System.loadLibrary("mrtr_jni")` (Android: the jniLibs the Gradle
 * build packs; the JVM: `java.library.path`). A failure says which fix applies.
 */
internal object Native {
    init {
        val path = System.getProperty("mrtr.jni.path")
        try {
            if (path != null) System.load(path) else System.loadLibrary("mrtr_jni")
        } catch (e: UnsatisfiedLinkError) {
            val fix = if (path != null) {
                "-Dmrtr.jni.path=$path could not be loaded; it must be the absolute path of " +
                    "the libmrtr_jni built for this JVM (scripts/build-kotlin-jvm writes " +
                    "build/kotlin-jvm/libmrtr_jni.so)"
            } else {
                "no mrtr_jni in java.library.path: start the JVM with " +
                    "-Dmrtr.jni.path=/absolute/path/to/libmrtr_jni.so (scripts/build-kotlin-jvm " +
                    "builds it into build/kotlin-jvm/), or add its directory to " +
                    "-Djava.library.path; on Android, package it in jniLibs"
            }
            throw UnsatisfiedLinkError("mrtr: $fix (${e.message})").apply { initCause(e) }
        }
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
    // The LongArray layouts are named in [Slots], shared with mrtr_jni.c. Every function
    // on a call takes a trailing `why` (null: not wanted): on a failure of the C function,
    // why[0] is the cause the call names (`mrtr_call_check`); it stays null when the glue
    // refused before the C function ran.
    const val LIMITS_LEN = Slots.LIMITS_LEN
    const val EVENT_LEN = Slots.EVENT_LEN
    const val INPUT_LEN = Slots.INPUT_LEN
    const val FAILURE_LEN = Slots.FAILURE_LEN
    const val PROGRESS_LEN = Slots.PROGRESS_LEN

    /** out: the limits, LIMITS_* slots. */
    @JvmStatic external fun callLimitsDefault(out: LongArray?): Int
    /** out[0]: bytes. */
    @JvmStatic external fun callWorkspaceSize(limits: LongArray?, out: LongArray?): Int
    /**
     * A call (taskDialect 0) or a task restarted from [taskId]; out[0]: the size needed on
     * ERR_WORKSPACE_TOO_SMALL; reason[0]: the cause the library names for a refusal.
     */
    @JvmStatic external fun callInit(
        ws: ByteBuffer?, method: Int, params: ByteArray?, caps: Int, clientName: ByteArray?,
        clientVersion: ByteArray?, flags: Int, firstId: Long, limits: LongArray?,
        taskDialect: Int, taskId: ByteArray?, taskPollMs: Long, out: LongArray?,
        reason: Array<String?>?,
    ): Int
    @JvmStatic external fun callWriteRequest(ws: ByteBuffer?, id: Long, out: ByteArray?, written: LongArray?, why: Array<String?>?): Int
    @JvmStatic external fun callResend(ws: ByteBuffer?, id: Long, out: ByteArray?, written: LongArray?, why: Array<String?>?): Int
    @JvmStatic external fun callWriteCancel(ws: ByteBuffer?, id: Long, out: ByteArray?, written: LongArray?, why: Array<String?>?): Int
    /** out: the event, EVENT_* slots (offsets into msg). */
    @JvmStatic external fun callFeed(ws: ByteBuffer?, msg: ByteArray?, out: LongArray?, why: Array<String?>?): Int
    /** out: the progress, PROGRESS_* slots (views as offset/length into ws). */
    @JvmStatic external fun callProgress(ws: ByteBuffer?, out: LongArray?, why: Array<String?>?): Int
    /** out: the input, INPUT_* slots (offsets into ws). */
    @JvmStatic external fun callInputAt(ws: ByteBuffer?, index: Long, out: LongArray?, why: Array<String?>?): Int
    @JvmStatic external fun callInputFind(ws: ByteBuffer?, key: ByteArray?, out: LongArray?, why: Array<String?>?): Int
    @JvmStatic external fun callInputText(ws: ByteBuffer?, index: Long, field: Int, out: ByteArray?, written: LongArray?, why: Array<String?>?): Int
    @JvmStatic external fun callAnswerElicit(ws: ByteBuffer?, index: Long, action: Int, content: ByteArray?, why: Array<String?>?): Int
    @JvmStatic external fun callAnswerJson(ws: ByteBuffer?, index: Long, json: ByteArray?, why: Array<String?>?): Int
    /** names[i] null: no name. */
    @JvmStatic external fun callAnswerRoots(ws: ByteBuffer?, index: Long, uris: Array<ByteArray?>?, names: Array<ByteArray?>?, why: Array<String?>?): Int
    @JvmStatic external fun callAnswerError(ws: ByteBuffer?, index: Long, code: Long, why: Array<String?>?): Int
    /** out[0..2): the result's offset and length in fed. */
    @JvmStatic external fun callResult(ws: ByteBuffer?, fed: ByteArray?, out: LongArray?, why: Array<String?>?): Int
    @JvmStatic external fun callSave(ws: ByteBuffer?, out: ByteArray?, written: LongArray?, why: Array<String?>?): Int
    /** why[0]: the cause `mrtr_call_restore` names for a refusal (`out_reason`). */
    @JvmStatic external fun callRestore(ws: ByteBuffer?, limits: LongArray?, saved: ByteArray?, why: Array<String?>?): Int
    /** out: FAILURE_* slots; reason[0]: the cause's name. */
    @JvmStatic external fun callFailure(ws: ByteBuffer?, out: LongArray?, reason: Array<String?>?): Int

    // The run steps (mrtr_runner_*): the runner lives in a workspace of runnerSize() bytes.
    const val STEP_LEN = Slots.STEP_LEN
    @JvmStatic external fun runnerSize(): Long
    @JvmStatic external fun runDefaultMaxUnrelated(): Int
    @JvmStatic external fun runnerInit(ws: ByteBuffer?, runner: ByteBuffer?, firstId: Long, idStep: Long, maxUnrelated: Int, why: Array<String?>?): Int
    /** step: STEP_* slots; on ERR_BUFFER_TOO_SMALL step[STEP_REQUEST_LEN] is the size [out] needs. */
    @JvmStatic external fun runnerNext(ws: ByteBuffer?, runner: ByteBuffer?, out: ByteArray?, step: LongArray?, why: Array<String?>?): Int
    /** event as [callFeed]; again[0]: 1 when the message was unrelated (pass the next one). */
    @JvmStatic external fun runnerReceived(ws: ByteBuffer?, runner: ByteBuffer?, msg: ByteArray?, event: LongArray?, again: LongArray?, why: Array<String?>?): Int
    /** reply: MRTR_CB_* (0 answered, 1 decline, 2 cancel, 3 abort). */
    @JvmStatic external fun runnerAnswered(ws: ByteBuffer?, runner: ByteBuffer?, index: Long, reply: Int, why: Array<String?>?): Int

    // Forms (over the requestedSchema bytes).
    const val SCHEMA_ERROR_LEN = Slots.SCHEMA_ERROR_LEN
    const val FIELD_LEN = Slots.FIELD_LEN
    const val FORM_ERROR_LEN = Slots.FORM_ERROR_LEN

    /** out[0]: field count; on ERR_INVALID_SCHEMA err[0..6): property off/len, escaped, keyword off/len, default error. */
    @JvmStatic external fun formParse(schema: ByteArray?, out: LongArray?, err: LongArray?, reason: Array<String?>?): Int
    /**
     * out[0..22): escaped, index, kind, format, required, has min/max length, has minimum/maximum,
     * has min/max items, min length, max length, min items, max items, option count,
     * default off/len, minimum off/len, maximum off/len (into schema).
     */
    @JvmStatic external fun formFieldAt(schema: ByteArray?, index: Long, out: LongArray?): Int
    /** out[0..2): escaped, has title. */
    @JvmStatic external fun formOptionAt(schema: ByteArray?, field: Long, option: Long, out: LongArray?): Int
    @JvmStatic external fun formText(schema: ByteArray?, field: Long, option: Long, which: Int, out: ByteArray?, written: LongArray?): Int
    /** On ERR_INVALID_VALUE err[0..7): source (0 schema, 1 content), field off/len, escaped, index (-1 none), error, bound. */
    @JvmStatic external fun formValidate(schema: ByteArray?, content: ByteArray?, err: LongArray?, reason: Array<String?>?): Int

    // Tools (x-mcp-header, SEP-2243) and the -32022 answer.
    /** OK: out[0] the number of designated parameters. */
    @JvmStatic external fun toolHeaderCheck(inputSchema: ByteArray?, out: LongArray?): Int
    @JvmStatic external fun toolList(result: ByteArray?, out: LongArray?): Int
    @JvmStatic external fun httpHeadersForToolCall(body: ByteArray?, inputSchema: ByteArray?, out: Array<String?>?, count: LongArray?): Int
    @JvmStatic external fun toolAt(result: ByteArray?, index: Long, out: LongArray?): Int
    /** cursor[TOOL_CURSOR_*]: an mrtr_tool_cursor (all 0 to start), updated; out as [toolAt]. */
    @JvmStatic external fun toolNext(result: ByteArray?, cursor: LongArray?, out: LongArray?): Int
    @JvmStatic external fun versionRetry(response: ByteArray?, retries: Int): Int

    // URL consent.
    const val URL_LEN = Slots.URL_LEN

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
    /** why[0]: the cause `mrtr_sealer_init` names for a refusal (`out_reason`). */
    @JvmStatic external fun sealerInit(ws: ByteBuffer?, keys: Array<ByteArray?>?, audience: ByteArray?, ttlSeconds: Long, skewSeconds: Long, maxToken: Long, why: Array<String?>?): Int
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
 * The slots of the LongArray outputs of [Native], by name: the one declaration.
 * `jni/mrtr_jni_slots.h` is generated from it (scripts/gen-jni-slots, checked by the
 * header stage): the slot numbers, and for each group the C struct it mirrors and the
 * lists the glue copies by, so the C side cannot read a field from another slot.
 *
 * A group starts with `// PREFIX: struct mrtr_x` (after a `;`, the members that reach
 * Kotlin another way); a slot named after its member (`PREFIX_MEMBER`, or the pair
 * `PREFIX_MEMBER_OFF` / `_LEN` for a view) needs no note, else `// c: member`
 * (`, by hand`: the glue converts it itself; `none`: no member). The generator
 * refuses a member the struct does not have, a member of the struct no slot or note
 * covers, and numbers that are not 0 until `PREFIX_LEN`.
 */
internal object Slots {
    // LIMITS: struct mrtr_call_limits
    const val LIMITS_MAX_MESSAGE_BYTES = 0
    const val LIMITS_MAX_DEPTH = 1
    const val LIMITS_MAX_INPUT_REQUESTS = 2
    const val LIMITS_MAX_KEY_BYTES = 3
    const val LIMITS_MAX_PARAMS_BYTES = 4
    const val LIMITS_MAX_INPUTS_BYTES = 5
    const val LIMITS_MAX_STATE_BYTES = 6
    const val LIMITS_MAX_ANSWERS_BYTES = 7
    const val LIMITS_MAX_ROUNDS = 8
    const val LIMITS_MAX_STATE_ONLY_ROUNDS = 9
    const val LIMITS_BACKOFF_INITIAL_MS = 10
    const val LIMITS_BACKOFF_MAX_MS = 11
    const val LIMITS_MAX_POLLS = 12
    const val LIMITS_DEFAULT_POLL_MS = 13
    const val LIMITS_MIN_POLL_MS = 14
    const val LIMITS_MAX_POLL_MS = 15
    const val LIMITS_LEN = 16

    // EVENT: struct mrtr_event
    const val EVENT_KIND = 0
    const val EVENT_INPUT_COUNT = 1
    const val EVENT_WAIT_MS = 2
    const val EVENT_ERROR_CODE = 3
    const val EVENT_RESULT_OFF = 4
    const val EVENT_RESULT_LEN = 5
    const val EVENT_MESSAGE_OFF = 6 // c: error_message
    const val EVENT_MESSAGE_LEN = 7
    const val EVENT_DATA_OFF = 8 // c: error_data
    const val EVENT_DATA_LEN = 9
    const val EVENT_TASK_ID_OFF = 10
    const val EVENT_TASK_ID_LEN = 11
    const val EVENT_TASK_DIALECT = 12
    const val EVENT_TASK_STATUS = 13
    const val EVENT_POLL_MS = 14 // c: task_poll_ms
    const val EVENT_HAS_POLL_MS = 15 // c: has_task_poll_ms
    const val EVENT_LEN = 16

    // INPUT: struct mrtr_input; by callInputText: key, message, url, system_prompt
    const val INPUT_KIND = 0
    const val INPUT_MAX_TOKENS = 1
    const val INPUT_ESCAPED = 2
    const val INPUT_HAS_TOOLS = 3
    const val INPUT_WANTS_CONTEXT = 4
    const val INPUT_HAS_SYSTEM_PROMPT = 5
    const val INPUT_ANSWERED = 6
    const val INPUT_SCHEMA_OFF = 7 // c: requested_schema
    const val INPUT_SCHEMA_LEN = 8
    const val INPUT_PARAMS_OFF = 9
    const val INPUT_PARAMS_LEN = 10
    const val INPUT_LEN = 11

    // FAILURE: struct mrtr_failure; as a String: reason
    const val FAILURE_STATUS = 0
    const val FAILURE_KIND = 1
    const val FAILURE_OFFSET = 2
    const val FAILURE_INDEX = 3
    const val FAILURE_CODE = 4
    const val FAILURE_NEEDED = 5
    const val FAILURE_LIMIT = 6
    const val FAILURE_LEN = 7

    // PROGRESS: struct mrtr_progress
    const val PROGRESS_PHASE = 0
    const val PROGRESS_FLOW = 1
    const val PROGRESS_TASK_REQUEST = 2
    const val PROGRESS_TASK_DIALECT = 3
    const val PROGRESS_ROUND = 4
    const val PROGRESS_POLLS = 5
    const val PROGRESS_INPUT_COUNT = 6
    const val PROGRESS_ANSWERED_COUNT = 7
    const val PROGRESS_LAST_ID = 8
    const val PROGRESS_NEXT_ID = 9
    const val PROGRESS_POLL_MS = 10
    const val PROGRESS_HAS_LAST_ID = 11
    const val PROGRESS_HAS_NEXT_ID = 12
    const val PROGRESS_STATE_OFF = 13 // c: request_state
    const val PROGRESS_STATE_LEN = 14
    const val PROGRESS_TASK_ID_OFF = 15
    const val PROGRESS_TASK_ID_LEN = 16
    const val PROGRESS_LEN = 17

    // SCHEMA_ERROR: struct mrtr_schema_error; as a String: reason
    const val SCHEMA_ERROR_PROPERTY_OFF = 0
    const val SCHEMA_ERROR_PROPERTY_LEN = 1
    const val SCHEMA_ERROR_PROPERTY_ESCAPED = 2
    const val SCHEMA_ERROR_KEYWORD_OFF = 3
    const val SCHEMA_ERROR_KEYWORD_LEN = 4
    const val SCHEMA_ERROR_DEFAULT_ERROR = 5
    const val SCHEMA_ERROR_LEN = 6

    // FIELD: struct mrtr_form_field; by formText: name, title, description
    const val FIELD_ESCAPED = 0
    const val FIELD_INDEX = 1
    const val FIELD_KIND = 2
    const val FIELD_FORMAT = 3
    const val FIELD_REQUIRED = 4
    const val FIELD_HAS_MIN_LENGTH = 5
    const val FIELD_HAS_MAX_LENGTH = 6
    const val FIELD_HAS_MINIMUM = 7
    const val FIELD_HAS_MAXIMUM = 8
    const val FIELD_HAS_MIN_ITEMS = 9
    const val FIELD_HAS_MAX_ITEMS = 10
    const val FIELD_MIN_LENGTH = 11
    const val FIELD_MAX_LENGTH = 12
    const val FIELD_MIN_ITEMS = 13
    const val FIELD_MAX_ITEMS = 14
    const val FIELD_OPTION_COUNT = 15
    const val FIELD_DEFAULT_OFF = 16 // c: default_json
    const val FIELD_DEFAULT_LEN = 17
    const val FIELD_MINIMUM_OFF = 18 // c: minimum_json
    const val FIELD_MINIMUM_LEN = 19
    const val FIELD_MAXIMUM_OFF = 20 // c: maximum_json
    const val FIELD_MAXIMUM_LEN = 21
    const val FIELD_LEN = 22

    // FORM_ERROR: struct mrtr_form_error; as a String: reason
    const val FORM_ERROR_SOURCE = 0 // c: none (which input holds `field`: 0 the schema, 1 the content)
    const val FORM_ERROR_FIELD_OFF = 1 // c: field, by hand
    const val FORM_ERROR_FIELD_LEN = 2
    const val FORM_ERROR_FIELD_ESCAPED = 3
    const val FORM_ERROR_INDEX = 4 // c: field_index, by hand (SIZE_MAX: -1)
    const val FORM_ERROR_ERROR = 5
    const val FORM_ERROR_BOUND = 6
    const val FORM_ERROR_LEN = 7

    // TOOL_LIST: the out-parameters of mrtr_tool_list
    const val TOOL_LIST_COUNT = 0
    const val TOOL_LIST_HAS_CURSOR = 1
    const val TOOL_LIST_CURSOR_OFF = 2
    const val TOOL_LIST_CURSOR_LEN = 3
    const val TOOL_LIST_LEN = 4

    // TOOL: struct mrtr_tool
    const val TOOL_NAME_OFF = 0
    const val TOOL_NAME_LEN = 1
    const val TOOL_SCHEMA_OFF = 2 // c: input_schema
    const val TOOL_SCHEMA_LEN = 3
    const val TOOL_USABLE = 4
    const val TOOL_DESIGNATIONS = 5 // c: designation_count
    const val TOOL_LEN = 6

    // TOOL_CURSOR: struct mrtr_tool_cursor
    const val TOOL_CURSOR_INDEX = 0
    const val TOOL_CURSOR_OFFSET = 1
    const val TOOL_CURSOR_PAGE_LEN = 2
    const val TOOL_CURSOR_LEN = 3

    // URL: struct mrtr_url_info
    const val URL_SCHEME_OFF = 0
    const val URL_SCHEME_LEN = 1
    const val URL_USERINFO_OFF = 2
    const val URL_USERINFO_LEN = 3
    const val URL_HOST_OFF = 4
    const val URL_HOST_LEN = 5
    const val URL_PATH_OFF = 6
    const val URL_PATH_LEN = 7
    const val URL_QUERY_OFF = 8
    const val URL_QUERY_LEN = 9
    const val URL_FRAGMENT_OFF = 10
    const val URL_FRAGMENT_LEN = 11
    const val URL_WARNINGS = 12
    const val URL_PORT = 13
    const val URL_HAS_PORT = 14
    const val URL_HAS_USERINFO = 15
    const val URL_HAS_QUERY = 16
    const val URL_HAS_FRAGMENT = 17
    const val URL_LEN = 18

    // STEP: struct mrtr_step
    const val STEP_KIND = 0
    const val STEP_REQUEST_LEN = 1 // c: len
    const val STEP_INDEX = 2
    const val STEP_INPUT_KIND = 3
    const val STEP_WAIT_MS = 4
    const val STEP_STATUS = 5
    const val STEP_LEN = 6
}

/**
 * Runs a C writer that follows the header's output convention: first into a
 * buffer of [guess] bytes, then, on `MRTR_ERR_BUFFER_TOO_SMALL`, once more into
 * one of exactly the size the library reported. Returns the bytes written.
 * [why]: the out-array the writer names its cause in (a call's writers), or null.
 */
internal inline fun writeOut(what: String, guess: Int, why: Array<String?>? = null, f: (ByteArray, LongArray) -> Int): ByteArray {
    val written = LongArray(1)
    var buf = ByteArray(guess)
    var st = f(buf, written)
    if (st == Status.ERR_BUFFER_TOO_SMALL.code) {
        val need = written[0]
        if (need < 0 || need > Int.MAX_VALUE - 8) throw exceptionFor(Status.ERR_LIMIT_EXCEEDED.code, what)
        buf = ByteArray(need.toInt())
        why?.set(0, null)
        st = f(buf, written)
    }
    if (why != null) check(st, what, why) else check(st, what)
    val n = written[0]
    if (n < 0 || n > buf.size) throw exceptionFor(Status.ERR_INTERNAL.code, what)
    return if (n.toInt() == buf.size) buf else buf.copyOf(n.toInt())
}
