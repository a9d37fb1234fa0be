import Foundation
import XCTest

@testable import Mrtr

// The Swift mirror of bindings/kotlin/src/test: same flows, same exact bytes.

func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }
func text(_ b: [UInt8]) -> String { String(decoding: b, as: UTF8.self) }

let clientInfo = "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"ExampleClient\",\"version\":\"1.0.0\"}"
func meta(_ caps: String) -> String {
    "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":\(caps),\(clientInfo)}"
}
func head(_ id: Int64, _ method: String = "tools/call") -> String {
    "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"\(method)\",\"params\":"
}
func exampleCall(_ params: String, _ caps: Set<Capability>, limits: CallLimits? = nil) throws -> MrtrCall {
    try MrtrCall.create(method: .toolsCall, params: bytes(params), capabilities: caps,
                        clientName: "ExampleClient", clientVersion: "1.0.0", limits: limits)
}

func expectError<T>(_ code: MrtrError.Code, _ body: () throws -> T, file: StaticString = #filePath, line: UInt = #line) {
    do {
        _ = try body()
        XCTFail("expected \(code)", file: file, line: line)
    } catch let e as MrtrError {
        XCTAssertEqual(e.code, code, e.description, file: file, line: line)
    } catch {
        XCTFail("unexpected \(error)", file: file, line: line)
    }
}

let specInputRequired =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\","
    + "\"inputRequests\":{\"github_login\":{\"method\":\"elicitation/create\",\"params\":{"
    + "\"mode\":\"form\",\"message\":\"Please provide your GitHub username\","
    + "\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}},"
    + "\"required\":[\"name\"]}}},\"capital_of_france\":{\"method\":\"sampling/createMessage\","
    + "\"params\":{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\","
    + "\"text\":\"What is the capital of France?\"}}],\"modelPreferences\":{\"hints\":[{\"name\":"
    + "\"claude-3-sonnet\"}],\"intelligencePriority\":0.8,\"speedPriority\":0.5},"
    + "\"systemPrompt\":\"You are a helpful assistant.\",\"maxTokens\":100}}},"
    + "\"requestState\":\"AEAD-protected blob\"}}"
let samplingAnswer =
    "{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"The capital of France "
    + "is Paris.\"},\"model\":\"claude-3-sonnet-20240307\",\"stopReason\":\"endTurn\"}"

final class StatusTests: XCTestCase {
    func testEveryCodeNamesItselfAsTheLibraryDoes() {
        for c in MrtrError.Code.allCases {
            XCTAssertEqual(MrtrError(rawCode: c.rawValue, operation: "op").statusName, Mrtr.statusName(c.rawValue))
        }
        XCTAssertEqual(Mrtr.statusName(7777), "MRTR_UNKNOWN_STATUS")
        XCTAssertEqual(MrtrError(rawCode: 4242, operation: "op").group, .internal)
        XCTAssertEqual(MrtrError(rawCode: 20, operation: "op").group, .message)
        XCTAssertEqual(MrtrError(rawCode: 7, operation: "op").group, .invalidValue)
    }

    func testVersionsAndJson() throws {
        XCTAssertEqual(Mrtr.protocolVersion, "2026-07-28")
        XCTAssertEqual(try Mrtr.jsonErrorOffset(bytes("{\"a\":1,}")), 7)
        XCTAssertNil(try Mrtr.jsonErrorOffset(bytes("{\"dup\":1,\"dup\":2}")))
        XCTAssertEqual(try Mrtr.jsonErrorOffset(bytes(String(repeating: "[", count: 33) + String(repeating: "]", count: 33))), 32)
        XCTAssertEqual(text(try Mrtr.jsonString("a\"b\\c\u{1}")), "\"a\\\"b\\\\c\\u0001\"")
    }

