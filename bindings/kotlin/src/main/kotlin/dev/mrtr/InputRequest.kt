package dev.mrtr

/**
 * One question of an `input_required` round, copied out of the call (it stays valid after
 * the call moves on). [index] is its position in the server's order, [key] the server's key
 * (escapes decoded).
 */
sealed class InputRequest {
    /** Its position in the server's `inputRequests` (0-based): the index every `answer*` call takes. */
    abstract val index: Int

    /** The server's key for it, escapes decoded: the key its answer goes under in `inputResponses`. */
    abstract val key: String

    /** True once the call holds an answer for it in this round; a second answer is refused (reason `"AlreadyAnswered"`). */
    abstract val answered: Boolean

    /**
     * `elicitation/create` in form mode. [fields] are the form's typed fields when the
     * library accepted [requestedSchema]; otherwise null and [schemaError] says why (the
     * protocol's restricted subset was not respected: decline rather than guess).
     */
    class ElicitForm internal constructor(
        override val index: Int,
        override val key: String,
        override val answered: Boolean,
        /** The message to show the user (escapes decoded). */
        val message: String,
        /** The `requestedSchema` object, raw JSON as the server sent it. */
        val requestedSchema: ByteArray,
        /** The form's typed fields; null when the library refused the schema. */
        val fields: List<FormField>?,
        /** Why the library refused the schema; null when it was accepted. */
        val schemaError: SchemaError?,
    ) : InputRequest() {
        /** Null when [content] (a JSON object) answers this form; else its first problem. */
        fun validate(content: ByteArray): FormError? = Form.validate(requestedSchema, content)
    }

    /**
     * `elicitation/create` in URL mode. [consent] holds the facts to show before opening
     * [url] (its real host, warnings); when the library refuses the URL, [consent] is null
     * and [refusal] says why: never offer to open it.
     */
    class ElicitUrl internal constructor(
        override val index: Int,
        override val key: String,
        override val answered: Boolean,
        /** The message to show the user (escapes decoded). */
        val message: String,
        /** The URL to open once the user consents (escapes decoded); never open it when `refusal` is set. */
        val url: String,
        /** The facts to show before opening the URL (its real host, warnings); null when refused. */
        val consent: UrlConsent?,
        /** Why the library refuses the URL; null when it is acceptable. */
        val refusal: UrlRefusal?,
    ) : InputRequest()

    /** `sampling/createMessage`: run [params] (raw JSON) through a model, answer with a `CreateMessageResult`. */
    class Sampling internal constructor(
        override val index: Int,
        override val key: String,
        override val answered: Boolean,
        /** The whole `params` of `sampling/createMessage`, raw JSON. */
        val params: ByteArray,
        /** The request's `maxTokens`. */
        val maxTokens: Long,
        /** The request's `systemPrompt` (escapes decoded); null when absent. */
        val systemPrompt: String?,
        /** True when the request carries `tools`. */
        val hasTools: Boolean,
        /** True when `includeContext` asks for more than `"none"`. */
        val wantsContext: Boolean,
    ) : InputRequest()

    /** `roots/list`: answer with the roots the user shares. */
    class Roots internal constructor(
        override val index: Int,
        override val key: String,
        override val answered: Boolean,
    ) : InputRequest()
}

/**
 * The kind of a form field (`mrtr_field_kind`).
 *
 * @property code The entry's C value (`mrtr_field_kind`).
 */
enum class FieldKind(val code: Int) {
    /** Free text (`minLength`, `maxLength`, `format`). */
    TEXT(1),
    /** A number (`minimum`, `maximum`). */
    NUMBER(2),
    /** A whole number (`minimum`, `maximum`). */
    INTEGER(3),
    /** Yes or no. */
    BOOLEAN(4),
    /** Exactly one of the `options`. */
    SINGLE_SELECT(5),
    /** Any number of distinct `options` (`minItems`, `maxItems`). */
    MULTI_SELECT(6),
}

/**
 * The syntax a text field requires (`mrtr_string_format`).
 *
 * @property code The entry's C value (`mrtr_string_format`).
 */
