#!/usr/bin/env bash
# The fleet test: MRTR flows through nginx round-robin over three demo-server
# instances that share a requestState key ring and a replay store (a real
# redis-server on loopback), while one instance is killed and restarted and
# the ring is rotated by rolling restarts; then a soak with each instance's
# memory measured, and one instance against three side by side.
#
#   tests/load/run.sh [--short | --long] [--release | --debug] [--flows N]
#                     [--concurrency C] [--rate FLOWS_PER_S] [--break-rotation]
#                     [--soak-flows N] [--bench-flows N]
#
#   --short   300 flows at 8 flows/s over 8 threads, one kill, one rotation
#             (the test command's stage), then the soak and the comparison
#   --long    10,000 flows as fast as 16 threads go, two kills, one rotation
#             (scripts/load), then the soak and the comparison
#   --release / --debug
#             the build profile (default release: the soak measures
#             throughput, and a debug build's crypto is several times slower)
#   --soak-flows N
#             flows of the soak through the three instances (default
#             100,000; 0 skips the soak and the comparison)
#   --bench-flows N
#             flows of the one-instance run of the comparison (default
#             20,000)
#   --break-rotation
#             negative control: rotate the wrong way, [OLD] -> [NEW] by a
#             rolling restart with no overlap phase, and require that the
#             test sees requestState rejected and flows lost (proof that
#             the rotation assertions can fail); no soak
#   --break-replay
#             negative control: the instances keep spent ids each in its
#             own process (--replay-cache) instead of the shared store, and
#             the test must see replays to other instances accepted (proof
#             that the replay assertions can fail); no soak
#
# Everything runs on loopback, under a temp dir (nginx's prefix, pid, logs,
# temp paths, config; redis without persistence): nothing root-owned is
# touched, nothing outlives the script (it ends only the processes it
# started, by their pids).
#
# One-shot tokens: every instance runs with --replay-store, so a
# requestState token is accepted once across the fleet. The driver replays
# the spent token of every flow (one in ten in the soak), byte for byte, to
# each instance directly, and every replay must be refused.
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
# A leg the killed instance had taken and spent its token for, but never
# answered, comes back refused when resent (the token is spent): the driver
# then starts that flow over from its first request and counts it.
#
# Assertions: every flow completed (0 lost), 0 requestState rejected, at
# least one leg resent after the kill, three instances served legs, every
# follow-up leg was served by another instance than the leg before, tokens
# sealed under both keys were seen, the events all happened while the load
# was running, every replay of a spent token refused (none accepted), the
# soak lost no flow and left each instance's memory flat.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
cd "$MRTR_ROOT"

mode=short
profile=release
break_rotation=0
break_replay=0
soak_flows=100000
bench_flows=20000
flows=""
concurrency=""
rate=""
while (($#)); do
    case "$1" in
        --short) mode=short; shift ;;
        --long) mode=long; shift ;;
        --release) profile=release; shift ;;
        --debug) profile=debug; shift ;;
        --soak-flows) soak_flows="$2"; shift 2 ;;
        --bench-flows) bench_flows="$2"; shift 2 ;;
        --break-rotation) break_rotation=1; shift ;;
        --break-replay) break_replay=1; shift ;;
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

if ((break_rotation || break_replay)); then
    soak_flows=0
fi
# The instances' one-shot setting: the shared store, or (negative control)
# each process's own --replay-cache, which knows only the tokens it spent.
replay_args=()

ensure_apt nginx redis-server
need_cmd od python3 ps getconf
REDIS="$(command -v redis-server || echo /usr/bin/redis-server)"
[[ -x "$REDIS" ]] || die "redis-server not found after install"
REDIS_CLI="$(command -v redis-cli || echo /usr/bin/redis-cli)"
[[ -x "$REDIS_CLI" ]] || die "redis-cli (redis-tools) not found after install"
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

# The store's own tests against a real redis-server (started by the test):
# two instances share it, ids expire with their tokens, and a store that
# goes away fails closed.
log "demo server's replay store tests against $REDIS"
MRTR_REQUIRE_REDIS=1 MRTR_REDIS_SERVER="$REDIS" \
    cargo test -q -p mrtr-demo-server --test replay_store

