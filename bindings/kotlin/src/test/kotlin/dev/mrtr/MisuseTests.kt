package dev.mrtr

import java.nio.ByteBuffer
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertIs

private fun <T> assertStatus(s: Status, f: () -> T) {
    val e = assertFailsWith<MrtrException> { f() }
    assertEquals(s, e.status, e.message)
}

fun registerMisuseTests(t: Tests) {
    t.test("misuse: every use of a closed call throws IllegalStateException; close is idempotent") {
        val call = exampleCall("{\"name\":\"x\"}", emptySet())
        call.close()
        call.close()
        val uses: List<() -> Any?> = listOf(
            { call.phase }, { call.round }, { call.nextId }, { call.lastId }, { call.writeRequest(1) },
            { call.resend(1) }, { call.feed(bytes("{}")) }, { call.inputCount }, { call.input(0) },
            { call.inputs() }, { call.indexOf("k") }, { call.answer(0, InputAnswer.Decline) },
            { call.answerJson(0, bytes("{}")) }, { call.answerRoots(0, emptyList()) }, { call.answerError(0, 1) },
            { call.result(bytes("{}")) }, { call.save() }, { call.failure() }, { call.progress() },
            { call.writeCancel(1) },
        )
        for ((i, use) in uses.withIndex()) assertFailsWith<IllegalStateException>("use $i") { use() }
        assertFailsWith<IllegalStateException> { call.run({ it }, { InputAnswer.Cancel }) }
    }

    t.test("misuse: a refused init names its cause (params without name: MissingTarget)") {
        val e = assertFailsWith<MrtrArgumentException> { exampleCall("{\"arguments\":{}}", emptySet()) }
        assertEquals("mrtr_call_init: MRTR_ERR_INVALID_ARGUMENT (2): MissingTarget", e.message)
        val r = assertFailsWith<MrtrArgumentException> { exampleCall("{\"name\":\"t\",\"a\":1,\"a\":2}", emptySet()) }
        assertEquals("mrtr_call_init: MRTR_ERR_INVALID_ARGUMENT (2): RepeatedMember", r.message)
    }

    t.test("misuse: wrong states are MrtrWrongStateException, the call unchanged") {
        exampleCall("{\"name\":\"x\"}", setOf(Capability.ELICITATION_FORM)).use { call ->
            assertStatus(Status.ERR_WRONG_STATE) { call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}")) }
            assertStatus(Status.ERR_WRONG_STATE) { call.resend(1) }
            assertStatus(Status.ERR_WRONG_STATE) { call.answer(0, InputAnswer.Decline) }
            assertStatus(Status.ERR_WRONG_STATE) { call.result(bytes("{}")) }
            assertEquals(Phase.READY, call.phase)
            call.writeRequest(1)
            assertStatus(Status.ERR_WRONG_STATE) { call.writeRequest(2) }
            assertEquals(Phase.SENT, call.phase)
            // An id must be fresh: not reused, not decreasing.
            call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\",\"requestState\":\"s\"}}"))
            assertStatus(Status.ERR_INVALID_ARGUMENT) { call.writeRequest(1) }
            assertStatus(Status.ERR_INVALID_ARGUMENT) { call.writeRequest(9_007_199_254_740_992) }
            assertEquals(Phase.READY, call.phase)
            assertStatus(Status.ERR_NOT_FOUND) { call.input(0) }
            assertStatus(Status.ERR_NOT_FOUND) { call.input(-1) }
        }
    }

    t.test("misuse: ids stay within +-(2^53-1): a first id outside is refused, none after the top") {
        val max = 9_007_199_254_740_991L
        for (bad in listOf(max + 1, -max - 1, Long.MIN_VALUE)) {
            assertStatus(Status.ERR_INVALID_ARGUMENT) {
                MrtrCall.create(CallMethod.TOOLS_CALL, bytes("{\"name\":\"x\"}"), emptySet(), firstId = bad)
            }
        }
        MrtrCall.create(CallMethod.TOOLS_CALL, bytes("{\"name\":\"x\"}"), emptySet(), firstId = -max).use { call ->
            assertEquals(-max, call.nextId)
        }
        MrtrCall.create(CallMethod.TOOLS_CALL, bytes("{\"name\":\"x\"}"), emptySet(), firstId = max).use { call ->
            assertEquals(max, call.nextId)
            call.writeRequest()
            assertStatus(Status.ERR_LIMIT_EXCEEDED) { call.nextId }
        }
    }

    t.test("misuse: a JSON root uri is checked decoded; escaped slashes are a valid root") {
        exampleCall("{\"name\":\"x\"}", setOf(Capability.ROOTS)).use { call ->
            call.writeRequest(1)
            call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\",\"inputRequests\":{\"r\":{\"method\":\"roots/list\"}}}}"))
            assertStatus(Status.ERR_INVALID_VALUE) { call.answerJson(0, bytes("{\"roots\":[{\"uri\":\"file:///etc/\\u002e\\u002e/root\"}]}")) }
            assertStatus(Status.ERR_INVALID_VALUE) { call.answerJson(0, bytes("{\"roots\":[{\"uri\":\"file:///etc/../root/.ssh\"}]}")) }
            call.answerJson(0, bytes("{\"roots\":[{\"uri\":\"file:\\/\\/\\/home\\/u\"}]}"))
            assertEquals(Phase.READY, call.phase)
        }
    }

    t.test("misuse: bad params and hostile messages are exceptions, the call FAILED with the reason") {
        assertStatus(Status.ERR_JSON) { exampleCall("{\"name\":", emptySet()) }
        assertStatus(Status.ERR_INVALID_ARGUMENT) { exampleCall("[1]", emptySet()) }
        assertStatus(Status.ERR_INVALID_ARGUMENT) { exampleCall("{\"arguments\":{}}", emptySet()) }
        assertStatus(Status.ERR_INVALID_ARGUMENT) { exampleCall("{\"name\":\"x\",\"requestState\":\"s\"}", emptySet()) }
        assertStatus(Status.ERR_INVALID_ARGUMENT) { exampleCall("{\"name\":\"x\"}", emptySet(), limits = CallLimits.DEFAULT.copy(maxInputRequests = 0)) }
        assertStatus(Status.ERR_INVALID_ARGUMENT) { exampleCall("{\"name\":\"x\"}", emptySet(), limits = CallLimits.DEFAULT.copy(maxRounds = -1)) }
        assertStatus(Status.ERR_LIMIT_EXCEEDED) {
            exampleCall("{\"name\":\"x\"}", emptySet(), limits = CallLimits.DEFAULT.copy(maxParamsBytes = 16))
        }
        exampleCall("{\"name\":\"x\"}", emptySet()).use { call ->
            call.writeRequest(1)
            assertStatus(Status.ERR_JSON) { call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{,}}")) }
            assertEquals(Phase.FAILED, call.phase)
            val f = call.failure()!!
            assertEquals(FailureKind.JSON, f.kind)
            assertEquals(Status.ERR_JSON, f.status)
            assertEquals(34L, f.offset)
            assertStatus(Status.ERR_WRONG_STATE) { call.writeRequest() }
        }
        exampleCall("{\"name\":\"x\"}", emptySet()).use { call ->
            call.writeRequest(1)
            assertStatus(Status.ERR_JSON) { call.feed(ByteArray(0)) }
        }
        exampleCall("{\"name\":\"x\"}", emptySet()).use { call ->
            call.writeRequest(1)
            // An elicitation the call did not declare is a violation, not a prompt.
            assertStatus(Status.ERR_UNDECLARED_CAPABILITY) {
                call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\",\"inputRequests\":{\"r\":{\"method\":\"roots/list\"}}}}"))
            }
            assertEquals("UndeclaredCapability", call.failure()!!.reason)
        }
        exampleCall("{\"name\":\"x\"}", emptySet()).use { call ->
            call.writeRequest(1)
            val deep = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\",\"x\":" + "[".repeat(40) + "]".repeat(40) + "}}"
            assertStatus(Status.ERR_LIMIT_EXCEEDED) { call.feed(bytes(deep)) }
        }
    }

    t.test("misuse: the native layer answers bad arguments with statuses, never a crash") {
        val s = Status.ERR_NULL_POINTER.code
        val a = Status.ERR_INVALID_ARGUMENT.code
        assertEquals(s, Native.jsonValidate(null, 0, 0, 0, LongArray(1)))
        assertEquals(s, Native.jsonValidate(bytes("{}"), 0, 2, 0, null))
        assertEquals(a, Native.jsonValidate(bytes("{}"), 0, 2, 0, LongArray(0)))
        assertEquals(a, Native.jsonValidate(bytes("{}"), 1, 2, 0, LongArray(1)))
        assertEquals(a, Native.jsonValidate(bytes("{}"), -1, 1, 0, LongArray(1)))
        assertEquals(a, Native.jsonValidate(bytes("{}"), 0, Int.MAX_VALUE, 0, LongArray(1)))
        assertEquals(a, Native.jsonValidate(bytes("{}"), 0, 2, -1, LongArray(1)))
        assertEquals(s, Native.toolHeaderCheck(null, LongArray(1)))
        assertEquals(s, Native.toolHeaderCheck(bytes("{}"), null))
        assertEquals(a, Native.toolHeaderCheck(bytes("{}"), LongArray(0)))
        assertEquals(s, Native.versionRetry(null, 0))
        assertEquals(a, Native.versionRetry(bytes("{}"), -1))
        assertEquals(s, Native.toolList(null, LongArray(Slots.TOOL_LIST_LEN)))
        assertEquals(s, Native.httpHeadersForToolCall(null, bytes("{}"), arrayOfNulls(138), LongArray(1)))
        assertEquals(s, Native.httpHeadersForToolCall(bytes("{}"), bytes("{}"), null, LongArray(1)))
        assertEquals(a, Native.httpHeadersForToolCall(bytes("{}"), bytes("{}"), arrayOfNulls(137), LongArray(1)))
        assertEquals(a, Native.httpHeadersForToolCall(bytes("{}"), bytes("{}"), arrayOfNulls(138), LongArray(0)))
        assertEquals(s, Native.toolList(bytes("{\"tools\":[]}"), null))
        assertEquals(a, Native.toolList(bytes("{\"tools\":[]}"), LongArray(1)))
        assertEquals(s, Native.toolAt(null, 0, LongArray(Slots.TOOL_LEN)))
        assertEquals(a, Native.toolAt(bytes("{\"tools\":[]}"), -1, LongArray(Slots.TOOL_LEN)))
        assertEquals(Status.ERR_NOT_FOUND.code, Native.toolAt(bytes("{\"tools\":[]}"), 0, LongArray(Slots.TOOL_LEN)))
        assertEquals(s, Native.toolNext(null, LongArray(Slots.TOOL_CURSOR_LEN), LongArray(Slots.TOOL_LEN)))
        assertEquals(s, Native.toolNext(bytes("{\"tools\":[]}"), null, LongArray(Slots.TOOL_LEN)))
        assertEquals(a, Native.toolNext(bytes("{\"tools\":[]}"), LongArray(2), LongArray(Slots.TOOL_LEN)))
        assertEquals(a, Native.toolNext(bytes("{\"tools\":[]}"), longArrayOf(0, -1, 0), LongArray(Slots.TOOL_LEN)))
        assertEquals(Status.ERR_NOT_FOUND.code, Native.toolNext(bytes("{\"tools\":[]}"), LongArray(Slots.TOOL_CURSOR_LEN), LongArray(Slots.TOOL_LEN)))
        assertEquals(s, Native.jsonWriteString(null, ByteArray(4), LongArray(1)))
        assertEquals(Status.ERR_BUFFER_TOO_SMALL.code, Native.jsonWriteString(bytes("ab"), null, LongArray(1)))
        assertEquals(a, Native.jsonDecodeString(bytes("\"a\""), 2, 5, null, LongArray(1)))
        assertEquals(s, Native.callFeed(null, bytes("{}"), LongArray(Native.EVENT_LEN), null))
        assertEquals(a, Native.callLimitsDefault(LongArray(3)))
        assertEquals(a, Native.callWorkspaceSize(LongArray(3), LongArray(1)))
        assertEquals(a, Native.callWorkspaceSize(LongArray(Native.LIMITS_LEN) { -1 }, LongArray(1)))
        // The limits go out and come back through the same generated member lists: the
        // defaults read back size the same workspace as no limits at all; each long is
        // range-checked by its C member's width (-1 anywhere, 2^32 in a uint32_t member).
        val defaults = LongArray(Native.LIMITS_LEN)
        assertEquals(Status.OK.code, Native.callLimitsDefault(defaults))
        val sized = LongArray(1)
        val sizedDefault = LongArray(1)
        assertEquals(Status.OK.code, Native.callWorkspaceSize(defaults, sized))
        assertEquals(Status.OK.code, Native.callWorkspaceSize(null, sizedDefault))
        assertEquals(sizedDefault[0], sized[0])
        for (k in 0 until Native.LIMITS_LEN) {
            val l = defaults.copyOf().also { it[k] = -1 }
            assertEquals(a, Native.callWorkspaceSize(l, LongArray(1)), "limits slot $k = -1")
        }
        val u32 = listOf(
            Slots.LIMITS_MAX_ROUNDS, Slots.LIMITS_MAX_STATE_ONLY_ROUNDS, Slots.LIMITS_BACKOFF_INITIAL_MS,
            Slots.LIMITS_BACKOFF_MAX_MS, Slots.LIMITS_MAX_POLLS,
        )
        for (k in u32) {
            val l = defaults.copyOf().also { it[k] = 1L shl 32 }
            assertEquals(a, Native.callWorkspaceSize(l, LongArray(1)), "uint32_t limits slot $k = 2^32")
        }
        // Buffers that are not mrtr workspaces: heap, foreign direct, and one holding another object.
        val heap = ByteBuffer.allocate(1 shl 16)
        val foreign = ByteBuffer.allocateDirect(1 shl 16)
        val written = LongArray(1)
        assertEquals(s, Native.callWriteRequest(heap, 1, ByteArray(64), written, null))
        assertEquals(s, Native.callWriteRequest(foreign, 1, ByteArray(64), written, null))
        assertEquals(s, Native.callInit(foreign, 1, bytes("{\"name\":\"x\"}"), 0, null, null, 0, 0, null, 0, null, 0, LongArray(1), null))
        assertEquals(a, Native.wsFree(foreign))
        assertEquals(s, Native.wsFree(null))
        assertEquals(null, Native.wsAlloc(0))
        assertEquals(null, Native.wsAlloc(-5))
        val sealerWs = allocWorkspace(Native.sealerSize())
        try {
            assertEquals(Status.OK.code, Native.sealerInit(sealerWs, arrayOf(ByteArray(32) { (it * 7 + 1).toByte() }), bytes("svc"), 0, 60, 0, null))
            assertEquals(a, Native.callWriteRequest(sealerWs, 1, ByteArray(64), written, null), "a sealer is not a call")
            assertEquals(a, Native.callProgress(sealerWs, LongArray(Native.PROGRESS_LEN), null))
        } finally {
            Native.sealerWipe(sealerWs)
            Native.wsFree(sealerWs)
        }
        // A workspace that is too small reports the size needed.
        val small = allocWorkspace(64)
        try {
            val out = LongArray(1)
            assertEquals(Status.ERR_WORKSPACE_TOO_SMALL.code, Native.callInit(small, 1, bytes("{\"name\":\"x\"}"), 0, null, null, 0, 0, null, 0, null, 0, out, null))
            assertEquals(MrtrCall.workspaceSize(), out[0])
            // Unknown method, capability bits and flags.
            assertEquals(a, Native.callInit(small, 9, bytes("{\"name\":\"x\"}"), 0, null, null, 0, 0, null, 0, null, 0, out, null))
            assertEquals(a, Native.callInit(small, 1, bytes("{\"name\":\"x\"}"), 1 shl 20, null, null, 0, 0, null, 0, null, 0, out, null))
            assertEquals(s, Native.callInit(small, 1, null, 0, null, null, 0, 0, null, 0, null, 0, out, null))
            // A task id with a method, an unknown dialect, a negative poll hint.
            assertEquals(a, Native.callInit(small, 1, bytes("{\"name\":\"x\"}"), 0, null, null, 0, 0, null, 0, bytes("t"), 0, out, null))
            assertEquals(a, Native.callInit(small, 0, null, 0, null, null, 0, 0, null, 3, bytes("t"), 0, out, null))
            assertEquals(a, Native.callInit(small, 0, null, 0, null, null, 0, 0, null, 1, bytes("t"), -1, out, null))
        } finally {
            Native.wsFree(small)
        }
        // Roots arrays: null elements, mismatched lengths, too many.
        exampleCall("{\"name\":\"x\"}", setOf(Capability.ROOTS)).use { call ->
            call.writeRequest(1)
            assertIs<CallEvent.InputRequired>(call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\",\"inputRequests\":{\"r\":{\"method\":\"roots/list\"}}}}")))
            val ws = call.javaClass.getDeclaredField("ws").apply { isAccessible = true }.get(call) as ByteBuffer
            assertEquals(s, Native.callAnswerRoots(ws, 0, arrayOf(null), arrayOf(null), null))
            assertEquals(a, Native.callAnswerRoots(ws, 0, arrayOf(bytes("file:///a")), arrayOf(), null))
            assertEquals(s, Native.callAnswerRoots(ws, 0, null, arrayOf(), null))
            assertStatus(Status.ERR_LIMIT_EXCEEDED) { call.answerRoots(0, List(33) { Root("file:///r$it") }) }
            assertEquals(Status.ERR_NOT_FOUND.code, Native.callAnswerElicit(ws, -3, 1, null, null))
            assertEquals(Phase.ANSWERING, call.phase)
        }
    }

    t.test("misuse: many calls opened and closed do not leak or crash (10,000 workspaces)") {
        repeat(10_000) {
            exampleCall("{\"name\":\"x\"}", emptySet()).use { call -> call.writeRequest(1) }
        }
    }
}
