// Runs the quick start of include/mrtr.hpp (extracted verbatim by
// scripts/test-cpp into quick_start.cpp) against a scripted server.
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

std::string deploy(const std::function<std::string(std::string_view)> &exchange);

int main() {
    int requests = 0;
    std::string result = deploy([&](std::string_view req) -> std::string {
        requests++;
        if (req.find(R"("id":1,)") != std::string_view::npos) {
            return R"({"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required",)"
                   R"("inputRequests":{"go":{"method":"elicitation/create","params":)"
                   R"({"mode":"form","message":"Deploy?","requestedSchema":{"type":"object",)"
                   R"("properties":{"ok":{"type":"boolean"}}}}}}}})";
        }
        if (req.find(R"("inputResponses":{"go":{"action":"accept","content":{"ok":true}}})") !=
            std::string_view::npos) {
            return R"({"jsonrpc":"2.0","id":2,"result":{"content":[]}})";
        }
        return R"({"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"no answer"}})";
    });
    if (requests != 2 || result != R"({"content":[]})") {
        std::fprintf(stderr, "FAIL quick start: %d requests, result %s\n", requests, result.c_str());
        return 1;
    }
    std::printf("ok   mrtr.hpp quick start: 2 requests, result {\"content\":[]}\n");
    return 0;
}
