import Foundation
import XCTest

@testable import Mrtr

/// A small JSON reader for the tests (Foundation's loses member order and raw text): values
/// with the byte span they came from, so a vector's `message` is fed exactly as written.
indirect enum J {
    case obj([(String, J)], Range<Int>)
    case arr([J], Range<Int>)
    case str(String, Range<Int>)
    case num(String, Range<Int>)
    case other(Range<Int>)

    subscript(_ k: String) -> J? {
        if case .obj(let m, _) = self { return m.first { $0.0 == k }?.1 }
        return nil
    }
    var span: Range<Int> {
        switch self {
        case .obj(_, let r), .arr(_, let r), .str(_, let r), .num(_, let r), .other(let r): return r
        }
    }
    var string: String? { if case .str(let s, _) = self { return s }; return nil }
    var int: Int64? { if case .num(let t, _) = self { return Int64(t) }; return nil }

    static func parse(_ b: [UInt8]) -> J? {
        var i = 0
        var depth = 0
        func ws() { while i < b.count, [0x20, 0x09, 0x0a, 0x0d].contains(b[i]) { i += 1 } }
        func string() -> String? {
            i += 1
            var out: [UInt8] = []
            while i < b.count {
                let c = b[i]; i += 1
                if c == 0x22 { return String(decoding: out, as: UTF8.self) }
                if c != 0x5c { out.append(c); continue }
                guard i < b.count else { return nil }
                let e = b[i]; i += 1
                switch e {
                case 0x6e: out.append(0x0a)
                case 0x74: out.append(0x09)
                case 0x72: out.append(0x0d)
                case 0x62: out.append(0x08)
                case 0x66: out.append(0x0c)
                case 0x75:
                    guard i + 4 <= b.count, var cp = UInt32(String(decoding: b[i..<(i + 4)], as: UTF8.self), radix: 16) else { return nil }
                    i += 4
                    if (0xD800...0xDBFF).contains(cp), i + 6 <= b.count, b[i] == 0x5c, b[i + 1] == 0x75,
                       let lo = UInt32(String(decoding: b[(i + 2)..<(i + 6)], as: UTF8.self), radix: 16) {
                        i += 6
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00)
                    }
                    out += Array(String(Character(Unicode.Scalar(cp) ?? "?")).utf8)
                default: out.append(e)
                }
            }
            return nil
        }
        func value() -> J? {
            ws()
            guard i < b.count else { return nil }
            let s = i
            switch b[i] {
            case 0x7b:
                depth += 1
                guard depth <= 64 else { return nil }
                i += 1
                var m: [(String, J)] = []
                ws()
                if i < b.count, b[i] == 0x7d { i += 1; depth -= 1; return .obj(m, s..<i) }
                while true {
                    ws()
                    guard i < b.count, b[i] == 0x22, let k = string() else { return nil }
                    ws()
                    guard i < b.count, b[i] == 0x3a else { return nil }
                    i += 1
                    guard let v = value() else { return nil }
                    m.append((k, v))
                    ws()
                    guard i < b.count else { return nil }
                    i += 1
                    if b[i - 1] == 0x7d { depth -= 1; return .obj(m, s..<i) }
                    guard b[i - 1] == 0x2c else { return nil }
                }
            case 0x5b:
                depth += 1
                guard depth <= 64 else { return nil }
                i += 1
                var a: [J] = []
                ws()
                if i < b.count, b[i] == 0x5d { i += 1; depth -= 1; return .arr(a, s..<i) }
                while true {
                    guard let v = value() else { return nil }
                    a.append(v)
                    ws()
                    guard i < b.count else { return nil }
                    i += 1
                    if b[i - 1] == 0x5d { depth -= 1; return .arr(a, s..<i) }
                    guard b[i - 1] == 0x2c else { return nil }
                }
            case 0x22:
                guard let t = string() else { return nil }
                return .str(t, s..<i)
            default:
                while i < b.count, !" \t\r\n,]}".utf8.contains(b[i]) { i += 1 }
                let t = String(decoding: b[s..<i], as: UTF8.self)
                return t.first.map { "-0123456789".contains($0) } == true ? .num(t, s..<i) : .other(s..<i)
            }
        }
        return value()
    }
}

private func quoted(_ s: String?) -> String { s.map { "\"\($0)\"" } ?? "null" }

