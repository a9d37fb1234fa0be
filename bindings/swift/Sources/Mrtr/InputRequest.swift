import CMrtr

/// One question of an `input_required` round, copied out of the call (it stays valid after
/// the call moves on). `index` is its position in the server's order, `key` the server's key
/// (escapes decoded).
public enum InputRequest: Sendable, Equatable {
    /// Its position in the server's `inputRequests` (0-based): the index every `answer*` call takes.
    public var index: Int {
        switch self {
        case .elicitForm(let r): return r.index
        case .elicitUrl(let r): return r.index
        case .sampling(let r): return r.index
        case .roots(let r): return r.index
        }
    }

    /// The server's key for it, escapes decoded: the key its answer goes under in `inputResponses`.
    public var key: String {
        switch self {
        case .elicitForm(let r): return r.key
        case .elicitUrl(let r): return r.key
        case .sampling(let r): return r.key
        case .roots(let r): return r.key
        }
    }

    /// True once the call holds an answer for it in this round; a second answer is refused (reason `"AlreadyAnswered"`).
    public var answered: Bool {
        switch self {
        case .elicitForm(let r): return r.answered
        case .elicitUrl(let r): return r.answered
        case .sampling(let r): return r.answered
        case .roots(let r): return r.answered
        }
    }

    /// `elicitation/create` in form mode (see `ElicitForm`).
    case elicitForm(ElicitForm)
    /// `elicitation/create` in URL mode (see `ElicitUrl`).
    case elicitUrl(ElicitUrl)
    /// `sampling/createMessage` (see `Sampling`).
    case sampling(Sampling)
    /// `roots/list`.
    case roots(Roots)

    /// Form mode. `fields` are the form's typed fields when the library accepted
    /// `requestedSchema`; otherwise nil and `schemaError` says why (decline rather than guess).
    public struct ElicitForm: Sendable, Equatable {
        /// Its position in the server's `inputRequests` (0-based), as `InputRequest.index`.
        public let index: Int
        /// The server's key for it, escapes decoded, as `InputRequest.key`.
        public let key: String
        /// True once the call holds an answer for it in this round, as `InputRequest.answered`.
        public let answered: Bool
        /// The message to show the user (escapes decoded).
        public let message: String
        /// The `requestedSchema` object, raw JSON as the server sent it.
        public let requestedSchema: [UInt8]
        /// The form's typed fields; nil when the library refused the schema.
        public let fields: [FormField]?
        /// Why the library refused the schema; nil when it was accepted.
        public let schemaError: SchemaError?

        /// nil when `content` (a JSON object) answers this form; else its first problem.
        public func validate(_ content: [UInt8]) throws -> FormError? { try Form.validate(requestedSchema, content) }
    }

    /// URL mode. `consent` holds the facts to show before opening `url` (its real host,
    /// warnings); when the library refuses the URL, `consent` is nil and `refusal` says why:
    /// never offer to open it.
    public struct ElicitUrl: Sendable, Equatable {
        /// Its position in the server's `inputRequests` (0-based), as `InputRequest.index`.
        public let index: Int
        /// The server's key for it, escapes decoded, as `InputRequest.key`.
        public let key: String
        /// True once the call holds an answer for it in this round, as `InputRequest.answered`.
        public let answered: Bool
        /// The message to show the user (escapes decoded).
        public let message: String
        /// The URL to open once the user consents (escapes decoded); never open it when `refusal` is set.
        public let url: String
        /// The facts to show before opening the URL (its real host, warnings); nil when refused.
        public let consent: UrlConsent?
        /// Why the library refuses the URL; nil when it is acceptable.
        public let refusal: UrlRefusal?
    }

