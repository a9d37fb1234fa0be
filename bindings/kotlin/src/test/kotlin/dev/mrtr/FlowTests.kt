package dev.mrtr

import java.io.File
import kotlin.test.assertContentEquals
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertTrue

private const val RESOLUTION_SCHEMA =
    "{\"type\":\"object\",\"properties\":{\"resolution\":{\"type\":\"string\",\"enum\":[\"Fixed\",\"Won't Fix\",\"Duplicate\",\"By Design\"],\"description\":\"Resolution type for this bug\"}},\"required\":[\"resolution\"]}"
private const val DUPLICATE_SCHEMA =
    "{\"type\":\"object\",\"properties\":{\"duplicateOfId\":{\"type\":\"number\",\"description\":\"Work item ID of the original bug\"}},\"required\":[\"duplicateOfId\"]}"
private const val WORK_ITEM_ARGS = "\"name\":\"update_work_item\",\"arguments\":{\"workItemId\":4522,\"fields\":{\"System.State\":\"Resolved\"}}"
private const val DONE_TEXT = "Bug #4522 resolved as Duplicate of Bug #4510. State set to Resolved and duplicate link created."

/**
 * The SEP's Azure DevOps flow as a user would see it: the handler prints each question
 * and answers as the user would (Duplicate, then #4510). Returns the printed lines.
 */
private class WorkItemUser : InputHandler {
    val transcript = mutableListOf<String>()
    override suspend fun answer(input: InputRequest): InputAnswer {
        val form = input as InputRequest.ElicitForm
        val field = form.fields!!.single()
        transcript += "server asks [${form.key}]: ${form.message}"
        transcript += "  field ${field.name} (${field.kind}${if (field.required) ", required" else ""})" +
            (if (field.options.isEmpty()) "" else " options ${field.options.map { it.value }}") +
            (field.description?.let { ": $it" } ?: "")
        val content = when (field.name) {
            "resolution" -> "{\"resolution\":\"Duplicate\"}"
            "duplicateOfId" -> "{\"duplicateOfId\":4510}"
            else -> error("unexpected field ${field.name}")
        }
        transcript += "  user answers $content"
        return InputAnswer.Accept(bytes(content))
    }
}

/** A transport over recorded exchanges: each request must be exactly the recorded one. */
private class Recorded(val legs: List<Pair<String?, String>>) {
    var i = 0
    val transport: suspend (ByteArray) -> ByteArray = { req ->
        val (want, answer) = legs[i++]
        if (want == null) assertEquals(0, req.size, "leg $i: the runner asks for the next message") else assertBytes(want, req)
        bytes(answer)
    }
}

private fun findDemoServer(): File? {
    System.getenv("MRTR_DEMO_SERVER")?.let { return File(it).takeIf { f -> f.canExecute() } }
    val target = System.getenv("CARGO_TARGET_DIR")?.let { File(it) } ?: File(repoRoot, "target")
    return listOf("release", "debug").map { File(target, "$it/mrtr-demo-server") }.firstOrNull { it.canExecute() }
}

