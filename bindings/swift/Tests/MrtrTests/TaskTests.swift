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
    /// The SEP's echo task (seed dialect): MrtrCall.run follows the task in place, exact bytes.
    func testSepEchoTask() async throws {
        let m = meta("{\"elicitation\":{\"form\":{}}}")
        let created = "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"task\":{\"taskId\":\"\(echoId)\",\"status\":\"Working\",\"statusMessage\":\"created\",\"createdAt\":\"2026-01-27T03:32:48.3148180Z\",\"ttl\":60000,\"pollInterval\":100}}}"
        let call = try exampleCall("{\"name\":\"echo\",\"task\":{\"ttl\":60000}}", [.elicitationForm])
        func byId(_ id: Int, _ method: String) -> String {
            "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"\(method)\",\"params\":{\(m),\"taskId\":\"\(echoId)\"}}"
        }
        let members = String(m.dropFirst("\"_meta\":{".count).dropLast())
        let questions = "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"resultType\":\"input_required\",\"inputRequests\":{\"echo_input\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\",\"message\":\"Please provide the input string to echo back\",\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"input\":{\"type\":\"string\"}},\"required\":[\"input\"]}}}},\"_meta\":{\"io.modelcontextprotocol/related-task\":{\"taskId\":\"\(echoId)\"}}}}"
        let done = "{\"id\":6,\"jsonrpc\":\"2.0\",\"result\":{\"isError\":false,\"content\":[{\"type\":\"text\",\"text\":\"Echo: Hello World!\"}],\"_meta\":{\"io.modelcontextprotocol/related-task\":{\"taskId\":\"\(echoId)\"}}}}"
        let script = Script([
            (head(1) + "{" + m + ",\"name\":\"echo\",\"task\":{\"ttl\":60000}}}", created),
            (byId(2, "tasks/get"), status(2, "input_required")),
            (byId(3, "tasks/result"), questions),
            ("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tasks/input_response\",\"params\":{\"_meta\":{\(members),\"io.modelcontextprotocol/related-task\":{\"taskId\":\"\(echoId)\"}},\"inputResponses\":{\"echo_input\":{\"action\":\"accept\",\"content\":{\"input\":\"Hello World!\"}}}}}",
             "{\"id\":4,\"jsonrpc\":\"2.0\",\"result\":{\"_meta\":{\"io.modelcontextprotocol/related-task\":{\"taskId\":\"\(echoId)\"}}}}"),
            (byId(5, "tasks/get"), status(5, "Completed")),
            (byId(6, "tasks/result"), done),
        ])
        let result = try await call.run(transport: script.send, handler: EchoUser())
        XCTAssertEqual(script.i, 6)
        XCTAssertEqual(String(decoding: result, as: UTF8.self), String(done.dropFirst(33).dropLast()))
        let p = try call.progress()
        XCTAssertEqual(p.phase, .done)
        XCTAssertEqual(p.flow, .task)
        XCTAssertEqual(p.taskDialect, .seed)
        XCTAssertEqual(p.round, 1)
        XCTAssertEqual(p.polls, 2)
        XCTAssertEqual(p.lastId, 6)
        XCTAssertEqual(p.taskId.map(text), "\"\(echoId)\"")
    }

    /// The step API hands the call over in place; a stored id restarts the task.
    func testHandOverInPlaceAndRestartFromId() throws {
        let call = try exampleCall("{\"name\":\"echo\",\"task\":{\"ttl\":60000}}", [.elicitationForm])
        _ = try call.writeRequest()
        let created = "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"task\":{\"taskId\":\"\(echoId)\",\"status\":\"Working\",\"createdAt\":\"2026-01-27T03:32:48.3148180Z\",\"ttl\":60000,\"pollInterval\":100}}}"
        guard case .taskCreated(let taskId, .seed, .working, 100) = try call.feed(bytes(created)) else {
            return XCTFail("no hand-over")
        }
        XCTAssertEqual(text(taskId), "\"\(echoId)\"")
        let p = try call.progress()
        XCTAssertEqual(p.phase, .ready)
        XCTAssertEqual(p.flow, .task)
        XCTAssertEqual(p.taskRequest, .get)
        XCTAssertEqual(p.pollMs, 100)
        XCTAssertEqual(p.nextId, 2)
        let again = try MrtrCall.restartTask(
            dialect: .seed, taskId: taskId, capabilities: [.elicitationForm], taskIdIsJson: true,
            clientName: "ExampleClient", clientVersion: "1.0.0", pollMs: 100, firstId: 2)
        XCTAssertEqual(text(try call.writeRequest()), text(try again.writeRequest()))
    }

    func testExtensionDialectNeedsTasksCapability() {
        expectError(.invalidArgument) { try MrtrCall.restartTask(dialect: .extension, taskId: bytes("b-7"), capabilities: []) }
        expectError(.invalidArgument) { try MrtrCall.restartTask(dialect: .seed, taskId: bytes(""), capabilities: []) }
    }

    func testCancelIsATaskOperation() throws {
        let task = try MrtrCall.restartTask(dialect: .extension, taskId: bytes("b-7"), capabilities: [.tasks], sendClientInfo: false)
        _ = try task.writeRequest()
        let cancel = text(try task.writeCancel())
        XCTAssertTrue(cancel.hasPrefix("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tasks/cancel\""), cancel)
        XCTAssertEqual(try task.progress().taskRequest, .cancel)
        let call = try exampleCall("{\"name\":\"x\"}", [])
        expectError(.wrongState) { _ = try call.writeCancel(id: 1) }
    }
}
