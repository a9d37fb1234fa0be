import Foundation
import XCTest

@testable import Mrtr

private let echoId = "echo_dc792e24-01b5-4c0a-abcb-0559848ca3c5"

private func status(_ id: Int, _ s: String) -> String {
    "{\"id\":\(id),\"jsonrpc\":\"2.0\",\"result\":{\"taskId\":\"\(echoId)\",\"status\":\"\(s)\",\"statusMessage\":\"...\",\"createdAt\":\"2026-01-27T03:38:07.7534643Z\",\"ttl\":60000,\"pollInterval\":100}}"
}

private struct EchoUser: InputHandler {
    func answer(_ input: InputRequest) async throws -> InputAnswer { .accept(content: bytes("{\"input\":\"Hello World!\"}")) }
}

/// Recorded exchanges: each request must be exactly the recorded one.
private final class Script: @unchecked Sendable {
    let legs: [(String, String)]
    var i = 0
    init(_ legs: [(String, String)]) { self.legs = legs }
    func send(_ req: Data) async throws -> Data {
        XCTAssertEqual(String(decoding: req, as: UTF8.self), legs[i].0)
        i += 1
        return Data(legs[i - 1].1.utf8)
    }
}

final class TaskTests: XCTestCase {
    /// The SEP's echo task (seed dialect) through MrtrCall.run, then MrtrTask.run, exact bytes.
    func testSepEchoTask() async throws {
        let m = meta("{\"elicitation\":{\"form\":{}}}")
        let created = "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"task\":{\"taskId\":\"\(echoId)\",\"status\":\"Working\",\"statusMessage\":\"created\",\"createdAt\":\"2026-01-27T03:32:48.3148180Z\",\"ttl\":60000,\"pollInterval\":100}}}"
        let call = try exampleCall("{\"name\":\"echo\",\"task\":{\"ttl\":60000}}", [.elicitationForm])
        let first = Script([(head(1) + "{" + m + ",\"name\":\"echo\",\"task\":{\"ttl\":60000}}}", created)])
        var handoff: CallEvent?
        do {
            _ = try await call.run(transport: first.send, handler: EchoUser())
            XCTFail("no task")
        } catch let e as TaskCreatedError {
            handoff = e.event
        }
        guard let handoff, case .taskCreated(let taskId, .seed, .working, 100) = handoff else { return XCTFail("\(String(describing: handoff))") }
        XCTAssertEqual(text(taskId), "\"\(echoId)\"")
        func byId(_ id: Int, _ method: String) -> String {
            "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"\(method)\",\"params\":{\(m),\"taskId\":\"\(echoId)\"}}"
        }
        let members = String(m.dropFirst("\"_meta\":{".count).dropLast())
        let questions = "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"resultType\":\"input_required\",\"inputRequests\":{\"echo_input\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\",\"message\":\"Please provide the input string to echo back\",\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"input\":{\"type\":\"string\"}},\"required\":[\"input\"]}}}},\"_meta\":{\"io.modelcontextprotocol/related-task\":{\"taskId\":\"\(echoId)\"}}}}"
        let done = "{\"id\":6,\"jsonrpc\":\"2.0\",\"result\":{\"isError\":false,\"content\":[{\"type\":\"text\",\"text\":\"Echo: Hello World!\"}],\"_meta\":{\"io.modelcontextprotocol/related-task\":{\"taskId\":\"\(echoId)\"}}}}"
        let script = Script([
            (byId(2, "tasks/get"), status(2, "input_required")),
            (byId(3, "tasks/result"), questions),
            ("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tasks/input_response\",\"params\":{\"_meta\":{\(members),\"io.modelcontextprotocol/related-task\":{\"taskId\":\"\(echoId)\"}},\"inputResponses\":{\"echo_input\":{\"action\":\"accept\",\"content\":{\"input\":\"Hello World!\"}}}}}",
             "{\"id\":4,\"jsonrpc\":\"2.0\",\"result\":{\"_meta\":{\"io.modelcontextprotocol/related-task\":{\"taskId\":\"\(echoId)\"}}}}"),
            (byId(5, "tasks/get"), status(5, "Completed")),
            (byId(6, "tasks/result"), done),
        ])
        let task = try MrtrTask.fromEvent(handoff, capabilities: [.elicitationForm], clientName: "ExampleClient",
                                          clientVersion: "1.0.0", firstId: try call.nextId)
        XCTAssertEqual(try task.nextRequest, .get)
        XCTAssertEqual(try task.pollMs, 100)
        let result = try await task.run(transport: script.send, handler: EchoUser())
        XCTAssertEqual(script.i, 5)
        XCTAssertEqual(String(decoding: result, as: UTF8.self), String(done.dropFirst(33).dropLast()))
        XCTAssertEqual(try task.phase, .done)
    }

    func testExtensionDialectNeedsTasksCapability() {
        expectError(.invalidArgument) { try MrtrTask.create(dialect: .extension, taskId: bytes("b-7"), capabilities: []) }
    }
}
