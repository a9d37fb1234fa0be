#!/usr/bin/env bash
# mrtr-client (the C terminal client) against a server on the official
# TypeScript packages (@modelcontextprotocol/server 2.4.0 and
# @modelcontextprotocol/ext-tasks 0.2.2, tests/interop/ts-tasks-server.mjs)
# whose tools run as tasks of the Tasks extension: a task that needs input
# through tasks/update and then completes, one that completes, one that
# fails, one the client cancels (--cancel-after, and Ctrl-C: tasks/cancel)
# and one the server cancels; an inline input round; a tool the client must exclude
# (invalid x-mcp-header) and one that is not listed; the tasks switched off
# (--no-tasks). Each over stdio and over Streamable HTTP, where the server
# checks the Mcp-Param-* and Mcp-Name headers of every request. Then the
# demo server over HTTP: route_ticket (designated arguments, so Mcp-Param-*
# headers) and confirm_delete (a task that asks). Answers come
# from files; each case asserts the exit code, stdout exactly and lines of
# stderr. Installs Node 22 and the packages into
# ${XDG_CACHE_HOME:-~/.cache}/mrtr when missing (tests/interop/node.sh).
# Prints a table and "N passed, N failed"; exits non-zero when a case fails.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/lib.sh"
# shellcheck source=tests/interop/node.sh
source "$MRTR_ROOT/tests/interop/node.sh"
# shellcheck source=tests/interop/demo-server.sh
source "$MRTR_ROOT/tests/interop/demo-server.sh"
cd "$MRTR_ROOT"

need_cmd python3 timeout setsid ps
ensure_node22
ensure_ts_tasks_server
scripts/build-c-client
build_demo_server
CLIENT=build/mrtr-client
# ES modules resolve their imports next to the file: the server runs from
# the directory that holds the packages.
SERVER="$MRTR_TS_TASKS_DIR/ts-tasks-server.mjs"
cp tests/interop/ts-tasks-server.mjs "$SERVER"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/mrtr-ts-tasks.XXXXXX")"
trap 'stop_demo_server; rm -rf "$WORK"' EXIT

cat >"$WORK/approve.json" <<'JSON'
{"approval": {"action": "accept", "content": {"approve": true}},
 "confirm": {"action": "accept", "content": {"confirm": true}}}
JSON
cat >"$WORK/decline.json" <<'JSON'
{"approval": {"action": "decline"}}
JSON

# task_result TEXT IS_ERROR: what mrtr-client prints for a completed task
# whose result is one text.
task_result() {
    cat <<TEXT
{
  "resultType": "complete",
  "content": [
    {
      "type": "text",
      "text": "$1"
    }
  ],
  "isError": $2
}
TEXT
}