    /// Run `params` (raw JSON) through a model, answer with a `CreateMessageResult`.
    public struct Sampling: Sendable, Equatable {
        /// Its position in the server's `inputRequests` (0-based), as `InputRequest.index`.
        public let index: Int
        /// The server's key for it, escapes decoded, as `InputRequest.key`.
        public let key: String
        /// True once the call holds an answer for it in this round, as `InputRequest.answered`.
        public let answered: Bool
        /// The whole `params` of `sampling/createMessage`, raw JSON.
        public let params: [UInt8]
        /// The request's `maxTokens`.
        public let maxTokens: UInt64
        /// The request's `systemPrompt` (escapes decoded); nil when absent.
        public let systemPrompt: String?
        /// True when the request carries `tools`.
        public let hasTools: Bool
        /// True when `includeContext` asks for more than `"none"`.
        public let wantsContext: Bool
    }

    /// Answer with the roots the user shares.
    public struct Roots: Sendable, Equatable {
        /// Its position in the server's `inputRequests` (0-based), as `InputRequest.index`.
        public let index: Int
        /// The server's key for it, escapes decoded, as `InputRequest.key`.
        public let key: String
        /// True once the call holds an answer for it in this round, as `InputRequest.answered`.
        public let answered: Bool
    }
}

/// The kind of a form field (`mrtr_field_kind`).
public enum FieldKind: UInt32, Sendable, CaseIterable {
    /// Free text (`minLength`, `maxLength`, `format`).
    case text = 1
    /// A number (`minimum`, `maximum`).
    case number = 2
    /// A whole number (`minimum`, `maximum`).
    case integer = 3
    /// Yes or no.
    case boolean = 4
    /// Exactly one of the `options`.
    case singleSelect = 5
    /// Any number of distinct `options` (`minItems`, `maxItems`).
    case multiSelect = 6
}

/// The syntax a text field requires (`mrtr_string_format`).
public enum StringFormat: UInt32, Sendable, CaseIterable {
    /// Any text.
    case none = 0
    /// An email address.
    case email = 1
    /// A URI with a scheme.
    case uri = 2
    /// An RFC 3339 date (`2026-07-28`).
    case date = 3
    /// An RFC 3339 date-time (`2026-07-28T09:30:00Z`).
    case dateTime = 4
}

/// What is wrong with a form value (`mrtr_field_error`).
public enum FieldError: UInt32, Sendable, CaseIterable {
    /// No error.
    case none = 0
    /// A required field has no answer.
    case missing = 1
    /// The answer has the wrong JSON type.
    case wrongType = 2
    /// Shorter than `minLength` (`bound`).
    case tooShort = 3
    /// Longer than `maxLength` (`bound`).
    case tooLong = 4
    /// Below `minimum`.
    case belowMinimum = 5
    /// Above `maximum`.
    case aboveMaximum = 6
    /// A fraction where whole numbers are asked.
    case notAnInteger = 7
    /// Not an email address.
    case badEmail = 8
    /// Not a URI.
    case badUri = 9
    /// Not a date.
    case badDate = 10
    /// Not a date-time.
    case badDateTime = 11
    /// Not one of the options.
    case notAnOption = 12
    /// Fewer selections than `minItems` (`bound`).
    case tooFewItems = 13
    /// More selections than `maxItems` (`bound`).
    case tooManyItems = 14
    /// The same option twice.
    case duplicateItem = 15
    /// A field the form does not define.
    case unknownField = 16
    /// A field given twice.
    case duplicateField = 17
}

