#!/usr/bin/env bash
# Hostile peers: every case runs a fake server (tests/hostile/fake_server.py
# over stdio, fake_http_server.py over HTTP) against each client built on
# mrtr, and checks that the client ends the way the case expects: its exit
# code, a message naming the problem (a regex, case-insensitive), no crash
# or hang (a 40 s timeout; every case ends in seconds), and bounded
# memory (peak RSS under 64 MiB from /usr/bin/time -v; the figure is the
# larger of the client and the fake server it spawned, so it bounds both).
#
#   tests/hostile/run.sh [--client NAME]... [--case REGEX]
#
# Clients (each is built first when its build script is in the tree; one
# that is neither built nor buildable is reported as skipped):
#   rust-core  mrtr-load-driver call   (the Rust core directly; cargo builds it)
#   c-client   build/mrtr-client       (the C terminal client on the C ABI;
#                                       MRTR_CLIENT overrides the path)
#   c-api      tests/hostile/capi_hostile.c: the same payloads fed straight
#              into mrtr_call_feed (no transport), exact status and failure
#              reason asserted, under ASan + UBSan (libmrtr.a, release)
#   c-client-asan build/mrtr-client-asan (the same under AddressSanitizer and
#                                       UBSan, from scripts/build-c-client
#                                       --asan; its RSS is not bounded here,
#                                       ASan's shadow memory is not the client's;
#                                       MRTR_CLIENT_ASAN overrides the path)
#
# Exit codes of every client: 0 complete, 2 JSON-RPC error, 3 protocol violation or
# cap, 4 transport failure. A message over the size limit is refused by the
# framing (a stdio line, an SSE event) before the core sees a message: a
# transport failure, 4, as tests/interop/hostile-server.sh has it too.
#
# Prints a table case -> expected/got and closes with "N passed, M failed";
# exits 1 if any case failed.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
cd "$MRTR_ROOT"

HERE="$MRTR_ROOT/tests/hostile"
RSS_LIMIT_KB=$((64 * 1024))
CASE_TIMEOUT=40
# The deadline each client is given for one answer: 3 s in the cases whose
# name says "(3 s deadline)" (a silent and a trickling server), 20 s in the
# others, far above any answer time even on a loaded machine.
SHORT_DEADLINE_MS=3000
LONG_DEADLINE_MS=20000

want_clients=()
case_filter=""
while (($#)); do
    case "$1" in
        --client) want_clients+=("$2"); shift 2 ;;
        --case) case_filter="$2"; shift 2 ;;
        *) die "unknown argument: $1" ;;
    esac
