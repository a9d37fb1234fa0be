import CMrtr

/// Library-wide functions: versions and the JSON helpers of the C API.
public enum Mrtr {
    /// The library version (`"0.1.0"`).
    public static var version: String { String(cString: mrtr_version()) }

    /// The MCP revision implemented, `"2026-07-28"`: the value of the `MCP-Protocol-Version` header.
    public static var protocolVersion: String { String(cString: mrtr_protocol_version()) }

    /// The C name of a status code (`"MRTR_ERR_JSON"`), `"MRTR_UNKNOWN_STATUS"` for other integers.
    public static func statusName(_ code: Int32) -> String { String(cString: mrtr_status_str(code)) }

    /// nil when `json` is exactly one valid JSON document (RFC 8259) nested at
    /// most `maxDepth` deep (0: the library default, 32); otherwise the byte
    /// offset where reading stopped. Other failures (a depth over 256) throw.
    public static func jsonErrorOffset(_ json: [UInt8], maxDepth: Int = 0) throws -> Int? {
        var offset = 0
        let st = json.withUnsafeBufferPointer { mrtr_json_validate($0.baseAddress, $0.count, maxDepth, &offset) }
        switch st {
        case MRTR_OK: return nil
        case MRTR_ERR_JSON, MRTR_ERR_LIMIT_EXCEEDED: return offset
        default: throw MrtrError(rawCode: Int32(st.rawValue), operation: "mrtr_json_validate")
        }
    }

    /// Throws `.json` or `.limitExceeded` unless `json` is valid JSON.
    public static func validateJson(_ json: [UInt8], maxDepth: Int = 0) throws {
        let st = json.withUnsafeBufferPointer { mrtr_json_validate($0.baseAddress, $0.count, maxDepth, nil) }
        try check(st, "mrtr_json_validate")
    }