/// One field of an elicitation form, from the library's form helper. Bounds are nil when absent.
public struct FormField: Sendable, Equatable {
    /// The property name: the key of the answer.
    public let name: String
    /// The label to show; nil when the schema gives none.
    public let title: String?
    /// Help text to show; nil when the schema gives none.
    public let description: String?
    /// The input kind: what control to show and what JSON type the answer has.
    public let kind: FieldKind
    /// Text fields: the syntax the answer must have (email, URI, date, date-time), or none.
    public let format: StringFormat
    /// True when the answer must contain this field.
    public let required: Bool
    /// Text: the fewest characters (Unicode scalar values), or nil.
    public let minLength: UInt64?
    /// Text: the most characters, or nil.
    public let maxLength: UInt64?
    /// The lower bound as the nearest Double (a bound beyond its range is infinite).
    public let minimum: Double?
    /// The upper bound as the nearest Double.
    public let maximum: Double?
    /// The lower bound exactly as the schema wrote it (JSON number text), or nil.
    public let minimumText: String?
    /// The upper bound exactly as the schema wrote it, or nil.
    public let maximumText: String?
    /// Multi-select: the fewest selections, or nil.
    public let minItems: UInt64?
    /// Multi-select: the most selections, or nil.
    public let maxItems: UInt64?
    /// Select fields: the options in schema order.
    public let options: [FormOption]
    /// The default value as raw JSON (already checked against the field), or nil.
    public let defaultJson: [UInt8]?
}

/// One option of a select field: the `value` sent, the `title` shown (nil: show the value).
public struct FormOption: Sendable, Equatable {
    /// The value the answer sends when this option is chosen.
    public let value: String
    /// The label to show; nil when the schema gives none (show `value`).
    public let title: String?
}

/// Why a `requestedSchema` was refused.
public struct SchemaError: Sendable, Equatable {
    /// The property at fault, nil for the schema's top level.
    public let property: String?
    /// The keyword or option value at fault, when the error names one (raw text).
    public let keyword: String?
    /// The error's name (`"UnsupportedKeyword"`, `"InvalidDefault"`, ...).
    public let reason: String
    /// When the reason is `"InvalidDefault"`: what is wrong with the default value.
    public let defaultError: FieldError
}

/// The first problem of a form answer.
public struct FormError: Sendable, Equatable {
    /// The field's name (nil when the content is not an object).
    public let field: String?
    /// The field's index in the form, nil when the form has no such field.
    public let fieldIndex: Int?
    /// What is wrong with the field's value.
    public let error: FieldError
    /// `tooShort`, `tooLong`, `tooFewItems`, `tooManyItems`: the bound.
    public let bound: UInt64
    /// The error's name, for logs.
    public let reason: String
}

/// A URL warning (`MRTR_URL_WARN_*`): something the consent screen must point out.
public enum UrlWarning: UInt32, Sendable, CaseIterable {
    /// The scheme is not `https`.
    case notHttps = 1
    /// Neither `http` nor `https`: the URL may open another application.
    case unsupportedScheme = 2
    /// A punycode host label (`xn--`), which may show as look-alike Unicode.
    case punycode = 4
    /// A userinfo part (`user@`), often posing as a trusted name.
    case userinfo = 8
    /// The host is an IP address.
    case ipLiteral = 16
    /// The host has non-ASCII characters (possible look-alikes).
    case nonAsciiHost = 32
    /// The URL has no host (`mailto:`, `file:///...`).
    case noHost = 64
}

/// A URL split for the consent screen. Show `host` as the destination, never `userinfo`.
public struct UrlConsent: Sendable, Equatable {
    /// The scheme as written (compare it case-insensitively).
    public let scheme: String
    /// The userinfo part (`user@`), or nil: never show it as the destination.
    public let userinfo: String?
    /// The host the link goes to (an IPv6 address with its brackets); empty when the URL has none.
    public let host: String
    /// The explicit port, or nil.
    public let port: Int?
    /// The path, possibly empty.
    public let path: String
    /// The query without its `?`, or nil.
    public let query: String?
    /// The fragment without its `#`, or nil.
    public let fragment: String?
    /// What the consent screen must point out (empty when nothing).
    public let warnings: Set<UrlWarning>
}

/// Why a URL was refused: `reason` names the cause, `offset` the offending byte when known.
public struct UrlRefusal: Sendable, Equatable {
    /// The name of the cause, for logs (`"Backslash"`, `"AmbiguousIpv4"`, ...).
    public let reason: String
    /// The byte offset of the offending character in the URL; nil when the cause names no position.
    public let offset: Int?
}