    func testToolHeadersAndVersionRetry() throws {
        let valid = "{\"type\":\"object\",\"properties\":{\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"}," +
            "\"n\":{\"type\":\"integer\",\"x-mcp-header\":\"N\"},\"q\":{\"type\":\"string\"}}}"
        XCTAssertEqual(try Mrtr.toolHeaderCount(bytes(valid)), 2)
        XCTAssertEqual(try Mrtr.toolHeaderCount(bytes("{\"type\":\"object\"}")), 0)
        expectError(.invalidSchema) {
            try Mrtr.toolHeaderCount(bytes("{\"properties\":{\"v\":{\"type\":\"number\",\"x-mcp-header\":\"Score\"}}}"))
        }
        func err(_ supported: String) -> [UInt8] {
            bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32022,\"message\":\"x\",\"data\":{\"supported\":[\(supported)]}}}")
        }
        XCTAssertTrue(try Mrtr.versionRetry(err("\"2026-07-28\"")))
        expectError(.unsupportedVersion) { try Mrtr.versionRetry(err("\"2025-11-25\"")) }
        XCTAssertFalse(try Mrtr.versionRetry(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}")))
    }

    func test_a_version_already_refused_is_final_not_sent_again() throws {
        func err(_ data: String) -> [UInt8] {
            bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32022,\"message\":\"x\",\"data\":\(data)}}")
        }
        let ours = err("{\"requested\":\"2026-07-28\",\"supported\":[\"2026-07-28\"]}")
        expectError(.unsupportedVersion) { try Mrtr.versionRetry(ours) }
        let other = err("{\"requested\":\"2025-11-25\",\"supported\":[\"2026-07-28\"]}")
        XCTAssertEqual(Mrtr.maxVersionRetries, 1)
        XCTAssertTrue(try Mrtr.versionRetry(other, retries: 0))
        expectError(.unsupportedVersion) { try Mrtr.versionRetry(other, retries: 1) }
        expectError(.json) { try Mrtr.versionRetry(err("{\"supported\":[\"2025-11-25\"],\"supported\":[\"2026-07-28\"]}")) }
    }

    func testToolCallHeaders() throws {
        let schema = bytes("{\"type\":\"object\",\"properties\":{\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"}," +
            "\"n\":{\"type\":\"integer\",\"x-mcp-header\":\"N\"}}}")
        let body = bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"get_weather\"," +
            "\"arguments\":{\"region\":\"\\u00e9t\\u00e9\",\"n\":3}}}")
        XCTAssertEqual(try Mrtr.httpHeadersForToolCall(body, inputSchema: schema), [
            HttpHeader(name: "MCP-Protocol-Version", value: "2026-07-28"),
            HttpHeader(name: "Mcp-Method", value: "tools/call"),
            HttpHeader(name: "Mcp-Name", value: "get_weather"),
            HttpHeader(name: "Accept", value: "application/json, text/event-stream"),
            HttpHeader(name: "Content-Type", value: "application/json"),
            HttpHeader(name: "Mcp-Param-Region", value: "=?base64?w6l0w6k=?="),
            HttpHeader(name: "Mcp-Param-N", value: "3"),
        ])
        expectError(.invalidSchema) {
            try Mrtr.httpHeadersForToolCall(body, inputSchema: bytes("{\"properties\":{\"v\":{\"type\":\"number\",\"x-mcp-header\":\"V\"}}}"))
        }
    }

    func testToolListPage() throws {
        let page = bytes(
            "{\"tools\":[" +
                "{\"name\":\"get_weather\",\"inputSchema\":{\"type\":\"object\",\"properties\":" +
                "{\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"}}}}," +
                "{\"name\":\"bad_space\",\"inputSchema\":{\"properties\":{\"a\":{\"type\":\"string\",\"x-mcp-header\":\"My Header\"}}}}," +
                "{\"inputSchema\":{}}," +
                "{\"name\":\"caf\\u00e9\",\"inputSchema\":{\"type\":\"object\"}}" +
                "],\"nextCursor\":\"page-2\"}")
        let p = try Mrtr.toolList(page)
        XCTAssertEqual(p.tools.map { $0.name }, ["get_weather", "bad_space", "caf\u{e9}"])
        XCTAssertEqual(p.tools.map { $0.usable }, [true, false, true])
        XCTAssertEqual(p.tools.map { $0.designationCount }, [1, 0, 0])
        XCTAssertEqual(p.tools[2].nameJson, bytes("\"caf\\u00e9\""))
        XCTAssertEqual(p.malformed, 1)
        XCTAssertEqual(p.nextCursor, bytes("\"page-2\""))
        XCTAssertNil(try Mrtr.toolList(bytes("{\"tools\":[]}")).nextCursor)
        expectError(.protocolViolation) { try Mrtr.toolList(bytes("{}")) }
    }
}