WORK="$(mktemp -d "${TMPDIR:-/tmp}/mrtr-fleet.XXXXXX")"
PIDS=("" "" "")
NGINX_PID=""
DRIVER_PID=""
DRIVER_OS_PID=""
REDIS_PID=""
cleanup() {
    local p
    for p in "$DRIVER_PID" "$DRIVER_OS_PID" "$NGINX_PID" "${PIDS[@]}" "$REDIS_PID"; do
        if [[ -n "$p" ]]; then
            kill -CONT "$p" 2>/dev/null || true
            kill "$p" 2>/dev/null || true
        fi
    done
    for p in "$DRIVER_PID" "$DRIVER_OS_PID" "$NGINX_PID" "${PIDS[@]}" "$REDIS_PID"; do
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

# Six free loopback ports (bound then released: a tiny race we accept):
# three instances, the balancer, the balancer's one-instance pool, the
# replay store.
read -r -a PORTS <<<"$(python3 -c '
import socket
socks = [socket.socket() for _ in range(6)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))
')"
LB_PORT="${PORTS[3]}"
ONE_PORT="${PORTS[4]}"
STORE_PORT="${PORTS[5]}"
if ((break_replay)); then
    replay_args=(--replay-cache 1000000)
else
    replay_args=(--replay-store "127.0.0.1:$STORE_PORT")
fi
INSTANCES="127.0.0.1:${PORTS[0]},127.0.0.1:${PORTS[1]},127.0.0.1:${PORTS[2]}"

# The replay store: loopback only, no persistence, no disk.
"$REDIS" --bind 127.0.0.1 --port "$STORE_PORT" --save '' --appendonly no \
    --protected-mode yes --dir "$WORK" >"$WORK/redis.log" 2>&1 &
REDIS_PID=$!
redis_cmd() {
    "$REDIS_CLI" -h 127.0.0.1 -p "$STORE_PORT" "$@"
}
for _ in $(seq 100); do
    [[ "$(redis_cmd PING 2>/dev/null)" == "PONG" ]] && break
    sleep 0.1
