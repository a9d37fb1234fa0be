package dev.mrtr

import java.io.File
import java.util.Base64
import kotlin.test.assertEquals
import kotlin.test.assertTrue

internal val repoRoot: File get() = File(System.getProperty("mrtr.root") ?: ".")

/** One shared vector: its name, parsed file, and the exact bytes to feed. */
internal class Vector(val name: String, val file: J.Obj, val message: ByteArray)

internal fun loadVectors(): List<Vector> {
    val dir = File(repoRoot, "tests/vectors")
    val files = dir.listFiles()!!.filter { it.isDirectory }.flatMap { d -> d.listFiles()!!.filter { it.name.endsWith(".json") } }
    return files.sortedBy { it.path }.map { f ->
        val bytes = f.readBytes()
        val file = J.parse(bytes) as J.Obj
        val message = when {
            file["message"] != null -> file["message"]!!.raw(bytes)
            file["message_text"] != null -> file["message_text"]!!.str!!.toByteArray(Charsets.UTF_8)
            else -> Base64.getDecoder().decode(file["message_base64"]!!.str!!)
        }
        Vector("${f.parentFile.name}/${f.nameWithoutExtension}", file, message)
    }
}

/** The capability set a vector's `client_capabilities` declares (README default when absent). */
private fun capsOf(c: J.Obj?): Set<Capability> {
    if (c == null) return setOf(Capability.ELICITATION_FORM, Capability.ELICITATION_URL, Capability.SAMPLING, Capability.SAMPLING_TOOLS, Capability.ROOTS)
    val caps = mutableSetOf<Capability>()
    c["elicitation"]?.obj?.let { e ->
        if (e.members.isEmpty() || e["form"] != null) caps += Capability.ELICITATION_FORM
        if (e["url"] != null) caps += Capability.ELICITATION_URL
    }
    c["sampling"]?.obj?.let { s ->
        caps += Capability.SAMPLING
        if (s["tools"] != null) caps += Capability.SAMPLING_TOOLS
        if (s["context"] != null) caps += Capability.SAMPLING_CONTEXT
    }
    if (c["roots"] != null) caps += Capability.ROOTS
    if (c["extensions"]?.obj?.get("io.modelcontextprotocol/tasks") != null) caps += Capability.TASKS
    return caps
}

private val paramsFor = mapOf(
    "tools/call" to (CallMethod.TOOLS_CALL to "{\"name\":\"t\"}"),
    "prompts/get" to (CallMethod.PROMPTS_GET to "{\"name\":\"p\"}"),
    "resources/read" to (CallMethod.RESOURCES_READ to "{\"uri\":\"file:///r\"}"),
)

/** The message's `id` member as written (number text or string), when it is readable JSON. */
private fun idOf(message: ByteArray): J? = try {
    (J.parse(message) as? J.Obj)?.get("id")
} catch (e: Exception) {
    null
}

/** What the call concludes about one vector, in the README's `expect` vocabulary. */
private fun outcome(v: Vector, method: CallMethod, params: String, caps: Set<Capability>): String {
    val id = idOf(v.message)?.long ?: 1L
    MrtrCall.create(method, bytes(params), caps, clientName = "vectors", clientVersion = "1").use { call ->
        call.writeRequest(id)
        val event = try {
            call.feed(v.message)
        } catch (e: MrtrException) {
            val f = call.failure()
            val category = when (f?.kind) {
                FailureKind.JSON -> "json"
                FailureKind.ENVELOPE -> "envelope"
                FailureKind.PROTOCOL, FailureKind.INPUTS_TOO_LARGE, FailureKind.STATE_TOO_LARGE -> "protocol"
                else -> "unexpected ${e.statusName} ${f?.kind}"
            }
            return "invalid $category"
        }
        return when (event) {
            is CallEvent.Complete -> "complete"
            is CallEvent.RpcError -> "rpc_error ${event.code} ${J.Str(event.message)}"
            is CallEvent.Unrelated -> "unrelated"
            is CallEvent.RetryAfter, is CallEvent.InputRequired -> inputRequired(call, event)
            is CallEvent.TaskCreated -> "task"
            is CallEvent.TaskPoll, CallEvent.TaskNext, is CallEvent.TaskFailed, CallEvent.TaskCancelled -> "task event from a call: $event"
        }
    }
}

/**
 * The README's input list, then the retry the call writes once every input is answered:
 * its `requestState` must be the server's, byte for byte, or absent when none came.
 */
