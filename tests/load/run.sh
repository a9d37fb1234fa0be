#!/usr/bin/env bash
# The fleet test: MRTR flows through nginx round-robin over three demo-server
# instances that share a requestState key ring, while one instance is killed
# and restarted and the ring is rotated by rolling restarts.
#
#   tests/load/run.sh [--short | --long] [--release] [--flows N]
#                     [--concurrency C] [--rate FLOWS_PER_S] [--break-rotation]
#
#   --short   300 flows at 8 flows/s over 8 threads, one kill, one rotation
#             (the test command's stage; about a minute once built)
#   --long    10,000 flows as fast as 16 threads go, two kills, one rotation
#             (scripts/load)
#   --break-rotation
#             negative control: rotate the wrong way, [OLD] -> [NEW] by a
#             rolling restart with no overlap phase, and require that the
#             test sees requestState rejected and flows lost (proof that
#             the rotation assertions can fail)
#
# Everything runs on loopback, under a temp dir (nginx's prefix, pid, logs,
# temp paths, config): nothing root-owned is touched, nothing outlives the
# script (it ends only the processes it started, by their pids).
#
# Timeline, keyed to the driver's progress (flows started):
#   10%  kill: SIGSTOP one instance (its legs pile up), 1.5 s later SIGKILL
#        (nginx answers those legs 502: the driver resends them, fresh id,
#        to the next instance), restart it 1 s later
#   30%  rotation phase 1: roll every instance to [OLD,NEW] (seal OLD)
#   45%  rotation phase 2: roll to [NEW,OLD] (seal NEW, still open OLD)
#        drain: wait until every flow that started before phase 2 ended
#        ended (the driver's watermark), so no OLD-sealed token is in flight
#        then phase 3: roll to [NEW] (OLD retired)
#   80%  (--long) a second kill
# A rolling restart stops one instance (SIGTERM), starts it with the new
# ring and waits until it answers before the next.
#
# Assertions: every flow completed (0 lost), 0 requestState rejected, at
# least one leg resent after the kill, three instances served legs, every
# follow-up leg was served by another instance than the leg before, tokens
# sealed under both keys were seen, and the events all happened while the
# load was running.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
cd "$MRTR_ROOT"

mode=short
profile=debug
break_rotation=0
flows=""
concurrency=""
rate=""
while (($#)); do
    case "$1" in
        --short) mode=short; shift ;;
        --long) mode=long; shift ;;
        --release) profile=release; shift ;;
        --break-rotation) break_rotation=1; shift ;;
        --flows) flows="$2"; shift 2 ;;
        --concurrency) concurrency="$2"; shift 2 ;;
        --rate) rate="$2"; shift 2 ;;
        *) die "unknown argument: $1" ;;
    esac
done
if [[ "$mode" == short ]]; then
    flows="${flows:-300}" concurrency="${concurrency:-8}" rate="${rate:-8}" kills=(10)
else
    flows="${flows:-10000}" concurrency="${concurrency:-16}" rate="${rate:-0}" kills=(10 80)
fi

ensure_apt nginx
need_cmd od python3
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
[[ -x "$NGINX" ]] || die "nginx not found after install"

cargo_flags=()
if [[ "$profile" == release ]]; then
    cargo_flags=(--release)
fi
log "building mrtr-load-driver and mrtr-demo-server ($profile)"
if [[ -z "${MRTR_DEMO_SERVER:-}" ]]; then
    [[ -d examples/demo-server ]] || die "examples/demo-server is missing (set MRTR_DEMO_SERVER to a built binary)"
    cargo build -q "${cargo_flags[@]}" -p mrtr-load-driver -p mrtr-demo-server
    DEMO="$CARGO_TARGET_DIR/$profile/mrtr-demo-server"
else
    cargo build -q "${cargo_flags[@]}" -p mrtr-load-driver
    DEMO="$MRTR_DEMO_SERVER"