enum class StringFormat(val code: Int) {
    /** Any text. */
    NONE(0),
    /** An email address. */
    EMAIL(1),
    /** A URI with a scheme. */
    URI(2),
    /** An RFC 3339 date (`2026-07-28`). */
    DATE(3),
    /** An RFC 3339 date-time (`2026-07-28T09:30:00Z`). */
    DATE_TIME(4),
}

/**
 * What is wrong with a form value (`mrtr_field_error`).
 *
 * @property code The entry's C value (`mrtr_field_error`).
 */
enum class FieldError(val code: Int) {
    /** No error. */
    NONE(0),
    /** A required field has no answer. */
    MISSING(1),
    /** The answer has the wrong JSON type. */
    WRONG_TYPE(2),
    /** Shorter than `minLength` (`bound`). */
    TOO_SHORT(3),
    /** Longer than `maxLength` (`bound`). */
    TOO_LONG(4),
    /** Below `minimum`. */
    BELOW_MINIMUM(5),
    /** Above `maximum`. */
    ABOVE_MAXIMUM(6),
    /** A fraction where whole numbers are asked. */
    NOT_AN_INTEGER(7),
    /** Not an email address. */
    BAD_EMAIL(8),
    /** Not a URI. */
    BAD_URI(9),
    /** Not a date. */
    BAD_DATE(10),
    /** Not a date-time. */
    BAD_DATE_TIME(11),
    /** Not one of the options. */
    NOT_AN_OPTION(12),
    /** Fewer selections than `minItems` (`bound`). */
    TOO_FEW_ITEMS(13),
    /** More selections than `maxItems` (`bound`). */
    TOO_MANY_ITEMS(14),
    /** The same option twice. */
    DUPLICATE_ITEM(15),
    /** A field the form does not define. */
    UNKNOWN_FIELD(16),
    /** A field given twice. */
    DUPLICATE_FIELD(17),
    ;

    internal companion object {
        fun of(code: Long) = entries.firstOrNull { it.code.toLong() == code } ?: NONE
    }
}

/** One field of an elicitation form, from the library's form helper. Bounds are null when absent. */
data class FormField(
    /** The property name: the key of the answer. */
    val name: String,
    /** The label to show; null when the schema gives none. */
    val title: String?,
    /** Help text to show; null when the schema gives none. */
    val description: String?,
    /** The input kind: what control to show and what JSON type the answer has. */
    val kind: FieldKind,
    /** Text fields: the syntax the answer must have (email, URI, date, date-time), or none. */
    val format: StringFormat,
    /** True when the answer must contain this field. */
    val required: Boolean,
    /** Text: the fewest characters (Unicode scalar values), or null. */
    val minLength: Long?,
    /** Text: the most characters, or null. */
    val maxLength: Long?,
    /** The lower bound as the nearest Double (a bound beyond its range is infinite). */
    val minimum: Double?,
    /** The upper bound as the nearest Double. */
    val maximum: Double?,
    /** The lower bound exactly as the schema wrote it (JSON number text), or null. */
    val minimumText: String?,
    /** The upper bound exactly as the schema wrote it, or null. */
    val maximumText: String?,
    /** Multi-select: the fewest selections, or null. */
    val minItems: Long?,
    /** Multi-select: the most selections, or null. */
    val maxItems: Long?,
    /** Select fields: the options in schema order. */
    val options: List<FormOption>,
    /** The default value as raw JSON (already checked against the field), or null. */
    val defaultJson: ByteArray?,
)

/**
 * One option of a select field: the [value] sent, the [title] shown (null: show the value).
 *
 * @property value The value the answer sends when this option is chosen.
 * @property title The label to show; null when the schema gives none (show [value]).
 */
data class FormOption(val value: String, val title: String?)

/** Why a `requestedSchema` was refused. */
data class SchemaError(
    /** The property at fault, null for the schema's top level. */
    val property: String?,
    /** The keyword or option value at fault, when the error names one (raw text). */
    val keyword: String?,
    /** The error's name (`"UnsupportedKeyword"`, `"InvalidDefault"`, ...). */
    val reason: String,
    /** When the reason is `"InvalidDefault"`: what is wrong with the default value. */
    val defaultError: FieldError,
)

