// mrtr.hpp: a header-only C++17 layer over include/mrtr.h.
//
// It owns what C leaves to the caller and decides nothing: every protocol
// rule stays in the library. What it adds:
// - mrtr::Call owns its workspace (heap, sized by the library) and cannot
//   be copied (a copied workspace is a dead handle in C); it can be moved,
//   because the workspace itself never moves.
// - std::string_view in and out; JSON-escaped texts come back decoded.
// - Failures throw mrtr::Error, which carries the status, its name and the
//   cause the library names beside it (Error::reason(), also at the end of
//   what()): for a function on a call, mrtr_call_check's ("NotAnOption": a
//   form value none of its options, "IdNotFresh", ...), or mrtr_call_failure's
//   when the function failed the call ("InputRequiredWithoutFields"); for
//   Call::restore and Sealer their out_reason ("Decode", "EmptyAudience");
//   else the status's own name.
//
// Quick start: a complete translation unit, compiled and run as copied by
// the test command (scripts/test-cpp); examples/cpp-client/work_item.cpp is a
// whole program on it (the demo server's two-round flow over stdio, built
// against the installed package by examples/newcomer/README.md).
//
//   #include <functional>
//   #include <stdexcept>
//   #include <string>
//   #include "mrtr.hpp"
//
//   // Calls the tool "deploy", accepting every form with {"ok":true}.
//   // `exchange` sends one request and returns the response to it.
//   std::string deploy(const std::function<std::string(std::string_view)> &exchange) {
//       mrtr::Call call(MRTR_METHOD_TOOLS_CALL, R"({"name":"deploy"})",
//                       MRTR_CAP_ELICITATION_FORM);
//       for (;;) {
//           std::string msg = exchange(call.write_request());
//           mrtr_event ev = call.feed(msg);  // throws mrtr::Error with the reason
//           if (ev.kind == MRTR_EVENT_COMPLETE) return std::string(call.result(msg));
//           if (ev.kind == MRTR_EVENT_RPC_ERROR) throw std::runtime_error("refused");
//           for (size_t i = 0; i < ev.input_count; i++)  // INPUT_REQUIRED
//               call.answer_elicit(i, MRTR_ELICIT_ACCEPT, R"({"ok":true})");
//           // RETRY_AFTER: wait ev.wait_ms before the next request.
//       }
//   }
//
// SPDX-License-Identifier: MIT OR Apache-2.0
#ifndef MRTR_HPP
#define MRTR_HPP

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mrtr.h"