final class CallTests: XCTestCase {
    func testFormFieldsBoundsOptionsAndDefault() throws {
        let schema = "{\"type\":\"object\",\"properties\":{"
            + "\"email\":{\"type\":\"string\",\"format\":\"email\",\"title\":\"E-mail\",\"description\":\"Work address\",\"maxLength\":64},"
            + "\"age\":{\"type\":\"integer\",\"minimum\":18,\"maximum\":9007199254740993},"
            + "\"tier\":{\"type\":\"string\",\"oneOf\":[{\"const\":\"s\",\"title\":\"Small\"},{\"const\":\"l\",\"title\":\"Large\"}],\"default\":\"s\"},"
            + "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\",\"enum\":[\"a\",\"b\"]},\"minItems\":1},"
            + "\"ok\":{\"type\":\"boolean\"}},\"required\":[\"email\"]}"
        let fields = try Form.fields(bytes(schema))
        XCTAssertEqual(fields.map { $0.name }, ["email", "age", "tier", "tags", "ok"])
        XCTAssertEqual(fields.map { $0.kind }, [.text, .integer, .singleSelect, .multiSelect, .boolean])
        XCTAssertEqual(fields[0].format, .email)
        XCTAssertEqual(fields[0].maxLength, 64)
        XCTAssertEqual(fields.map { $0.required }, [true, false, false, false, false])
        XCTAssertEqual(fields[1].minimum, 18.0)
        XCTAssertEqual(fields[1].maximum, 9007199254740992.0)
        XCTAssertEqual(fields[1].minimumText, "18")
        XCTAssertEqual(fields[1].maximumText, "9007199254740993")
        XCTAssertNil(fields[0].minimumText)
        XCTAssertEqual(fields[2].options, [FormOption(value: "s", title: "Small"), FormOption(value: "l", title: "Large")])
        XCTAssertEqual(fields[2].defaultJson, bytes("\"s\""))
        XCTAssertEqual(fields[3].minItems, 1)
    }

