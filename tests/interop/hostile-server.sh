#!/usr/bin/env bash
# mrtr-client against a hostile stdio server (tests/interop/hostile_server.py,
# Python standard library only): one mode per broken rule or terminal trick.
# Every case runs the ASan + UBSan build of the client (leak detection on), so
# error paths are checked for memory errors and leaks as well as for the
# exit code:
#   0  the client survives: escapes shown inert, unrelated messages and old
#      server->client requests skipped, requestState echoed byte for byte,
#      a deceptive URL refused, a punycode host warned about;
#   3  a protocol violation ends the call (flood, not JSON, unknown
#      resultType, empty input_required, unknown input method, oversize
#      state);
#   4  a transport failure (a line over 1 MiB, a server that never answers).
# Prints a table and "N passed, M failed"; exits non-zero on any failure.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/lib.sh"
cd "$MRTR_ROOT"

need_cmd python3
scripts/build-c-client --asan
CLIENT=build/mrtr-client-asan
WORK="$(mktemp -d "${TMPDIR:-/tmp}/mrtr-hostile.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

# MODE|EXIT|TEXT on stdout|TEXT on stderr (empty: not checked)
CASES=(
    'escape|0|done \u001b]0;title\u0007|k\x1b[2Jey] form: Clear\x1b[2J\x1b[31m red \u202eevil\u009b text'
    'server-request|0|server-request-ok|(skipped server request elicitation/create)'
    'state-echo|0|state-echo-ok|requestState (8 bytes)'
    'url-refused|0|login: decline|cannot be shown honestly: Backslash'
    'url-punycode|0|login: decline|warning: the host is punycode'
    'flood|3||more than 1000 unrelated messages'
    'long-line|4||longer than 1048576 bytes'
    'garbage|3||MRTR_ERR_JSON'
    'bad-result-type|3||UnknownResultType'
    'empty-input|3||InputRequiredWithoutFields'
    'unknown-method|3||UnknownInputMethod'
    'huge-state|3||StateTooLarge'
    'silent|4||no message from the server within 1000 ms'
)

passed=0
failed=0
rows=()
for c in "${CASES[@]}"; do
    IFS='|' read -r mode want_rc want_out want_err <<<"$c"
    rc=0
    # "n" answers the one question asked on the terminal (url-punycode).
    printf 'n\n' | ASAN_OPTIONS=detect_leaks=1:exitcode=86 UBSAN_OPTIONS=halt_on_error=1:exitcode=87 \
        "$CLIENT" --interactive --timeout 1000 tool probe -- python3 tests/interop/hostile_server.py "$mode" \
        >"$WORK/$mode.out" 2>"$WORK/$mode.err" || rc=$?
    why=""
    if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$WORK/$mode.err"; then
        why="sanitizer report"
    elif [[ "$rc" != "$want_rc" ]]; then
        why="exit $rc, want $want_rc"
    elif [[ -n "$want_out" ]] && ! grep -qF -- "$want_out" "$WORK/$mode.out"; then
        why="stdout lacks: $want_out"
    elif [[ -n "$want_err" ]] && ! grep -qF -- "$want_err" "$WORK/$mode.err"; then
        why="stderr lacks: $want_err"
    elif LC_ALL=C grep -q $'\x1b\|\xc2[\x80-\x9f]\|\xe2\x80[\xaa-\xae]\|\xe2\x81[\xa6-\xa9]' \
        "$WORK/$mode.out" "$WORK/$mode.err"; then
        why="a raw escape, C1 control or bidi override reached the terminal"
    fi
    if [[ -z "$why" ]]; then
        passed=$((passed + 1))
        rows+=("$(printf '| %-16s | %4s | %-6s |' "$mode" "$want_rc" pass)")
    else
        failed=$((failed + 1))
        rows+=("$(printf '| %-16s | %4s | %-6s | %s' "$mode" "$want_rc" FAIL "$why")")
        {
            echo "---- $mode: $why"
            tail -n 20 "$WORK/$mode.err"
        } >&2
    fi
done

printf '\nmrtr-client (ASan + UBSan) against a hostile stdio server\n\n'
printf '| %-16s | %4s | %-6s |\n' mode exit result
printf '| ---------------- | ---- | ------ |\n'
printf '%s\n' "${rows[@]}"
echo
echo "$passed passed, $failed failed"
((failed == 0))