fi
DRIVER="$CARGO_TARGET_DIR/$profile/mrtr-load-driver"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/mrtr-fleet.XXXXXX")"
PIDS=("" "" "")
NGINX_PID=""
DRIVER_PID=""
cleanup() {
    local p
    for p in "$DRIVER_PID" "$NGINX_PID" "${PIDS[@]}"; do
        if [[ -n "$p" ]]; then
            kill -CONT "$p" 2>/dev/null || true
            kill "$p" 2>/dev/null || true
        fi
    done
    for p in "$DRIVER_PID" "$NGINX_PID" "${PIDS[@]}"; do
        if [[ -n "$p" ]]; then
            wait "$p" 2>/dev/null || true
        fi
    done
    if [[ -n "${KEEP_WORK:-}" ]]; then
        log "work dir kept: $WORK"
    else
        rm -rf "$WORK"
    fi
}
trap cleanup EXIT

T0="$EPOCHREALTIME"
event() {
    printf '[fleet +%6.2fs] %s\n' "$(awk -v now="$EPOCHREALTIME" -v t0="$T0" 'BEGIN { print now - t0 }')" "$*"
}

# Four free loopback ports (bound then released: a tiny race we accept).
read -r -a PORTS <<<"$(python3 -c '
import socket
socks = [socket.socket() for _ in range(4)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))
')"
LB_PORT="${PORTS[3]}"

hexkey() {
    od -An -N32 -tx1 /dev/urandom | tr -d ' \n'
}
OLD="$(hexkey)"
NEW="$(hexkey)"
KEYS="$OLD"

# start_instance I: starts instance I on its port with the current ring.
start_instance() {
    local i="$1"
    MRTR_KEYS="$KEYS" "$DEMO" --http "127.0.0.1:${PORTS[$i]}" --workers 8 \
        >>"$WORK/instance$i.log" 2>&1 &
    PIDS[i]=$!
}

# wait_ready I: until instance I answers a first leg on its own port.
wait_ready() {
    local i="$1" _
    for _ in $(seq 100); do
        if "$DRIVER" probe --url "http://127.0.0.1:${PORTS[$i]}/mcp" 2>/dev/null; then
            return 0
        fi
        sleep 0.1
    done
    cat "$WORK/instance$i.log" >&2 || true
    die "instance $i did not answer within 10 s"
}

# stop_instance I SIGNAL: signals instance I and reaps it.
stop_instance() {
    local i="$1" sig="$2"
    kill "-$sig" "${PIDS[$i]}" 2>/dev/null || true
    wait "${PIDS[$i]}" 2>/dev/null || true
    PIDS[i]=""
}

# The balancer: round-robin, a failed instance is skipped (next upstream on
# connection errors and timeouts) and retried after 1 s. POSTs already sent
# to an instance that then dies are not retried by nginx (they are not
# idempotent): they come back 502 and the client resends. The header
# X-Mrtr-Upstream tells the driver which instances a leg went to; the
# driver sends the previous leg's upstream back as X-Mrtr-Avoid, and nginx
# then balances that leg over the other two instances only, so every leg of
# a flow lands on another instance than the leg before (no stickiness, no
# shared store: only the sealed requestState carries the flow). Those
# two-instance pools keep no failure marks (max_fails=0): with rolling
# restarts 1.2 s apart, a 1 s mark on each of two instances would leave
# the pool with "no live upstreams"; a refused connect costs nothing on
# loopback and moves on to the other instance.
mkdir -p "$WORK/logs" "$WORK/tmp"
cat >"$WORK/nginx.conf" <<EOF
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log $WORK/logs/access.log;
    client_body_temp_path $WORK/tmp/client_body;
    proxy_temp_path $WORK/tmp/proxy;
    fastcgi_temp_path $WORK/tmp/fastcgi;
    uwsgi_temp_path $WORK/tmp/uwsgi;
    scgi_temp_path $WORK/tmp/scgi;
    keepalive_timeout 300s;
    keepalive_requests 1000000;
    # Request bodies stay in memory (an MRTR retry is at most about the
    # core's 1 MiB message limit): nginx's workers never need the temp
    # dir, which is private to the user who ran this script.
    client_body_buffer_size 2m;
    client_max_body_size 2m;
    upstream mrtr_fleet {
        server 127.0.0.1:${PORTS[0]} max_fails=1 fail_timeout=1s;
        server 127.0.0.1:${PORTS[1]} max_fails=1 fail_timeout=1s;
        server 127.0.0.1:${PORTS[2]} max_fails=1 fail_timeout=1s;
        keepalive 32;
    }
    upstream mrtr_not0 {
        server 127.0.0.1:${PORTS[1]} max_fails=0;
        server 127.0.0.1:${PORTS[2]} max_fails=0;
        keepalive 16;
    }
    upstream mrtr_not1 {
        server 127.0.0.1:${PORTS[0]} max_fails=0;
        server 127.0.0.1:${PORTS[2]} max_fails=0;
        keepalive 16;
    }
    upstream mrtr_not2 {
        server 127.0.0.1:${PORTS[0]} max_fails=0;
        server 127.0.0.1:${PORTS[1]} max_fails=0;
        keepalive 16;
    }
    map \$http_x_mrtr_avoid \$mrtr_pool {
        default mrtr_fleet;
        127.0.0.1:${PORTS[0]} mrtr_not0;
        127.0.0.1:${PORTS[1]} mrtr_not1;
        127.0.0.1:${PORTS[2]} mrtr_not2;
    }
    server {
        listen 127.0.0.1:$LB_PORT;
        location /mcp {
            proxy_pass http://\$mrtr_pool;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            # The instances refuse a Host that is not loopback (DNS
            # rebinding): pass the client's, not the upstream group name.
            proxy_set_header Host \$http_host;
            proxy_buffering off;
            proxy_next_upstream error timeout;
            proxy_next_upstream_tries 3;
            proxy_connect_timeout 1s;
            proxy_read_timeout 10s;
            add_header X-Mrtr-Upstream \$upstream_addr always;
        }
    }
}
EOF

