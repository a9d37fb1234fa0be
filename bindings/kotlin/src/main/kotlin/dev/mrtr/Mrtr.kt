package dev.mrtr

/** Library-wide functions: versions and the JSON helpers of the C API. */
object Mrtr {
    /** The standard headers of every POST (`MRTR_HTTP_MAX_HEADERS`). */
    private const val MAX_HTTP_HEADERS = 5

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
     * Reads one `tools/list` page ([result]: the `result` object, e.g.
     * [MrtrCall]'s final result): every tool in list order, with whether the
     * client may call it (a tool whose `x-mcp-header` designations are
     * invalid must not be called, SEP-2243), and the cursor of the next page.
     * A malformed tool entry is counted in [ToolPage.malformed] and left out.
     * Throws [MrtrMessageException] for a result that is not a tool list
     * (`ERR_PROTOCOL_VIOLATION`, `ERR_JSON`, `ERR_LIMIT_EXCEEDED` past
     * 1024 tools).
     */
    fun toolList(result: ByteArray): ToolPage {
        val head = LongArray(Slots.TOOL_LIST_LEN)
        check(Native.toolList(result, head), "mrtr_tool_list")
        val tools = ArrayList<Tool>()
        var malformed = 0
        val v = LongArray(Slots.TOOL_LEN)
        // One pass over the page (mrtr_tool_at would read it once per tool).
        val at = LongArray(Slots.TOOL_CURSOR_LEN)
        while (true) {
            val st = Native.toolNext(result, at, v)
            if (st == Status.ERR_NOT_FOUND.code) {
                break
            }
            if (st == Status.ERR_PROTOCOL_VIOLATION.code) {
                malformed++
                continue
            }
            check(st, "mrtr_tool_next")
            val nameOff = v[Slots.TOOL_NAME_OFF].toInt()
            val nameLen = v[Slots.TOOL_NAME_LEN].toInt()
            val schemaOff = v[Slots.TOOL_SCHEMA_OFF].toInt()
            tools.add(
                Tool(
                    name = String(decodeJsonString(result, nameOff, nameLen), Charsets.UTF_8),
                    nameJson = result.copyOfRange(nameOff, nameOff + nameLen),
                    inputSchema = result.copyOfRange(schemaOff, schemaOff + v[Slots.TOOL_SCHEMA_LEN].toInt()),
                    usable = v[Slots.TOOL_USABLE] != 0L,
                    designationCount = v[Slots.TOOL_DESIGNATIONS].toInt(),
                ),
            )
        }
        val cursor = if (head[Slots.TOOL_LIST_HAS_CURSOR] != 0L) {
            val off = head[Slots.TOOL_LIST_CURSOR_OFF].toInt()
            result.copyOfRange(off, off + head[Slots.TOOL_LIST_CURSOR_LEN].toInt())
        } else {
            null
        }
        return ToolPage(tools, malformed, cursor)
    }

    /**
     * The headers of a Streamable HTTP POST carrying [body], a `tools/call`
     * request about to be sent, for the tool whose `inputSchema` (from
     * [toolList]) is [inputSchema]: the standard headers (`MCP-Protocol-Version`,
     * `Mcp-Method`, `Mcp-Name`, `Accept`, `Content-Type`), then one
     * `Mcp-Param-*` header per designated argument (SEP-2243), values encoded
     * as the protocol says. Throws [MrtrMessageException]: `ERR_INVALID_SCHEMA`
     * (invalid designations: do not call the tool), `ERR_INVALID_VALUE` (a
     * designated argument of the wrong type); [MrtrArgumentException] when
     * [body] is not a `tools/call` request.
     */
    fun httpHeadersForToolCall(body: ByteArray, inputSchema: ByteArray): List<HttpHeader> {
        val out = arrayOfNulls<String>(2 * (MAX_HTTP_HEADERS + 64))
        val count = LongArray(1)
        check(Native.httpHeadersForToolCall(body, inputSchema, out, count), "mrtr_http_headers_for_tool_call")
        return (0 until count[0].toInt()).map { i -> HttpHeader(out[2 * i]!!, out[2 * i + 1]!!) }
    }

    /** How many times one request is sent again after `-32022`: once. */
    const val MAX_VERSION_RETRIES = 1

    /**
     * Whether to send a request again after [response], a request already
     * sent again [retries] times after `-32022`: true for error `-32022`
     * whose `data.supported` lists [protocolVersion] (the only revision this
     * library speaks), whose `data.requested` is another, while [retries] is
     * below [MAX_VERSION_RETRIES]; false for any other message. Throws
     * [MrtrMessageException] (`ERR_UNSUPPORTED_VERSION`) for any other
     * `-32022`, a final answer: the server and this library share no
     * revision, or the server refused this one; `ERR_JSON` when its `data`
     * repeats a member.
     */
    fun versionRetry(response: ByteArray, retries: Int = 0): Boolean =
        when (val st = Native.versionRetry(response, retries)) {
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
