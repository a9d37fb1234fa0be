#!/usr/bin/env bash
# The official MCP Python SDK (mcp==2.3.0, pinned in
# scripts/python-requirements.txt) as the client of the demo server, over
# stdio and Streamable HTTP. Builds the demo server, makes the venv, runs
# python-client-vs-demo.py (table flow x transport, "N passed, M failed").
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/lib.sh"
# shellcheck source=tests/interop/demo-server.sh
source "$MRTR_ROOT/tests/interop/demo-server.sh"

ensure_venv
build_demo_server
venv_python "$MRTR_ROOT/tests/interop/python-client-vs-demo.py" "$MRTR_DEMO_BIN"
