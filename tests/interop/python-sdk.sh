#!/usr/bin/env bash
# mrtr-client (the C client on include/mrtr.h) against the official MCP
# Python SDK as the server: tests/interop/python_server.py, built on
# mcp 2.3.0 (scripts/python-requirements.txt), one flow per kind of MRTR
# question. Every flow runs over three transports:
#
#   stdio     the client spawns the server; newline-delimited JSON, with a
#             notification line before every answer (--notify) to skip
#   http      the SDK's streamable HTTP server, JSON responses
#   http-sse  the same with --notify: the SDK commits each response to
#             text/event-stream (notification event, then the answer)
#
# A flow passes when the client exits as expected and, for completed calls,
# prints the expected result text. The exit-code rows check the client's
# contract (2 JSON-RPC error, 3 round cap, 4 transport failure, 5 a question
# that cannot be answered); the ASan row runs one multi-round flow under
# AddressSanitizer + UndefinedBehaviorSanitizer with leak detection.
# Prints a table flow x transport and "N passed, M failed"; exits non-zero
# when anything failed.
set -euo pipefail
set -f # the JSON arguments below contain no globs; never expand them

# shellcheck source=scripts/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/lib.sh"
cd "$MRTR_ROOT"

ensure_venv
scripts/build-c-client --asan

PY="$MRTR_VENV/bin/python"
SERVER="tests/interop/python_server.py"
CLIENT="build/mrtr-client"
CLIENT_ASAN="build/mrtr-client-asan"
ANSWERS="tests/interop/answers.json"
TRANSPORTS=(stdio http http-sse)

WORK="$(mktemp -d "${TMPDIR:-/tmp}/mrtr-interop.XXXXXX")"
PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$WORK"
}
trap cleanup EXIT
printf '{}\n' >"$WORK/no-answers.json"

# Each case: NAME|EXPECTED_EXIT|EXPECTED_TEXT|CLIENT ARGS (split on spaces;
# @NONE@ is an answers file with no answers).
CASES=(
    'form, every field kind|0|profile: name=Ada Lovelace email=ada@example.com age=36 plan=pro newsletter=True|tool form_flow'
    'two rounds with state|0|Bug #4522 resolved as Duplicate of Bug #4301.|tool two_round_state {"work_item_id":4522}'
    'sampling|0|summary by interop-model: MRTR retries the request with the answers.|tool sampling_flow'
    'roots|0|roots: file:///srv/project|tool roots_flow'
    'URL elicitation|0|link: accept|tool url_flow'
    'state-only rounds|0|state-only: done after 2 state-only rounds|tool state_only'
    'multi-kind, re-asked|0|multi: city=Lisbon idea=See the tiles. roots=1|tool multi_kind'
    'prompt|0|Write a warm greeting for Ada.|prompt greeting {"style":"warm"}'
    'resource template|0|notes on mrtr: MRTR keeps servers stateless.|resource notes://mrtr'
    'declined (no answer, no tty)|0|link: decline|--answers @NONE@ --no-input tool url_flow'
    'exit 2: JSON-RPC error|2||resource nothing://here'
    'exit 3: round cap|3||--max-rounds 1 tool two_round_state {"work_item_id":4522}'
    'exit 5: sampling unanswerable|5||--answers @NONE@ --no-input tool sampling_flow'
)

free_port() {
    "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

URL_http=""
URL_http_sse=""

# start_http NAME ARGS...: the Python server on a free port; sets URL_<NAME>.
start_http() {
    local name="$1" port i
    shift
    port="$(free_port)"
    "$PY" "$SERVER" --http "127.0.0.1:$port" "$@" >"$WORK/server-$name.log" 2>&1 &
    PIDS+=("$!")
    for i in $(seq 1 600); do
        if (: <"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            printf -v "URL_${name//-/_}" 'http://127.0.0.1:%s/mcp' "$port"
            log "python server ($name) on port $port"
            return 0
        fi
        if ! kill -0 "${PIDS[-1]}" 2>/dev/null; then
            cat "$WORK/server-$name.log" >&2
            die "the python server ($name) exited during startup"
        fi
        sleep 0.1
        : "$i"
    done
    die "the python server ($name) did not listen within 60 s"
}

log "starting the Python SDK servers (mcp $("$PY" -c 'import importlib.metadata as m; print(m.version("mcp"))'))"
start_http http
start_http http-sse --notify

# run_client LOG TRANSPORT BINARY ARGS...: one client run; prints its exit code.
run_client() {
    local logbase="$1" transport="$2" bin="$3" rc=0
    shift 3
    case "$transport" in
        stdio) "$bin" --answers "$ANSWERS" "$@" -- "$PY" "$SERVER" --notify ;;
        http) "$bin" --answers "$ANSWERS" --http "$URL_http" "$@" ;;
        http-sse) "$bin" --answers "$ANSWERS" --http "$URL_http_sse" "$@" ;;
    esac >"$logbase.out" 2>"$logbase.err" </dev/null || rc=$?
    echo "$rc"
}

