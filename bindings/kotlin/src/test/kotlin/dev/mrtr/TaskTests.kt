package dev.mrtr

import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertIs

private const val ECHO_ID = "echo_dc792e24-01b5-4c0a-abcb-0559848ca3c5"

private fun status(id: Int, s: String) =
    "{\"id\":$id,\"jsonrpc\":\"2.0\",\"result\":{\"taskId\":\"$ECHO_ID\",\"status\":\"$s\",\"statusMessage\":\"...\",\"createdAt\":\"2026-01-27T03:38:07.7534643Z\",\"ttl\":60000,\"pollInterval\":100}}"

fun registerTaskTests(t: Tests) {
    t.test("task: the SEP's echo task (seed dialect) through MrtrCall.run, then MrtrTask.run, exact bytes") {
        val caps = setOf(Capability.ELICITATION_FORM)
        val m = meta("{\"elicitation\":{\"form\":{}}}")
        val questions = File(repoRoot, "tests/vectors/tasks/sep-2026-6-result-input-requests.json").readBytes().let { f ->
            (J.parse(f) as J.Obj)["message"]!!.raw(f)
        }
        fun byId(id: Int, method: String) = "{\"jsonrpc\":\"2.0\",\"id\":$id,\"method\":\"$method\",\"params\":{$m,\"taskId\":\"$ECHO_ID\"}}"
        val created = "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"task\":{\"taskId\":\"$ECHO_ID\",\"status\":\"Working\",\"statusMessage\":\"created\",\"createdAt\":\"2026-01-27T03:32:48.3148180Z\",\"ttl\":60000,\"pollInterval\":100}}}"
        val call = exampleCall("{\"name\":\"echo\",\"task\":{\"ttl\":60000}}", caps)
        val handoff = call.use {
            val rec = listOf(head(1) + "{" + m + ",\"name\":\"echo\",\"task\":{\"ttl\":60000}}}" to created)
            var i = 0
            val e = assertFailsWith<TaskCreatedException> {
                it.run({ req -> assertBytes(rec[i].first, req); bytes(rec[i++].second) }, { error("no questions") })
            }
            assertEquals(Phase.DONE, it.phase)
            assertEquals(TaskDialect.SEED, e.event.dialect)
            assertEquals(TaskStatus.WORKING, e.event.status)
            assertEquals(100L, e.event.pollMs)
            assertBytes("\"$ECHO_ID\"", e.event.taskId)
            e.event to it.nextId
        }
        val metaMembers = m.removePrefix("\"_meta\":{").removeSuffix("}")
        val done = "{\"id\":6,\"jsonrpc\":\"2.0\",\"result\":{\"isError\":false,\"content\":[{\"type\":\"text\",\"text\":\"Echo: Hello World!\"}],\"_meta\":{\"io.modelcontextprotocol/related-task\":{\"taskId\":\"$ECHO_ID\"}}}}"
        val legs = listOf(
            byId(2, "tasks/get") to status(2, "input_required"),
            byId(3, "tasks/result") to String(questions, Charsets.UTF_8),
            "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tasks/input_response\",\"params\":{\"_meta\":{$metaMembers,\"io.modelcontextprotocol/related-task\":{\"taskId\":\"$ECHO_ID\"}},\"inputResponses\":{\"echo_input\":{\"action\":\"accept\",\"content\":{\"input\":\"Hello World!\"}}}}}" to
                "{\"id\":4,\"jsonrpc\":\"2.0\",\"result\":{\"_meta\":{\"io.modelcontextprotocol/related-task\":{\"taskId\":\"$ECHO_ID\"}}}}",
            byId(5, "tasks/get") to status(5, "Completed"),
            byId(6, "tasks/result") to done,
        )
        MrtrTask.fromEvent(handoff.first, caps, "ExampleClient", "1.0.0", firstId = handoff.second).use { task ->
            assertEquals(TaskRequest.GET, task.nextRequest)
            assertEquals(100L, task.pollMs)
            var i = 0
            val start = System.nanoTime()
            val result = task.run({ req -> assertBytes(legs[i].first, req); bytes(legs[i++].second) }, { input ->
                val form = assertIs<InputRequest.ElicitForm>(input)
                assertEquals("echo_input", form.key)
                assertEquals("Please provide the input string to echo back", form.message)
                InputAnswer.Accept(bytes("{\"input\":\"Hello World!\"}"))
            })
            assertEquals(5, i)
            assertEquals(true, (System.nanoTime() - start) / 1_000_000 >= 100, "the poll after the answers waits the hinted 100 ms")
            assertBytes(done.substring(33, done.length - 1), result)
            assertEquals(Phase.DONE, task.phase)
            assertEquals(1L, task.round)
        }
    }

    t.test("task: extension dialect needs TASKS; cancel is acknowledged; a failed task throws its error") {
        val e = assertFailsWith<MrtrArgumentException> { MrtrTask.create(TaskDialect.EXTENSION, bytes("b-7"), emptySet()) }
        assertEquals(Status.ERR_INVALID_ARGUMENT, e.status)
        assertFailsWith<MrtrArgumentException> { MrtrTask.create(TaskDialect.SEED, bytes(""), emptySet()) }
        assertFailsWith<MrtrArgumentException> { MrtrTask.create(TaskDialect.SEED, bytes("not json"), emptySet(), taskIdIsJson = true) }
        val caps = setOf(Capability.TASKS)
        MrtrTask.create(TaskDialect.EXTENSION, bytes("b-7"), caps, sendClientInfo = false).use { task ->
            val getReq = String(task.writeRequest(), Charsets.UTF_8)
            assertEquals(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/get\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}},\"taskId\":\"b-7\"}}",
                getReq,
            )
            assertEquals(TaskRequest.GET, task.nextRequest)
            val cancel = String(task.writeCancel(), Charsets.UTF_8)
            assertEquals(true, cancel.startsWith("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tasks/cancel\""), cancel)
            assertEquals(TaskRequest.CANCEL, task.nextRequest)
            // The late answer to the tasks/get is not the cancel's.
            assertEquals(CallEvent.Unrelated, task.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"taskId\":\"b-7\",\"status\":\"working\"}}")))
            assertEquals(CallEvent.TaskCancelled, task.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"taskId\":\"b-7\",\"status\":\"cancelled\"}}")))
            assertEquals(Phase.DONE, task.phase)
        }
        MrtrTask.create(TaskDialect.EXTENSION, bytes("b-8"), caps).use { task ->
            task.writeRequest()
            val ev = assertIs<CallEvent.TaskFailed>(
                task.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"taskId\":\"b-8\",\"status\":\"failed\",\"error\":{\"code\":-32603,\"message\":\"boom\"}}}")),
            )
            assertEquals(-32603L, ev.code)
            assertEquals("boom", ev.message)
        }
        val closed = MrtrTask.create(TaskDialect.SEED, bytes("x"), emptySet())
        closed.close()
        assertFailsWith<IllegalStateException> { closed.writeRequest() }
        assertFailsWith<IllegalStateException> { closed.pollMs }
    }
}
