package dev.mrtr

import kotlin.test.assertEquals
import kotlin.test.assertContentEquals
import kotlin.test.assertFalse
import kotlin.test.assertFailsWith
import kotlin.test.assertNull
import kotlin.test.assertTrue

internal fun bytes(s: String) = s.toByteArray(Charsets.UTF_8)

fun registerStatusTests(t: Tests) {
    t.test("status: every Status names itself as the library does") {
        for (s in Status.entries) assertEquals(s.cName, Native.statusStr(s.code), "code ${s.code}")
        assertEquals("MRTR_UNKNOWN_STATUS", Mrtr.statusName(7777))
    }

    t.test("status: every error status maps to its exception group, with code and name") {
        val want = mapOf(
            Status.ERR_NULL_POINTER to MrtrArgumentException::class,
            Status.ERR_INVALID_ARGUMENT to MrtrArgumentException::class,
            Status.ERR_INVALID_UTF8 to MrtrArgumentException::class,
            Status.ERR_MISALIGNED to MrtrArgumentException::class,
            Status.ERR_WRONG_STATE to MrtrWrongStateException::class,
            Status.ERR_NOT_FOUND to MrtrNotFoundException::class,
            Status.ERR_INVALID_VALUE to MrtrInvalidValueException::class,
            Status.ERR_BUFFER_TOO_SMALL to MrtrCapacityException::class,
            Status.ERR_WORKSPACE_TOO_SMALL to MrtrCapacityException::class,
            Status.ERR_LIMIT_EXCEEDED to MrtrCapacityException::class,
            Status.ERR_JSON to MrtrMessageException::class,
            Status.ERR_ENVELOPE to MrtrMessageException::class,
            Status.ERR_PROTOCOL_VIOLATION to MrtrMessageException::class,
            Status.ERR_UNDECLARED_CAPABILITY to MrtrMessageException::class,
            Status.ERR_UNSUPPORTED_VERSION to MrtrMessageException::class,
            Status.ERR_INVALID_SCHEMA to MrtrMessageException::class,
            Status.ERR_REFUSED_URL to MrtrMessageException::class,
            Status.ERR_RPC_ERROR to MrtrRpcException::class,
            Status.ERR_ROUND_CAP to MrtrFlowException::class,
            Status.ERR_UNANSWERED_INPUT to MrtrFlowException::class,
            Status.ERR_ABORTED to MrtrFlowException::class,
            Status.ERR_INVALID_REQUEST_STATE to MrtrSealException::class,
            Status.ERR_KEY_ERROR to MrtrSealException::class,
            Status.ERR_INTERNAL to MrtrInternalException::class,
        )
        assertEquals(Status.entries.filter { it != Status.OK }.toSet(), want.keys, "every error status has a row")
        for ((s, k) in want) {
            val e = exceptionFor(s.code, "op")
            assertEquals(k, e::class, s.cName)
            assertEquals(s, e.status)
            assertEquals(s.code, e.code)
            assertEquals(s.cName, e.statusName)
            assertEquals("op: ${s.cName} (${s.code})", e.message)
        }
        val unknown = exceptionFor(4242, "op")
        assertTrue(unknown is MrtrInternalException)
        assertNull(unknown.status)
        assertEquals("MRTR_UNKNOWN_STATUS", unknown.statusName)
    }

    t.test("info: library and protocol versions") {
        assertEquals(System.getProperty("mrtr.expected.version") ?: "0.1.0", Mrtr.version)
        assertEquals("2026-07-28", Mrtr.protocolVersion)
    }

    t.test("json: valid documents pass, malformed ones give the library's offset") {
        for (d in listOf("{}", "[]", "0", "-0.5e+10", "\"\"", "null", "{\"dup\":1,\"dup\":2}", "\"caf\u00e9 \uD83D\uDE00\"")) {
            assertNull(Mrtr.jsonErrorOffset(bytes(d)), d)
            Mrtr.validateJson(bytes(d))
        }
        val cases = listOf("[1,2,]" to 5L, "{\"a\":1,}" to 7L, "{} x" to 3L, "01" to 1L, "'a'" to 0L, "[1" to 2L, "" to 0L)
        for ((d, off) in cases) assertEquals(off, Mrtr.jsonErrorOffset(bytes(d)), d)
        val e = assertFailsWith<MrtrMessageException> { Mrtr.validateJson(bytes("[1,2,]")) }
        assertEquals(Status.ERR_JSON, e.status)
        // Invalid UTF-8 inside a string is not JSON.
        assertEquals(1L, Mrtr.jsonErrorOffset(byteArrayOf('"'.code.toByte(), 0xff.toByte(), '"'.code.toByte())))
    }

    t.test("json: depth limit is the library's (32 by default, up to 256)") {
        val deep33 = bytes("[".repeat(33) + "]".repeat(33))
        val deep32 = bytes("[".repeat(32) + "]".repeat(32))
        assertNull(Mrtr.jsonErrorOffset(deep32))
        assertEquals(32L, Mrtr.jsonErrorOffset(deep33))
        assertFailsWith<MrtrCapacityException> { Mrtr.validateJson(deep33) }
        assertNull(Mrtr.jsonErrorOffset(deep33, maxDepth = 33))
        val e = assertFailsWith<MrtrArgumentException> { Mrtr.jsonErrorOffset(deep32, maxDepth = 257) }
        assertEquals(Status.ERR_INVALID_ARGUMENT, e.status)
    }

    t.test("json: strings are escaped exactly as the C API escapes them") {
        assertContentEquals(bytes("\"plain\""), Mrtr.jsonString("plain"))
        assertContentEquals(bytes("\"a\\\"b\\\\c/d\""), Mrtr.jsonString("a\"b\\c/d"))
        assertContentEquals(bytes("\"\\n\\r\\t\\b\\f\\u0001\\u001f\""), Mrtr.jsonString("\n\r\t\b\u000c\u0001\u001f"))
        assertContentEquals(bytes("\"a\\u0000b\""), Mrtr.jsonString("a\u0000b"))
        assertContentEquals(bytes("\"caf\u00e9 \uD83D\uDE00\""), Mrtr.jsonString("caf\u00e9 \uD83D\uDE00"))
        assertContentEquals(bytes("\"\""), Mrtr.jsonString(""))
        // Longer than the first guess: the second, exactly sized attempt is used.
        val long = "\u0001".repeat(100)
        assertEquals(2 + 6 * 100, Mrtr.jsonString(long).size)
    }

    t.test("tools: x-mcp-header designations are counted, invalid ones refused") {
        val valid = "{\"type\":\"object\",\"properties\":{\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"}," +
            "\"n\":{\"type\":\"integer\",\"x-mcp-header\":\"N\"},\"q\":{\"type\":\"string\"}}}"
        assertEquals(2, Mrtr.toolHeaderCount(bytes(valid)))
        assertEquals(0, Mrtr.toolHeaderCount(bytes("{\"type\":\"object\"}")))
        for (header in listOf("\"\"", "\"My Region\"", "\"Region:Primary\"", "\"R\u00e9gion\"")) {
            val schema = "{\"properties\":{\"v\":{\"type\":\"string\",\"x-mcp-header\":$header}}}"
            val e = assertFailsWith<MrtrMessageException> { Mrtr.toolHeaderCount(bytes(schema)) }
            assertEquals(Status.ERR_INVALID_SCHEMA, e.status)
        }
        val number = "{\"properties\":{\"v\":{\"type\":\"number\",\"x-mcp-header\":\"Score\"}}}"
        assertEquals(Status.ERR_INVALID_SCHEMA, assertFailsWith<MrtrMessageException> { Mrtr.toolHeaderCount(bytes(number)) }.status)
        val dup = "{\"properties\":{\"a\":{\"type\":\"string\",\"x-mcp-header\":\"MyField\"}," +
            "\"b\":{\"type\":\"boolean\",\"x-mcp-header\":\"myfield\"}}}"
        assertEquals(Status.ERR_INVALID_SCHEMA, assertFailsWith<MrtrMessageException> { Mrtr.toolHeaderCount(bytes(dup)) }.status)
    }

    t.test("tools: a tools/list page is read with each tool's usability and the next cursor") {
        val page = bytes(
            "{\"tools\":[" +
                "{\"name\":\"get_weather\",\"inputSchema\":{\"type\":\"object\",\"properties\":" +
                "{\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"}}}}," +
                "{\"name\":\"bad_space\",\"inputSchema\":{\"properties\":{\"a\":{\"type\":\"string\",\"x-mcp-header\":\"My Header\"}}}}," +
                "{\"inputSchema\":{}}," +
                "{\"name\":\"caf\\u00e9\",\"inputSchema\":{\"type\":\"object\"}}" +
                "],\"nextCursor\":\"page-2\"}",
        )
        val p = Mrtr.toolList(page)
        assertEquals(listOf("get_weather", "bad_space", "caf\u00e9"), p.tools.map { it.name })
        assertEquals(listOf(true, false, true), p.tools.map { it.usable })
        assertEquals(listOf(1, 0, 0), p.tools.map { it.designationCount })
        assertContentEquals(bytes("\"caf\\u00e9\""), p.tools[2].nameJson)
        assertContentEquals(
            bytes("{\"type\":\"object\",\"properties\":{\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"}}}"),
            p.tools[0].inputSchema,
        )
        assertEquals(1, p.malformed)
        assertContentEquals(bytes("\"page-2\""), p.nextCursor)
        val last = Mrtr.toolList(bytes("{\"tools\":[]}"))
        assertEquals(0, last.tools.size)
        assertNull(last.nextCursor)
        val e = assertFailsWith<MrtrMessageException> { Mrtr.toolList(bytes("{}")) }
        assertEquals(Status.ERR_PROTOCOL_VIOLATION, e.status)
    }

    t.test("tools: a tools/call POST carries the standard and the Mcp-Param-* headers") {
        val schema = bytes(
            "{\"type\":\"object\",\"properties\":{\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"}," +
                "\"n\":{\"type\":\"integer\",\"x-mcp-header\":\"N\"}}}",
        )
        val body = bytes(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"get_weather\"," +
                "\"arguments\":{\"region\":\"\u00e9t\u00e9\",\"n\":3}}}",
        )
        assertEquals(
            listOf(
                HttpHeader("MCP-Protocol-Version", "2026-07-28"),
                HttpHeader("Mcp-Method", "tools/call"),
                HttpHeader("Mcp-Name", "get_weather"),
                HttpHeader("Accept", "application/json, text/event-stream"),
                HttpHeader("Content-Type", "application/json"),
                HttpHeader("Mcp-Param-Region", "=?base64?w6l0w6k=?="),
                HttpHeader("Mcp-Param-N", "3"),
            ),
            Mrtr.httpHeadersForToolCall(body, schema),
        )
        val bad = bytes("{\"properties\":{\"v\":{\"type\":\"number\",\"x-mcp-header\":\"V\"}}}")
        assertEquals(Status.ERR_INVALID_SCHEMA, assertFailsWith<MrtrMessageException> { Mrtr.httpHeadersForToolCall(body, bad) }.status)
        val list = bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}")
        assertEquals(Status.ERR_INVALID_ARGUMENT, assertFailsWith<MrtrArgumentException> { Mrtr.httpHeadersForToolCall(list, schema) }.status)
    }

    t.test("versions: -32022 is retried only when the server lists 2026-07-28") {
        fun err(supported: String) = bytes(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32022,\"message\":\"Unsupported protocol version\"," +
                "\"data\":{\"supported\":[$supported]}}}",
        )
        assertTrue(Mrtr.versionRetry(err("\"2025-11-25\",\"2026-07-28\"")))
        val e = assertFailsWith<MrtrMessageException> { Mrtr.versionRetry(err("\"2025-11-25\"")) }
        assertEquals(Status.ERR_UNSUPPORTED_VERSION, e.status)
        assertFalse(Mrtr.versionRetry(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}")))
        assertFalse(Mrtr.versionRetry(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"x\"}}")))
    }

    t.test("a_version_already_refused_is_final_not_sent_again") {
        fun err(data: String) = bytes(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32022,\"message\":\"x\",\"data\":$data}}",
        )
        val ours = err("{\"requested\":\"2026-07-28\",\"supported\":[\"2026-07-28\"]}")
        assertEquals(Status.ERR_UNSUPPORTED_VERSION, assertFailsWith<MrtrMessageException> { Mrtr.versionRetry(ours) }.status)
        val other = err("{\"requested\":\"2025-11-25\",\"supported\":[\"2026-07-28\"]}")
        assertEquals(1, Mrtr.MAX_VERSION_RETRIES)
        assertTrue(Mrtr.versionRetry(other, 0))
        assertEquals(Status.ERR_UNSUPPORTED_VERSION, assertFailsWith<MrtrMessageException> { Mrtr.versionRetry(other, 1) }.status)
        val twice = err("{\"supported\":[\"2025-11-25\"],\"supported\":[\"2026-07-28\"]}")
        assertEquals(Status.ERR_JSON, assertFailsWith<MrtrMessageException> { Mrtr.versionRetry(twice) }.status)
    }
}