/** The first problem of a form answer. */
data class FormError(
    /** The field's name (null when the content is not an object). */
    val field: String?,
    /** The field's index in the form, null when the form has no such field. */
    val fieldIndex: Int?,
    /** What is wrong with the field's value. */
    val error: FieldError,
    /** `TOO_SHORT`, `TOO_LONG`, `TOO_FEW_ITEMS`, `TOO_MANY_ITEMS`: the bound. */
    val bound: Long,
    /** The error's name, for logs. */
    val reason: String,
)

/**
 * A URL warning (`MRTR_URL_WARN_*`): something the consent screen must point out.
 *
 * @property bit The entry's C bit (`MRTR_URL_WARN_*`).
 */
enum class UrlWarning(val bit: Int) {
    /** The scheme is not `https`. */
    NOT_HTTPS(1),
    /** Neither `http` nor `https`: the URL may open another application. */
    UNSUPPORTED_SCHEME(1 shl 1),
    /** A punycode host label (`xn--`), which may show as look-alike Unicode. */
    PUNYCODE(1 shl 2),
    /** A userinfo part (`user@`), often posing as a trusted name. */
    USERINFO(1 shl 3),
    /** The host is an IP address. */
    IP_LITERAL(1 shl 4),
    /** The host has non-ASCII characters (possible look-alikes). */
    NON_ASCII_HOST(1 shl 5),
    /** The URL has no host (`mailto:`, `file:///...`). */
    NO_HOST(1 shl 6),
}

/** A URL split for the consent screen. Show [host] as the destination, never [userinfo]. */
data class UrlConsent(
    /** The scheme as written (compare it case-insensitively). */
    val scheme: String,
    /** The userinfo part (`user@`), or null: never show it as the destination. */
    val userinfo: String?,
    /** The host the link goes to (an IPv6 address with its brackets); empty when the URL has none. */
    val host: String,
    /** The explicit port, or null. */
    val port: Int?,
    /** The path, possibly empty. */
    val path: String,
    /** The query without its `?`, or null. */
    val query: String?,
    /** The fragment without its `#`, or null. */
    val fragment: String?,
    /** What the consent screen must point out (empty when nothing). */
    val warnings: Set<UrlWarning>,
)

/**
 * Why a URL was refused: [reason] names the cause, [offset] the offending byte when known.
 *
 * @property reason The name of the cause, for logs (`"Backslash"`, `"AmbiguousIpv4"`, ...).
 * @property offset The byte offset of the offending character in the URL; null when the cause names no position.
 */
data class UrlRefusal(val reason: String, val offset: Long?)

/** The form and URL helpers of the C API, over bytes the app holds. */
object Form {
    /** The fields of [schema] (a `requestedSchema`), or throws [MrtrMessageException] (`INVALID_SCHEMA`, `JSON`). */
    fun fields(schema: ByteArray): List<FormField> {
        val count = LongArray(1)
        val err = LongArray(Native.SCHEMA_ERROR_LEN)
        check(Native.formParse(schema, count, err, arrayOfNulls(1)), "mrtr_form_parse")
        return (0 until count[0].toInt()).map { field(schema, it) }
    }

    /** Null when [schema] is acceptable, else why not. Other failures (not JSON, too deep) throw. */
    fun schemaError(schema: ByteArray): SchemaError? {
        val count = LongArray(1)
        val err = LongArray(Native.SCHEMA_ERROR_LEN)
        val reason = arrayOfNulls<String>(1)
        val st = Native.formParse(schema, count, err, reason)
        if (st == Status.OK.code) return null
        if (st != Status.ERR_INVALID_SCHEMA.code) throw exceptionFor(st, "mrtr_form_parse")
        val property = if (err[Slots.SCHEMA_ERROR_PROPERTY_LEN] == 0L) null else viewText(
            schema, err[Slots.SCHEMA_ERROR_PROPERTY_OFF], err[Slots.SCHEMA_ERROR_PROPERTY_LEN],
            err[Slots.SCHEMA_ERROR_PROPERTY_ESCAPED] != 0L,
        )
        val keyword = if (err[Slots.SCHEMA_ERROR_KEYWORD_LEN] == 0L) null else viewText(
            schema, err[Slots.SCHEMA_ERROR_KEYWORD_OFF], err[Slots.SCHEMA_ERROR_KEYWORD_LEN], false,
        )
        return SchemaError(property, keyword, reason[0] ?: "", FieldError.of(err[Slots.SCHEMA_ERROR_DEFAULT_ERROR]))
    }

