package dev.mrtr

import kotlin.test.assertContentEquals
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertIs
import kotlin.test.assertNotEquals
import kotlin.test.assertTrue

private val KEY_A = ByteArray(32) { (it * 7 + 1).toByte() }
private val KEY_B = ByteArray(32) { (it * 11 + 3).toByte() }
private const val NOW = 1_790_000_000L

private fun reason(f: () -> Any?): UnsealReason? {
    val e = assertFailsWith<MrtrSealException> { f() }
    assertEquals(Status.ERR_INVALID_REQUEST_STATE, e.status)
    return e.unsealReason
}

fun registerServerTests(t: Tests) {
    t.test("seal: binding digests ignore spelling and order, not values") {
        val d = MrtrSealer.bindingDigest("tools/call", "deploy", bytes("{\"env\":\"prod\",\"n\":1}"))
        assertEquals(32, d.size)
        assertContentEquals(d, MrtrSealer.bindingDigest("tools/call", "deploy", bytes(" { \"n\" : 1 , \"e\\u006ev\" : \"prod\" } ")))
        assertNotEquals(d.toList(), MrtrSealer.bindingDigest("tools/call", "deploy", bytes("{\"env\":\"dev\",\"n\":1}")).toList())
        assertNotEquals(d.toList(), MrtrSealer.bindingDigest("tools/call", "deploy2", bytes("{\"env\":\"prod\",\"n\":1}")).toList())
        assertNotEquals(d.toList(), MrtrSealer.bindingDigest("prompts/get", "deploy", bytes("{\"env\":\"prod\",\"n\":1}")).toList())
        assertFailsWith<MrtrMessageException> { MrtrSealer.bindingDigest("tools/call", "x", bytes("{\"a\":1,\"a\":2}")) }
    }

    t.test("seal: tokens round-trip, are exactly as long as announced, and deterministic given the nonce") {
        val binding = MrtrSealer.bindingDigest("tools/call", "deploy", bytes("{}"))
        val nonce = ByteArray(24) { it.toByte() }
        MrtrSealer(listOf(KEY_A), "svc").use { s ->
            val state = bytes("{\"step\":2,\"answers\":[\"prod\"]}")
            val token = s.seal(NOW, binding, state, nonce = nonce)
            assertTrue(String(token, Charsets.US_ASCII).startsWith("m2."))
            assertEquals(MrtrSealer.tokenLength(state.size, false), token.size.toLong())
            assertContentEquals(token, s.seal(NOW, binding, state, nonce = nonce))
            assertNotEquals(token.toList(), s.seal(NOW, binding, state).toList())
            assertContentEquals(state, s.unseal(NOW + 10, token, binding))
            val withPrincipal = s.seal(NOW, binding, state, principal = bytes("user-1"))
            assertEquals(MrtrSealer.tokenLength(state.size, true), withPrincipal.size.toLong())
            assertContentEquals(state, s.unseal(NOW, withPrincipal, binding, principal = bytes("user-1")))
            assertEquals(UnsealReason.WRONG_PRINCIPAL, reason { s.unseal(NOW, withPrincipal, binding, principal = bytes("user-2")) })
        }
    }

    t.test("seal: every refusal is one wire error with a precise reason for the log") {
        val binding = MrtrSealer.bindingDigest("tools/call", "deploy", bytes("{\"env\":\"prod\"}"))
        MrtrSealer(listOf(KEY_A), "svc", ttlSeconds = 600, skewSeconds = 60, maxTokenBytes = 512).use { s ->
            val token = s.seal(NOW, binding, bytes("state"))
            assertEquals("Invalid or expired requestState", MrtrSealer.invalidRequestStateMessage)
            assertEquals(-32602L, MrtrSealer.INVALID_REQUEST_STATE_CODE)
            val tampered = token.copyOf().also { it[it.size - 5] = if (it[it.size - 5] == 'A'.code.toByte()) 'B'.code.toByte() else 'A'.code.toByte() }
            assertEquals(UnsealReason.TAMPERED, reason { s.unseal(NOW, tampered, binding) })
            assertEquals(UnsealReason.EXPIRED, reason { s.unseal(NOW + 600 + 60 + 1, token, binding) })
            assertEquals(UnsealReason.NOT_YET_VALID, reason { s.unseal(NOW - 61, token, binding) })
            assertEquals(UnsealReason.WRONG_REQUEST, reason { s.unseal(NOW, token, MrtrSealer.bindingDigest("tools/call", "deploy", bytes("{\"env\":\"dev\"}"))) })
            assertEquals(UnsealReason.MALFORMED, reason { s.unseal(NOW, bytes("not a token"), binding) })
            assertEquals(UnsealReason.TOO_LARGE, reason { s.unseal(NOW, ByteArray(100_000) { 'A'.code.toByte() }, binding) })
            assertEquals("token expired", UnsealReason.EXPIRED.description)
            MrtrSealer(listOf(KEY_A), "other-svc").use { other -> assertEquals(UnsealReason.TAMPERED, reason { other.unseal(NOW, token, binding) }) }
            MrtrSealer(listOf(KEY_B), "svc").use { other -> assertEquals(UnsealReason.UNKNOWN_KEY, reason { other.unseal(NOW, token, binding) }) }
            // Rotation: [NEW, OLD] still opens what OLD sealed.
            MrtrSealer(listOf(KEY_B, KEY_A), "svc").use { rotated -> assertContentEquals(bytes("state"), rotated.unseal(NOW, token, binding)) }
        }
    }

    t.test("seal: unusable keys and arguments are refused; a closed sealer throws IllegalStateException") {
        assertEquals(Status.ERR_KEY_ERROR, assertFailsWith<MrtrSealException> { MrtrSealer(listOf(ByteArray(31)), "svc") }.status)
        assertEquals(Status.ERR_KEY_ERROR, assertFailsWith<MrtrSealException> { MrtrSealer(emptyList(), "svc") }.status)
        assertEquals(Status.ERR_KEY_ERROR, assertFailsWith<MrtrSealException> { MrtrSealer(List(9) { ByteArray(32) { b -> (b + it).toByte() } }, "svc") }.status)
        assertEquals(Status.ERR_KEY_ERROR, assertFailsWith<MrtrSealException> { MrtrSealer(listOf(KEY_A, KEY_A.copyOf()), "svc") }.status)
        assertEquals(Status.ERR_INVALID_ARGUMENT, assertFailsWith<MrtrArgumentException> { MrtrSealer(listOf(KEY_A), "") }.status)
        // Weak keys (all one byte value) and out-of-range lifetimes (issue 16).
        assertEquals(Status.ERR_KEY_ERROR, assertFailsWith<MrtrSealException> { MrtrSealer(listOf(ByteArray(32)), "svc") }.status)
        assertEquals(Status.ERR_KEY_ERROR, assertFailsWith<MrtrSealException> { MrtrSealer(listOf(KEY_A, ByteArray(64) { -1 }), "svc") }.status)
        assertEquals(Status.ERR_INVALID_ARGUMENT, assertFailsWith<MrtrArgumentException> { MrtrSealer(listOf(KEY_A), "svc", ttlSeconds = 86_401) }.status)
        assertEquals(Status.ERR_INVALID_ARGUMENT, assertFailsWith<MrtrArgumentException> { MrtrSealer(listOf(KEY_A), "svc", skewSeconds = 301) }.status)
        MrtrSealer(listOf(KEY_A), "svc", ttlSeconds = 86_400, skewSeconds = 300).close()
        val s = MrtrSealer(listOf(KEY_A), "svc")
        val binding = ByteArray(32)
        assertFailsWith<MrtrArgumentException> { s.seal(NOW, ByteArray(31), bytes("x")) }
        assertFailsWith<MrtrArgumentException> { s.seal(NOW, binding, bytes("x"), nonce = ByteArray(23)) }
        assertEquals(Status.ERR_LIMIT_EXCEEDED, assertFailsWith<MrtrCapacityException> { s.seal(NOW, binding, ByteArray(10_000)) }.status)
        s.close()
        s.close()
        assertFailsWith<IllegalStateException> { s.seal(NOW, binding, bytes("x")) }
        assertFailsWith<IllegalStateException> { s.unseal(NOW, bytes("m1.x"), binding) }
    }

    t.test("server: a Kotlin server seals requestState, the Kotlin client echoes it, the server unseals it") {
        MrtrSealer(listOf(KEY_A), "deploy-svc").use { sealer ->
            // The server application: reads the request (tests parse it with the test reader;
            // the C ABI has no server request parser yet), asks once, then answers from the
            // unsealed state.
            val server: suspend (ByteArray) -> ByteArray = { req ->
                val msg = J.parse(req) as J.Obj
                val id = msg["id"]!!.long!!
                val params = msg["params"]!!.obj!!
                val args = params["arguments"]!!
                val binding = MrtrSealer.bindingDigest("tools/call", params["name"]!!.str!!, args.raw(req))
                val echoed = params["requestState"]?.str
                if (echoed == null) {
                    val token = String(sealer.seal(NOW, binding, bytes("{\"asked\":\"env\"}")), Charsets.US_ASCII)
                    bytes("{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"resultType\":\"input_required\",\"inputRequests\":{\"env\":{\"method\":\"elicitation/create\",\"params\":{\"message\":\"Which environment?\",\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"env\":{\"type\":\"string\",\"enum\":[\"dev\",\"prod\"]}},\"required\":[\"env\"]}}}},\"requestState\":\"$token\"}}")
                } else {
                    val state = String(sealer.unseal(NOW + 5, bytes(echoed), binding), Charsets.UTF_8)
                    val env = ((params["inputResponses"]!!.obj!!["env"]!!.obj!!["content"]!!.obj!!)["env"]!!.str)
                    assertEquals("{\"asked\":\"env\"}", state)
                    bytes("{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":\"deployed to $env (state ok)\"}]}}")
                }
            }
            val result = MrtrCall.create(CallMethod.TOOLS_CALL, bytes("{\"name\":\"deploy\",\"arguments\":{\"service\":\"api\"}}"), setOf(Capability.ELICITATION_FORM)).use { call ->
                call.run(server, { input ->
                    val form = assertIs<InputRequest.ElicitForm>(input)
                    assertEquals(listOf("dev", "prod"), form.fields!!.single().options.map { it.value })
                    InputAnswer.Accept(bytes("{\"env\":\"prod\"}"))
                })
            }
            assertBytes("{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":\"deployed to prod (state ok)\"}]}", result)
        }
    }
}
