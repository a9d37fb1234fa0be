package dev.mrtr

import kotlin.test.assertContentEquals
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertIs
import kotlin.test.assertNull
import kotlin.test.assertTrue

internal const val CLIENT_INFO = "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"ExampleClient\",\"version\":\"1.0.0\"}"
internal fun meta(caps: String) =
    "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":$caps,$CLIENT_INFO}"
internal fun head(id: Long, method: String = "tools/call") = "{\"jsonrpc\":\"2.0\",\"id\":$id,\"method\":\"$method\",\"params\":"

/** Asserts the exact bytes of a written message, showing both as text on failure. */
internal fun assertBytes(want: String, got: ByteArray) = assertEquals(want, String(got, Charsets.UTF_8))

internal fun exampleCall(params: String, caps: Set<Capability>, method: CallMethod = CallMethod.TOOLS_CALL, limits: CallLimits? = null) =
    MrtrCall.create(method, bytes(params), caps, clientName = "ExampleClient", clientVersion = "1.0.0", limits = limits)

private const val SPEC_INPUT_REQUIRED =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\"," +
        "\"inputRequests\":{\"github_login\":{\"method\":\"elicitation/create\",\"params\":{" +
        "\"mode\":\"form\",\"message\":\"Please provide your GitHub username\"," +
        "\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}}," +
        "\"required\":[\"name\"]}}},\"capital_of_france\":{\"method\":\"sampling/createMessage\"," +
        "\"params\":{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\"," +
        "\"text\":\"What is the capital of France?\"}}],\"modelPreferences\":{\"hints\":[{\"name\":" +
        "\"claude-3-sonnet\"}],\"intelligencePriority\":0.8,\"speedPriority\":0.5}," +
        "\"systemPrompt\":\"You are a helpful assistant.\",\"maxTokens\":100}}}," +
        "\"requestState\":\"AEAD-protected blob\"}}"

internal const val SAMPLING_ANSWER =
    "{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"The capital of France " +
        "is Paris.\"},\"model\":\"claude-3-sonnet-20240307\",\"stopReason\":\"endTurn\"}"

private val GH_P = "{" + meta("{\"elicitation\":{\"form\":{}},\"sampling\":{}}") +
    ",\"name\":\"get_weather\",\"arguments\":{\"location\":\"New York\"}"

private const val WEATHER_DONE =
    "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"complete\",\"content\":" +
        "[{\"type\":\"text\",\"text\":\"Current weather in New York:\\nTemperature: 72\u00b0F\"}],\"isError\":false}}"