namespace mrtr {

/// A failed library call: the status, and the cause the library names for
/// it (the status's own name when it names none). what() is
/// "function: MRTR_ERR_...: Cause" (": Cause" left out when it is the
/// status's name).
class Error : public std::runtime_error {
public:
    Error(mrtr_status status, const std::string &what)
        : std::runtime_error(what), status_(status), reason_(mrtr_status_str(status)) {}
    /// `reason` a static name from the library ("NotAnOption"), or NULL: the
    /// status's own name stands for it.
    Error(mrtr_status status, const std::string &what, const char *reason)
        : std::runtime_error(what), status_(status),
          reason_(reason != nullptr ? reason : mrtr_status_str(status)) {}
    /// The status the library returned.
    mrtr_status status() const noexcept { return status_; }
    /// The cause's static name ("NotAnOption", "Decode", "MRTR_ERR_NOT_FOUND").
    const char *reason() const noexcept { return reason_; }

private:
    mrtr_status status_;
    const char *reason_;
};

/// The C string view of a std::string_view (no copy).
inline mrtr_str str(std::string_view s) noexcept { return mrtr_str{s.data(), s.size()}; }

/// The std::string_view of a C string view (no copy).
inline std::string_view view(mrtr_str s) noexcept { return std::string_view(s.ptr, s.len); }

/// The bytes of `msg` a span of an event points to.
inline std::string_view view(std::string_view msg, mrtr_span s) {
    return msg.substr(s.offset, s.len);
}

/// The Error for `status` (not MRTR_OK) of function `what`, with its
/// cause `reason` (NULL: the status's own name).
inline Error error(mrtr_status status, const char *what, const char *reason = nullptr) {
    std::string msg = std::string(what) + ": " + mrtr_status_str(status);
    if (reason != nullptr && std::string_view(reason) != mrtr_status_str(status)) {
        msg += ": ";
        msg += reason;
    }
    return Error(status, msg, reason);
}

/// Throws Error for any status but MRTR_OK; `what` names the function.
inline void check(mrtr_status status, const char *what) {
    if (status != MRTR_OK) throw error(status, what);
}

/// The cause of status `status` that a function on `call` just returned:
/// mrtr_call_check's, or mrtr_call_failure's (finer) when that function
/// failed the call with it; the handle's refusal for no live call. Read in
/// that order: every function on the call replaces what it remembers.
inline const char *call_reason(const mrtr_call *call, mrtr_status status) noexcept {
    const char *why = nullptr;
    if (mrtr_call_check(call, &why) != MRTR_OK) return why;
    mrtr_failure f{};
    if (mrtr_call_failure(call, &f) == MRTR_OK && f.status == status && f.reason != nullptr &&
        f.reason[0] != '\0') {
        return f.reason;
    }
    return why;
}

namespace detail {
// Runs a C writer with the library's output convention: on
// MRTR_ERR_BUFFER_TOO_SMALL the size needed comes back and it runs again.
// `fail(status)` throws for any other failure.
template <class Write, class Fail>
std::string_view write_grow(std::vector<std::uint8_t> &buf, const char *what, Write write,
                            Fail fail) {
    for (int attempt = 0; attempt < 2; attempt++) {
        std::size_t n = 0;
        mrtr_status st = write(buf.data(), buf.size(), &n);
        if (st == MRTR_ERR_BUFFER_TOO_SMALL && attempt == 0) {
            buf.resize(n);
            continue;
        }
        if (st != MRTR_OK) fail(st);
        return std::string_view(reinterpret_cast<const char *>(buf.data()), n);
    }
    throw Error(MRTR_ERR_BUFFER_TOO_SMALL, std::string(what) + ": size changed between tries");
}

template <class Write>
std::string_view write_grow(std::vector<std::uint8_t> &buf, const char *what, Write write) {
    return write_grow(buf, what, write, [what](mrtr_status st) { check(st, what); });
}

template <class Write, class Fail>
std::string write_string(const char *what, std::size_t guess, Write write, Fail fail) {
    std::vector<std::uint8_t> buf(guess == 0 ? 1 : guess);
    return std::string(write_grow(buf, what, write, fail));
}

template <class Write> std::string write_string(const char *what, std::size_t guess, Write write) {
    return write_string(what, guess, write, [what](mrtr_status st) { check(st, what); });
}

struct alignas(MRTR_WORKSPACE_ALIGN) Block {
    unsigned char bytes[MRTR_WORKSPACE_ALIGN];
};
} // namespace detail

/// Decodes one JSON string literal, quotes included (`"caf\u00e9"` ->
/// `café`), as an event's spans give them (the error message of an
/// MRTR_EVENT_RPC_ERROR, a task id). Throws Error (MRTR_ERR_JSON) for
/// anything else.
inline std::string decode_string(std::string_view literal) {
    // A decoded string is never longer than its literal.
    return detail::write_string("mrtr_json_decode_string", literal.size(),
                                [&](std::uint8_t *o, std::size_t cap, std::size_t *n) {
                                    return mrtr_json_decode_string(
                                        reinterpret_cast<const std::uint8_t *>(literal.data()),
                                        literal.size(), o, cap, n);
                                });
}

/// One input request of the current round, its texts decoded.
struct Input {
    mrtr_input_kind kind;        ///< elicitation form/URL, sampling, roots
    std::string key;             ///< the server's name for it
    std::string message;         ///< elicitation message (empty if none)
    std::string url;             ///< URL-mode elicitation's URL (empty if none)
    std::string_view requested_schema; ///< form schema, JSON (empty if none)
    std::string_view params;     ///< the raw request params, JSON
    mrtr_input raw;              ///< everything else, as C sees it
};

/// A client call (tools/call, prompts/get, resources/read) and the task it
/// may become. Owns its workspace; not copyable, movable.
class Call {
public:
    /// Starts a call from a full C config (limits, task restart, ...).
    explicit Call(mrtr_call_config config) {
        std::size_t size = 0;
        check(mrtr_call_workspace_size(config.limits, &size), "mrtr_call_workspace_size");
        std::size_t blocks = (size + sizeof(detail::Block) - 1) / sizeof(detail::Block);
        ws_.reset(new detail::Block[blocks]);
        const char *why = nullptr;
        config.out_reason = &why;
        mrtr_status st = mrtr_call_init(ws_.get(), blocks * sizeof(detail::Block), &config, &call_);
        if (st != MRTR_OK) throw error(st, "mrtr_call_init", why);
    }