done
[[ "$(redis_cmd PING)" == "PONG" ]] || die "redis-server does not answer on $STORE_PORT"

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
        "${replay_args[@]}" >>"$WORK/instance$i.log" 2>&1 &
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
    upstream mrtr_one {
        server 127.0.0.1:${PORTS[0]};
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
    # The comparison's one-instance fleet: the same hops (balancer, store).
    server {
        listen 127.0.0.1:$ONE_PORT;
        location /mcp {
            proxy_pass http://mrtr_one;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$http_host;
            proxy_buffering off;
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
event "fleet up: instances on ${PORTS[0]} ${PORTS[1]} ${PORTS[2]}, nginx on $LB_PORT, replay store on $STORE_PORT; ring [OLD]"

PROGRESS="$WORK/progress"
SUMMARY="$WORK/summary"
"$DRIVER" run --url "http://127.0.0.1:$LB_PORT/mcp" --flows "$flows" \
    --concurrency "$concurrency" --rate "$rate" --think-ms 20 --bearer fleet-test \
    --replay-to "$INSTANCES" --replay-every 1 \
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
elif ((break_replay)); then
    # The negative control: per-process caches refuse a replay to the
    # instance that spent the token, and accept it everywhere else.
    check "per-process replay caches are caught: replays accepted by other instances (${S[replays_accepted]:-?} accepted, ${S[replays_refused]:-?} refused, ${S[replays_tried_elsewhere]:-?} of ${S[replays_tried]:-?} tried elsewhere)" \
        test "${S[replays_accepted]:-0}" -ge 1 -a "${S[replays_accepted]:-0}" -le "${S[replays_tried_elsewhere]:-0}"
    check "per-process replay caches are caught: driver exit non-zero" test "$driver_rc" -ne 0
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
# The replays: every spent token sent again to each instance directly.
# Refused means the frozen -32602; the instances' logs say why (a token
# sealed under the retired key is refused for that reason first).
replayed_logged="$(cat "$WORK"/instance*.log | grep -c 'token replayed (replay store)' || true)"
other_reasons="$(cat "$WORK"/instance*.log | grep 'requestState rejected' |
    grep -v 'token replayed (replay store)' | sed 's/.*: //' | sort | uniq -c | tr '\n' ';' || true)"
if ((!break_rotation && !break_replay)); then
    check "replays of spent tokens refused: ${S[replays_refused]:-?} / ${S[replays_tried]:-?} tried (${S[replays_tried_elsewhere]:-?} to another instance than the one that spent it; ${S[replays_unanswered]:-?} unanswered while an instance was down)" \
        test "${S[replays_tried]:-0}" -ge "$((flows / 2))" -a "${S[replays_refused]:-x}" = "${S[replays_tried]:-y}"
    check "no replay accepted (accepted: ${S[replays_accepted]:-?}, other errors: ${S[replays_other_error]:-?})" \
        test "${S[replays_accepted]:--1}" -eq 0 -a "${S[replays_other_error]:--1}" -eq 0
    printf 'fleet: instances logged %s tokens refused as spent by the replay store; other refusal reasons: %s\n' \
        "$replayed_logged" "${other_reasons:-none}"
    printf 'fleet: flows started over after the kill spent a token it never answered: %s\n' \
        "${S[flows_restarted]:-?}"
fi

# rss_kb PID: resident set of a process, from /proc.
rss_kb() {
    awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0
}

# load_run NAME URL FLOWS: an unpaced run of update_work_item flows (three
# legs, the third echoing a token; no state-only rounds, whose client
# backoff would measure sleeping) over 16 threads, the spent token of one
# flow in ten replayed to every instance. Summary in $WORK/NAME.summary.
load_run() {
    local name="$1" url="$2" n="$3" rc=0
    "$DRIVER" run --url "$url" --flows "$n" --concurrency 16 --rate 0 --report-every 0 \
        --bearer fleet-test --replay-to "$INSTANCES" --replay-every 10 \
        --summary "$WORK/$name.summary" --progress "$WORK/$name.progress" \
        >"$WORK/$name.out" 2>&1 || rc=$?
    return "$rc"
}

# cpu_ticks PID: user + system clock ticks the process has used so far.
cpu_ticks() {
    awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat" 2>/dev/null || echo 0
}

# soak_started N: until N soak flows have started (or the soak ended).
soak_started() {
    local started=0 _c _w
    while ((started < $1)); do
        kill -0 "$DRIVER_PID" 2>/dev/null || return 1
        if [[ -s "$WORK/soak.progress" ]]; then
            read -r started _c _w <"$WORK/soak.progress" || true
        fi
        sleep 0.05
    done
}

# kv FILE KEY: a value of a driver summary.
kv() {
    sed -n "s/^$2=//p" "$1"
}

if ((soak_flows > 0 && failed == 0)); then
    printf '\n'
    # Warm every instance (and nginx's upstream connections) first.
    load_run warmup "http://127.0.0.1:$LB_PORT/mcp" 2000 || true
    declare -a RSS0=()
    for i in 0 1 2; do
        RSS0[i]="$(rss_kb "${PIDS[$i]}")"
    done
    redis_rss0="$(rss_kb "$REDIS_PID")"
    event "soak: $soak_flows flows through nginx over the three instances"
    soak_rc=0
    load_run soak "http://127.0.0.1:$LB_PORT/mcp" "$soak_flows" &
    DRIVER_PID=$!
    # Who uses the CPU between 10% and 90% of the soak (steady state): the
    # instances, nginx's worker, the store and the driver.
    NGINX_WORKER="$(ps -o pid= --ppid "$NGINX_PID" | head -n1 | tr -d ' ')"
    DRIVER_OS_PID="$(ps -o pid= --ppid "$DRIVER_PID" | head -n1 | tr -d ' ')"
    cpu_names=("instance 0" "instance 1" "instance 2" "nginx worker" "redis" "load driver")
    cpu_pids=("${PIDS[0]}" "${PIDS[1]}" "${PIDS[2]}" "$NGINX_WORKER" "$REDIS_PID" "$DRIVER_OS_PID")
    declare -a CPU0=() CPU1=() RSSM=()
    cpu_ok=0
    if soak_started "$((soak_flows / 10))"; then
        T10="$EPOCHREALTIME"
        for i in "${!cpu_pids[@]}"; do
            CPU0[i]="$(cpu_ticks "${cpu_pids[$i]}")"
        done
        if soak_started "$((soak_flows / 2))"; then
            for i in 0 1 2; do
                RSSM[i]="$(rss_kb "${PIDS[$i]}")"
            done
        fi
        if soak_started "$((soak_flows * 9 / 10))"; then
            T90="$EPOCHREALTIME"
            for i in "${!cpu_pids[@]}"; do
                CPU1[i]="$(cpu_ticks "${cpu_pids[$i]}")"
            done
            cpu_ok=1
        fi
    fi
    wait "$DRIVER_PID" || soak_rc=$?
    DRIVER_PID=""
    DRIVER_OS_PID=""
    declare -a RSS1=()
    for i in 0 1 2; do
        RSS1[i]="$(rss_kb "${PIDS[$i]}")"
    done
    redis_rss1="$(rss_kb "$REDIS_PID")"
    redis_keys="$(redis_cmd DBSIZE)"
    event "soak finished (driver exit $soak_rc)"
    sed -n '1,/^latency per leg/p' "$WORK/soak.out" | sed '$d'
    grep '^replays' "$WORK/soak.out" || true
    event "comparison: $bench_flows flows through nginx to one instance"
    one_rc=0
    load_run one "http://127.0.0.1:$ONE_PORT/mcp" "$bench_flows" || one_rc=$?
    event "comparison finished (driver exit $one_rc)"

    printf '\nmemory per instance (VmRSS, KiB) at the start, the middle and the end of the soak of %s flows:\n' "$soak_flows"
    flat=1
    for i in 0 1 2; do
        printf '  instance %d (pid %s)   start %8s   middle %8s   end %8s   change %+d\n' "$i" "${PIDS[$i]}" \
            "${RSS0[$i]}" "${RSSM[$i]:-?}" "${RSS1[$i]}" "$((RSS1[i] - RSS0[i]))"
        # Flat: grown by at most 4 MiB (allocator arenas of 8 worker
        # threads settling), whatever the flow count.
        if ((RSS1[i] - RSS0[i] > 4096)); then
            flat=0
        fi
    done
    printf '  replay store (redis)   start %8s   end %8s   (%s spent ids held, each until its token expires)\n' \
        "$redis_rss0" "$redis_rss1" "$redis_keys"

    if ((cpu_ok)); then
        hz="$(getconf CLK_TCK)"
        printf '\nCPU from 10%% to 90%% of the soak (%.1f s; share of one core):\n' \
            "$(awk -v a="$T10" -v b="$T90" 'BEGIN { print b - a }')"
        for i in "${!cpu_pids[@]}"; do
            printf '  %-14s %6s%%\n' "${cpu_names[$i]}" "$(awk -v d="$((CPU1[i] - CPU0[i]))" -v hz="$hz" \
                -v a="$T10" -v b="$T90" 'BEGIN { printf "%.0f", 100 * d / hz / (b - a) }')"
        done
    fi

    printf '\nthroughput and latency per round (ms), same run, same machine, unpaced, 16 client threads:\n'
    printf '  %-22s %8s %9s %17s %17s %17s\n' "fleet" "flows" "flows/s" "round 1 p50/p99" "round 2 p50/p99" "round 3 p50/p99"
    for row in "one instance:one" "three instances:soak"; do
        f="$WORK/${row#*:}.summary"
        printf '  %-22s %8s %9s %17s %17s %17s\n' "${row%%:*}" "$(kv "$f" flows_completed)" "$(kv "$f" flows_per_s)" \
            "$(kv "$f" round1_p50_ms)/$(kv "$f" round1_p99_ms)" \
            "$(kv "$f" round2_p50_ms)/$(kv "$f" round2_p99_ms)" \
            "$(kv "$f" round3_p50_ms)/$(kv "$f" round3_p99_ms)"
    done
    printf '  (round 3 echoes the token round 2 sealed: one SET NX EXAT to the store; every\n'
    printf '   run also replays one flow in ten to all three instances; nginx, redis, the driver\n'
    printf '   and the instances share this machine'"'"'s %s cores)\n\n' "$(nproc)"

    check "soak: $soak_flows flows, 0 lost (failed: $(kv "$WORK/soak.summary" flows_failed))" \
        test "$soak_rc" -eq 0 -a "$(kv "$WORK/soak.summary" flows_failed)" = 0 \
        -a "$(kv "$WORK/soak.summary" flows_completed)" = "$soak_flows"
    check "soak: replays refused $(kv "$WORK/soak.summary" replays_refused) / tried $(kv "$WORK/soak.summary" replays_tried), accepted $(kv "$WORK/soak.summary" replays_accepted)" \
        test "$(kv "$WORK/soak.summary" replays_accepted)" = 0 -a \
        "$(kv "$WORK/soak.summary" replays_refused)" = "$(kv "$WORK/soak.summary" replays_tried)" -a \
        "$(kv "$WORK/soak.summary" replays_tried)" -gt 0
    check "soak: each instance's memory flat (grew at most 4 MiB)" test "$flat" -eq 1
    check "comparison: one instance, $bench_flows flows, 0 lost (failed: $(kv "$WORK/one.summary" flows_failed))" \
        test "$one_rc" -eq 0 -a "$(kv "$WORK/one.summary" flows_failed)" = 0
fi
printf '\nfleet: flows lost %s (kill and rotation run)%s\n' "${S[flows_failed]:-?}" \
    "$( ((soak_flows > 0)) && [[ -s "$WORK/soak.summary" ]] && printf ', %s (soak)' "$(kv "$WORK/soak.summary" flows_failed)")"
if ((failed > 0)); then
    printf '\n--- nginx error log (last 20 lines)\n'
    tail -n 20 "$WORK/logs/error.log" || true
fi
printf '\n%d passed, %d failed\n' "$passed" "$failed"
((failed == 0))
