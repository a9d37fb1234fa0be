package dev.mrtr

/** Library-wide functions: versions and the JSON helpers of the C API. */
object Mrtr {
    /** The library version (`"0.1.0"`). */
    val version: String get() = Native.version()

    /** The MCP revision implemented, `"2026-07-28"`: the value of the `MCP-Protocol-Version` header. */
    val protocolVersion: String get() = Native.protocolVersion()

    /** The C name of a status code (`"MRTR_ERR_JSON"`), `"MRTR_UNKNOWN_STATUS"` for other integers. */
    fun statusName(code: Int): String = Native.statusStr(code)

    /**
     * Null when [json] is exactly one valid JSON document (RFC 8259) nested at
     * most [maxDepth] deep (0: the library default, 32); otherwise the byte
     * offset where reading stopped. Other failures (a depth over 256) throw.
     */
    fun jsonErrorOffset(json: ByteArray, maxDepth: Int = 0): Long? {
        val out = LongArray(1)
        val st = Native.jsonValidate(json, 0, json.size, maxDepth.toLong(), out)
        return when (st) {
            Status.OK.code -> null
            Status.ERR_JSON.code, Status.ERR_LIMIT_EXCEEDED.code -> out[0]
            else -> throw exceptionFor(st, "mrtr_json_validate")
        }
    }

    /** Throws [MrtrMessageException] (`ERR_JSON`) or [MrtrCapacityException] (too deep) unless [json] is valid JSON. */
    fun validateJson(json: ByteArray, maxDepth: Int = 0) {
        check(Native.jsonValidate(json, 0, json.size, maxDepth.toLong(), LongArray(1)), "mrtr_json_validate")
    }

    /**
     * The number of parameters a tool's [inputSchema] (the raw JSON from
     * `tools/list`) designates with `x-mcp-header` (SEP-2243), 0 for none.
     * Throws [MrtrMessageException] (`ERR_INVALID_SCHEMA`) when a designation
     * is invalid (an empty name, one that is not an HTTP token, on a property
     * whose type is not string, integer or boolean, or a duplicate ignoring
     * case): the tool must not be called.
     */
    fun toolHeaderCount(inputSchema: ByteArray): Int {
        val out = LongArray(1)
        check(Native.toolHeaderCheck(inputSchema, out), "mrtr_tool_header_check")
        return out[0].toInt()
    }

    /**
     * Whether to send a request again after [response]: true for error
     * `-32022` whose `data.supported` lists [protocolVersion] (the only
     * revision this library speaks), false for any other message. Throws
     * [MrtrMessageException] (`ERR_UNSUPPORTED_VERSION`) for `-32022` without
     * it: the server and this library share no revision.
     */
    fun versionRetry(response: ByteArray): Boolean =
        when (val st = Native.versionRetry(response)) {
            Status.OK.code -> true
            Status.ERR_NOT_FOUND.code -> false
            else -> throw exceptionFor(st, "mrtr_version_retry")
        }

    /** [text] as a JSON string literal, quotes included, escaped as the library escapes. */
    fun jsonString(text: String): ByteArray {
        val utf8 = text.toByteArray(Charsets.UTF_8)
        return writeOut("mrtr_json_write_string", utf8.size + 16) { out, w -> Native.jsonWriteString(utf8, out, w) }
    }
}