    func testGitHubLoginAndCapitalOfFranceInOneRound() throws {
        let call = try exampleCall("{\"name\":\"get_weather\",\"arguments\":{\"location\":\"New York\"}}", [.elicitationForm, .sampling])
        defer { call.close() }
        let p = "{" + meta("{\"elicitation\":{\"form\":{}},\"sampling\":{}}") + ",\"name\":\"get_weather\",\"arguments\":{\"location\":\"New York\"}"
        XCTAssertEqual(text(try call.writeRequest()), head(1) + p + "}}")
        guard case .inputRequired(let inputs) = try call.feed(bytes(specInputRequired)) else { return XCTFail("not input_required") }
        guard case .elicitForm(let form) = inputs[0], case .sampling(let sampling) = inputs[1] else { return XCTFail("kinds") }
        XCTAssertEqual(try call.requestState, "AEAD-protected blob")
        XCTAssertEqual(form.key, "github_login")
        XCTAssertEqual(form.message, "Please provide your GitHub username")
        XCTAssertEqual(form.fields?.map(\.name), ["name"])
        XCTAssertEqual(form.fields?.first?.kind, .text)
        XCTAssertEqual(sampling.maxTokens, 100)
        XCTAssertEqual(sampling.systemPrompt, "You are a helpful assistant.")
        do {
            try call.answerElicit(0, action: .accept, content: bytes("{}"))
            XCTFail("missing field accepted")
        } catch let e as MrtrError {
            XCTAssertEqual(e.code, .invalidValue)
            XCTAssertEqual(e.formError?.field, "name")
            XCTAssertEqual(e.formError?.error, .missing)
        }
        expectError(.unansweredInput) { try call.writeRequest() }
        try call.answer(0, .accept(content: bytes("{\"name\":\"octocat\"}")))
        try call.answer(1, .json(json: bytes(samplingAnswer)))
        XCTAssertEqual(
            text(try call.writeRequest()),
            head(2) + p + ",\"inputResponses\":{\"github_login\":{\"action\":\"accept\",\"content\":{\"name\":\"octocat\"}},"
                + "\"capital_of_france\":\(samplingAnswer)},\"requestState\":\"AEAD-protected blob\"}}")
        let done = bytes("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"complete\",\"content\":[]}}")
        XCTAssertEqual(try call.feed(done), .complete(result: bytes("{\"resultType\":\"complete\",\"content\":[]}")))
        XCTAssertEqual(try call.result(done), bytes("{\"resultType\":\"complete\",\"content\":[]}"))
        XCTAssertEqual(try call.phase, .done)
    }

    func testLoadSheddingWaits50_100_200ThenTheCap() throws {
        let call = try exampleCall("{\"name\":\"crunch\"}", [])
        let p = "{" + meta("{}") + ",\"name\":\"crunch\""
        XCTAssertEqual(text(try call.writeRequest()), head(1) + p + "}}")
        for (i, wait) in [UInt64(50), 100, 200].enumerated() {
            let id = Int64(i + 1)
            XCTAssertEqual(
                try call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"result\":{\"resultType\":\"input_required\",\"requestState\":\"s\(id)\"}}")),
                .retryAfter(waitMs: wait))
            XCTAssertEqual(text(try call.writeRequest()), head(id + 1) + p + ",\"requestState\":\"s\(id)\"}}")
        }
        expectError(.roundCap) {
            try call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"resultType\":\"input_required\",\"requestState\":\"s4\"}}"))
        }
        let f = try call.failure()
        XCTAssertEqual(f?.kind, .tooManyStateOnlyRounds)
        XCTAssertEqual(f?.reason, "TooManyStateOnlyRounds")
    }

    func testSaveAndRestore() throws {
        let saved: [UInt8] = try {
            let call = try exampleCall("{\"name\":\"deploy\"}", [.elicitationForm])
            _ = try call.writeRequest(id: 1)
            _ = try call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\",\"inputRequests\":{\"ok\":{\"method\":\"elicitation/create\",\"params\":{\"message\":\"Deploy?\",\"requestedSchema\":{\"type\":\"object\",\"properties\":{}}}}},\"requestState\":\"st\"}}"))
            return try call.save()
        }()
        let call = try MrtrCall.restore(saved)
        XCTAssertEqual(try call.phase, .answering)
        try call.answer(0, .accept(content: bytes("{}")))
        XCTAssertEqual(
            text(try call.writeRequest()),
            head(2) + "{" + meta("{\"elicitation\":{\"form\":{}}}") + ",\"name\":\"deploy\",\"inputResponses\":{\"ok\":{\"action\":\"accept\",\"content\":{}}},\"requestState\":\"st\"}}")
        expectError(.invalidArgument) { try MrtrCall.restore(Array(saved.dropLast())) }
    }

    func testUrlConsentFactsAndRefusal() throws {
        let (consent, refusal) = try Form.urlConsent("https://user@xn--exmple-cua.com:8443/auth?x=1#f")
        XCTAssertNil(refusal)
        XCTAssertEqual(consent?.host, "xn--exmple-cua.com")
        XCTAssertEqual(consent?.port, 8443)
        XCTAssertEqual(consent?.warnings, [.punycode, .userinfo])
        let (none, why) = try Form.urlConsent("https://example.com\\@evil.test/")
        XCTAssertNil(none)
        XCTAssertEqual(why, UrlRefusal(reason: "Backslash", offset: 19))
    }
}

