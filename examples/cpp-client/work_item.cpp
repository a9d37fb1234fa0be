// The demo's two-round flow from C++17 with include/mrtr.hpp: resolves
// Bug #4522 as a duplicate of #4301 through the demo server's
// update_work_item tool. The server asks for the resolution (round 1), then,
// for a Duplicate, which item it duplicates (round 2, the first answer kept
// sealed in requestState).
//
//   work_item SERVER [ARGS...]   spawns SERVER and talks to it over stdio
//
// Prints each question and its answer, then the result's text, exactly as
// examples/newcomer/workitem.c does; exit status 0 when the tool completed.
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mrtr.hpp"

namespace {

// A child process spoken to in newline-delimited JSON-RPC (MCP stdio).
class Stdio {
public:
    explicit Stdio(char **argv) {
        int in[2], out[2];
        if (pipe(in) != 0 || pipe(out) != 0) throw std::runtime_error("pipe failed");
        pid_ = fork();
        if (pid_ < 0) throw std::runtime_error("fork failed");
        if (pid_ == 0) {
            dup2(in[0], 0);
            dup2(out[1], 1);
            close(in[1]);
            close(out[0]);
            execv(argv[0], argv);
            std::perror(argv[0]);
            _exit(127);
        }
        close(in[0]);
        close(out[1]);
        to_ = fdopen(in[1], "w");
        from_ = fdopen(out[0], "r");
    }
    Stdio(const Stdio &) = delete;
    Stdio &operator=(const Stdio &) = delete;
    ~Stdio() {
        std::fclose(to_);
        std::fclose(from_);
        int status = 0;
        waitpid(pid_, &status, 0);
    }

    void send(std::string_view msg) {
        std::fwrite(msg.data(), 1, msg.size(), to_);
        std::fputc('\n', to_);
        std::fflush(to_);
    }

    std::string receive() {
        std::string line;
        int c;
        while ((c = std::fgetc(from_)) != EOF && c != '\n') line.push_back(static_cast<char>(c));
        if (line.empty() && c == EOF) throw std::runtime_error("the server closed its output");
        return line;
    }

private:
    pid_t pid_ = -1;
    FILE *to_ = nullptr;
    FILE *from_ = nullptr;
};

// The answers a user would give, by the server's key for each question.
std::string_view answer_for(std::string_view key) {
    if (key == "resolution") return R"({"resolution":"Duplicate"})";
    if (key == "duplicate_of") return R"({"duplicateOfId":4301})";
    return {};
}

// The first "text" member of a result (a tool result's first content
// block), decoded. A real app parses the result with its JSON library.
std::string first_text(std::string_view result) {
    const std::string_view tag = R"("text":")";
    std::size_t at = result.find(tag);
    if (at == std::string_view::npos) throw std::runtime_error("no text in the result");
    std::size_t start = at + tag.size() - 1, end = start + 1;
    while (end < result.size() && (result[end] != '"' || result[end - 1] == '\\')) end++;
    return mrtr::decode_string(result.substr(start, end + 1 - start));
}

} // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::cerr << "usage: work_item SERVER [ARGS...]\n";
        return 2;
    }
    try {
        Stdio server(argv + 1);
        mrtr::Call call(MRTR_METHOD_TOOLS_CALL,
                        R"({"name":"update_work_item","arguments":)"
                        R"({"workItemId":4522,"fields":{"System.State":"Resolved"}}})",
                        MRTR_CAP_ELICITATION_FORM);
        for (;;) {
            if (call.progress().phase == MRTR_PHASE_READY) server.send(call.write_request());
            std::string msg = server.receive();
            mrtr_event ev = call.feed(msg);
            switch (ev.kind) {
            case MRTR_EVENT_COMPLETE:
                std::cout << "result   " << first_text(call.result(msg)) << "\n";
                return 0;
            case MRTR_EVENT_INPUT_REQUIRED:
                for (std::size_t i = 0; i < ev.input_count; i++) {
                    mrtr::Input in = call.input(i);
                    std::string_view answer = answer_for(in.key);
                    std::cout << "question " << in.key << ": " << in.message << "\n";
                    if (!answer.empty()) std::cout << "answer   " << answer << "\n";
                    if (answer.empty()) {
                        call.answer_elicit(i, MRTR_ELICIT_DECLINE);
                    } else {
                        call.answer_elicit(i, MRTR_ELICIT_ACCEPT, answer);
                    }
                }
                break;
            case MRTR_EVENT_RETRY_AFTER:
            case MRTR_EVENT_TASK_POLL:
                std::this_thread::sleep_for(std::chrono::milliseconds(ev.wait_ms));
                break;
            case MRTR_EVENT_RPC_ERROR:
                std::cerr << "error " << ev.error_code << ": "
                          << mrtr::decode_string(mrtr::view(msg, ev.error_message)) << "\n";
                return 1;
            default: // UNRELATED, task events: the call says what comes next
                break;
            }
        }
    } catch (const mrtr::Error &e) {
        std::cerr << e.what() << " (status " << e.status() << ")\n";
        return 1;
    } catch (const std::exception &e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
}