done
if ((${#want_clients[@]} == 0)); then
    want_clients=(rust-core c-api c-client c-client-asan)
fi

# GNU time (Debian package "time") measures the peak RSS.
ensure_apt time
need_cmd python3 /usr/bin/time timeout

WORK="$(mktemp -d "${TMPDIR:-/tmp}/mrtr-hostile.XXXXXX")"
HTTP_PID=""
cleanup() {
    if [[ -n "$HTTP_PID" ]]; then
        kill "$HTTP_PID" 2>/dev/null || true
        wait "$HTTP_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# The C client's answers file: input key -> result. The fake servers ask
# one form with a text field "answer" under the key "q". The Rust driver
# answers every form from its schema by itself.
ANSWERS="$WORK/answers.json"
printf '{"q":{"action":"accept","content":{"answer":"forty-two"}}}\n' >"$ANSWERS"

# Cases: NAME|TRANSPORT|MODE [ARG]|EXPECTED_EXIT|REGEX[ ~ NOT_REGEX]
# REGEX (extended, case-insensitive) must match stderr when the expected exit
# is non-zero, stdout when it is 0; NOT_REGEX must not match stdout.
CASES=(
    "sanity: two rounds then complete|stdio|two_rounds|0|answered"
    "input_required forever (questions)|stdio|forever_input|3|round"
    "input_required forever (state only)|stdio|forever_state|3|round"
    "10,000-deep nesting|stdio|deep_nesting 10000|3|too ?deep|depth|nest"
    "100 MB string in one line|stdio|huge_string|4|too large|exceed|limit|longer than"
    "invalid UTF-8 (FF FE)|stdio|invalid_utf8|3|utf-?8"
    "overlong UTF-8 (C0 AF)|stdio|overlong_utf8|3|utf-?8"
    "lone high surrogate \\ud800|stdio|lone_surrogate|3|surrogate"
    "lone low surrogate \\udc00|stdio|lone_low_surrogate|3|surrogate"
    "surrogate raw in UTF-8 (ED A0 80)|stdio|raw_surrogate|3|utf-?8"
    "duplicate resultType|stdio|duplicate_result_type|3|duplicate"
    "duplicate id (999, then ours)|stdio|duplicate_id|3|duplicate"
    "duplicate inputRequests key|stdio|duplicate_input_key|3|duplicate"
    "number NaN|stdio|bad_number NaN|3|unexpected|invalid ?number|number|syntax"
    "number Infinity|stdio|bad_number Infinity|3|unexpected|invalid ?number|number|syntax"
    "number -Infinity|stdio|bad_number -Infinity|3|unexpected|invalid ?number|number|syntax"
    "number 01 (leading zero)|stdio|bad_number 01|3|unexpected|invalid ?number|number|syntax"
    "number .5|stdio|bad_number .5|3|unexpected|invalid ?number|number|syntax"
    "number +1|stdio|bad_number +1|3|unexpected|invalid ?number|number|syntax"
    "number 0x1F|stdio|bad_number 0x1F|3|unexpected|invalid ?number|number|syntax"
    "number 1e400 (valid JSON, passed raw)|stdio|bad_number 1e400|0|\"score\": *1e400"
    "number -0 (valid JSON, passed raw)|stdio|bad_number -0|0|\"score\": *-0"
    "answers for other ids first, then ours|stdio|other_ids|0|the real answer ~ NOT YOURS|STRING ID"
    "requestState of 1 MB|stdio|huge_state 1000000|3|requeststate.*(large|limit|exceed)|state ?too ?large"
    "65 input requests (cap 64)|stdio|too_many_inputs|3|too ?many"
    "sampling with tools, sampling.tools undeclared|stdio|undeclared_sampling|3|undeclared|not declared|capabilit"
    "input_required without fields|stdio|empty_input_required|3|without ?fields|neither|empty"
    "unknown resultType|stdio|unknown_result_type|3|unknown ?result ?type|resultType"
    "a line that is not JSON|stdio|garbage|3|json|unexpected|malformed"
    "server exits without answering|stdio|eof|4|closed|eof|end of|exit"
    "server never answers (3 s deadline)|stdio|silent|4|timed? ?out|within"
    "one line that never ends|stdio|endless_line|4|too large|exceed|limit|longer than"
    "SSE, 1-byte TCP sends, CRLF, priming event|http|sse_bytes|0|streamed answer"
    "SSE in 1-byte HTTP chunks|http|sse_chunked|0|streamed answer"
    "SSE: another id's answer first|http|sse_other_ids|0|streamed answer ~ NOT YOURS"
    "SSE event of 100 MB|http|sse_huge|4|too large|exceed|limit"
    "SSE event that never ends|http|sse_endless|4|too large|exceed|limit"
    "a byte every 100 ms, forever (3 s deadline)|http|trickle|4|timed? ?out|within"
)

# split_case LINE: the first four fields end at the first four '|'; the rest
# is the regex (which may use '|' for alternatives), then ' ~ ' and the
# regex that must not match.
split_case() {
    local line="$1"
    C_NAME="${line%%|*}"; line="${line#*|}"
    C_TRANSPORT="${line%%|*}"; line="${line#*|}"
    C_MODE="${line%%|*}"; line="${line#*|}"
    C_EXIT="${line%%|*}"; line="${line#*|}"
    C_RE="${line%% ~ *}"
    C_NOT=""
    if [[ "$line" == *" ~ "* ]]; then
        C_NOT="${line#* ~ }"
    fi
}

# client_available CLIENT: whether the client's binary is there.
client_available() {
    case "$1" in
        rust-core)
            [[ -x "$CARGO_TARGET_DIR/debug/mrtr-load-driver" ]]
            ;;
        c-client)
            [[ -x "${MRTR_CLIENT:-$MRTR_ROOT/build/mrtr-client}" ]]
            ;;
        c-client-asan)
            [[ -x "${MRTR_CLIENT_ASAN:-$MRTR_ROOT/build/mrtr-client-asan}" ]]
            ;;
        *) return 1 ;;
    esac
}