private fun inputRequired(call: MrtrCall, event: CallEvent): String {
    val inputs = (event as? CallEvent.InputRequired)?.inputs ?: emptyList()
    val held = call.requestState
    val described = inputs.map { i ->
        when (i) {
            is InputRequest.ElicitForm -> "elicit_form ${J.Str(i.key)} ${J.Str(i.message)}"
            is InputRequest.ElicitUrl -> "elicit_url ${J.Str(i.key)} ${J.Str(i.message)} ${J.Str(i.url)}"
            is InputRequest.Sampling -> "sampling ${J.Str(i.key)} ${i.maxTokens} ${i.systemPrompt?.let { J.Str(it) }} ${i.hasTools}"
            is InputRequest.Roots -> "roots ${J.Str(i.key)}"
        }
    }
    for (i in inputs) {
        when (i) {
            is InputRequest.ElicitForm, is InputRequest.ElicitUrl -> call.answerElicit(i.index, ElicitAction.DECLINE)
            is InputRequest.Sampling -> call.answerJson(i.index, bytes("{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"ok\"},\"model\":\"m\"}"))
            is InputRequest.Roots -> call.answerRoots(i.index, emptyList())
        }
    }
    val retry = call.writeRequest()
    val params = (J.parse(retry) as J.Obj)["params"]!!.obj!!
    val state = params["requestState"]?.let { J.Str(it.str!!) }
    // What the call reports holding must be what it echoes.
    if (held?.let { J.Str(it) } != state) return "requestState held $held but echoed $state"
    return "input_required $state $described"
}

/** The README's `expect`, in the same vocabulary. */
private fun expected(e: J.Obj): String = when (e["outcome"]!!.str) {
    "complete" -> "complete"
    "rpc_error" -> "rpc_error ${e["code"]!!.long} ${J.Str(e["message"]!!.str!!)}"
    "invalid" -> "invalid ${e["error"]!!.str}"
    "input_required" -> {
        val inputs = (e["inputs"] as J.Arr).items.map { it as J.Obj }.map { i ->
            val key = J.Str(i["key"]!!.str!!)
            when (i["kind"]!!.str) {
                "elicit_form" -> "elicit_form $key ${J.Str(i["message"]!!.str!!)}"
                "elicit_url" -> "elicit_url $key ${J.Str(i["message"]!!.str!!)} ${J.Str(i["url"]!!.str!!)}"
                "sampling" -> "sampling $key ${i["maxTokens"]!!.long} ${i["systemPrompt"]?.str?.let { J.Str(it) }} ${(i["hasTools"] as J.Bool).value}"
                else -> "roots $key"
            }
        }
        "input_required ${e["requestState"]?.str?.let { J.Str(it) }} $inputs"
    }
    else -> "?"
}

fun registerVectorTests(t: Tests) {
    t.test("vectors: every server_response vector through MrtrCall reaches its expected outcome") {
        var checked = 0
        val skipped = mutableListOf<String>()
        val stringIds = mutableListOf<String>()
        val disagree = mutableListOf<String>()
        for (v in loadVectors()) {
            if (v.file["direction"]!!.str != "server_response") continue
            val methodName = v.file["method"]!!.str!!
            val (method, params) = paramsFor[methodName] ?: run {
                // tasks/get, tasks/result, tools/list answer requests a MrtrCall never sends.
                skipped += "${v.name} (method $methodName)"
                null
            } ?: continue
            val revision = v.file["server_protocol_version"]?.str ?: "2026-07-28"
            if (revision != "2026-07-28") {
                // A call speaks 2026-07-28 only; earlier-revision readings are the wire layer's.
                skipped += "${v.name} (revision $revision)"
                continue
            }
            var want = expected(v.file["expect"]!!.obj!!)
            // A call writes number ids only, and "a string id never matches" (client::call):
            // a readable message naming a string id is someone else's.
            if (idOf(v.message) is J.Str && want != "invalid json") {
                stringIds += "${v.name} (${want.substringBefore(' ')})"
                want = "unrelated"
            }
            val got = outcome(v, method, params, capsOf(v.file["client_capabilities"]?.obj))
            if (got != want) disagree += "${v.name}\n     want $want\n     got  $got"
            checked++
        }
        println("     vectors: $checked checked, ${skipped.size} not for a call: ${skipped.joinToString()}")
        println("     string ids (Unrelated to a call's number ids): ${stringIds.joinToString()}")
        assertTrue(checked >= 200, "only $checked vectors")
        assertEquals(emptyList<String>(), disagree, "${disagree.size} disagree:\n" + disagree.joinToString("\n"))
    }
}
