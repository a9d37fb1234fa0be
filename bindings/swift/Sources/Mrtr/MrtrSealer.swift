import CMrtr
import Foundation

/// Why a `requestState` token was refused (`mrtr_unseal_reason`), for the server's log.
public enum UnsealReason: Int32, Sendable, CaseIterable {
    /// Refused: not a well-formed token.
    case malformed = 1
    /// Refused: the token is larger than the maximum.
    case tooLarge = 2
    /// Refused: sealed under a key this sealer does not hold.
    case unknownKey = 3
    /// Refused: the token failed authentication.
    case tampered = 4
    /// Refused: the token's lifetime is over.
    case expired = 5
    /// Refused: the token was issued in the future (beyond the allowed clock skew).
    case notYetValid = 6
    /// Refused: sealed for another audience.
    case wrongAudience = 7
    /// Refused: bound to another request (method, target or arguments differ).
    case wrongRequest = 8
    /// Refused: bound to another principal.
    case wrongPrincipal = 9
    /// Refused: the current time is past the latest time a token can carry.
    case clockOutOfRange = 10

    /// The library's short description (`"token expired"`, ...).
    public var description: String { String(cString: mrtr_unseal_reason_str(rawValue)) }
}

/// Seals and unseals `requestState` for a server (the C `mrtr_sealer`): XChaCha20-Poly1305
/// tokens bound to the request (method, target, canonical arguments), an audience, a
/// lifetime and optionally a principal. The key material lives in memory this object owns;
/// `close()` (or `deinit`) wipes and frees it; use after `close()` throws `MrtrCallClosed`.
///
/// `keys`: 1 to 8 secrets of at least 32 random bytes (not all one byte value); `keys[0]` seals, every key unseals
/// (rotate with `[OLD, NEW]`, then `[NEW, OLD]`, then one TTL later `[NEW]`). `audience`
/// names the service. `ttlSeconds` 0: 600 s, at most 86,400. `skewSeconds`: clock disagreement allowed, at most 300.
/// `maxTokenBytes` 0: 4,094 bytes (with its quotes a token then fits a default call's 4 KiB `requestState` bound).
public final class MrtrSealer: @unchecked Sendable {
    private var ws: UnsafeMutableRawPointer?
    private let size: Int
    private let maxToken: Int
    private let lock = NSLock()

    /// Builds the sealer from `keys` and `audience` (see the type's comment for each parameter). Throws
    /// `MrtrError` with `.keyError` or `.invalidArgument` and the library's `reason` (`"NoKeys"`,
    /// `"KeyTooShort"`, `"WeakKey"`, `"DuplicateKeyId"`, `"EmptyAudience"`, `"TtlOutOfRange"`, ...).
    public init(keys: [[UInt8]], audience: String, ttlSeconds: UInt64 = 0, skewSeconds: UInt64 = 60, maxTokenBytes: Int = 0) throws {
        size = mrtr_sealer_size()
        maxToken = maxTokenBytes == 0 ? 4094 : maxTokenBytes
        let w = allocWorkspace(size)
        // Every key's bytes in one buffer, so the mrtr_bytes views stay valid during init.
        var storage: [UInt8] = [0]
        var spans: [(Int, Int)] = []
        for k in keys {
            spans.append((storage.count, k.count))
            storage += k
        }
        var out: OpaquePointer?
        var why: UnsafePointer<CChar>?
        let st = storage.withUnsafeBufferPointer { b -> mrtr_status in
            let cKeys = spans.map { mrtr_bytes(ptr: b.baseAddress! + $0.0, len: $0.1) }
            // withOptStr: an empty audience reaches C as empty, not absent ("EmptyAudience").
            return withOptStr(Array(audience.utf8) + [0]) { a in
                mrtr_sealer_init(w, size, cKeys, cKeys.count, a, ttlSeconds, skewSeconds, maxTokenBytes, &out, &why)
            }
        }
        memset_s_portable(&storage, storage.count)
        if st != MRTR_OK {
            freeWorkspace(w, size)
            throw MrtrError(rawCode: Int32(st.rawValue), operation: "mrtr_sealer_init", reason: cName(why))
        }
        ws = w
    }

    /// The JSON-RPC error code for every `requestState` that fails to unseal (-32602).
    public static let invalidRequestStateCode: Int64 = -32602

    /// The one error message for every refused `requestState`: `"Invalid or expired requestState"`.
    public static var invalidRequestStateMessage: String { String(cString: mrtr_invalid_request_state_message()) }