fun registerFlowTests(t: Tests) {
    t.test("flow: the work-item flow (SEP Azure DevOps) through run() over recorded server messages") {
        val caps = "{\"elicitation\":{\"form\":{}}}"
        val p = "{" + meta(caps) + "," + WORK_ITEM_ARGS
        val legs = listOf(
            head(1) + p + "}}" to
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\",\"inputRequests\":{\"resolution\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\",\"message\":\"Resolving Bug #4522 requires a resolution. How was this bug resolved?\",\"requestedSchema\":$RESOLUTION_SCHEMA}}}}}",
            head(2) + p + ",\"inputResponses\":{\"resolution\":{\"action\":\"accept\",\"content\":{\"resolution\":\"Duplicate\"}}}}}" to
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":0.5}}",
            null to
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"input_required\",\"inputRequests\":{\"duplicate_of\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\",\"message\":\"Since this is a duplicate, which work item is the original?\",\"requestedSchema\":$DUPLICATE_SCHEMA}}},\"requestState\":\"m1.recorded.state-token_4522\"}}",
            head(3) + p + ",\"inputResponses\":{\"duplicate_of\":{\"action\":\"accept\",\"content\":{\"duplicateOfId\":4510}}},\"requestState\":\"m1.recorded.state-token_4522\"}}" to
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":\"$DONE_TEXT\"}]}}",
        )
        val rec = Recorded(legs)
        val user = WorkItemUser()
        val result = exampleCall("{$WORK_ITEM_ARGS}", setOf(Capability.ELICITATION_FORM)).use { call ->
            val r = call.run(rec.transport, user)
            assertEquals(Phase.DONE, call.phase)
            assertEquals(2L, call.round)
            r
        }
        assertEquals(4, rec.i)
        assertBytes("{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":\"$DONE_TEXT\"}]}", result)
        user.transcript.forEach { println("     | $it") }
        println("     | result: ${String(result, Charsets.UTF_8)}")
        assertEquals(6, user.transcript.size)
        assertEquals("  field resolution (SINGLE_SELECT, required) options [Fixed, Won't Fix, Duplicate, By Design]: Resolution type for this bug", user.transcript[1])
    }

    t.test("flow: the work-item flow against mrtr-demo-server over stdio (skipped without the binary)") {
        val bin = findDemoServer()
        if (bin == null) {
            println("     SKIP: no mrtr-demo-server (set MRTR_DEMO_SERVER or build it into target/); the recorded flow above covers the exchange")
            return@test
        }
        val proc = ProcessBuilder(bin.path).redirectError(ProcessBuilder.Redirect.INHERIT).start()
        try {
            val out = proc.outputStream
            val reader = proc.inputStream.bufferedReader(Charsets.UTF_8)
            val transport: suspend (ByteArray) -> ByteArray = { req ->
                if (req.isNotEmpty()) {
                    out.write(req)
                    out.write('\n'.code)
                    out.flush()
                }
                (reader.readLine() ?: error("the demo server closed stdout")).toByteArray(Charsets.UTF_8)
            }
            val user = WorkItemUser()
            val result = MrtrCall.create(CallMethod.TOOLS_CALL, bytes("{$WORK_ITEM_ARGS}"), setOf(Capability.ELICITATION_FORM), clientName = "mrtr-kotlin-test", clientVersion = "1").use {
                it.run(transport, user)
            }
            user.transcript.forEach { println("     | $it") }
            println("     | result: ${String(result, Charsets.UTF_8)}")
            assertTrue(String(result, Charsets.UTF_8).contains("resolved as Duplicate of Bug #4510"))
        } finally {
            proc.outputStream.close()
            proc.destroy()
        }
    }

    t.test("run: state-only rounds are waited out with delay (50 + 100 ms), then the result") {
        val p = "{" + meta("{}") + ",\"name\":\"crunch\""
        val rec = Recorded(
            listOf(
                head(1) + p + "}}" to "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\",\"requestState\":\"a\"}}",
                head(2) + p + ",\"requestState\":\"a\"}}" to "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"input_required\",\"requestState\":\"b\"}}",
                head(3) + p + ",\"requestState\":\"b\"}}" to "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"resultType\":\"complete\",\"content\":[]}}",
            ),
        )
        val start = System.nanoTime()
        val r = exampleCall("{\"name\":\"crunch\"}", emptySet()).use { it.run(rec.transport, { error("no questions") }) }
        val ms = (System.nanoTime() - start) / 1_000_000
        assertBytes("{\"resultType\":\"complete\",\"content\":[]}", r)
        assertTrue(ms >= 150, "waited only $ms ms")
    }

    t.test("run: a JSON-RPC error throws MrtrRpcException with code, message and data") {
        val rec = Recorded(listOf(head(1) + "{" + meta("{}") + ",\"name\":\"x\"}}" to "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32021,\"message\":\"Missing capability\",\"data\":{\"requiredCapabilities\":{\"roots\":{}}}}}"))
        exampleCall("{\"name\":\"x\"}", emptySet()).use { call ->
            val e = assertFailsWith<MrtrRpcException> { call.run(rec.transport, { error("no questions") }) }
            assertEquals(Status.ERR_RPC_ERROR, e.status)
            assertEquals(-32021L, e.rpcCode)
            assertEquals("Missing capability", e.rpcMessage)
            assertBytes("{\"requiredCapabilities\":{\"roots\":{}}}", e.rpcData!!)
            assertEquals(Phase.DONE, call.phase)
            assertFailsWith<MrtrWrongStateException> { call.run(rec.transport, { error("no questions") }) }
        }
    }

    t.test("run: an Error answer ends the call FAILED (ANSWERED_WITH_ERROR) and the run ABORTED") {
        val rec = Recorded(listOf(head(1) + "{" + meta("{\"sampling\":{}}") + ",\"name\":\"x\"}}" to "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\",\"inputRequests\":{\"s\":{\"method\":\"sampling/createMessage\",\"params\":{\"messages\":[],\"maxTokens\":5}}}}}"))
        exampleCall("{\"name\":\"x\"}", setOf(Capability.SAMPLING)).use { call ->
            val e = assertFailsWith<MrtrFlowException> { call.run(rec.transport, { InputAnswer.Error(-1) }) }
            assertEquals(Status.ERR_ABORTED, e.status)
            assertEquals(Phase.FAILED, call.phase)
            val f = call.failure()!!
            assertEquals(FailureKind.ANSWERED_WITH_ERROR, f.kind)
            assertEquals(0L, f.index)
            assertEquals(-1L, f.code)
        }
    }

    t.test("run: the default cap on unrelated messages is the library's runner's (16 read past, the 17th is one too many)") {
        assertEquals(16, RUN_DEFAULT_MAX_UNRELATED)
        val note = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}"
        val rec = Recorded(listOf<Pair<String?, String>>(head(1) + "{" + meta("{}") + ",\"name\":\"x\"}}" to note) + List(16) { null to note })
        exampleCall("{\"name\":\"x\"}", emptySet()).use { call ->
            val e = assertFailsWith<MrtrCapacityException> { call.run(rec.transport, { error("no questions") }) }
            assertEquals(Status.ERR_LIMIT_EXCEEDED, e.status)
            assertEquals(17, rec.i)
            assertEquals(Phase.SENT, call.phase)
        }
    }

    t.test("run: more than maxUnrelated unrelated messages is LIMIT_EXCEEDED, the call stays SENT") {
        val note = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}"
        val rec = Recorded(listOf<Pair<String?, String>>(head(1) + "{" + meta("{}") + ",\"name\":\"x\"}}" to note) + List(3) { null to note })
        exampleCall("{\"name\":\"x\"}", emptySet()).use { call ->
            val e = assertFailsWith<MrtrCapacityException> { call.run(rec.transport, { error("no questions") }, maxUnrelated = 3) }
            assertEquals(Status.ERR_LIMIT_EXCEEDED, e.status)
            assertEquals(4, rec.i)
            assertEquals(Phase.SENT, call.phase)
            // The app can resume: run resends with a fresh id.
            val resumed = Recorded(listOf(head(2) + "{" + meta("{}") + ",\"name\":\"x\"}}" to "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"complete\"}}"))
            assertContentEquals(bytes("{\"resultType\":\"complete\"}"), call.run(resumed.transport, { error("no questions") }))
        }
    }
}
