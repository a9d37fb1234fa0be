import XCTest

@testable import Mrtr

private let keyA: [UInt8] = (0..<32).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }
private let keyB: [UInt8] = (0..<32).map { UInt8(truncatingIfNeeded: $0 * 11 + 3) }
private let now: UInt64 = 1_790_000_000

private func reason(_ body: () throws -> [UInt8]) -> UnsealReason? {
    do {
        _ = try body()
        XCTFail("unsealed")
        return nil
    } catch let e as MrtrError {
        XCTAssertEqual(e.code, .invalidRequestState)
        return e.unsealReason
    } catch {
        XCTFail("\(error)")
        return nil
    }
}

final class ServerTests: XCTestCase {
    func testBindingDigestIgnoresSpellingNotValues() throws {
        let d = try MrtrSealer.bindingDigest(method: "tools/call", target: "deploy", arguments: bytes("{\"env\":\"prod\",\"n\":1}"))
        XCTAssertEqual(d.count, 32)
        XCTAssertEqual(d, try MrtrSealer.bindingDigest(method: "tools/call", target: "deploy", arguments: bytes(" { \"n\" : 1 , \"e\\u006ev\" : \"prod\" } ")))
        XCTAssertNotEqual(d, try MrtrSealer.bindingDigest(method: "tools/call", target: "deploy", arguments: bytes("{\"env\":\"dev\",\"n\":1}")))
    }

    func testSealUnsealAndEveryRefusal() throws {
        let binding = try MrtrSealer.bindingDigest(method: "tools/call", target: "deploy", arguments: bytes("{\"env\":\"prod\"}"))
        let s = try MrtrSealer(keys: [keyA], audience: "svc", maxTokenBytes: 512)
        let nonce = [UInt8](repeating: 9, count: 24)
        let token = try s.seal(nowSeconds: now, binding: binding, state: bytes("state"), nonce: nonce)
        XCTAssertEqual(token.count, MrtrSealer.tokenLength(5, principal: false))
        XCTAssertEqual(token, try s.seal(nowSeconds: now, binding: binding, state: bytes("state"), nonce: nonce))
        XCTAssertEqual(try s.unseal(nowSeconds: now, token: token, binding: binding), bytes("state"))
        XCTAssertEqual(reason { try s.unseal(nowSeconds: now + 661, token: token, binding: binding) }, .expired)
        XCTAssertEqual(reason { try s.unseal(nowSeconds: now, token: bytes("not a token"), binding: binding) }, .malformed)
        XCTAssertEqual(reason {
            try s.unseal(nowSeconds: now, token: token,
                         binding: try MrtrSealer.bindingDigest(method: "tools/call", target: "deploy", arguments: bytes("{\"env\":\"dev\"}")))
        }, .wrongRequest)
        XCTAssertEqual(reason { try MrtrSealer(keys: [keyB], audience: "svc").unseal(nowSeconds: now, token: token, binding: binding) }, .unknownKey)
        XCTAssertEqual(try MrtrSealer(keys: [keyB, keyA], audience: "svc").unseal(nowSeconds: now, token: token, binding: binding), bytes("state"))
        XCTAssertEqual(MrtrSealer.invalidRequestStateMessage, "Invalid or expired requestState")
        s.close()
        XCTAssertThrowsError(try s.seal(nowSeconds: now, binding: binding, state: [])) { XCTAssertTrue($0 is MrtrCallClosed) }
    }

    func testUnusableKeys() {
        expectError(.keyError) { try MrtrSealer(keys: [[UInt8](repeating: 1, count: 31)], audience: "svc") }
        expectError(.keyError) { try MrtrSealer(keys: [], audience: "svc") }
        expectError(.invalidArgument) { try MrtrSealer(keys: [keyA], audience: "") }
        // Weak keys (all one byte value) and out-of-range lifetimes (issue 16).
        expectError(.keyError) { try MrtrSealer(keys: [[UInt8](repeating: 0, count: 32)], audience: "svc") }
        expectError(.keyError) { try MrtrSealer(keys: [keyA, [UInt8](repeating: 0xff, count: 64)], audience: "svc") }
        expectError(.invalidArgument) { try MrtrSealer(keys: [keyA], audience: "svc", ttlSeconds: 86_401) }
        expectError(.invalidArgument) { try MrtrSealer(keys: [keyA], audience: "svc", skewSeconds: 301) }
        XCTAssertNoThrow(try MrtrSealer(keys: [keyA], audience: "svc", ttlSeconds: 86_400, skewSeconds: 300))
    }
}