for i in 0 1 2; do
    start_instance "$i"
done
for i in 0 1 2; do
    wait_ready "$i"
done
"$NGINX" -p "$WORK" -c "$WORK/nginx.conf" -e "$WORK/logs/error.log" -g 'daemon off;' &
NGINX_PID=$!
for _ in $(seq 50); do
    "$DRIVER" probe --url "http://127.0.0.1:$LB_PORT/mcp" 2>/dev/null && break
    sleep 0.1
done
"$DRIVER" probe --url "http://127.0.0.1:$LB_PORT/mcp" || die "nginx does not answer"
event "fleet up: instances on ${PORTS[0]} ${PORTS[1]} ${PORTS[2]}, nginx on $LB_PORT; ring [OLD]"

PROGRESS="$WORK/progress"
SUMMARY="$WORK/summary"
"$DRIVER" run --url "http://127.0.0.1:$LB_PORT/mcp" --flows "$flows" \
    --concurrency "$concurrency" --rate "$rate" --think-ms 20 --bearer fleet-test \
    --summary "$SUMMARY" --progress "$PROGRESS" >"$WORK/driver.out" 2>&1 &
DRIVER_PID=$!
T0="$EPOCHREALTIME"
event "driver started: $flows flows, $concurrency threads, rate ${rate} flows/s (0 = unpaced);" \
    "times from here on match the driver's"

# progress_field N: field N (1 started, 2 completed, 3 watermark) of the
# driver's progress file, 0 before it exists.
progress_field() {
    local started=0 completed=0 watermark=0
    if [[ -s "$PROGRESS" ]]; then
        read -r started completed watermark <"$PROGRESS" || true
    fi
    case "$1" in
        1) echo "${started:-0}" ;;
        2) echo "${completed:-0}" ;;
        3) echo "${watermark:-0}" ;;
    esac
}

# wait_started PERCENT: until that share of the flows has started.
wait_started() {
    local want=$((flows * $1 / 100))
    while (($(progress_field 1) < want)); do
        kill -0 "$DRIVER_PID" 2>/dev/null || return 1
        sleep 0.05
    done
}

kill_instance() {
    local i=2
    event "kill: SIGSTOP instance $i (port ${PORTS[$i]}); its legs pile up"
    kill -STOP "${PIDS[$i]}"
    # Long enough that legs surely reach it (a third of ~25 legs/s in the
    # short run): the assertion that the kill cost resent legs must not
    # depend on luck.
    sleep 1.5
    event "kill: SIGKILL instance $i"
    stop_instance "$i" KILL
    sleep 1
    start_instance "$i"
    wait_ready "$i"
    event "kill: instance $i restarted and answering"
}

