# shellcheck shell=bash
# Shared by run-server and run-client: finds or builds the firmware,
# provisions the device's store and sets DEVICE_QEMU (the machine options).
# Everything here writes to stderr: stdout is the MCP channel.

# device_prepare: sets DEVICE_ELF, DEVICE_STATE (the store, provisioned)
# and DEVICE_QEMU. QEMU must run in DEVICE_STATE (semihosting opens the
# store's file relative to its working directory).
# device_prepare [--no-build]: the firmware (built first unless
# --no-build), QEMU, the state directory. With --no-build nothing is built or
# installed: a process an MCP client spawns must answer at once, so a missing
# firmware or QEMU is an immediate error that names the command to run.
device_prepare() {
    local no_build="${1:-}"
    {
        DEVICE_ELF="${MRTR_DEVICE_ELF:-}"
        if [[ "$no_build" == --no-build ]]; then
            DEVICE_ELF="${DEVICE_ELF:-$CARGO_TARGET_DIR/device/mrtr-device.elf}"
            [[ -f "$DEVICE_ELF" ]] ||
                die "no firmware at $DEVICE_ELF: run examples/device/build first (it also installs QEMU)"
            command -v qemu-system-arm >/dev/null 2>&1 ||
                die "qemu-system-arm not found: run examples/device/build first (it also installs QEMU)"
        else
            ensure_apt qemu-system-arm
            need_cmd qemu-system-arm
            if [[ -z "$DEVICE_ELF" ]]; then
                DEVICE_ELF="$("$HERE/build")"
            fi
        fi
        [[ -f "$DEVICE_ELF" ]] || die "no firmware at $DEVICE_ELF"
        DEVICE_ELF="$(cd "$(dirname "$DEVICE_ELF")" && pwd)/$(basename "$DEVICE_ELF")"
        DEVICE_STATE="${MRTR_DEVICE_STATE:-$CARGO_TARGET_DIR/device/state}"
        mkdir -p "$DEVICE_STATE"
        DEVICE_STATE="$(cd "$DEVICE_STATE" && pwd)"
        if [[ ! -f "$DEVICE_STATE/mrtr-device.nvm" ]]; then
            device_provision "$DEVICE_STATE/mrtr-device.nvm"
            log "device: provisioned a new key ring in $DEVICE_STATE/mrtr-device.nvm"
        fi
    } >&2
    # -icount shift=0: one instruction per nanosecond of virtual time, so the
    # firmware's clock counts instructions (see README.md, "Measuring").
    DEVICE_QEMU=(-machine mps2-an386 -cpu cortex-m4 -display none -monitor none
        -serial stdio -icount shift=0)
}

# device_provision FILE: the store's first record (the layout of
# src/trust.c): magic, epoch counter 0, one key of 32 random bytes, an
# unused second key, a random 16-byte device id. Owner-only.
device_provision() {
    (
        umask 077
        {
            printf 'MRTRNVM1'
            head -c 8 /dev/zero
            printf '\001\000\000\000\000\000\000\000'
            head -c 32 /dev/urandom
            head -c 32 /dev/zero
            head -c 16 /dev/urandom
        } >"$1.tmp"
        mv "$1.tmp" "$1"
    )
}