    /// The 32-byte binding digest of a request: `method`, `target` (tool or prompt name,
    /// resource URI) and the canonical form of `arguments` (the JSON of `params.arguments`,
    /// nil when absent).
    public static func bindingDigest(method: String, target: String, arguments: [UInt8]?) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let st = withStr(Array(method.utf8)) { m in
            withStr(Array(target.utf8)) { t in
                out.withUnsafeMutableBufferPointer { o in
                    if let arguments {
                        return arguments.withUnsafeBufferPointer { a in
                            // An empty array still needs an address: the library tells "none" (NULL) from "empty".
                            mrtr_binding_digest(m, t, a.baseAddress ?? UnsafePointer(o.baseAddress!), a.count, o.baseAddress, nil)
                        }
                    }
                    return mrtr_binding_digest(m, t, nil, 0, o.baseAddress, nil)
                }
            }
        }
        try check(st, "mrtr_binding_digest")
        return out
    }

    /// The exact token length for `stateLength` bytes of state.
    public static func tokenLength(_ stateLength: Int, principal: Bool) -> Int { mrtr_seal_token_len(stateLength, principal) }

    /// 24 fresh nonce bytes from the system's CSPRNG (the library draws no randomness itself).
    public static func freshNonce() -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        return (0..<24).map { _ in UInt8.random(in: 0...255, using: &g) }
    }

    /// Seals `state` into a token (ASCII) to send as `requestState`. `nowSeconds`: unix time;
    /// `binding`: `bindingDigest` of the request being answered; `principal`: the
    /// authenticated caller, or nil; `nonce`: 24 random bytes or a counter (a repeat is safe: the token's nonce is derived from it, the key and everything sealed).
    public func seal(nowSeconds: UInt64, binding: [UInt8], state: [UInt8], principal: [UInt8]? = nil, nonce: [UInt8] = MrtrSealer.freshNonce()) throws -> [UInt8] {
        try locked { h in
            guard nonce.count == 24, binding.count == 32 else {
                throw MrtrError(rawCode: Int32(MRTR_ERR_INVALID_ARGUMENT.rawValue), operation: "mrtr_seal")
            }
            return try withBytesPtr(principal) { p in
                try state.withUnsafeBufferPointer { s in
                    try writeOut("mrtr_seal", guess: MrtrSealer.tokenLength(state.count, principal: principal != nil)) { out, cap, w in
                        mrtr_seal(h, nowSeconds, nonce, binding, p, mrtr_bytes(ptr: s.baseAddress, len: s.count), out, cap, w)
                    }
                }
            }
        }
    }

    /// The state carried by an echoed `token`, or `.invalidRequestState` with the precise
    /// `unsealReason` (log it; answer the client with `invalidRequestStateCode` and
    /// `invalidRequestStateMessage` whatever it is).
    public func unseal(nowSeconds: UInt64, token: [UInt8], binding: [UInt8], principal: [UInt8]? = nil) throws -> [UInt8] {
        try locked { h in
            guard binding.count == 32 else {
                throw MrtrError(rawCode: Int32(MRTR_ERR_INVALID_ARGUMENT.rawValue), operation: "mrtr_unseal")
            }
            var scratch = [UInt8](repeating: 0, count: max(mrtr_unseal_scratch_len(min(token.count, maxToken)), 1))
            defer { memset_s_portable(&scratch, scratch.count) }
            var state = mrtr_bytes()
            var reason = mrtr_unseal_reason(rawValue: 0)
            let st = withBytesPtr(principal) { p in
                token.withUnsafeBufferPointer { t in
                    scratch.withUnsafeMutableBufferPointer { sc in
                        mrtr_unseal(h, nowSeconds, mrtr_bytes(ptr: t.baseAddress, len: t.count), binding, p,
                                    sc.baseAddress, sc.count, &state, &reason, nil)
                    }
                }
            }
            if st == MRTR_ERR_INVALID_REQUEST_STATE {
                var e = MrtrError(rawCode: Int32(st.rawValue), operation: "mrtr_unseal")
                e.unsealReason = UnsealReason(rawValue: Int32(reason.rawValue))
                throw e
            }
            try check(st, "mrtr_unseal")
            guard let p = state.ptr else { return [] }
            return Array(UnsafeBufferPointer(start: p, count: state.len))
        }
    }

    /// Wipes the key material and frees the memory. Idempotent; `deinit` does it too.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        if let w = ws {
            ws = nil
            mrtr_sealer_wipe(OpaquePointer(w))
            freeWorkspace(w, size)
        }
    }

    deinit { close() }

    private func locked<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        guard let w = ws else { throw MrtrCallClosed() }
        return try body(OpaquePointer(w))
    }
}

/// Calls `body` with a pointer to an `mrtr_bytes` over `b`, or NULL when `b` is nil.
func withBytesPtr<T>(_ b: [UInt8]?, _ body: (UnsafePointer<mrtr_bytes>?) throws -> T) rethrows -> T {
    guard let b else { return try body(nil) }
    return try b.withUnsafeBufferPointer { p in
        // An empty principal still needs an address (NULL would mean "none").
        var v = mrtr_bytes(ptr: p.baseAddress ?? UnsafePointer(bitPattern: 1), len: p.count)
        return try withUnsafePointer(to: &v) { try body($0) }
    }
}