final class VectorTests: XCTestCase {
    /// Every shared server_response vector through MrtrCall, as the Kotlin runner does.
    func testEveryServerResponseVectorThroughMrtrCall() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../../tests/vectors").standardizedFileURL
        let fm = FileManager.default
        var checked = 0
        var disagree: [String] = []
        let params = ["tools/call": (CallMethod.toolsCall, "{\"name\":\"t\"}"),
                      "prompts/get": (CallMethod.promptsGet, "{\"name\":\"p\"}"),
                      "resources/read": (CallMethod.resourcesRead, "{\"uri\":\"file:///r\"}")]
        for group in try fm.contentsOfDirectory(atPath: root.path).sorted() {
            let dir = root.appendingPathComponent(group)
            guard let names = try? fm.contentsOfDirectory(atPath: dir.path) else { continue }
            for name in names.sorted() where name.hasSuffix(".json") {
                let raw = [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))
                guard let file = J.parse(raw), file["direction"]?.string == "server_response",
                      let entry = file["method"]?.string.flatMap({ params[$0] }),
                      (file["server_protocol_version"]?.string ?? "2026-07-28") == "2026-07-28",
                      let expect = file["expect"] else { continue }
                let message: [UInt8]
                if let m = file["message"] {
                    message = Array(raw[m.span])
                } else if let t = file["message_text"]?.string {
                    message = Array(t.utf8)
                } else {
                    message = [UInt8](Data(base64Encoded: file["message_base64"]?.string ?? "") ?? Data())
                }
                var want = expect["outcome"]?.string ?? "?"
                if want == "invalid" { want += " " + (expect["error"]?.string ?? "?") }
                if want == "input_required" { want += " " + quoted(expect["requestState"]?.string) }
                let id = J.parse(message)?["id"]
                if case .str = id, want != "invalid json" { want = "unrelated" }
                let got = try outcome(message, entry.0, entry.1, capsOf(file["client_capabilities"]), id?.int ?? 1)
                if got != want { disagree.append("\(group)/\(name): want \(want), got \(got)") }
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 200)
        XCTAssertEqual(disagree, [])
    }

    /// The capability set a vector's `client_capabilities` declares (README default when absent).
    private func capsOf(_ c: J?) -> Set<Capability> {
        guard let c else { return [.elicitationForm, .elicitationUrl, .sampling, .samplingTools, .roots] }
        var caps: Set<Capability> = []
        if let e = c["elicitation"] {
            if case .obj(let m, _) = e, m.isEmpty { caps.insert(.elicitationForm) }
            if e["form"] != nil { caps.insert(.elicitationForm) }
            if e["url"] != nil { caps.insert(.elicitationUrl) }
        }
        if let s = c["sampling"] {
            caps.insert(.sampling)
            if s["tools"] != nil { caps.insert(.samplingTools) }
            if s["context"] != nil { caps.insert(.samplingContext) }
        }
        if c["roots"] != nil { caps.insert(.roots) }
        if c["extensions"]?["io.modelcontextprotocol/tasks"] != nil { caps.insert(.tasks) }
        return caps
    }

    private func outcome(_ message: [UInt8], _ method: CallMethod, _ params: String, _ caps: Set<Capability>, _ id: Int64) throws -> String {
        let call = try MrtrCall.create(method: method, params: bytes(params), capabilities: caps)
        defer { call.close() }
        _ = try call.writeRequest(id: id)
        let event: CallEvent
        do {
            event = try call.feed(message)
        } catch {
            switch try call.failure()?.kind {
            case .json?: return "invalid json"
            case .envelope?: return "invalid envelope"
            default: return "invalid protocol"
            }
        }
        switch event {
        case .complete: return "complete"
        case .rpcError: return "rpc_error"
        case .unrelated: return "unrelated"
        case .taskCreated: return "task"
        case .retryAfter, .inputRequired:
            for input in try call.inputs() {
                switch input {
                case .elicitForm, .elicitUrl: try call.answer(input.index, .decline)
                case .sampling: try call.answer(input.index, .json(json: bytes("{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"ok\"},\"model\":\"m\"}")))
                case .roots: try call.answer(input.index, .roots(roots: []))
                }
            }
            let retry = try call.writeRequest()
            return "input_required " + quoted(J.parse(retry)?["params"]?["requestState"]?.string)
        }
    }
}