    /** Null when [content] answers the form of [schema]; else the first problem. */
    fun validate(schema: ByteArray, content: ByteArray): FormError? {
        val err = LongArray(Native.FORM_ERROR_LEN)
        val reason = arrayOfNulls<String>(1)
        val st = Native.formValidate(schema, content, err, reason)
        if (st == Status.OK.code) return null
        if (st != Status.ERR_INVALID_VALUE.code) throw exceptionFor(st, "mrtr_form_validate")
        val src = if (err[Slots.FORM_ERROR_SOURCE] == 0L) schema else content
        val field = if (err[Slots.FORM_ERROR_FIELD_LEN] == 0L) null else viewText(
            src, err[Slots.FORM_ERROR_FIELD_OFF], err[Slots.FORM_ERROR_FIELD_LEN], err[Slots.FORM_ERROR_FIELD_ESCAPED] != 0L,
        )
        val index = err[Slots.FORM_ERROR_INDEX]
        return FormError(
            field, if (index < 0) null else index.toInt(), FieldError.of(err[Slots.FORM_ERROR_ERROR]),
            err[Slots.FORM_ERROR_BOUND], reason[0] ?: "",
        )
    }

    /** The consent facts of [url], or the refusal. Invalid UTF-8 and other misuse throw. */
    fun urlConsent(url: String): Pair<UrlConsent?, UrlRefusal?> {
        val u = url.toByteArray(Charsets.UTF_8)
        val v = LongArray(Native.URL_LEN)
        val refusal = LongArray(2)
        val reason = arrayOfNulls<String>(1)
        val st = Native.urlConsent(u, v, refusal, reason)
        if (st == Status.ERR_REFUSED_URL.code) {
            return null to UrlRefusal(reason[0] ?: "", if (refusal[1] != 0L) refusal[0] else null)
        }
        check(st, "mrtr_url_consent")
        fun part(off: Int, len: Int) = String(u, v[off].toInt(), v[len].toInt(), Charsets.UTF_8)
        val warnings = UrlWarning.entries.filter { v[Slots.URL_WARNINGS].toInt() and it.bit != 0 }.toSet()
        return UrlConsent(
            scheme = part(Slots.URL_SCHEME_OFF, Slots.URL_SCHEME_LEN),
            userinfo = if (v[Slots.URL_HAS_USERINFO] != 0L) part(Slots.URL_USERINFO_OFF, Slots.URL_USERINFO_LEN) else null,
            host = part(Slots.URL_HOST_OFF, Slots.URL_HOST_LEN),
            port = if (v[Slots.URL_HAS_PORT] != 0L) v[Slots.URL_PORT].toInt() else null,
            path = part(Slots.URL_PATH_OFF, Slots.URL_PATH_LEN),
            query = if (v[Slots.URL_HAS_QUERY] != 0L) part(Slots.URL_QUERY_OFF, Slots.URL_QUERY_LEN) else null,
            fragment = if (v[Slots.URL_HAS_FRAGMENT] != 0L) part(Slots.URL_FRAGMENT_OFF, Slots.URL_FRAGMENT_LEN) else null,
            warnings = warnings,
        ) to null
    }

