// Tests of include/mrtr.hpp (stage `cpp`): what the C++ layer adds over
// the C API, checked with exact values.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "mrtr.hpp"

static int failures = 0;

#define EXPECT(cond)                                                            \
    do {                                                                        \
        if (!(cond)) {                                                          \
            std::fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                         \
        }                                                                       \
    } while (0)

// A copied workspace is a dead handle in C: the owning Call cannot be copied.
static_assert(!std::is_copy_constructible_v<mrtr::Call>, "Call must not be copyable");
static_assert(!std::is_copy_assignable_v<mrtr::Call>, "Call must not be copy-assignable");
static_assert(std::is_nothrow_move_constructible_v<mrtr::Call>, "Call moves without throwing");
// A sealer's memory holds derived keys: one owner, wiped once.
static_assert(!std::is_copy_constructible_v<mrtr::Sealer>, "Sealer must not be copyable");
static_assert(std::is_nothrow_move_constructible_v<mrtr::Sealer>, "Sealer moves without throwing");

static mrtr::Call tool_call() {
    return mrtr::Call(MRTR_METHOD_TOOLS_CALL, R"({"name":"deploy"})", MRTR_CAP_ELICITATION_FORM);
}

// One form question whose message has JSON escapes (a quote and a newline).
static const std::string_view kAsk =
    R"({"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":)"
    R"({"confirm":{"method":"elicitation/create","params":{"mode":"form",)"
    R"("message":"He said \"hi\"\nok","requestedSchema":{"type":"object",)"
    R"("properties":{"ok":{"type":"boolean"}},"required":["ok"]}}}},"requestState":"s1"}})";

static void test_a_moved_call_keeps_working_and_its_texts_come_back_decoded() {
    mrtr::Call first = tool_call();
    std::string req(first.write_request());
    EXPECT(req.find(R"("id":1)") != std::string::npos);
    EXPECT(req.find(R"("name":"deploy")") != std::string::npos);
    mrtr::Call call = std::move(first);
    EXPECT(first.get() == nullptr);
    mrtr_event ev = call.feed(kAsk);
    EXPECT(ev.kind == MRTR_EVENT_INPUT_REQUIRED);
    EXPECT(ev.input_count == 1);
    mrtr::Input in = call.input(0);
    EXPECT(in.kind == MRTR_INPUT_ELICIT_FORM);
    EXPECT(in.key == "confirm");
    EXPECT(in.message == "He said \"hi\"\nok");
    EXPECT(in.raw.escaped == MRTR_TEXT_MESSAGE);
    call.answer_elicit(0, MRTR_ELICIT_ACCEPT, R"({"ok":true})");
    std::string retry(call.write_request());
    EXPECT(retry.find(R"("id":2)") != std::string::npos);
    EXPECT(retry.find(R"("inputResponses":{"confirm":{"action":"accept","content":{"ok":true}}})") !=
           std::string::npos);
    EXPECT(retry.find(R"("requestState":"s1")") != std::string::npos);
    const std::string done =
        R"({"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"done"}]}})";
    EXPECT(call.feed(done).kind == MRTR_EVENT_COMPLETE);
    EXPECT(call.result(done) == R"({"content":[{"type":"text","text":"done"}]})");
}

static void test_a_failed_call_throws_the_status_and_the_reason() {
    mrtr::Call call = tool_call();
    (void)call.write_request();
    try {
        call.feed(R"({"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}})");
        EXPECT(!"feed of an input_required without inputRequests must throw");
    } catch (const mrtr::Error &e) {
        EXPECT(e.status() == MRTR_ERR_PROTOCOL_VIOLATION);
        // The reason is the library's (mrtr_call_failure), not the bare status.
        EXPECT(std::string(e.what()) ==
               "mrtr_call_feed: MRTR_ERR_PROTOCOL_VIOLATION: InputRequiredWithoutFields");
        EXPECT(std::string(e.reason()) == "InputRequiredWithoutFields");
    }
    EXPECT(call.progress().phase == MRTR_PHASE_FAILED);
}

static void test_bad_params_throw_at_construction() {
    try {
        mrtr::Call call(MRTR_METHOD_TOOLS_CALL, R"({"arguments":{}})", 0);
        EXPECT(!"params without name must throw");
    } catch (const mrtr::Error &e) {
        EXPECT(e.status() == MRTR_ERR_INVALID_ARGUMENT);
        // The cause, not only the status (params without `name`).
        EXPECT(std::string(e.what()) == "mrtr_call_init: MRTR_ERR_INVALID_ARGUMENT: MissingTarget");
        EXPECT(std::string(e.reason()) == "MissingTarget");
    }
}

