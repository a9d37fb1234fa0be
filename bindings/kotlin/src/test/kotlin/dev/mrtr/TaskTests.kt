package dev.mrtr

import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertIs

private const val ECHO_ID = "echo_dc792e24-01b5-4c0a-abcb-0559848ca3c5"

private fun status(id: Int, s: String) =
    "{\"id\":$id,\"jsonrpc\":\"2.0\",\"result\":{\"taskId\":\"$ECHO_ID\",\"status\":\"$s\",\"statusMessage\":\"...\",\"createdAt\":\"2026-01-27T03:38:07.7534643Z\",\"ttl\":60000,\"pollInterval\":100}}"

fun registerTaskTests(t: Tests) {
    t.test("task: the SEP's echo task (seed dialect): MrtrCall.run follows the task in place, exact bytes") {
        val caps = setOf(Capability.ELICITATION_FORM)
        val m = meta("{\"elicitation\":{\"form\":{}}}")
        val questions = File(repoRoot, "tests/vectors/tasks/sep-2026-6-result-input-requests.json").readBytes().let { f ->
            (J.parse(f) as J.Obj)["message"]!!.raw(f)
        }
        fun byId(id: Int, method: String) = "{\"jsonrpc\":\"2.0\",\"id\":$id,\"method\":\"$method\",\"params\":{$m,\"taskId\":\"$ECHO_ID\"}}"
        val created = "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"task\":{\"taskId\":\"$ECHO_ID\",\"status\":\"Working\",\"statusMessage\":\"created\",\"createdAt\":\"2026-01-27T03:32:48.3148180Z\",\"ttl\":60000,\"pollInterval\":100}}}"
        val metaMembers = m.removePrefix("\"_meta\":{").removeSuffix("}")
        val done = "{\"id\":6,\"jsonrpc\":\"2.0\",\"result\":{\"isError\":false,\"content\":[{\"type\":\"text\",\"text\":\"Echo: Hello World!\"}],\"_meta\":{\"io.modelcontextprotocol/related-task\":{\"taskId\":\"$ECHO_ID\"}}}}"
        val legs = listOf(
            head(1) + "{" + m + ",\"name\":\"echo\",\"task\":{\"ttl\":60000}}}" to created,
            byId(2, "tasks/get") to status(2, "input_required"),
            byId(3, "tasks/result") to String(questions, Charsets.UTF_8),
            "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tasks/input_response\",\"params\":{\"_meta\":{$metaMembers,\"io.modelcontextprotocol/related-task\":{\"taskId\":\"$ECHO_ID\"}},\"inputResponses\":{\"echo_input\":{\"action\":\"accept\",\"content\":{\"input\":\"Hello World!\"}}}}}" to
                "{\"id\":4,\"jsonrpc\":\"2.0\",\"result\":{\"_meta\":{\"io.modelcontextprotocol/related-task\":{\"taskId\":\"$ECHO_ID\"}}}}",
            byId(5, "tasks/get") to status(5, "Completed"),
            byId(6, "tasks/result") to done,
        )
        exampleCall("{\"name\":\"echo\",\"task\":{\"ttl\":60000}}", caps).use { call ->
            var i = 0
            val start = System.nanoTime()
            val result = call.run({ req -> assertBytes(legs[i].first, req); bytes(legs[i++].second) }, { input ->
                val form = assertIs<InputRequest.ElicitForm>(input)
                assertEquals("echo_input", form.key)
                assertEquals("Please provide the input string to echo back", form.message)
                InputAnswer.Accept(bytes("{\"input\":\"Hello World!\"}"))
            })
            assertEquals(6, i)
            assertEquals(true, (System.nanoTime() - start) / 1_000_000 >= 200, "the first poll and the poll after the answers each wait the hinted 100 ms")
            assertBytes(done.substring(33, done.length - 1), result)
            val p = call.progress()
            assertEquals(Phase.DONE, p.phase)
            assertEquals(Flow.TASK, p.flow)
            assertEquals(TaskDialect.SEED, p.taskDialect)
            assertEquals(1L, p.round)
            assertEquals(2L, p.polls)
            assertEquals(6L, p.lastId)
            assertBytes("\"$ECHO_ID\"", p.taskId!!)
        }
    }

    t.test("task: the step API hands the call over in place; a stored id restarts the task") {
        val caps = setOf(Capability.ELICITATION_FORM)
        exampleCall("{\"name\":\"echo\",\"task\":{\"ttl\":60000}}", caps).use { call ->
            call.writeRequest()
            val created = "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"task\":{\"taskId\":\"$ECHO_ID\",\"status\":\"Working\",\"createdAt\":\"2026-01-27T03:32:48.3148180Z\",\"ttl\":60000,\"pollInterval\":100}}}"
            val ev = assertIs<CallEvent.TaskCreated>(call.feed(bytes(created)))
            assertEquals(TaskDialect.SEED, ev.dialect)
            assertEquals(TaskStatus.WORKING, ev.status)
            assertEquals(100L, ev.pollMs)
            assertBytes("\"$ECHO_ID\"", ev.taskId)
            val p = call.progress()
            assertEquals(Phase.READY, p.phase)
            assertEquals(Flow.TASK, p.flow)
            assertEquals(TaskRequest.GET, p.taskRequest)
            assertEquals(100L, p.pollMs)
            assertEquals(2L, p.nextId)
            // The same task again from its stored id, on a second handle.
            MrtrCall.restartTask(ev.dialect, ev.taskId, caps, taskIdIsJson = true, clientName = "ExampleClient", clientVersion = "1.0.0", pollMs = 100, firstId = 2).use { again ->
                assertEquals(String(call.writeRequest(), Charsets.UTF_8), String(again.writeRequest(), Charsets.UTF_8))
            }
        }
    }

    t.test("task: extension dialect needs TASKS; cancel is acknowledged; a failed task throws its error") {
        val e = assertFailsWith<MrtrArgumentException> { MrtrCall.restartTask(TaskDialect.EXTENSION, bytes("b-7"), emptySet()) }
        assertEquals(Status.ERR_INVALID_ARGUMENT, e.status)
        assertFailsWith<MrtrArgumentException> { MrtrCall.restartTask(TaskDialect.SEED, bytes(""), emptySet()) }
        assertFailsWith<MrtrArgumentException> { MrtrCall.restartTask(TaskDialect.SEED, bytes("not json"), emptySet(), taskIdIsJson = true) }
        val caps = setOf(Capability.TASKS)
        MrtrCall.restartTask(TaskDialect.EXTENSION, bytes("b-7"), caps, sendClientInfo = false).use { task ->
            val getReq = String(task.writeRequest(), Charsets.UTF_8)
            assertEquals(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/get\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}},\"taskId\":\"b-7\"}}",
                getReq,
            )
            assertEquals(TaskRequest.GET, task.progress().taskRequest)
            val cancel = String(task.writeCancel(), Charsets.UTF_8)
            assertEquals(true, cancel.startsWith("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tasks/cancel\""), cancel)
            assertEquals(TaskRequest.CANCEL, task.progress().taskRequest)
            // The late answer to the tasks/get is not the cancel's.
            assertEquals(CallEvent.Unrelated, task.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"taskId\":\"b-7\",\"status\":\"working\"}}")))
            assertEquals(CallEvent.TaskCancelled, task.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"taskId\":\"b-7\",\"status\":\"cancelled\"}}")))
            assertEquals(Phase.DONE, task.phase)
        }
        MrtrCall.restartTask(TaskDialect.EXTENSION, bytes("b-8"), caps).use { task ->
            task.writeRequest()
            val ev = assertIs<CallEvent.TaskFailed>(
                task.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"taskId\":\"b-8\",\"status\":\"failed\",\"error\":{\"code\":-32603,\"message\":\"boom\"}}}")),
            )
            assertEquals(-32603L, ev.code)
            assertEquals("boom", ev.message)
        }
        val closed = MrtrCall.restartTask(TaskDialect.SEED, bytes("x"), emptySet())
        closed.close()
        assertFailsWith<IllegalStateException> { closed.writeRequest() }
        assertFailsWith<IllegalStateException> { closed.progress() }
    }
}