final class MisuseTests: XCTestCase {
    func testClosedCallThrowsMrtrCallClosed() throws {
        let call = try exampleCall("{\"name\":\"x\"}", [])
        call.close()
        call.close()
        XCTAssertThrowsError(try call.writeRequest()) { XCTAssertTrue($0 is MrtrCallClosed) }
        XCTAssertThrowsError(try call.feed(bytes("{}"))) { XCTAssertTrue($0 is MrtrCallClosed) }
        XCTAssertThrowsError(try call.phase) { XCTAssertTrue($0 is MrtrCallClosed) }
    }

    func testARefusedInitNamesItsCause() throws {
        XCTAssertThrowsError(try exampleCall("{\"arguments\":{}}", [])) {
            XCTAssertEqual(($0 as? MrtrError)?.description,
                           "mrtr_call_init: MRTR_ERR_INVALID_ARGUMENT (2): MissingTarget")
        }
    }

    func testIdsStayWithinTheSafeIntegers() throws {
        let max: Int64 = 9_007_199_254_740_991
        for bad in [max + 1, -max - 1, Int64.min] {
            expectError(.invalidArgument) {
                try MrtrCall.create(method: .toolsCall, params: bytes("{\"name\":\"x\"}"), capabilities: [], firstId: bad)
            }
        }
        let low = try MrtrCall.create(method: .toolsCall, params: bytes("{\"name\":\"x\"}"), capabilities: [], firstId: -max)
        XCTAssertEqual(try low.nextId, -max)
        low.close()
        let call = try MrtrCall.create(method: .toolsCall, params: bytes("{\"name\":\"x\"}"), capabilities: [], firstId: max)
        XCTAssertEqual(try call.nextId, max)
        _ = try call.writeRequest()
        expectError(.limitExceeded) { try call.nextId }
        call.close()
    }

    func testJsonRootUrisAreCheckedDecoded() throws {
        let call = try exampleCall("{\"name\":\"x\"}", [.roots])
        _ = try call.writeRequest(id: 1)
        _ = try call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\",\"inputRequests\":{\"r\":{\"method\":\"roots/list\"}}}}"))
        expectError(.invalidValue) { try call.answerJson(0, bytes("{\"roots\":[{\"uri\":\"file:///etc/\\u002e\\u002e/root\"}]}")) }
        expectError(.invalidValue) { try call.answerJson(0, bytes("{\"roots\":[{\"uri\":\"file:///etc/../root/.ssh\"}]}")) }
        try call.answerJson(0, bytes("{\"roots\":[{\"uri\":\"file:\\/\\/\\/home\\/u\"}]}"))
        XCTAssertEqual(try call.phase, .ready)
        call.close()
    }

    func testWrongStatesAndBadInputs() throws {
        expectError(.json) { try exampleCall("{\"name\":", []) }
        expectError(.invalidArgument) { try exampleCall("[1]", []) }
        var limits = CallLimits.default
        limits.maxInputRequests = 0
        expectError(.invalidArgument) { try exampleCall("{\"name\":\"x\"}", [], limits: limits) }
        let call = try exampleCall("{\"name\":\"x\"}", [])
        expectError(.wrongState) { try call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}")) }
        _ = try call.writeRequest(id: 1)
        expectError(.wrongState) { try call.writeRequest(id: 2) }
        expectError(.json) { try call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{,}}")) }
        XCTAssertEqual(try call.failure()?.offset, 34)
        XCTAssertEqual(try call.phase, .failed)
    }
}