// One form question whose answer must be one of two options.
static const std::string_view kEnvAsk =
    R"({"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":)"
    R"({"env":{"method":"elicitation/create","params":{"message":"Which environment?",)"
    R"("requestedSchema":{"type":"object","properties":{"env":{"type":"string",)"
    R"("enum":["dev","prod"]}},"required":["env"]}}}},"requestState":"s1"}})";

// Issue 28 item 3: a status with several causes comes with the one met.
static void test_every_call_function_throws_the_cause_c_names() {
    mrtr::Call call = tool_call();
    (void)call.write_request();
    (void)call.feed(kEnvAsk);
    try {
        call.answer_elicit(0, MRTR_ELICIT_ACCEPT, R"({"env":"staging"})");
        EXPECT(!"a value none of the options must throw");
    } catch (const mrtr::Error &e) {
        EXPECT(e.status() == MRTR_ERR_INVALID_VALUE);
        EXPECT(std::string(e.reason()) == "NotAnOption");
        EXPECT(std::string(e.what()) == "mrtr_call_answer_elicit: MRTR_ERR_INVALID_VALUE: NotAnOption");
    }
    // Refused, not taken: the call still waits for the answer.
    EXPECT(call.progress().phase == MRTR_PHASE_ANSWERING);
    call.answer_elicit(0, MRTR_ELICIT_ACCEPT, R"({"env":"prod"})");
    try {
        (void)call.write_request(1);
        EXPECT(!"a reused id must throw");
    } catch (const mrtr::Error &e) {
        EXPECT(e.status() == MRTR_ERR_INVALID_ARGUMENT);
        EXPECT(std::string(e.what()) == "mrtr_call_write_request: MRTR_ERR_INVALID_ARGUMENT: IdNotFresh");
    }
    // A status with one cause names itself; what() does not repeat it.
    try {
        (void)call.input(5);
        EXPECT(!"no input 5");
    } catch (const mrtr::Error &e) {
        EXPECT(std::string(e.reason()) == "MRTR_ERR_NOT_FOUND");
        EXPECT(std::string(e.what()) == "mrtr_call_input_at: MRTR_ERR_NOT_FOUND");
    }
}

static void test_restore_takes_a_save_and_names_why_it_refuses_one() {
    mrtr::Call call = tool_call();
    (void)call.write_request();
    (void)call.feed(kEnvAsk);
    const std::string saved = call.save();
    mrtr::Call back = mrtr::Call::restore(saved);
    EXPECT(back.progress().phase == MRTR_PHASE_ANSWERING);
    EXPECT(back.input(0).key == "env");
    try {
        (void)mrtr::Call::restore(std::string_view(saved).substr(0, saved.size() - 1));
        EXPECT(!"a damaged save must throw");
    } catch (const mrtr::Error &e) {
        EXPECT(e.status() == MRTR_ERR_INVALID_ARGUMENT);
        EXPECT(std::string(e.reason()) == "Decode");
        EXPECT(std::string(e.what()) == "mrtr_call_restore: MRTR_ERR_INVALID_ARGUMENT: Decode");
    }
}

static void test_a_refused_sealer_names_the_cause() {
    const std::string key(32, '\0');
    std::string good;
    for (int i = 0; i < 32; i++) good.push_back(static_cast<char>(i * 7 + 1));
    try {
        mrtr::Sealer s({good}, "");
        EXPECT(!"an empty audience must throw");
    } catch (const mrtr::Error &e) {
        EXPECT(e.status() == MRTR_ERR_INVALID_ARGUMENT);
        EXPECT(std::string(e.reason()) == "EmptyAudience");
        EXPECT(std::string(e.what()) == "mrtr_sealer_init: MRTR_ERR_INVALID_ARGUMENT: EmptyAudience");
    }
    try {
        mrtr::Sealer s({key}, "svc");
        EXPECT(!"a key of one byte value must throw");
    } catch (const mrtr::Error &e) {
        EXPECT(e.status() == MRTR_ERR_KEY_ERROR);
        EXPECT(std::string(e.reason()) == "WeakKey");
    }
    mrtr::Sealer s({good}, "svc");
    EXPECT(s.get() != nullptr);
    mrtr::Sealer moved = std::move(s);
    EXPECT(s.get() == nullptr);
    EXPECT(moved.get() != nullptr);
}

int main() {
    test_a_moved_call_keeps_working_and_its_texts_come_back_decoded();
    test_a_failed_call_throws_the_status_and_the_reason();
    test_bad_params_throw_at_construction();
    test_every_call_function_throws_the_cause_c_names();
    test_restore_takes_a_save_and_names_why_it_refuses_one();
    test_a_refused_sealer_names_the_cause();
    if (failures != 0) {
        std::fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    std::printf("ok   mrtr.hpp: 6 tests\n");
    return 0;
}