# run_one CLIENT TRANSPORT MODE...: runs the client against a fresh fake
# server; sets GOT_EXIT, GOT_RSS_KB, OUT_FILE, ERR_FILE.
run_one() {
    local client="$1" transport="$2"
    shift 2
    local mode=("$@") base=() target=() DEADLINE_MS="$LONG_DEADLINE_MS"
    if [[ "$C_NAME" == *"(3 s deadline)"* ]]; then
        DEADLINE_MS="$SHORT_DEADLINE_MS"
    fi
    case "$client" in
        rust-core) base=("$CARGO_TARGET_DIR/debug/mrtr-load-driver" call --timeout-ms "$DEADLINE_MS") ;;
        c-client)
            base=("${MRTR_CLIENT:-$MRTR_ROOT/build/mrtr-client}" --answers "$ANSWERS" --no-input
                --timeout "$DEADLINE_MS")
            ;;
        c-client-asan)
            base=("${MRTR_CLIENT_ASAN:-$MRTR_ROOT/build/mrtr-client-asan}" --answers "$ANSWERS" --no-input
                --timeout "$DEADLINE_MS")
            ;;
    esac
    if [[ "$transport" == http ]]; then
        rm -f "$WORK/port"
        python3 "$HERE/fake_http_server.py" "${mode[0]}" "$WORK/port" 2>>"$WORK/http_server.log" &
        HTTP_PID=$!
        local _
        for _ in $(seq 100); do
            [[ -s "$WORK/port" ]] && break
            sleep 0.05
        done
        [[ -s "$WORK/port" ]] || die "fake HTTP server did not start"
        base+=(--http "http://127.0.0.1:$(cat "$WORK/port")/mcp" tool hostile '{}')
    else
        base+=(tool hostile '{}')
        target=(-- python3 "$HERE/fake_server.py" "${mode[@]}")
    fi
    OUT_FILE="$WORK/out"
    ERR_FILE="$WORK/err"
    set +e
    /usr/bin/time -v -o "$WORK/time" timeout -k 5 "$CASE_TIMEOUT" "${base[@]}" "${target[@]}" \
        </dev/null >"$OUT_FILE" 2>"$ERR_FILE"
    GOT_EXIT=$?
    set -e
    GOT_RSS_KB="$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$WORK/time")"
    GOT_RSS_KB="${GOT_RSS_KB:-0}"
    if [[ -n "$HTTP_PID" ]]; then
        kill "$HTTP_PID" 2>/dev/null || true
        wait "$HTTP_PID" 2>/dev/null || true
        HTTP_PID=""
    fi
}

if [[ " ${want_clients[*]} " == *" rust-core "* ]]; then
    log "building mrtr-load-driver (the Rust core client)"
    cargo build -q -p mrtr-load-driver
fi
if [[ " ${want_clients[*]} " == *" c-client"* && -z "${MRTR_CLIENT:-}" && -x scripts/build-c-client ]]; then
    log "building the C client (scripts/build-c-client --asan)"
    scripts/build-c-client --asan
fi
# Sanitizer reports fail the case: ASan exits 99 (no exit code a client
# uses), UBSan stops at its first report.
export ASAN_OPTIONS="exitcode=99:detect_leaks=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=98"

passed=0
failed=0
skipped=0