fun registerCallTests(t: Tests) {
    t.test("call: GitHub login + capital of France, one round of two kinds, exact bytes every leg") {
        exampleCall("{\"name\":\"get_weather\",\"arguments\":{\"location\":\"New York\"}}", setOf(Capability.ELICITATION_FORM, Capability.SAMPLING)).use { call ->
            assertEquals(Phase.READY, call.phase)
            assertNull(call.lastId)
            assertEquals(1L, call.nextId)
            assertNull(call.requestState)
            assertBytes(head(1) + GH_P + "}}", call.writeRequest())
            assertEquals(Phase.SENT, call.phase)
            assertEquals(1L, call.lastId)

            val ev = assertIs<CallEvent.InputRequired>(call.feed(bytes(SPEC_INPUT_REQUIRED)))
            assertEquals(Phase.ANSWERING, call.phase)
            assertEquals(1L, call.round)
            assertEquals("AEAD-protected blob", call.requestState)
            assertEquals(2, ev.inputs.size)
            val form = assertIs<InputRequest.ElicitForm>(ev.inputs[0])
            assertEquals(0, form.index)
            assertEquals("github_login", form.key)
            assertEquals("Please provide your GitHub username", form.message)
            assertBytes("{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}},\"required\":[\"name\"]}", form.requestedSchema)
            assertNull(form.schemaError)
            val field = form.fields!!.single()
            assertEquals("name", field.name)
            assertEquals(FieldKind.TEXT, field.kind)
            assertEquals(StringFormat.NONE, field.format)
            assertTrue(field.required)
            assertNull(field.title)
            assertNull(field.minLength)
            assertEquals(emptyList(), field.options)
            val sampling = assertIs<InputRequest.Sampling>(ev.inputs[1])
            assertEquals("capital_of_france", sampling.key)
            assertEquals(100L, sampling.maxTokens)
            assertEquals("You are a helpful assistant.", sampling.systemPrompt)
            assertEquals(false, sampling.hasTools)
            assertEquals(false, sampling.wantsContext)
            assertEquals('{'.code.toByte(), sampling.params.first())
            assertEquals(1, call.indexOf("capital_of_france"))
            assertFailsWith<MrtrNotFoundException> { call.indexOf("nope") }

            // The form check runs before the answer is taken: a missing required field is refused.
            val bad = assertFailsWith<MrtrInvalidValueException> { call.answerElicit(0, ElicitAction.ACCEPT, bytes("{}")) }
            assertEquals(FormError("name", 0, FieldError.MISSING, 0, bad.formError!!.reason), bad.formError)
            // Kinds must match: a sampling answer for the form is refused by the library.
            assertFailsWith<MrtrInvalidValueException> { call.answerJson(0, bytes(SAMPLING_ANSWER)) }
            // Every input must be answered before the retry.
            assertEquals(Status.ERR_UNANSWERED_INPUT, assertFailsWith<MrtrFlowException> { call.writeRequest() }.status)
            call.answer(0, InputAnswer.Accept(bytes("{\"name\":\"octocat\"}")))
            assertFailsWith<MrtrWrongStateException> { call.answer(0, InputAnswer.Decline) }
            assertEquals(true, call.input(0).answered)
            call.answer(1, InputAnswer.Json(bytes(SAMPLING_ANSWER)))
            assertEquals(Phase.READY, call.phase)
            assertBytes(
                head(2) + GH_P + ",\"inputResponses\":{\"github_login\":{\"action\":\"accept\",\"content\":{\"name\":\"octocat\"}}," +
                    "\"capital_of_france\":$SAMPLING_ANSWER},\"requestState\":\"AEAD-protected blob\"}}",
                call.writeRequest(),
            )
            val done = bytes(WEATHER_DONE)
            val complete = assertIs<CallEvent.Complete>(call.feed(done))
            val want = "{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":\"Current weather in New York:\\nTemperature: 72\u00b0F\"}],\"isError\":false}"
            assertBytes(want, complete.result)
            assertBytes(want, call.result(done))
            assertEquals(Phase.DONE, call.phase)
            assertNull(call.failure())
        }
    }

    t.test("call: load shedding, state-only rounds wait 50, 100, 200 ms, the fourth hits the cap") {
        val p = "{" + meta("{}") + ",\"name\":\"crunch\""
        exampleCall("{\"name\":\"crunch\"}", emptySet()).use { call ->
            assertBytes(head(1) + p + "}}", call.writeRequest())
            for ((i, wait) in listOf(50L, 100L, 200L).withIndex()) {
                val id = i + 1L
                val ev = call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"resultType\":\"input_required\",\"requestState\":\"s$id\"}}"))
                assertEquals(CallEvent.RetryAfter(wait), ev)
                assertEquals(0, call.inputCount)
                assertBytes(head(id + 1) + p + ",\"requestState\":\"s$id\"}}", call.writeRequest())
            }
            val e = assertFailsWith<MrtrFlowException> {
                call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"resultType\":\"input_required\",\"requestState\":\"s4\"}}"))
            }
            assertEquals(Status.ERR_ROUND_CAP, e.status)
            assertEquals(Phase.FAILED, call.phase)
            val f = call.failure()!!
            assertEquals(Status.ERR_ROUND_CAP, f.status)
            assertEquals(FailureKind.TOO_MANY_STATE_ONLY_ROUNDS, f.kind)
            assertEquals("TooManyStateOnlyRounds", f.reason)
            assertEquals(3L, f.limit)
            assertEquals(4L, call.round)
        }
    }

    t.test("call: a JSON-RPC error ends the call with code, decoded message and raw data") {
        exampleCall("{\"name\":\"x\"}", emptySet()).use { call ->
            call.writeRequest(7)
            val ev = assertIs<CallEvent.RpcError>(
                call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32602,\"message\":\"Invalid or expired requestState\\u0021\",\"data\":{\"k\":[1]}}}")),
            )
            assertEquals(-32602L, ev.code)
            assertEquals("Invalid or expired requestState!", ev.message)
            assertBytes("{\"k\":[1]}", ev.data!!)
            assertEquals(Phase.DONE, call.phase)
            assertFailsWith<MrtrWrongStateException> { call.writeRequest() }
        }
    }

    t.test("call: notifications and other ids are Unrelated and change nothing; a late answer to a resent id too") {
        exampleCall("{\"name\":\"x\"}", emptySet()).use { call ->
            call.writeRequest(3)
            assertEquals(CallEvent.Unrelated, call.feed(bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}")))
            assertEquals(CallEvent.Unrelated, call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}")))
            assertEquals(CallEvent.Unrelated, call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":\"3\",\"result\":{}}")))
            assertEquals(Phase.SENT, call.phase)
            assertBytes(head(4) + "{" + meta("{}") + ",\"name\":\"x\"}}", call.resend())
            assertEquals(CallEvent.Unrelated, call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}")))
            assertIs<CallEvent.Complete>(call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"resultType\":\"complete\"}}")))
        }
    }

    t.test("call: save mid-call, restore in a new workspace, finish with the same bytes") {
        val p = "{" + meta("{\"elicitation\":{\"form\":{}}}") + ",\"name\":\"deploy\""
        val saved = exampleCall("{\"name\":\"deploy\"}", setOf(Capability.ELICITATION_FORM)).use { call ->
            call.writeRequest(1)
            call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\",\"inputRequests\":{\"ok\":{\"method\":\"elicitation/create\",\"params\":{\"message\":\"Deploy?\",\"requestedSchema\":{\"type\":\"object\",\"properties\":{}}}}},\"requestState\":\"st\"}}"))
            call.save()
        }
        MrtrCall.restore(saved).use { call ->
            assertEquals(Phase.ANSWERING, call.phase)
            assertEquals(1L, call.lastId)
            val form = assertIs<InputRequest.ElicitForm>(call.input(0))
            assertEquals("Deploy?", form.message)
            assertEquals(emptyList(), form.fields)
            call.answer(0, InputAnswer.Accept(bytes("{}")))
            assertBytes(head(2) + p + ",\"inputResponses\":{\"ok\":{\"action\":\"accept\",\"content\":{}}},\"requestState\":\"st\"}}", call.writeRequest())
        }
        val e = assertFailsWith<MrtrArgumentException> { MrtrCall.restore(saved.copyOf(saved.size - 1)) }
        assertEquals(Status.ERR_INVALID_ARGUMENT, e.status)
    }

    t.test("call: URL elicitation carries the consent facts; a deceptive URL is refused, roots answered") {
        val msg = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\",\"inputRequests\":{" +
            "\"login\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"url\",\"message\":\"Sign in\",\"url\":\"https://user@xn--exmple-cua.com:8443/auth?x=1#f\"}}," +
            "\"bad\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"url\",\"message\":\"Open\",\"url\":\"https://example.com\\\\@evil.test/\"}}," +
            "\"where\":{\"method\":\"roots/list\"}},\"requestState\":\"r\"}}"
        exampleCall("{\"name\":\"x\"}", setOf(Capability.ELICITATION_URL, Capability.ROOTS)).use { call ->
            call.writeRequest(1)
            val ev = assertIs<CallEvent.InputRequired>(call.feed(bytes(msg)))
            val url = assertIs<InputRequest.ElicitUrl>(ev.inputs[0])
            assertEquals("https://user@xn--exmple-cua.com:8443/auth?x=1#f", url.url)
            assertNull(url.refusal)
            val c = url.consent!!
            assertEquals("https", c.scheme)
            assertEquals("user", c.userinfo)
            assertEquals("xn--exmple-cua.com", c.host)
            assertEquals(8443, c.port)
            assertEquals("/auth", c.path)
            assertEquals("x=1", c.query)
            assertEquals("f", c.fragment)
            assertEquals(setOf(UrlWarning.PUNYCODE, UrlWarning.USERINFO), c.warnings)
            val bad = assertIs<InputRequest.ElicitUrl>(ev.inputs[1])
            assertEquals("https://example.com\\@evil.test/", bad.url)
            assertNull(bad.consent)
            assertEquals("Backslash", bad.refusal!!.reason)
            assertEquals(19L, bad.refusal!!.offset)
            assertIs<InputRequest.Roots>(ev.inputs[2])
            // URL mode takes no content; a root must be a plain file:// URI.
            assertFailsWith<MrtrInvalidValueException> { call.answer(0, InputAnswer.Accept(bytes("{}"))) }
            assertFailsWith<MrtrInvalidValueException> { call.answerRoots(2, listOf(Root("http://x/"))) }
            call.answer(0, InputAnswer.Accept())
            call.answer(1, InputAnswer.Decline)
            call.answer(2, InputAnswer.Roots(listOf(Root("file:///home/u/proj", "proj"), Root("file:///tmp"))))
            assertBytes(
                head(2) + "{" + meta("{\"elicitation\":{\"url\":{}},\"roots\":{}}") + ",\"name\":\"x\",\"inputResponses\":{" +
                    "\"login\":{\"action\":\"accept\"},\"bad\":{\"action\":\"decline\"},\"where\":{\"roots\":[{\"uri\":\"file:///home/u/proj\",\"name\":\"proj\"},{\"uri\":\"file:///tmp\"}]}}," +
                    "\"requestState\":\"r\"}}",
                call.writeRequest(),
            )
        }
    }

    t.test("call: a form's typed fields, bounds, options and default; content checked against it") {
        val schema = "{\"type\":\"object\",\"properties\":{" +
            "\"email\":{\"type\":\"string\",\"format\":\"email\",\"title\":\"E-mail\",\"description\":\"Work address\",\"maxLength\":64}," +
            "\"age\":{\"type\":\"integer\",\"minimum\":18,\"maximum\":9007199254740993}," +
            "\"tier\":{\"type\":\"string\",\"oneOf\":[{\"const\":\"s\",\"title\":\"Small\"},{\"const\":\"l\",\"title\":\"Large\"}],\"default\":\"s\"}," +
            "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\",\"enum\":[\"a\",\"b\"]},\"minItems\":1}," +
            "\"ok\":{\"type\":\"boolean\"}},\"required\":[\"email\"]}"
        val fields = Form.fields(bytes(schema))
        assertEquals(listOf("email", "age", "tier", "tags", "ok"), fields.map { it.name })
        assertEquals(listOf(FieldKind.TEXT, FieldKind.INTEGER, FieldKind.SINGLE_SELECT, FieldKind.MULTI_SELECT, FieldKind.BOOLEAN), fields.map { it.kind })
        assertEquals(StringFormat.EMAIL, fields[0].format)
        assertEquals("E-mail", fields[0].title)
        assertEquals("Work address", fields[0].description)
        assertEquals(64L, fields[0].maxLength)
        assertEquals(listOf(true, false, false, false, false), fields.map { it.required })
        assertEquals(18.0, fields[1].minimum)
        assertEquals(9007199254740992.0, fields[1].maximum)
        assertEquals("18", fields[1].minimumText)
        assertEquals("9007199254740993", fields[1].maximumText)
        assertNull(fields[0].minimumText)
        assertEquals(listOf(FormOption("s", "Small"), FormOption("l", "Large")), fields[2].options)
        assertBytes("\"s\"", fields[2].defaultJson!!)
        assertEquals(listOf(FormOption("a", null), FormOption("b", null)), fields[3].options)
        assertEquals(1L, fields[3].minItems)
        assertNull(Form.validate(bytes(schema), bytes("{\"email\":\"a@b.example\",\"age\":30,\"tags\":[\"a\"]}")))
        assertEquals(FieldError.BELOW_MINIMUM, Form.validate(bytes(schema), bytes("{\"email\":\"a@b.example\",\"age\":3}"))!!.error)
        assertEquals(FieldError.BAD_EMAIL, Form.validate(bytes(schema), bytes("{\"email\":\"nope\"}"))!!.error)
        val unknown = Form.validate(bytes(schema), bytes("{\"email\":\"a@b.example\",\"x\\u0079\":1}"))!!
        assertEquals(FormError("xy", null, FieldError.UNKNOWN_FIELD, 0, unknown.reason), unknown)
        val nested = Form.schemaError(bytes("{\"type\":\"object\",\"properties\":{\"o\":{\"type\":\"object\"}}}"))!!
        assertEquals("o", nested.property)
        assertFailsWith<MrtrMessageException> { Form.fields(bytes("{\"type\":\"object\",\"properties\":{\"o\":{\"type\":\"object\"}}}")) }
    }
}