/// The form and URL helpers of the C API, over bytes the app holds.
public enum Form {
    /// The fields of `schema` (a `requestedSchema`), or throws `.invalidSchema` / `.json`.
    public static func fields(_ schema: [UInt8]) throws -> [FormField] {
        var count = 0
        var err = mrtr_schema_error()
        try withStr(schema) { s in try check(mrtr_form_parse(s, &count, &err), "mrtr_form_parse") }
        return try (0..<count).map { try field(schema, $0) }
    }

    /// nil when `schema` is acceptable, else why not. Other failures (not JSON, too deep) throw.
    public static func schemaError(_ schema: [UInt8]) throws -> SchemaError? {
        try withStr(schema) { s in
            var count = 0
            var err = mrtr_schema_error()
            let st = mrtr_form_parse(s, &count, &err)
            if st == MRTR_OK { return nil }
            guard st == MRTR_ERR_INVALID_SCHEMA else { throw MrtrError(rawCode: Int32(st.rawValue), operation: "mrtr_form_parse") }
            return SchemaError(
                property: err.property.len == 0 ? nil : try viewText(err.property, escaped: err.property_escaped),
                keyword: err.keyword.len == 0 ? nil : try viewText(err.keyword, escaped: false),
                reason: err.reason.map { String(cString: $0) } ?? "",
                defaultError: FieldError(rawValue: err.default_error.rawValue) ?? .none)
        }
    }

    /// nil when `content` answers the form of `schema`; else the first problem.
    public static func validate(_ schema: [UInt8], _ content: [UInt8]) throws -> FormError? {
        try withStr(schema) { s in
            try withStr(content) { c in
                var err = mrtr_form_error()
                let st = mrtr_form_validate(s, c, &err)
                if st == MRTR_OK { return nil }
                guard st == MRTR_ERR_INVALID_VALUE else { throw MrtrError(rawCode: Int32(st.rawValue), operation: "mrtr_form_validate") }
                return FormError(
                    field: err.field.len == 0 ? nil : try viewText(err.field, escaped: err.field_escaped),
                    fieldIndex: err.field_index == Int.max || err.field_index == -1 ? nil : err.field_index,
                    error: FieldError(rawValue: err.error.rawValue) ?? .none,
                    bound: err.bound,
                    reason: err.reason.map { String(cString: $0) } ?? "")
            }
        }
    }

    /// The consent facts of `url`, or the refusal. Other misuse throws.
    public static func urlConsent(_ url: String) throws -> (UrlConsent?, UrlRefusal?) {
        try withStr(Array(url.utf8)) { u in
            var info = mrtr_url_info()
            var refusal = mrtr_url_refusal()
            let st = mrtr_url_consent(u, &info, &refusal)
            if st == MRTR_ERR_REFUSED_URL {
                return (nil, UrlRefusal(reason: refusal.reason.map { String(cString: $0) } ?? "", offset: refusal.has_offset ? refusal.offset : nil))
            }
            try check(st, "mrtr_url_consent")
            let consent = UrlConsent(
                scheme: text(info.scheme), userinfo: info.has_userinfo ? text(info.userinfo) : nil, host: text(info.host),
                port: info.has_port ? Int(info.port) : nil, path: text(info.path),
                query: info.has_query ? text(info.query) : nil, fragment: info.has_fragment ? text(info.fragment) : nil,
                warnings: Set(UrlWarning.allCases.filter { info.warnings & $0.rawValue != 0 }))
            return (consent, nil)
        }
    }

