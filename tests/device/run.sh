#!/usr/bin/env bash
# The device stage: builds the firmware (examples/device/build), the C
# client and the venv, then runs test_device.py (the Python SDK client and
# mrtr-client against the device as a server under QEMU, hostile lines on
# its UART, the device as a client of a Python SDK server and of the
# hostile server) and prints report.py (flash, RAM, stack high-water,
# instructions per request, the unlock_door transcript).
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/lib.sh"
cd "$MRTR_ROOT"

ensure_apt qemu-system-arm
ensure_venv
ELF="$(examples/device/build)"
scripts/build-c-client
WORK="$(mktemp -d "${TMPDIR:-/tmp}/mrtr-device.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/state" "$WORK/log"
status=0
venv_python tests/device/test_device.py --elf "$ELF" --mrtr-client build/mrtr-client \
    --state "$WORK/state" --log "$WORK/log" || status=$?
echo
venv_python tests/device/report.py --elf "$ELF" --map "${ELF%.elf}.map" --log "$WORK/log"
exit "$status"
