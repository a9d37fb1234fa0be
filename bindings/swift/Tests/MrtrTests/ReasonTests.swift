import XCTest

@testable import Mrtr

// The Swift mirror of bindings/kotlin/src/test/kotlin/dev/mrtr/ReasonTests.kt (issue 28
// item 3): every error names the cause C names beside its status.

private let envAsk =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\",\"inputRequests\":{\"env\":"
    + "{\"method\":\"elicitation/create\",\"params\":{\"message\":\"Which environment?\",\"requestedSchema\":"
    + "{\"type\":\"object\",\"properties\":{\"env\":{\"type\":\"string\",\"enum\":[\"dev\",\"prod\"]}},"
    + "\"required\":[\"env\"]}}}},\"requestState\":\"s1\"}}"

/// The error `body` throws (failing the test when it throws none, or another kind).
private func refusal<T>(_ body: () throws -> T, file: StaticString = #filePath, line: UInt = #line) -> MrtrError? {
    do {
        _ = try body()
        XCTFail("no error", file: file, line: line)
    } catch let e as MrtrError {
        return e
    } catch {
        XCTFail("unexpected \(error)", file: file, line: line)
    }
    return nil
}

private struct Staging: InputHandler {
    func answer(_ input: InputRequest) async throws -> InputAnswer { .accept(content: bytes("{\"env\":\"staging\"}")) }
}

final class ReasonTests: XCTestCase {
    func testAFormValueNoneOfItsOptionsIsNotAnOption() throws {
        let call = try exampleCall("{\"name\":\"deploy\"}", [.elicitationForm])
        defer { call.close() }
        _ = try call.writeRequest(id: 1)
        _ = try call.feed(bytes(envAsk))
        let e = refusal { try call.answerElicit(0, action: .accept, content: bytes("{\"env\":\"staging\"}")) }
        XCTAssertEqual(e?.code, .invalidValue)
        XCTAssertEqual(e?.reason, "NotAnOption")
        XCTAssertEqual(e?.description, "mrtr_call_answer_elicit: MRTR_ERR_INVALID_VALUE (7): NotAnOption")
        // The details of the same check: which field.
        XCTAssertEqual(e?.formError?.field, "env")
        // Refused, not taken: the input is still open.
        guard case .elicitForm(let form) = try call.input(0) else { return XCTFail("not a form") }
        XCTAssertFalse(form.answered)
        try call.answerElicit(0, action: .accept, content: bytes("{\"env\":\"prod\"}"))
        // Every input answered: the call is ready, no longer taking answers.
        let again = refusal { try call.answerElicit(0, action: .decline) }
        XCTAssertEqual(again?.reason, "WrongState")
        XCTAssertEqual(again?.description, "mrtr_call_answer_elicit: MRTR_ERR_WRONG_STATE (5): WrongState")
        let reused = refusal { try call.writeRequest(id: 1) }
        XCTAssertEqual(reused?.reason, "IdNotFresh")
        XCTAssertEqual(reused?.description, "mrtr_call_write_request: MRTR_ERR_INVALID_ARGUMENT (2): IdNotFresh")
        // A status with one cause names itself; the description does not repeat it.
        let missing = refusal { try call.input(5) }
        XCTAssertEqual(missing?.reason, "MRTR_ERR_NOT_FOUND")
        XCTAssertEqual(missing?.description, "mrtr_call_input_at: MRTR_ERR_NOT_FOUND (6)")
    }

    func testRunCarriesTheReasonOfARefusedAnswer() async throws {
        let call = try exampleCall("{\"name\":\"deploy\"}", [.elicitationForm])
        defer { call.close() }
        do {
            _ = try await call.run(transport: { _ in Data(bytes(envAsk)) }, handler: Staging())
            XCTFail("a value none of the options must throw")
        } catch let e as MrtrError {
            XCTAssertEqual(e.reason, "NotAnOption")
        }
        XCTAssertEqual(try call.phase, .answering)
    }

    func testATerminalFeedNamesItsCause() throws {
        let call = try exampleCall("{\"name\":\"deploy\"}", [])
        defer { call.close() }
        _ = try call.writeRequest(id: 1)
        let e = refusal { try call.feed(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\"}}")) }
        XCTAssertEqual(e?.code, .protocolViolation)
        XCTAssertEqual(e?.reason, "InputRequiredWithoutFields")
        XCTAssertEqual(e?.description, "mrtr_call_feed: MRTR_ERR_PROTOCOL_VIOLATION (22): InputRequiredWithoutFields")
        XCTAssertEqual(try call.failure()?.reason, "InputRequiredWithoutFields")
    }

    func testRestoreOfADamagedSaveIsDecode() throws {
        let call = try exampleCall("{\"name\":\"deploy\"}", [])
        let saved = try call.save()
        call.close()
        let e = refusal { try MrtrCall.restore(Array(saved.dropLast())) }
        XCTAssertEqual(e?.code, .invalidArgument)
        XCTAssertEqual(e?.reason, "Decode")
        XCTAssertEqual(e?.description, "mrtr_call_restore: MRTR_ERR_INVALID_ARGUMENT (2): Decode")
    }

    func testARefusedSealerNamesTheCause() {
        let key: [UInt8] = (0..<32).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }
        let empty = refusal { try MrtrSealer(keys: [key], audience: "") }
        XCTAssertEqual(empty?.code, .invalidArgument)
        XCTAssertEqual(empty?.reason, "EmptyAudience")
        XCTAssertEqual(empty?.description, "mrtr_sealer_init: MRTR_ERR_INVALID_ARGUMENT (2): EmptyAudience")
        XCTAssertEqual(refusal { try MrtrSealer(keys: [[UInt8](repeating: 1, count: 31)], audience: "svc") }?.reason, "KeyTooShort")
        let nine = (0..<9).map { i in (0..<32).map { UInt8(truncatingIfNeeded: $0 + i) } }
        XCTAssertEqual(refusal { try MrtrSealer(keys: nine, audience: "svc") }?.reason, "TooManyKeys")
    }
}