    private static func field(_ schema: [UInt8], _ i: Int) throws -> FormField {
        var f = mrtr_form_field()
        try withStr(schema) { s in try check(mrtr_form_field_at(s, i, &f), "mrtr_form_field_at") }
        let options: [FormOption] = try (0..<f.option_count).map { o in
            var opt = mrtr_form_option()
            try withStr(schema) { s in try check(mrtr_form_option_at(s, i, o, &opt), "mrtr_form_option_at") }
            return FormOption(
                value: try formText(schema, i, o, textOptionValue) ?? "",
                title: opt.has_title ? try formText(schema, i, o, textOptionTitle) : nil)
        }
        let minimumText = f.has_minimum ? String(decoding: bytes(f.minimum_json), as: UTF8.self) : nil
        let maximumText = f.has_maximum ? String(decoding: bytes(f.maximum_json), as: UTF8.self) : nil
        return FormField(
            name: try formText(schema, i, 0, textName) ?? "",
            title: try formText(schema, i, 0, textTitle),
            description: try formText(schema, i, 0, textDescription),
            kind: FieldKind(rawValue: f.kind.rawValue) ?? .text,
            format: StringFormat(rawValue: f.format.rawValue) ?? .none,
            required: f.required,
            minLength: f.has_min_length ? f.min_length : nil,
            maxLength: f.has_max_length ? f.max_length : nil,
            // The library keeps bounds as exact decimal text (no float code in
            // it); Swift's parser gives the nearest Double (±infinity beyond).
            minimum: minimumText.flatMap { Double($0) },
            maximum: maximumText.flatMap { Double($0) },
            minimumText: minimumText,
            maximumText: maximumText,
            minItems: f.has_min_items ? f.min_items : nil,
            maxItems: f.has_max_items ? f.max_items : nil,
            options: options,
            defaultJson: f.default_json.len == 0 ? nil : bytes(f.default_json))
    }

    // MRTR_FORM_TEXT_* (written out: Swift imports shifted macros unevenly).
    private static let textName: UInt32 = 1
    private static let textTitle: UInt32 = 1 << 1
    private static let textDescription: UInt32 = 1 << 2
    private static let textOptionValue: UInt32 = 1 << 3
    private static let textOptionTitle: UInt32 = 1 << 4

    /// A decoded form text; nil when absent (`notFound`).
    private static func formText(_ schema: [UInt8], _ field: Int, _ option: Int, _ which: UInt32) throws -> String? {
        do {
            let b = try withStr(schema) { s in
                try writeOut("mrtr_form_text", guess: 64) { out, cap, w in mrtr_form_text(s, field, option, which, out, cap, w, nil) }
            }
            return String(decoding: b, as: UTF8.self)
        } catch let e as MrtrError where e.code == .notFound {
            return nil
        }
    }
}

/// Calls `body` with `bytes` as an `mrtr_str` (valid only during the call).
func withStr<T>(_ bytes: [UInt8], _ body: (mrtr_str) throws -> T) rethrows -> T {
    try bytes.withUnsafeBufferPointer { b in
        try b.withMemoryRebound(to: CChar.self) { c in try body(mrtr_str(ptr: c.baseAddress, len: c.count)) }
    }
}

/// A copy of the bytes of a view.
func bytes(_ s: mrtr_str) -> [UInt8] {
    guard let p = s.ptr, s.len > 0 else { return [] }
    return p.withMemoryRebound(to: UInt8.self, capacity: s.len) { Array(UnsafeBufferPointer(start: $0, count: s.len)) }
}

/// The text of a view (UTF-8, as the library checked it).
func text(_ s: mrtr_str) -> String { String(decoding: bytes(s), as: UTF8.self) }

/// The text of a view that may hold JSON-escaped text without quotes, decoded by the library.
func viewText(_ s: mrtr_str, escaped: Bool) throws -> String {
    guard escaped else { return text(s) }
    return String(decoding: try decodeJsonString([0x22] + bytes(s) + [0x22]), as: UTF8.self)
}

/// The decoded bytes of a JSON string literal (quotes included).
func decodeJsonString(_ token: [UInt8]) throws -> [UInt8] {
    try token.withUnsafeBufferPointer { t in
        try writeOut("mrtr_json_decode_string", guess: max(t.count, 1)) { out, cap, w in
            mrtr_json_decode_string(t.baseAddress, t.count, out, cap, w)
        }
    }
}