# roll RING NAME: rolling restart onto a new key ring.
roll() {
    KEYS="$1"
    local i
    for i in 0 1 2; do
        stop_instance "$i" TERM
        start_instance "$i"
        wait_ready "$i"
        event "  $2: instance $i restarted with the new ring and answering"
        # Let nginx's 1 s fail_timeout put it back in rotation before the
        # next instance goes down.
        sleep 1.2
    done
}

events_ok=1
run_events() {
    wait_started "${kills[0]}" || return 1
    kill_instance
    wait_started 30 || return 1
    if ((break_rotation)); then
        event "broken rotation: [OLD] -> [NEW] with no overlap (negative control)"
        roll "$NEW" "broken"
        kill -0 "$DRIVER_PID" 2>/dev/null || return 1
        return 0
    fi
    event "rotation phase 1: [OLD,NEW] (OLD seals, NEW opens)"
    roll "$OLD,$NEW" "phase 1"
    wait_started 45 || return 1
    event "rotation phase 2: [NEW,OLD] (NEW seals, OLD still opens)"
    roll "$NEW,$OLD" "phase 2"
    local boundary
    boundary="$(progress_field 1)"
    event "drain: waiting until flows 0..$((boundary - 1)) (started before phase 2 ended) have ended"
    while (($(progress_field 3) < boundary)); do
        kill -0 "$DRIVER_PID" 2>/dev/null || return 1
        sleep 0.05
    done
    event "rotation phase 3: [NEW] (OLD retired)"
    roll "$NEW" "phase 3"
    if ((${#kills[@]} > 1)); then
        wait_started "${kills[1]}" || return 1
        kill_instance
    fi
    kill -0 "$DRIVER_PID" 2>/dev/null || return 1
}
if ! run_events; then
    events_ok=0
fi
set +e
wait "$DRIVER_PID"
driver_rc=$?
set -e
DRIVER_PID=""
event "load finished (driver exit $driver_rc)"
printf '\n'
cat "$WORK/driver.out"
printf '\n'

declare -A S=()
if [[ -s "$SUMMARY" ]]; then
    while IFS='=' read -r k v; do
        S[$k]="$v"
    done <"$SUMMARY"
fi

passed=0
failed=0
check() {
    local what="$1"
    shift
    if "$@"; then
        printf 'fleet: pass  %s\n' "$what"
        passed=$((passed + 1))
    else
        printf 'fleet: FAIL  %s\n' "$what"
        failed=$((failed + 1))
    fi
}
check "the events (kill, rotation) all ran while the load was running" \
    test "$events_ok" -eq 1
check "flows started = $flows (got ${S[flows_started]:-?})" test "${S[flows_started]:-0}" -eq "$flows"
if ((break_rotation)); then
    # The negative control: the same assertions must catch a wrong rotation.
    check "broken rotation is caught: requestState rejected (got ${S[state_rejected]:-?})" \
        test "${S[state_rejected]:-0}" -ge 1
    check "broken rotation is caught: flows lost (failed: ${S[flows_failed]:-?})" \
        test "${S[flows_failed]:-0}" -ge 1
    check "broken rotation is caught: driver exit non-zero" test "$driver_rc" -ne 0
else
    check "driver exit 0" test "$driver_rc" -eq 0
    check "0 lost flows (failed: ${S[flows_failed]:-?})" test "${S[flows_failed]:--1}" -eq 0
    check "0 requestState rejected during rotation (got ${S[state_rejected]:-?})" \
        test "${S[state_rejected]:--1}" -eq 0
    check "tokens sealed under both keys seen (key ids: ${S[kids]:-?})" test "${S[kids]:-0}" -ge 2
fi
check "the kill cost legs that were resent and completed (resends: ${S[resends]:-?})" \
    test "${S[resends]:-0}" -ge 1
check "all 3 instances served legs (got ${S[instances]:-?})" test "${S[instances]:-0}" -eq 3
check "every follow-up leg on another instance than the previous leg (${S[switched]:-?} of ${S[follow_ups]:-?})" \
    test "${S[follow_ups]:-0}" -gt 0 -a "${S[switched]:-x}" = "${S[follow_ups]:-y}"
if ((failed > 0)); then
    printf '\n--- nginx error log (last 20 lines)\n'
    tail -n 20 "$WORK/logs/error.log" || true
fi
printf '\n%d passed, %d failed\n' "$passed" "$failed"
((failed == 0))