    /// Restores a call or task from the bytes of save() (untrusted: checked
    /// again) under `limits` (nullptr: the defaults). A refusal throws Error
    /// with the cause: "Decode" (not a save), "Version", "TooLarge", ...
    static Call restore(std::string_view saved, const mrtr_call_limits *limits = nullptr) {
        std::size_t size = 0;
        check(mrtr_call_workspace_size(limits, &size), "mrtr_call_workspace_size");
        Call c;
        std::size_t blocks = (size + sizeof(detail::Block) - 1) / sizeof(detail::Block);
        c.ws_.reset(new detail::Block[blocks]);
        const char *why = nullptr;
        mrtr_status st = mrtr_call_restore(c.ws_.get(), blocks * sizeof(detail::Block), limits,
                                           reinterpret_cast<const std::uint8_t *>(saved.data()),
                                           saved.size(), &c.call_, &why);
        if (st != MRTR_OK) throw error(st, "mrtr_call_restore", why);
        return c;
    }

    /// Starts a call of `method` with `params` (a JSON object), declaring
    /// the `caps` (MRTR_CAP_* bits) this app can answer.
    Call(mrtr_method method, std::string_view params, std::uint32_t caps)
        : Call(config(method, params, caps)) {}

    Call(const Call &) = delete;
    Call &operator=(const Call &) = delete;
    /// Moves the call: the workspace stays where it is, so the handle
    /// stays valid; the moved-from Call holds nothing.
    Call(Call &&other) noexcept
        : ws_(std::move(other.ws_)), call_(std::exchange(other.call_, nullptr)),
          out_(std::move(other.out_)) {}
    Call &operator=(Call &&other) noexcept {
        ws_ = std::move(other.ws_);
        call_ = std::exchange(other.call_, nullptr);
        out_ = std::move(other.out_);
        return *this;
    }

    /// The C handle, for functions this layer does not wrap.
    mrtr_call *get() const noexcept { return call_; }

    /// Where the call is (phase, round, ids, the echoed requestState).
    mrtr_progress progress() const {
        mrtr_progress p;
        on(mrtr_call_progress(call_, &p), "mrtr_call_progress");
        return p;
    }

    /// Writes the next request with the id the call suggests; the view
    /// stays valid until the next write.
    std::string_view write_request() {
        mrtr_progress p = progress();
        return write_request(p.next_id);
    }

    /// Writes the next request with JSON-RPC id `id`.
    std::string_view write_request(std::int64_t id) {
        return detail::write_grow(
            out_, "mrtr_call_write_request",
            [&](std::uint8_t *o, std::size_t cap, std::size_t *n) {
                return mrtr_call_write_request(call_, id, o, cap, n);
            },
            [&](mrtr_status st) { on(st, "mrtr_call_write_request"); });
    }

    /// A versioned record of the call (READY, SENT or ANSWERING) for
    /// restore().
    std::string save() const {
        return detail::write_string(
            "mrtr_call_save", 4096,
            [&](std::uint8_t *o, std::size_t cap, std::size_t *n) {
                return mrtr_call_save(call_, o, cap, n);
            },
            [&](mrtr_status st) { on(st, "mrtr_call_save"); });
    }

    /// Feeds one complete message received while SENT. The event's spans
    /// point into `msg`: keep it while you use them. A terminal failure
    /// throws Error carrying the library's reason.
    mrtr_event feed(std::string_view msg) {
        mrtr_event ev;
        on(mrtr_call_feed(call_, reinterpret_cast<const std::uint8_t *>(msg.data()), msg.size(),
                          &ev),
           "mrtr_call_feed");
        return ev;
    }

    /// Input `index` of the current round, texts decoded.
    Input input(std::size_t index) const {
        mrtr_input in;
        on(mrtr_call_input_at(call_, index, &in), "mrtr_call_input_at");
        Input out{in.kind, text(index, in, MRTR_TEXT_KEY), text(index, in, MRTR_TEXT_MESSAGE),
                  text(index, in, MRTR_TEXT_URL), view(in.requested_schema), view(in.params), in};
        return out;
    }

    /// Answers elicitation `index` (MRTR_ELICIT_*); `content` is the form's
    /// answer as a JSON object for a form accept, empty otherwise. Content
    /// the form refuses throws Error (MRTR_ERR_INVALID_VALUE) naming why:
    /// "NotAnOption", "ContentRequired", ...
    void answer_elicit(std::size_t index, std::uint32_t action, std::string_view content = {}) {
        on(mrtr_call_answer_elicit(call_, index, action, str(content)), "mrtr_call_answer_elicit");
    }