# run_capi: builds and runs the in-process C API program; adds its counts.
run_capi() {
    local out="$WORK/capi_hostile" log="$WORK/capi.log" p f
    log "building libmrtr.a (release) and tests/hostile/capi_hostile.c (ASan + UBSan)"
    cargo build -q --release -p mrtr-ffi
    "${CC:-cc}" -std=c99 -Wall -Wextra -Werror -pedantic -Wstrict-prototypes -Wshadow -g -O1 \
        -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
        -Iinclude -Itests/c "$HERE/capi_hostile.c" tests/c/harness.c \
        "$CARGO_TARGET_DIR/release/libmrtr.a" -lpthread -ldl -lm -o "$out"
    set +e
    "$out" >"$log" 2>&1
    local rc=$?
    set -e
    # Its own closing line is folded into ours, not printed.
    grep -vE '^[0-9]+ passed, [0-9]+ failed$' "$log" | sed 's/^/c-api         /' || true
    read -r p f < <(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$log")
    if [[ -z "${p:-}" || ( "$rc" -ne 0 && "${f:-0}" -eq 0 ) ]]; then
        printf 'c-api         FAIL: exit %d without a count (crash or sanitizer report)\n' "$rc"
        failed=$((failed + 1))
        return 0
    fi
    passed=$((passed + p))
    failed=$((failed + f))
}
printf '\n%-13s %-44s %-10s %-10s %8s  %s\n' client case expected got "rss(kB)" result
printf '%s\n' "$(printf '%.0s-' $(seq 100))"
for client in "${want_clients[@]}"; do
    if [[ "$client" == c-api ]]; then
        if [[ -z "$case_filter" ]]; then
            run_capi
        fi
        continue
    fi
    if ! client_available "$client"; then
        printf '%-13s %-44s %s\n' "$client" "(all cases)" "SKIPPED: client not built"
        skipped=$((skipped + 1))
        continue
    fi
    for line in "${CASES[@]}"; do
        split_case "$line"
        if [[ -n "$case_filter" && ! "$C_NAME" =~ $case_filter ]]; then
            continue
        fi
        read -r -a mode_words <<<"$C_MODE"
        run_one "$client" "$C_TRANSPORT" "${mode_words[@]}"
        verdict="pass"
        why=""
        if ((GOT_EXIT == 124 || GOT_EXIT == 137)); then
            verdict="FAIL"; why="hung (timeout)"
        elif ((GOT_EXIT >= 128)); then
            verdict="FAIL"; why="crashed (signal $((GOT_EXIT - 128)))"
        elif grep -qE 'Sanitizer|runtime error:' "$ERR_FILE"; then
            verdict="FAIL"; why="sanitizer report (exit $GOT_EXIT)"
        elif [[ "$GOT_EXIT" != "$C_EXIT" ]]; then
            verdict="FAIL"; why="exit $GOT_EXIT, wanted $C_EXIT"
        fi
        if [[ "$verdict" == pass ]]; then
            if ((C_EXIT == 0)); then
                grep -qiE -- "$C_RE" "$OUT_FILE" || { verdict="FAIL"; why="stdout lacks /$C_RE/"; }
                if [[ -n "$C_NOT" ]] && grep -qiE -- "$C_NOT" "$OUT_FILE"; then
                    verdict="FAIL"; why="stdout has /$C_NOT/"
                fi
            else
                grep -qiE -- "$C_RE" "$ERR_FILE" || { verdict="FAIL"; why="message lacks /$C_RE/"; }
            fi
        fi
        if [[ "$client" != *-asan ]] && ((GOT_RSS_KB >= RSS_LIMIT_KB)); then
            verdict="FAIL"; why="peak RSS ${GOT_RSS_KB} kB >= ${RSS_LIMIT_KB} kB"
        fi
        printf '%-13s %-44.44s %-10s %-10s %8s  %s\n' "$client" "$C_NAME" "exit $C_EXIT" "exit $GOT_EXIT" \
            "$GOT_RSS_KB" "$verdict${why:+: $why}"
        msg="$(grep -v '^fake_server:' "$ERR_FILE" | tail -n 1 || true)"
        if [[ -n "$msg" ]]; then
            printf '%-13s   %.150s\n' "" "$msg"
        fi
        if [[ "$verdict" == pass ]]; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
        fi
    done
done
printf '\n'
if ((skipped > 0)); then
    printf 'hostile: %d client(s) skipped (not built)\n' "$skipped"
fi
printf '%d passed, %d failed\n' "$passed" "$failed"
((failed == 0))
