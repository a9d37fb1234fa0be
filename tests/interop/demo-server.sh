# shellcheck shell=bash
# Start and stop the demo server for the interop scripts. Sourced after
# scripts/lib.sh.

MRTR_DEMO_BIN="$CARGO_TARGET_DIR/debug/mrtr-demo-server"
MRTR_DEMO_PID=""
MRTR_DEMO_URL=""

# build_demo_server: cargo build of the demo server (debug: the interop runs
# are about behaviour, and a debug build is quick).
build_demo_server() {
    need_cmd cargo
    log "building mrtr-demo-server"
    cargo build --quiet -p mrtr-demo-server
}

# start_demo_server LOGFILE [ARGS...]: start it on a free loopback port
# (it binds port 0 and prints the real one); sets MRTR_DEMO_URL and
# MRTR_DEMO_PID. Keys: MRTR_KEYS as set, else a fresh random test key.
start_demo_server() {
    local logfile="$1" i
    shift
    if [[ -z "${MRTR_KEYS:-}" ]]; then
        MRTR_KEYS="$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
        export MRTR_KEYS
    fi
    "$MRTR_DEMO_BIN" --http 127.0.0.1:0 "$@" 2>"$logfile" &
    MRTR_DEMO_PID=$!
    for i in $(seq 1 100); do
        MRTR_DEMO_URL="$(sed -n 's#^.*listening on \(http://127\.0\.0\.1:[0-9]*/mcp\)$#\1#p' "$logfile")"
        if [[ -n "$MRTR_DEMO_URL" ]]; then
            log "demo server (pid $MRTR_DEMO_PID) at $MRTR_DEMO_URL"
            return 0
        fi
        if ! kill -0 "$MRTR_DEMO_PID" 2>/dev/null; then
            cat "$logfile" >&2
            die "demo server exited during startup"
        fi
        sleep 0.1
        : "$i"
    done
    die "demo server did not report its address within 10 s"
}

# stop_demo_server: stop the server started above, if it runs.
stop_demo_server() {
    if [[ -n "$MRTR_DEMO_PID" ]] && kill -0 "$MRTR_DEMO_PID" 2>/dev/null; then
        kill "$MRTR_DEMO_PID" 2>/dev/null || true
        wait "$MRTR_DEMO_PID" 2>/dev/null || true
    fi
    MRTR_DEMO_PID=""
}