passed=0
failed=0
ROWS=()
FAILURES=()

# record NAME CELLS...: one table row.
record() {
    local row
    row="$(printf '| %-30s |' "$1")"
    shift
    local cell
    for cell in "$@"; do
        row+="$(printf ' %-8s |' "$cell")"
    done
    ROWS+=("$row")
}

# verdict LOGBASE RC WANT_RC WANT_TEXT LABEL: appends pass or FAIL to
# cells (and counts it; says why on stderr).
verdict() {
    local logbase="$1" rc="$2" want_rc="$3" want_text="$4" label="$5"
    if [[ "$rc" == "$want_rc" ]] && { [[ -z "$want_text" ]] || grep -qF -- "$want_text" "$logbase.out"; }; then
        passed=$((passed + 1))
        cells+=(pass)
    else
        failed=$((failed + 1))
        FAILURES+=("$label: exit $rc (want $want_rc)${want_text:+, want text \"$want_text\"}; log $logbase.err")
        {
            echo "---- $label: exit $rc (want $want_rc)"
            tail -n 25 "$logbase.err"
        } >&2
        cells+=(FAIL)
    fi
}

n=0
for c in "${CASES[@]}"; do
    IFS='|' read -r name want_rc want_text args <<<"$c"
    args="${args//@NONE@/$WORK/no-answers.json}"
    read -ra argv <<<"$args"
    cells=()
    for t in "${TRANSPORTS[@]}"; do
        n=$((n + 1))
        logbase="$WORK/case-$n"
        rc="$(run_client "$logbase" "$t" "$CLIENT" "${argv[@]}")"
        verdict "$logbase" "$rc" "$want_rc" "$want_text" "$name / $t"
    done
    log "$name: ${cells[*]}"
    record "$name" "${cells[@]}"
done

# exit 4: a server that is gone. stdio: the server command exits at once;
# HTTP: nothing listens on the port.
cells=()
n=$((n + 1))
rc=0
"$CLIENT" tool form_flow -- sh -c 'exit 0' >"$WORK/case-$n.out" 2>"$WORK/case-$n.err" </dev/null || rc=$?
verdict "$WORK/case-$n" "$rc" 4 "" "exit 4 / stdio"
for t in http http-sse; do
    n=$((n + 1))
    rc=0
    "$CLIENT" --http "http://127.0.0.1:$(free_port)/mcp" tool form_flow >"$WORK/case-$n.out" \
        2>"$WORK/case-$n.err" </dev/null || rc=$?
    verdict "$WORK/case-$n" "$rc" 4 "" "exit 4 / $t"
done
log "exit 4: transport failure: ${cells[*]}"
record "exit 4: transport failure" "${cells[@]}"

# One multi-round flow under the sanitizers: any ASan/UBSan report or leak
# makes the run exit non-zero (and the text check fails).
cells=()
for t in "${TRANSPORTS[@]}"; do
    n=$((n + 1))
    logbase="$WORK/case-$n"
    rc="$(ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=86 \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=87 \
        run_client "$logbase" "$t" "$CLIENT_ASAN" tool multi_kind)"
    if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$logbase.err"; then
        rc="sanitizer"
    fi
    verdict "$logbase" "$rc" 0 "multi: city=Lisbon" "asan / $t"
done
log "ASan+UBSan, multi-kind: ${cells[*]}"
record "ASan+UBSan, no leaks (multi)" "${cells[@]}"

printf '\nmrtr-client against the MCP Python SDK %s (tests/interop/python_server.py)\n\n' \
    "$("$PY" -c 'import importlib.metadata as m; print(m.version("mcp"))')"
header="$(printf '| %-30s |' flow)"
rule="| $(printf -- '-%.0s' {1..30}) |"
for t in "${TRANSPORTS[@]}"; do
    header+="$(printf ' %-8s |' "$t")"
    rule+=" -------- |"
done
printf '%s\n%s\n' "$header" "$rule"
printf '%s\n' "${ROWS[@]}"
echo
if ((failed > 0)); then
    printf 'failed: %s\n' "${FAILURES[@]}"
fi
echo "$passed passed, $failed failed"
((failed == 0))