    /// Answers input `index` with the raw JSON result of its kind.
    void answer_json(std::size_t index, std::string_view json) {
        on(mrtr_call_answer_json(call_, index, str(json)), "mrtr_call_answer_json");
    }

    /// The final result inside `fed`, the message whose feed completed it.
    std::string_view result(std::string_view fed) const {
        mrtr_str r;
        on(mrtr_call_result(call_, reinterpret_cast<const std::uint8_t *>(fed.data()), fed.size(),
                            &r),
           "mrtr_call_result");
        return view(r);
    }

private:
    Call() = default;

    static mrtr_call_config config(mrtr_method method, std::string_view params, std::uint32_t caps) {
        mrtr_call_config c{};
        c.method = static_cast<std::uint32_t>(method);
        c.params = str(params);
        c.caps = caps;
        return c;
    }

    std::string text(std::size_t index, const mrtr_input &in, std::uint32_t field) const {
        mrtr_str raw = field == MRTR_TEXT_KEY ? in.key : field == MRTR_TEXT_MESSAGE ? in.message : in.url;
        if ((in.escaped & field) == 0) return std::string(view(raw));
        // Decoded text is never longer than its escaped form.
        return detail::write_string(
            "mrtr_call_input_text", raw.len,
            [&](std::uint8_t *o, std::size_t cap, std::size_t *n) {
                return mrtr_call_input_text(call_, index, field, o, cap, n);
            },
            [&](mrtr_status st) { on(st, "mrtr_call_input_text"); });
    }

    // Throws Error for status `st` of function `what` on this call, with
    // the cause the call names (call_reason), unless it is MRTR_OK.
    void on(mrtr_status st, const char *what) const {
        if (st != MRTR_OK) throw error(st, what, call_reason(call_, st));
    }

    std::unique_ptr<detail::Block[]> ws_;
    mrtr_call *call_ = nullptr;
    std::vector<std::uint8_t> out_ = std::vector<std::uint8_t>(1024);
};

/// A server's sealer of requestState (mrtr_sealer_*) in memory it owns:
/// wiped (derived keys included) when destroyed. Not copyable, movable.
class Sealer {
public:
    /// `keys`: 1 to MRTR_SEAL_MAX_KEYS secrets of at least 32 random bytes
    /// (keys[0] seals, all unseal); `audience` names the service; 0 for
    /// `ttl_seconds` and `max_token` take the defaults. A refusal throws
    /// Error with the cause: "EmptyAudience", "KeyTooShort", "WeakKey", ...
    Sealer(const std::vector<std::string_view> &keys, std::string_view audience,
           std::uint64_t ttl_seconds = 0, std::uint64_t skew_seconds = MRTR_SEAL_DEFAULT_SKEW_SECONDS,
           std::size_t max_token = 0) {
        std::vector<mrtr_bytes> ring;
        for (std::string_view k : keys) {
            ring.push_back(mrtr_bytes{reinterpret_cast<const std::uint8_t *>(k.data()), k.size()});
        }
        std::size_t size = mrtr_sealer_size();
        std::size_t blocks = (size + sizeof(detail::Block) - 1) / sizeof(detail::Block);
        ws_.reset(new detail::Block[blocks]());
        const char *why = nullptr;
        mrtr_status st = mrtr_sealer_init(ws_.get(), blocks * sizeof(detail::Block), ring.data(),
                                          ring.size(), str(audience), ttl_seconds, skew_seconds,
                                          max_token, &sealer_, &why);
        if (st != MRTR_OK) throw error(st, "mrtr_sealer_init", why);
    }

    Sealer(const Sealer &) = delete;
    Sealer &operator=(const Sealer &) = delete;
    /// Moves the sealer: its memory stays where it is.
    Sealer(Sealer &&other) noexcept
        : ws_(std::move(other.ws_)), sealer_(std::exchange(other.sealer_, nullptr)) {}
    Sealer &operator=(Sealer &&other) noexcept {
        if (this != &other) {
            wipe();
            ws_ = std::move(other.ws_);
            sealer_ = std::exchange(other.sealer_, nullptr);
        }
        return *this;
    }
    ~Sealer() { wipe(); }

    /// The C handle, for mrtr_seal / mrtr_unseal.
    mrtr_sealer *get() const noexcept { return sealer_; }

private:
    void wipe() noexcept {
        if (sealer_ != nullptr) mrtr_sealer_wipe(sealer_);
        sealer_ = nullptr;
    }

    std::unique_ptr<detail::Block[]> ws_;
    mrtr_sealer *sealer_ = nullptr;
};

} // namespace mrtr

#endif // MRTR_HPP
