import Foundation
import XCTest

@testable import Mrtr

private let resolutionSchema =
    "{\"type\":\"object\",\"properties\":{\"resolution\":{\"type\":\"string\",\"enum\":[\"Fixed\",\"Won't Fix\",\"Duplicate\",\"By Design\"],\"description\":\"Resolution type for this bug\"}},\"required\":[\"resolution\"]}"
private let duplicateSchema =
    "{\"type\":\"object\",\"properties\":{\"duplicateOfId\":{\"type\":\"number\",\"description\":\"Work item ID of the original bug\"}},\"required\":[\"duplicateOfId\"]}"
private let workItemArgs = "\"name\":\"update_work_item\",\"arguments\":{\"workItemId\":4522,\"fields\":{\"System.State\":\"Resolved\"}}"
private let doneText = "Bug #4522 resolved as Duplicate of Bug #4510. State set to Resolved and duplicate link created."

/// Answers as the user of the SEP's Azure DevOps flow: Duplicate, then #4510.
private struct WorkItemUser: InputHandler {
    func answer(_ input: InputRequest) async throws -> InputAnswer {
        guard case .elicitForm(let form) = input, let field = form.fields?.first else { throw MrtrCallClosed() }
        switch field.name {
        case "resolution": return .accept(content: bytes("{\"resolution\":\"Duplicate\"}"))
        default: return .accept(content: bytes("{\"duplicateOfId\":4510}"))
        }
    }
}

private struct NoQuestions: InputHandler {
    func answer(_ input: InputRequest) async throws -> InputAnswer { .error(code: -1) }
}

/// A transport over recorded exchanges: each request must be exactly the recorded one
/// (nil: the runner asks for the next message with an empty request).
private final class Recorded: @unchecked Sendable {
    let legs: [(String?, String)]
    var i = 0
    init(_ legs: [(String?, String)]) { self.legs = legs }
    func send(_ req: Data) async throws -> Data {
        let (want, answer) = legs[i]
        i += 1
        if let want { XCTAssertEqual(String(decoding: req, as: UTF8.self), want) } else { XCTAssertEqual(req.count, 0) }
        return Data(answer.utf8)
    }
}

final class FlowTests: XCTestCase {
    func testWorkItemFlowOverRecordedServerMessages() async throws {
        let p = "{" + meta("{\"elicitation\":{\"form\":{}}}") + "," + workItemArgs
        let rec = Recorded([
            (head(1) + p + "}}",
             "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\",\"inputRequests\":{\"resolution\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\",\"message\":\"Resolving Bug #4522 requires a resolution. How was this bug resolved?\",\"requestedSchema\":\(resolutionSchema)}}}}}"),
            (head(2) + p + ",\"inputResponses\":{\"resolution\":{\"action\":\"accept\",\"content\":{\"resolution\":\"Duplicate\"}}}}}",
             "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":0.5}}"),
            (nil,
             "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"input_required\",\"inputRequests\":{\"duplicate_of\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\",\"message\":\"Since this is a duplicate, which work item is the original?\",\"requestedSchema\":\(duplicateSchema)}}},\"requestState\":\"m1.recorded.state-token_4522\"}}"),
            (head(3) + p + ",\"inputResponses\":{\"duplicate_of\":{\"action\":\"accept\",\"content\":{\"duplicateOfId\":4510}}},\"requestState\":\"m1.recorded.state-token_4522\"}}",
             "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":\"\(doneText)\"}]}}"),
        ])
        let call = try exampleCall("{\(workItemArgs)}", [.elicitationForm])
        let result = try await call.run(transport: rec.send, handler: WorkItemUser())
        XCTAssertEqual(rec.i, 4)
        XCTAssertEqual(String(decoding: result, as: UTF8.self),
                       "{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":\"\(doneText)\"}]}")
        XCTAssertEqual(try call.round, 2)
    }

    func testRunThrowsRpcErrorWithItsFields() async throws {
        let rec = Recorded([(head(1) + "{" + meta("{}") + ",\"name\":\"x\"}}",
                             "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32021,\"message\":\"Missing capability\",\"data\":{\"requiredCapabilities\":{\"roots\":{}}}}}")])
        let call = try exampleCall("{\"name\":\"x\"}", [])
        do {
            _ = try await call.run(transport: rec.send, handler: NoQuestions())
            XCTFail("no error")
        } catch let e as MrtrError {
            XCTAssertEqual(e.code, .rpcError)
            XCTAssertEqual(e.rpcCode, -32021)
            XCTAssertEqual(e.rpcMessage, "Missing capability")
            XCTAssertEqual(e.rpcData.map(text), "{\"requiredCapabilities\":{\"roots\":{}}}")
        }
    }

    func testRunWaitsOutStateOnlyRounds() async throws {
        let p = "{" + meta("{}") + ",\"name\":\"crunch\""
        let rec = Recorded([
            (head(1) + p + "}}", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\",\"requestState\":\"a\"}}"),
            (head(2) + p + ",\"requestState\":\"a\"}}", "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"complete\"}}"),
        ])
        let start = Date()
        let r = try await exampleCall("{\"name\":\"crunch\"}", []).run(transport: rec.send, handler: NoQuestions())
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.05)
        XCTAssertEqual(String(decoding: r, as: UTF8.self), "{\"resultType\":\"complete\"}")
    }
}