fun registerPerfTests(t: Tests) {
    t.test("perf: the GitHub + capital flow end to end on the JVM (prints microseconds per call)") {
        val params = bytes("{\"name\":\"get_weather\",\"arguments\":{\"location\":\"New York\"}}")
        val caps = setOf(Capability.ELICITATION_FORM, Capability.SAMPLING)
        val ask = bytes(SPEC_INPUT_REQUIRED)
        val done = bytes(WEATHER_DONE)
        val content = bytes("{\"name\":\"octocat\"}")
        val answer = bytes(SAMPLING_ANSWER)
        fun once(): Int = MrtrCall.create(CallMethod.TOOLS_CALL, params, caps).use { call ->
            var n = call.writeRequest().size
            val ev = call.feed(ask) as CallEvent.InputRequired
            call.answerElicit(ev.inputs[0].index, ElicitAction.ACCEPT, content)
            call.answerJson(ev.inputs[1].index, answer)
            n += call.writeRequest().size
            n + (call.feed(done) as CallEvent.Complete).result.size
        }
        val expected = once()
        repeat(2_000) { assertEquals(expected, once()) }
        val rounds = 5_000
        val start = System.nanoTime()
        repeat(rounds) { once() }
        val us = (System.nanoTime() - start) / 1_000.0 / rounds
        println("     perf: %.1f us per call (create, 2 legs, 2 answers with form check, result, close); workspace %d bytes".format(us, MrtrCall.workspaceSize()))
    }
}