    /// The number of parameters a tool's `inputSchema` (the raw JSON from
    /// `tools/list`) designates with `x-mcp-header` (SEP-2243), 0 for none.
    /// Throws `.invalidSchema` when a designation is invalid (an empty name,
    /// one that is not an HTTP token, on a property whose type is not string,
    /// integer or boolean, or a duplicate ignoring case): the tool must not
    /// be called.
    public static func toolHeaderCount(_ inputSchema: [UInt8]) throws -> Int {
        var count = 0
        let st = inputSchema.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { c in
                mrtr_tool_header_check(mrtr_str(ptr: c.baseAddress, len: c.count), &count)
            }
        }
        try check(st, "mrtr_tool_header_check")
        return count
    }

    /// Reads one `tools/list` page (`result`: the `result` object, e.g. a
    /// call's final result): every tool in list order, with whether the client
    /// may call it (a tool whose `x-mcp-header` designations are invalid must
    /// not be called, SEP-2243), and the cursor of the next page. A malformed
    /// tool entry is counted in `ToolPage.malformed` and left out. Throws for a
    /// result that is not a tool list (`.protocolViolation`, `.json`,
    /// `.limitExceeded` past 1024 tools).
    public static func toolList(_ result: [UInt8]) throws -> ToolPage {
        var count = 0
        var cursor = mrtr_str(ptr: nil, len: 0)
        var tools: [Tool] = []
        var malformed = 0
        try result.withUnsafeBufferPointer { r in
            try check(mrtr_tool_list(r.baseAddress, r.count, &count, &cursor, nil), "mrtr_tool_list")
        }
        // Views are turned into offsets while the array is pinned, then copied.
        func slice(_ s: mrtr_str, _ r: UnsafeBufferPointer<UInt8>) -> [UInt8] {
            let off = Int(bitPattern: UnsafeRawPointer(s.ptr)) - Int(bitPattern: r.baseAddress)
            return Array(r[off..<(off + s.len)])
        }
        // One pass over the page (mrtr_tool_at would read it once per tool).
        var at = mrtr_tool_cursor()
        while true {
            var t = mrtr_tool()
            let st = result.withUnsafeBufferPointer { mrtr_tool_next($0.baseAddress, $0.count, &at, &t, nil) }
            if st == MRTR_ERR_NOT_FOUND {
                break
            }
            if st == MRTR_ERR_PROTOCOL_VIOLATION {
                malformed += 1
                continue
            }
            try check(st, "mrtr_tool_next")
            let (nameJson, schema) = result.withUnsafeBufferPointer { r in
                (slice(t.name, r), slice(t.input_schema, r))
            }
            tools.append(Tool(
                name: String(decoding: try decodeJsonString(nameJson), as: UTF8.self),
                nameJson: nameJson, inputSchema: schema, usable: t.usable,
                designationCount: t.designation_count))
        }
        var next: [UInt8]? = nil
        if cursor.ptr != nil {
            try result.withUnsafeBufferPointer { r in
                try check(mrtr_tool_list(r.baseAddress, r.count, &count, &cursor, nil), "mrtr_tool_list")
                next = slice(cursor, r)
            }
        }
        return ToolPage(tools: tools, malformed: malformed, nextCursor: next)
    }

    /// The headers of a Streamable HTTP POST carrying `body`, a `tools/call`
    /// request about to be sent, for the tool whose `inputSchema` (from
    /// `toolList`) is `inputSchema`: the standard headers, then one
    /// `Mcp-Param-*` header per designated argument (SEP-2243), values encoded
    /// as the protocol says. Throws `.invalidSchema` (invalid designations: do
    /// not call the tool), `.invalidValue` (a designated argument of the wrong
    /// type), `.invalidArgument` (not a `tools/call` request).
    public static func httpHeadersForToolCall(_ body: [UInt8], inputSchema: [UInt8]) throws -> [HttpHeader] {
        let cap = Int(MRTR_HTTP_MAX_HEADERS) + 64
        var headers = [mrtr_http_header](repeating: mrtr_http_header(), count: cap)
        var count = 0
        var out: [HttpHeader] = []
        var bufLen = 1024
        for _ in 0..<2 {
            var buf = [UInt8](repeating: 0, count: bufLen)
            var written = 0
            let st = body.withUnsafeBufferPointer { b in
                inputSchema.withUnsafeBufferPointer { s in
                    s.withMemoryRebound(to: CChar.self) { sc in
                        buf.withUnsafeMutableBufferPointer { o in
                            headers.withUnsafeMutableBufferPointer { h in
                                let st = mrtr_http_headers_for_tool_call(
                                    b.baseAddress, b.count, mrtr_str(ptr: sc.baseAddress, len: sc.count),
                                    o.baseAddress, o.count, &written, h.baseAddress, cap, &count, nil)
                                if st == MRTR_OK {
                                    // Views into `buf` and static text: copied while pinned.
                                    out = (0..<count).map { i in
                                        HttpHeader(name: text(h[i].name), value: text(h[i].value))
                                    }
                                }
                                return st
                            }
                        }
                    }
                }
            }
            if st == MRTR_ERR_BUFFER_TOO_SMALL && written > bufLen {
                bufLen = written
                continue
            }
            try check(st, "mrtr_http_headers_for_tool_call")
            return out
        }
        throw MrtrError(rawCode: Int32(MRTR_ERR_INTERNAL.rawValue), operation: "mrtr_http_headers_for_tool_call")
    }

    /// How many times one request is sent again after `-32022`: once.
    public static let maxVersionRetries: UInt32 = 1

    /// Whether to send a request again after `response`, a request already
    /// sent again `retries` times after `-32022`: true for error `-32022`
    /// whose `data.supported` lists `protocolVersion` (the only revision
    /// this library speaks), whose `data.requested` is another, while
    /// `retries` is below `maxVersionRetries`; false for any other message.
    /// Throws `.unsupportedVersion` for any other `-32022`, a final answer:
    /// the server and this library share no revision, or the server refused
    /// this one; `.json` when its `data` repeats a member.
    public static func versionRetry(_ response: [UInt8], retries: UInt32 = 0) throws -> Bool {
        let st = response.withUnsafeBufferPointer { mrtr_version_retry($0.baseAddress, $0.count, retries) }
        switch st {
        case MRTR_OK: return true
        case MRTR_ERR_NOT_FOUND: return false
        default: throw MrtrError(rawCode: Int32(st.rawValue), operation: "mrtr_version_retry")
        }
    }

    /// `text` as a JSON string literal, quotes included, escaped as the library escapes.
    public static func jsonString(_ text: String) throws -> [UInt8] {
        let utf8 = Array(text.utf8)
        return try writeOut("mrtr_json_write_string", guess: utf8.count + 16) { out, cap, written in
            utf8.withUnsafeBufferPointer { t in
                t.withMemoryRebound(to: CChar.self) { c in
                    mrtr_json_write_string(mrtr_str(ptr: c.baseAddress, len: c.count), out, cap, written)
                }
            }
        }
    }
}

/// Runs a C writer that follows the header's output convention: first into a
/// buffer of `guess` bytes, then, on `MRTR_ERR_BUFFER_TOO_SMALL`, once more into
/// one of exactly the size the library reported. Returns the bytes written.
/// `call`: the call the writer works on, whose cause a failure carries.
func writeOut(
    _ operation: String, guess: Int, call: OpaquePointer? = nil,
    _ body: (UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<Int>) -> mrtr_status
) throws -> [UInt8] {
    var buf = [UInt8](repeating: 0, count: max(guess, 1))
    var written = 0
    var st = buf.withUnsafeMutableBufferPointer { body($0.baseAddress, $0.count, &written) }
    if st == MRTR_ERR_BUFFER_TOO_SMALL {
        buf = [UInt8](repeating: 0, count: written)
        st = buf.withUnsafeMutableBufferPointer { body($0.baseAddress, $0.count, &written) }
    }
    if let call { try check(st, operation, call: call) } else { try check(st, operation) }
    guard written <= buf.count else { throw MrtrError(rawCode: Int32(MRTR_ERR_INTERNAL.rawValue), operation: operation) }
    return Array(buf.prefix(written))
}
