#!/usr/bin/env bash
# The MCP conformance suite's client scenario for MRTR,
# sep-2322-client-request-state (@modelcontextprotocol/conformance
# @0.2.0-alpha.12), against build/mrtr-conformance-client, the adapter on
# the C API (examples/c-client/conformance-client.c).
#
# The suite starts its scenario server, runs the adapter with the server URL
# as the last argument, and records checks: requestState echoed, a new
# JSON-RPC id on the retry, no requestState when none came, no leak of one
# call's answers or state into a parallel call, and a result without
# resultType taken as complete. Installs Node 22 and the package into
# ${XDG_CACHE_HOME:-~/.cache}/mrtr when missing (tests/interop/node.sh).
# Prints the check table; exits non-zero when any check is not SUCCESS or
# a declared check is missing.
#
# Usage: tests/interop/conformance-client.sh [SCENARIO...]
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/lib.sh"
# shellcheck source=tests/interop/node.sh
source "$MRTR_ROOT/tests/interop/node.sh"
cd "$MRTR_ROOT"

SCENARIOS=(sep-2322-client-request-state)
if (($# > 0)); then
    SCENARIOS=("$@")
fi
# The checks the scenario declares: each must be present and SUCCESS.
EXPECTED_CHECKS=(
    sep-2322-client-request-state-echoed
    sep-2322-client-jsonrpc-id-different
    sep-2322-client-no-state-omitted
    sep-2322-client-parallel-isolation
    sep-2322-default-result-type-complete
)

ensure_node22
ensure_conformance
scripts/build-c-client

WORK="$(mktemp -d "${TMPDIR:-/tmp}/mrtr-conformance-client.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

listed="$("$MRTR_NODE" "$MRTR_CONFORMANCE_JS" list 2>&1)"
failed=0
for s in "${SCENARIOS[@]}"; do
    grep -qF -- "$s" <<<"$listed" || die "the conformance package has no scenario $s"
    out="$WORK/$s"
    mkdir -p "$out"
    log "scenario $s"
    # The CLI's exit status is not the verdict; the checks file is.
    "$MRTR_NODE" "$MRTR_CONFORMANCE_JS" client --command "$MRTR_ROOT/build/mrtr-conformance-client" \
        --scenario "$s" -o "$out" >"$out.txt" 2>&1 || true
    want=""
    if [[ "$s" == sep-2322-client-request-state ]]; then
        want="${EXPECTED_CHECKS[*]}"
    fi
    # shellcheck disable=SC2016 # JavaScript, not shell
    if ! "$MRTR_NODE" -e '
        const fs = require("fs"), path = require("path");
        const [dir, scenario, want] = process.argv.slice(1);
        const sub = fs.readdirSync(dir).map(d => path.join(dir, d, "checks.json")).find(fs.existsSync);
        if (!sub) { console.log(`${scenario}: no checks.json (the client did not run?)`); process.exit(1); }
        const checks = JSON.parse(fs.readFileSync(sub, "utf8"));
        const w = Math.max(5, ...checks.map(c => c.id.length));
        console.log(`\n${scenario}\n`);
        console.log(`| ${"check".padEnd(w)} | status  |`);
        console.log(`| ${"-".repeat(w)} | ------- |`);
        for (const c of checks) console.log(`| ${c.id.padEnd(w)} | ${c.status.padEnd(7)} |`);
        const bad = checks.filter(c => c.status !== "SUCCESS");
        for (const c of bad) console.log(`  ${c.status} ${c.id}: ${c.errorMessage ?? ""}`);
        const missing = (want ? want.split(" ") : []).filter(id => !checks.some(c => c.id === id));
        for (const id of missing) console.log(`  MISSING ${id}`);
        const ok = checks.length - bad.length;
        console.log(`\n${ok} passed, ${bad.length + missing.length} failed`);
        process.exit(bad.length + missing.length === 0 && checks.length > 0 ? 0 : 1);
    ' "$out" "$s" "$want"; then
        failed=$((failed + 1))
        log "adapter output:"
        sed -n '1,80p' "$out"/*/stderr.txt >&2 2>/dev/null || cat "$out.txt" >&2
    fi
done
((failed == 0))