    private fun field(schema: ByteArray, i: Int): FormField {
        val v = LongArray(Native.FIELD_LEN)
        check(Native.formFieldAt(schema, i.toLong(), v), "mrtr_form_field_at")
        val options = (0 until v[Slots.FIELD_OPTION_COUNT].toInt()).map { o ->
            val ov = LongArray(2)
            check(Native.formOptionAt(schema, i.toLong(), o.toLong(), ov), "mrtr_form_option_at")
            FormOption(
                value = text(schema, i, o, TEXT_OPTION_VALUE) ?: "",
                title = if (ov[1] != 0L) text(schema, i, o, TEXT_OPTION_TITLE) else null,
            )
        }
        val minimumText = if (v[Slots.FIELD_HAS_MINIMUM] != 0L) schema.decodeToString(
            v[Slots.FIELD_MINIMUM_OFF].toInt(), (v[Slots.FIELD_MINIMUM_OFF] + v[Slots.FIELD_MINIMUM_LEN]).toInt(),
        ) else null
        val maximumText = if (v[Slots.FIELD_HAS_MAXIMUM] != 0L) schema.decodeToString(
            v[Slots.FIELD_MAXIMUM_OFF].toInt(), (v[Slots.FIELD_MAXIMUM_OFF] + v[Slots.FIELD_MAXIMUM_LEN]).toInt(),
        ) else null
        return FormField(
            name = text(schema, i, 0, TEXT_NAME) ?: "",
            title = text(schema, i, 0, TEXT_TITLE),
            description = text(schema, i, 0, TEXT_DESCRIPTION),
            kind = FieldKind.entries.firstOrNull { it.code.toLong() == v[Slots.FIELD_KIND] }
                ?: throw exceptionFor(Status.ERR_INTERNAL.code, "unknown field kind ${v[Slots.FIELD_KIND]}"),
            format = StringFormat.entries.firstOrNull { it.code.toLong() == v[Slots.FIELD_FORMAT] } ?: StringFormat.NONE,
            required = v[Slots.FIELD_REQUIRED] != 0L,
            minLength = if (v[Slots.FIELD_HAS_MIN_LENGTH] != 0L) v[Slots.FIELD_MIN_LENGTH] else null,
            maxLength = if (v[Slots.FIELD_HAS_MAX_LENGTH] != 0L) v[Slots.FIELD_MAX_LENGTH] else null,
            minimumText = minimumText,
            maximumText = maximumText,
            // The library keeps bounds as exact decimal text (no float code in
            // it); the JVM's parser gives the nearest Double (±Infinity beyond).
            minimum = minimumText?.toDouble(),
            maximum = maximumText?.toDouble(),
            minItems = if (v[Slots.FIELD_HAS_MIN_ITEMS] != 0L) v[Slots.FIELD_MIN_ITEMS] else null,
            maxItems = if (v[Slots.FIELD_HAS_MAX_ITEMS] != 0L) v[Slots.FIELD_MAX_ITEMS] else null,
            options = options,
            defaultJson = if (v[Slots.FIELD_DEFAULT_LEN] == 0L) null else schema.copyOfRange(
                v[Slots.FIELD_DEFAULT_OFF].toInt(), (v[Slots.FIELD_DEFAULT_OFF] + v[Slots.FIELD_DEFAULT_LEN]).toInt(),
            ),
        )
    }

    /** A decoded form text; null when absent (`NOT_FOUND`). */
    private fun text(schema: ByteArray, field: Int, option: Int, which: Int): String? {
        val written = LongArray(1)
        var buf = ByteArray(64)
        var st = Native.formText(schema, field.toLong(), option.toLong(), which, buf, written)
        if (st == Status.ERR_BUFFER_TOO_SMALL.code) {
            buf = ByteArray(written[0].toInt())
            st = Native.formText(schema, field.toLong(), option.toLong(), which, buf, written)
        }
        if (st == Status.ERR_NOT_FOUND.code) return null
        check(st, "mrtr_form_text")
        return String(buf, 0, written[0].toInt(), Charsets.UTF_8)
    }

    private const val TEXT_NAME = 1
    private const val TEXT_TITLE = 1 shl 1
    private const val TEXT_DESCRIPTION = 1 shl 2
    private const val TEXT_OPTION_VALUE = 1 shl 3
    private const val TEXT_OPTION_TITLE = 1 shl 4
}

/** Text of a view [off]/[len] into [src]; [escaped]: JSON-escaped text without quotes, decoded by the library. */
internal fun viewText(src: ByteArray, off: Long, len: Long, escaped: Boolean): String {
    val raw = src.copyOfRange(off.toInt(), (off + len).toInt())
    if (!escaped) return String(raw, Charsets.UTF_8)
    val token = ByteArray(raw.size + 2)
    token[0] = '"'.code.toByte()
    raw.copyInto(token, 1)
    token[token.size - 1] = '"'.code.toByte()
    return String(decodeJsonString(token, 0, token.size), Charsets.UTF_8)
}

/** The decoded bytes of the JSON string literal at [off], [len] of [src] (quotes included). */
internal fun decodeJsonString(src: ByteArray, off: Int, len: Int): ByteArray =
    writeOut("mrtr_json_decode_string", len) { out, w -> Native.jsonDecodeString(src, off, len, out, w) }
