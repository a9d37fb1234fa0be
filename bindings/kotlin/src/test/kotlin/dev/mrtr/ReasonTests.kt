package dev.mrtr

import java.nio.ByteBuffer
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertFalse
import kotlin.test.assertTrue

private const val ENV_ASK =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\",\"inputRequests\":{\"env\":" +
        "{\"method\":\"elicitation/create\",\"params\":{\"message\":\"Which environment?\",\"requestedSchema\":" +
        "{\"type\":\"object\",\"properties\":{\"env\":{\"type\":\"string\",\"enum\":[\"dev\",\"prod\"]}}," +
        "\"required\":[\"env\"]}}}},\"requestState\":\"s1\"}}"

/** Issue 28 item 3: every exception names the cause C names beside its status. */
fun registerReasonTests(t: Tests) {
    t.test("reasons: a form value none of its options is NotAnOption, in the exception's reason and message") {
        exampleCall("{\"name\":\"deploy\"}", setOf(Capability.ELICITATION_FORM)).use { call ->
            call.writeRequest(1)
            call.feed(bytes(ENV_ASK))
            val e = assertFailsWith<MrtrInvalidValueException> {
                call.answerElicit(0, ElicitAction.ACCEPT, bytes("{\"env\":\"staging\"}"))
            }
            assertEquals(Status.ERR_INVALID_VALUE, e.status)
            assertEquals("NotAnOption", e.reason)
            assertTrue(e.message!!.startsWith("mrtr_call_answer_elicit: MRTR_ERR_INVALID_VALUE (7): NotAnOption"), e.message)
            // The details of the same check: which field.
            assertEquals("env", e.formError!!.field)
            // Refused, not taken: the input is still open.
            assertFalse(call.input(0).answered)
            call.answerElicit(0, ElicitAction.ACCEPT, bytes("{\"env\":\"prod\"}"))
            // Every input answered: the call is READY, no longer taking answers.
            val again = assertFailsWith<MrtrWrongStateException> { call.answerElicit(0, ElicitAction.DECLINE) }
            assertEquals("WrongState", again.reason)
            assertEquals("mrtr_call_answer_elicit: MRTR_ERR_WRONG_STATE (5): WrongState", again.message)
            val reused = assertFailsWith<MrtrArgumentException> { call.writeRequest(1) }
            assertEquals("IdNotFresh", reused.reason)
            assertEquals("mrtr_call_write_request: MRTR_ERR_INVALID_ARGUMENT (2): IdNotFresh", reused.message)
            // A status with one cause names itself; the message does not repeat it.
            val missing = assertFailsWith<MrtrNotFoundException> { call.input(5) }
            assertEquals("MRTR_ERR_NOT_FOUND", missing.reason)
            assertEquals("mrtr_call_input_at: MRTR_ERR_NOT_FOUND (6)", missing.message)
            // Refused by the binding's own checks before C ran: the status's name too.
            val negative = assertFailsWith<MrtrNotFoundException> { call.answerJson(-1, bytes("{}")) }
            assertEquals("MRTR_ERR_NOT_FOUND", negative.reason)
        }
    }

    t.test("reasons: run() carries the reason of a refused answer (NotAnOption)") {
        exampleCall("{\"name\":\"deploy\"}", setOf(Capability.ELICITATION_FORM)).use { call ->
            val e = assertFailsWith<MrtrInvalidValueException> {
                call.run({ bytes(ENV_ASK) }, { InputAnswer.Accept(bytes("{\"env\":\"staging\"}")) })
            }
            assertEquals("NotAnOption", e.reason)
            assertEquals(Phase.ANSWERING, call.phase)
        }
    }

    t.test("reasons: a terminal feed names its cause (InputRequiredWithoutFields)") {
        exampleCall("{\"name\":\"deploy\"}", emptySet()).use { call ->
            call.writeRequest(1)
            val e = assertFailsWith<MrtrMessageException> {
                call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\"}}"))
            }
            assertEquals(Status.ERR_PROTOCOL_VIOLATION, e.status)
            assertEquals("InputRequiredWithoutFields", e.reason)
            assertEquals("mrtr_call_feed: MRTR_ERR_PROTOCOL_VIOLATION (22): InputRequiredWithoutFields", e.message)
            assertEquals("InputRequiredWithoutFields", call.failure()!!.reason)
        }
    }

    t.test("reasons: a handle that is no live call names its refusal; a glue refusal leaves why[0] null") {
        val written = LongArray(1)
        val why = arrayOfNulls<String>(1)
        // Not a workspace: the C function gets NULL.
        assertEquals(Status.ERR_NULL_POINTER.code, Native.callWriteRequest(ByteBuffer.allocateDirect(64), 1, ByteArray(64), written, why))
        assertEquals("Null", why[0])
        val sealerWs = allocWorkspace(Native.sealerSize())
        try {
            assertEquals(Status.OK.code, Native.sealerInit(sealerWs, arrayOf(ByteArray(32) { (it * 7 + 1).toByte() }), bytes("svc"), 0, 60, 0, null))
            why[0] = null
            assertEquals(Status.ERR_INVALID_ARGUMENT.code, Native.callProgress(sealerWs, LongArray(Native.PROGRESS_LEN), why))
            assertEquals("NotAnObject", why[0])
        } finally {
            Native.sealerWipe(sealerWs)
            Native.wsFree(sealerWs)
        }
        exampleCall("{\"name\":\"deploy\"}", emptySet()).use { call ->
            call.withWorkspace { ws ->
                why[0] = null
                // A negative index is refused before C runs: nothing to name but the status.
                assertEquals(Status.ERR_NOT_FOUND.code, Native.callAnswerError(ws, -1, 1, why))
                assertEquals(null, why[0])
                // READY: no input to answer; the C function ran and names the cause.
                assertEquals(Status.ERR_WRONG_STATE.code, Native.callAnswerError(ws, 0, 1, why))
                assertEquals("WrongState", why[0])
            }
        }
    }

    t.test("reasons: restore of a damaged save is Decode") {
        val saved = exampleCall("{\"name\":\"deploy\"}", emptySet()).use { it.save() }
        val e = assertFailsWith<MrtrArgumentException> { MrtrCall.restore(saved.copyOf(saved.size - 1)) }
        assertEquals(Status.ERR_INVALID_ARGUMENT, e.status)
        assertEquals("Decode", e.reason)
        assertEquals("mrtr_call_restore: MRTR_ERR_INVALID_ARGUMENT (2): Decode", e.message)
    }

    t.test("reasons: a sealer refused names the cause (EmptyAudience, KeyTooShort, TooManyKeys)") {
        val key = ByteArray(32) { (it * 7 + 1).toByte() }
        val empty = assertFailsWith<MrtrArgumentException> { MrtrSealer(listOf(key), "") }
        assertEquals(Status.ERR_INVALID_ARGUMENT, empty.status)
        assertEquals("EmptyAudience", empty.reason)
        assertEquals("mrtr_sealer_init: MRTR_ERR_INVALID_ARGUMENT (2): EmptyAudience", empty.message)
        val short = assertFailsWith<MrtrSealException> { MrtrSealer(listOf(ByteArray(31) { 1 }), "svc") }
        assertEquals("KeyTooShort", short.reason)
        val many = assertFailsWith<MrtrSealException> { MrtrSealer(List(9) { i -> ByteArray(32) { (it + i).toByte() } }, "svc") }
        assertEquals("TooManyKeys", many.reason)
    }
}
