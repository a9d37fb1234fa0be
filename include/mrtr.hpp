// mrtr.hpp: a header-only C++17 layer over include/mrtr.h.
//
// It owns what C leaves to the caller and decides nothing: every protocol
// rule stays in the library. What it adds:
// - mrtr::Call owns its workspace (heap, sized by the library) and cannot
//   be copied (a copied workspace is a dead handle in C); it can be moved,
//   because the workspace itself never moves.
// - std::string_view in and out; JSON-escaped texts come back decoded.
// - Failures throw mrtr::Error, which carries the status, its name and,
//   for a call that failed, the library's reason (mrtr_call_failure).
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

/// A failed library call: the status, and the reason when the library
/// knows one (a call that failed: mrtr_call_failure's reason).
class Error : public std::runtime_error {
public:
    Error(mrtr_status status, const std::string &what)
        : std::runtime_error(what), status_(status) {}
    /// The status the library returned.
    mrtr_status status() const noexcept { return status_; }

private:
    mrtr_status status_;
};

/// The C string view of a std::string_view (no copy).
inline mrtr_str str(std::string_view s) noexcept { return mrtr_str{s.data(), s.size()}; }

/// The std::string_view of a C string view (no copy).
inline std::string_view view(mrtr_str s) noexcept { return std::string_view(s.ptr, s.len); }

/// The bytes of `msg` a span of an event points to.
inline std::string_view view(std::string_view msg, mrtr_span s) {
    return msg.substr(s.offset, s.len);
}

/// Throws Error for any status but MRTR_OK; `what` names the function.
inline void check(mrtr_status status, const char *what) {
    if (status != MRTR_OK) {
        throw Error(status, std::string(what) + ": " + mrtr_status_str(status));
    }
}

namespace detail {
// Runs a C writer with the library's output convention: on
// MRTR_ERR_BUFFER_TOO_SMALL the size needed comes back and it runs again.
template <class Write>
std::string_view write_grow(std::vector<std::uint8_t> &buf, const char *what, Write write) {
    for (int attempt = 0; attempt < 2; attempt++) {
        std::size_t n = 0;
        mrtr_status st = write(buf.data(), buf.size(), &n);
        if (st == MRTR_ERR_BUFFER_TOO_SMALL && attempt == 0) {
            buf.resize(n);
            continue;
        }
        check(st, what);
        return std::string_view(reinterpret_cast<const char *>(buf.data()), n);
    }
    throw Error(MRTR_ERR_BUFFER_TOO_SMALL, std::string(what) + ": size changed between tries");
}

template <class Write> std::string write_string(const char *what, std::size_t guess, Write write) {
    std::vector<std::uint8_t> buf(guess == 0 ? 1 : guess);
    return std::string(write_grow(buf, what, write));
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
        check(mrtr_call_init(ws_.get(), blocks * sizeof(detail::Block), &config, &call_),
              "mrtr_call_init");
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
        check(mrtr_call_progress(call_, &p), "mrtr_call_progress");
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
        return detail::write_grow(out_, "mrtr_call_write_request",
                                  [&](std::uint8_t *o, std::size_t cap, std::size_t *n) {
                                      return mrtr_call_write_request(call_, id, o, cap, n);
                                  });
    }

    /// Feeds one complete message received while SENT. The event's spans
    /// point into `msg`: keep it while you use them. A terminal failure
    /// throws Error carrying the library's reason.
    mrtr_event feed(std::string_view msg) {
        mrtr_event ev;
        mrtr_status st = mrtr_call_feed(call_, reinterpret_cast<const std::uint8_t *>(msg.data()),
                                        msg.size(), &ev);
        if (st != MRTR_OK) fail(st, "mrtr_call_feed");
        return ev;
    }

    /// Input `index` of the current round, texts decoded.
    Input input(std::size_t index) const {
        mrtr_input in;
        check(mrtr_call_input_at(call_, index, &in), "mrtr_call_input_at");
        Input out{in.kind, text(index, in, MRTR_TEXT_KEY), text(index, in, MRTR_TEXT_MESSAGE),
                  text(index, in, MRTR_TEXT_URL), view(in.requested_schema), view(in.params), in};
        return out;
    }

    /// Answers elicitation `index` (MRTR_ELICIT_*); `content` is the form's
    /// answer as a JSON object for a form accept, empty otherwise.
    void answer_elicit(std::size_t index, std::uint32_t action, std::string_view content = {}) {
        check(mrtr_call_answer_elicit(call_, index, action, str(content)), "mrtr_call_answer_elicit");
    }

    /// Answers input `index` with the raw JSON result of its kind.
    void answer_json(std::size_t index, std::string_view json) {
        check(mrtr_call_answer_json(call_, index, str(json)), "mrtr_call_answer_json");
    }

    /// The final result inside `fed`, the message whose feed completed it.
    std::string_view result(std::string_view fed) const {
        mrtr_str r;
        check(mrtr_call_result(call_, reinterpret_cast<const std::uint8_t *>(fed.data()), fed.size(),
                               &r),
              "mrtr_call_result");
        return view(r);
    }

private:
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
        return detail::write_string("mrtr_call_input_text", raw.len,
                                    [&](std::uint8_t *o, std::size_t cap, std::size_t *n) {
                                        return mrtr_call_input_text(call_, index, field, o, cap, n);
                                    });
    }

    [[noreturn]] void fail(mrtr_status st, const char *what) const {
        std::string msg = std::string(what) + ": " + mrtr_status_str(st);
        mrtr_failure f;
        if (mrtr_call_failure(call_, &f) == MRTR_OK && f.reason != nullptr) {
            msg += ": ";
            msg += f.reason;
        }
        throw Error(st, msg);
    }

    std::unique_ptr<detail::Block[]> ws_;
    mrtr_call *call_ = nullptr;
    std::vector<std::uint8_t> out_ = std::vector<std::uint8_t>(1024);
};

} // namespace mrtr

#endif // MRTR_HPP