# inline_result TEXT IS_ERROR: a result McpServer writes itself (tools/call
# answered inline: content first, the serverInfo stamp last).
inline_result() {
    local err=""
    if [[ "$2" == true ]]; then
        err=$'\n  "isError": true,'
    fi
    cat <<TEXT
{
  "content": [
    {
      "type": "text",
      "text": "$1"
    }
  ],$err
  "resultType": "complete",
  "_meta": {
    "io.modelcontextprotocol/serverInfo": {
      "name": "mrtr-ts-tasks-server",
      "version": "1.0.0"
    }
  }
}
TEXT
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

passed=0
failed=0
rows=()

# run_case TRANSPORT NAME WANT_RC WANT_STDOUT STDERR_LINES CLIENT_ARGS...:
# TRANSPORT stdio or http starts the TypeScript server; demo-http calls the
# demo server started below (MRTR_DEMO_URL).
# STDERR_LINES is a list of lines separated by '|' that stderr must hold
# (each as a fixed string).
run_case() {
    local transport="$1" name="$2" want_rc="$3" want_out="$4" want_err="$5"
    shift 5
    local rc=0 why="" line target=() port
    if [[ "$transport" == http ]]; then
        port="$(free_port)"
        target=(--http "http://127.0.0.1:$port/mcp" "$@" -- "$MRTR_NODE" "$SERVER" --http "127.0.0.1:$port")
    elif [[ "$transport" == demo-http ]]; then
        target=(--http "$MRTR_DEMO_URL" "$@")
    else
        target=("$@" -- "$MRTR_NODE" "$SERVER")
    fi
    timeout -k 5 60 "$CLIENT" --no-input --timeout 10000 "${target[@]}" \
        </dev/null >"$WORK/out" 2>"$WORK/err" || rc=$?
    if [[ "$rc" != "$want_rc" ]]; then
        why="exit $rc, want $want_rc"
    elif [[ "$(cat "$WORK/out")" != "$want_out" ]]; then
        why="stdout differs: $(diff <(printf '%s\n' "$want_out") "$WORK/out" | head -n 8 | tr '\n' ' ')"
    else
        local IFS='|'
        for line in $want_err; do
            if ! grep -qF -- "$line" "$WORK/err"; then
                why="stderr lacks: $line"
                break
            fi
        done
    fi
    if [[ -z "$why" ]]; then
        passed=$((passed + 1))
        rows+=("$(printf '| %-9s | %-29s | %4s | %-6s |' "$transport" "$name" "$want_rc" pass)")
    else
        failed=$((failed + 1))
        rows+=("$(printf '| %-9s | %-29s | %4s | %-6s | %s' "$transport" "$name" "$want_rc" FAIL "$why")")
        {
            echo "---- $transport $name: $why"
            tail -n 25 "$WORK/err"
        } >&2
    fi
}

ARGS='{"dataset":"sales"}'
for t in stdio http; do
    run_case "$t" "input via tasks/update" 0 "$(task_result "exported sales (approved)" false)" \
        '<- the server moved the call to task "ts-task-1"|[approval] form: Export sales?|sending 1 answer to the task (tasks/update)|<- complete after 1 round' \
        --answers "$WORK/approve.json" tool approve_export "$ARGS"
    run_case "$t" "input declined" 0 "$(task_result "export of sales not approved" true)" \
        '-> decline|sending 1 answer to the task (tasks/update)' \
        --answers "$WORK/decline.json" tool approve_export "$ARGS"
    run_case "$t" "task completes" 0 "$(task_result "exported sales" false)" \
        '<- the server moved the call to task "ts-task-1"|<- complete after 0 rounds' \
        tool export_now "$ARGS"
    run_case "$t" "task fails" 6 "" \
        '<- the task failed with error -32603: the export of sales broke' \
        tool export_broken "$ARGS"
    run_case "$t" "client cancels (tasks/cancel)" 7 "" \
        '-> cancelling task "ts-task-1" (--cancel-after)|<- the task was cancelled (the server acknowledged tasks/cancel)' \
        --cancel-after 600 tool export_forever "$ARGS"
    run_case "$t" "server cancels" 7 "" \
        '<- the task was cancelled by the server' \
        tool export_withdrawn "$ARGS"
    run_case "$t" "inline input round" 0 "$(inline_result "sales: confirmed" false)" \
        '-> round 1: the server needs 1 answer|retrying with 1 answer (no requestState)' \
        --answers "$WORK/approve.json" tool confirm_inline "$ARGS"
    run_case "$t" "--no-tasks" 0 \
        "$(inline_result "export_now runs only as a task: declare the io.modelcontextprotocol/tasks extension" true)" \
        '<- complete after 0 rounds, 1 request' \
        --no-tasks tool export_now "$ARGS"
    run_case "$t" "excluded tool" 8 "" \
        'mrtr-client: not calling "bad_header": its inputSchema'"'"'s x-mcp-header designations are invalid' \
        tool bad_header '{"count":3}'
    run_case "$t" "tool not listed" 8 "" \
        'mrtr-client: the server lists no tool named "export_all"; not calling it.' \
        tool export_all "$ARGS"
done
# Ctrl-C on the terminal: SIGINT to the client's whole process group (the
# stdio server it started has its own group and lives on to be told).
sigint_case() {
    local pid rc=0 why=""
    setsid "$CLIENT" --no-input --timeout 10000 tool export_forever "$ARGS" -- "$MRTR_NODE" "$SERVER" \
        </dev/null >"$WORK/out" 2>"$WORK/err" &
    pid=$!
    for _ in $(seq 400); do
        grep -qF 'moved the call to task' "$WORK/err" && break
        sleep 0.05
    done
    if [[ "$(ps -o pgid= -p "$pid" | tr -d ' ')" != "$pid" ]]; then
        why="setsid made no process group"
        kill -INT "$pid" 2>/dev/null || true
    else
        kill -INT -- "-$pid" 2>/dev/null || true
    fi
    for _ in $(seq 400); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" || rc=$?
    if [[ -n "$why" ]]; then
        :
    elif [[ "$rc" != 7 ]]; then
        why="exit $rc, want 7"
    elif [[ -s "$WORK/out" ]]; then
        why="stdout not empty"
    elif ! grep -qF -- '-> cancelling task "ts-task-1" (interrupted)' "$WORK/err" ||
        ! grep -qF -- '(the server acknowledged tasks/cancel)' "$WORK/err"; then
        why="stderr lacks the cancellation"
    fi
    if [[ -z "$why" ]]; then
        passed=$((passed + 1))
        rows+=("$(printf '| %-9s | %-29s | %4s | %-6s |' stdio "Ctrl-C cancels the task" 7 pass)")
    else
        failed=$((failed + 1))
        rows+=("$(printf '| %-9s | %-29s | %4s | %-6s | %s' stdio "Ctrl-C cancels the task" 7 FAIL "$why")")
        tail -n 25 "$WORK/err" >&2
    fi
}
sigint_case

# The headers of every leg over HTTP (the server refuses a request without
# them, so the cases above pass only with them; these count them): the
# tools/call and its retry carry Mcp-Param-Dataset, the task requests
# Mcp-Name with the task id.
run_case http "headers: retry, -v" 0 "$(inline_result "sales: confirmed" false)" \
    '--> Mcp-Param-Dataset: sales' \
    -v --answers "$WORK/approve.json" tool confirm_inline "$ARGS"
n="$(grep -cxF -- '    --> Mcp-Param-Dataset: sales' "$WORK/err" || true)"
if [[ "$n" == 2 ]]; then
    passed=$((passed + 1))
    rows+=("$(printf '| %-9s | %-29s | %4s | %-6s |' http "Mcp-Param on both legs" 2 pass)")
else
    failed=$((failed + 1))
    rows+=("$(printf '| %-9s | %-29s | %4s | %-6s | %s' http "Mcp-Param on both legs" 2 FAIL "$n legs")")
fi
run_case http "headers: task, -v" 0 "$(task_result "exported sales (approved)" false)" \
    '--> Mcp-Method: tasks/update|--> Mcp-Name: ts-task-1|--> Mcp-Param-Dataset: sales' \
    -v --answers "$WORK/approve.json" tool approve_export "$ARGS"

# The demo server over HTTP: route_ticket designates region and priority
# (it refuses a call without their Mcp-Param-* headers, -32020), and
# confirm_delete runs as a task that asks through tasks/update.
start_demo_server "$WORK/demo-server.log"
cat >"$WORK/confirm.json" <<'JSON'
{"confirm": {"action": "accept", "content": {"confirm": true}}}
JSON
run_case demo-http "route_ticket (Mcp-Param-*)" 0 "$(cat <<'TEXT'
{
  "resultType": "complete",
  "content": [
    {
      "type": "text",
      "text": "Ticket routed to eu with priority 2."
    }
  ],
  "isError": false
}
TEXT
)" '<- complete after 0 rounds, 1 request' tool route_ticket '{"region":"eu","priority":2}'
run_case demo-http "confirm_delete (task)" 0 "$(task_result "Deleted 'a.txt'." false)" \
    '[confirm] form: Delete '"'"'a.txt'"'"'?|sending 1 answer to the task (tasks/update)' \
    --answers "$WORK/confirm.json" tool confirm_delete '{"filename":"a.txt"}'
stop_demo_server

printf '\nmrtr-client against a TypeScript server with tasks (%s)\n' "${MRTR_TS_TASKS_PACKAGES[*]}"
printf 'and the demo server over HTTP\n\n'
printf '| %-9s | %-29s | %4s | %-6s |\n' transport case exit result
printf '|-----------|-------------------------------|------|--------|\n'
printf '%s\n' "${rows[@]}"
printf '\n%d passed, %d failed\n' "$passed" "$failed"
((failed == 0))
