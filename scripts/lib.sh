# shellcheck shell=bash
# Helpers sourced by the project's scripts (scripts/test, scripts/demo, ...).
#
# Every installer is idempotent: it checks first and does nothing when the
# thing is already there at the wanted version, so the scripts can call them
# on every run. Paths are relative to the repository root, which is computed
# from this file's location; nothing here names a machine path.

if [[ -n "${MRTR_LIB_SH_LOADED:-}" ]]; then
    return 0
fi
MRTR_LIB_SH_LOADED=1

MRTR_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export MRTR_ROOT
# One target directory for every cargo call the scripts make.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$MRTR_ROOT/target}"

MRTR_VENV="$MRTR_ROOT/.venv"
MRTR_PY_REQUIREMENTS="$MRTR_ROOT/scripts/python-requirements.txt"
# Cargo-installed tools live outside the clone, per user, so that a fresh clone
# (as CI makes on every run) reuses them instead of compiling them again.
# Installers (apt, rustup) of concurrent runs on one machine take turns on
# this lock instead of failing on each other's package-manager locks.
mkdir -p "${XDG_CACHE_HOME:-$HOME/.cache}/mrtr"
MRTR_INSTALL_LOCK="${XDG_CACHE_HOME:-$HOME/.cache}/mrtr/install.lock"
MRTR_CARGO_TOOLS="${MRTR_CARGO_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/mrtr/cargo-tools}"

# log MESSAGE...: one timestamped line on stderr.
log() {
    printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2
}

# die MESSAGE...: log and exit 1.
die() {
    log "error: $*"
    exit 1
}

# need_cmd NAME...: fail unless each command is on PATH.
need_cmd() {
    local cmd
    for cmd in "$@"; do
        command -v "$cmd" >/dev/null 2>&1 || die "required command not found: $cmd"
    done
}

# ensure_venv: create .venv with 'python3 -m venv' and install the pinned
# packages of scripts/python-requirements.txt. Skipped when the venv exists and
# was last filled from the same requirements file with the same interpreter.
ensure_venv() {
    need_cmd python3
    local stamp="$MRTR_VENV/.mrtr-requirements.sha256" want have=""
    want="$( { python3 --version; cat "$MRTR_PY_REQUIREMENTS"; } | sha256sum | cut -d' ' -f1)"
    if [[ -f "$stamp" ]]; then
        have="$(cat "$stamp")"
    fi
    if [[ -x "$MRTR_VENV/bin/python" && "$have" == "$want" ]]; then
        log "venv: up to date (.venv)"
        return 0
    fi
    if [[ ! -x "$MRTR_VENV/bin/python" ]]; then
        log "venv: creating .venv"
        python3 -m venv "$MRTR_VENV"
    fi
    log "venv: installing scripts/python-requirements.txt"
    "$MRTR_VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
        --no-input -r "$MRTR_PY_REQUIREMENTS"
    printf '%s\n' "$want" >"$stamp"
}

# venv_python ARGS...: run the venv's interpreter.
venv_python() {
    "$MRTR_VENV/bin/python" "$@"
}

MRTR_APT_UPDATED=""

# ensure_apt PKG...: install the Debian packages that are not installed yet.
# Runs 'apt-get update' at most once per process, and only when something is
# missing.
ensure_apt() {
    local pkg missing=() sudo=()
    for pkg in "$@"; do
        if [[ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" != "install ok installed" ]]; then
            missing+=("$pkg")
        fi
    done
    if ((${#missing[@]} == 0)); then
        log "apt: already installed: $*"
        return 0
    fi
    if [[ "$(id -u)" -ne 0 ]]; then
        sudo=(sudo)
    fi
    if [[ -z "$MRTR_APT_UPDATED" ]]; then
        log "apt: apt-get update"
        flock "$MRTR_INSTALL_LOCK" "${sudo[@]}" apt-get update -qq
        MRTR_APT_UPDATED=1
    fi
    log "apt: installing ${missing[*]}"
    flock "$MRTR_INSTALL_LOCK" "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# ensure_cargo_tool NAME VERSION: 'cargo install --locked' the crate NAME at
# VERSION into $MRTR_CARGO_TOOLS (per user, outside the clone), unless it is
# there at that version. Puts its bin/ first on PATH either way.
ensure_cargo_tool() {
    local name="$1" version="$2"
    need_cmd cargo
    case ":$PATH:" in
        *":$MRTR_CARGO_TOOLS/bin:"*) ;;
        *) export PATH="$MRTR_CARGO_TOOLS/bin:$PATH" ;;
    esac
    # Lists are captured before grep so that 'grep -q' exiting early cannot
    # fail the pipeline under 'set -o pipefail'.
    local installed
    installed="$(cargo install --list --root "$MRTR_CARGO_TOOLS" 2>/dev/null || true)"
    if grep -qxF "$name v$version:" <<<"$installed"; then
        log "cargo tool: $name $version already installed"
        return 0
    fi
    log "cargo tool: installing $name $version into $MRTR_CARGO_TOOLS"
    # Under the install lock: a side-lane stage may install beside the main
    # lane, and both would share the root and its build directory.
    flock "$MRTR_INSTALL_LOCK" cargo install --locked --quiet --root "$MRTR_CARGO_TOOLS" \
        --target-dir "$MRTR_CARGO_TOOLS/build" --version "=$version" "$name"
}

# host_triple: the host target of the active toolchain.
host_triple() {
    rustc -vV | sed -n 's/^host: //p'
}

# ensure_rustup_target TARGET [TOOLCHAIN]: add a compilation target unless it
# is installed for the toolchain (default: the active one).
ensure_rustup_target() {
    local target="$1" toolchain="${2:-}" tc=()
    need_cmd rustup
    if [[ -n "$toolchain" ]]; then
        tc=(--toolchain "$toolchain")
    fi
    local installed
    installed="$(rustup target list --installed "${tc[@]}")"
    if grep -qxF "$target" <<<"$installed"; then
        log "rustup: target $target already installed"
        return 0
    fi
    log "rustup: adding target $target"
    flock "$MRTR_INSTALL_LOCK" rustup target add "${tc[@]}" "$target"
}

# ensure_rustup_toolchain VERSION: install a Rust toolchain (minimal
# profile) unless rustup has it.
ensure_rustup_toolchain() {
    local version="$1"
    need_cmd rustup
    if rustup run "$version" rustc --version >/dev/null 2>&1; then
        log "rustup: toolchain $version already installed"
        return 0
    fi
    log "rustup: installing toolchain $version"
    flock "$MRTR_INSTALL_LOCK" rustup toolchain install "$version" --profile minimal
}

# ensure_rustup_component TOOLCHAIN COMPONENT: add a component (rust-src,
# clippy, miri, ...) to a toolchain unless it is installed.
ensure_rustup_component() {
    local toolchain="$1" component="$2" host
    need_cmd rustup
    host="$(host_triple)"
    local installed
    installed="$(rustup component list --installed --toolchain "$toolchain")"
    if grep -qxE "${component}(-${host})?" <<<"$installed"; then
        log "rustup: $component already installed for $toolchain"
        return 0
    fi
    log "rustup: adding $component to $toolchain"
    flock "$MRTR_INSTALL_LOCK" rustup component add --toolchain "$toolchain" "$component"
}

# cross_linux TRIPLE: sets up a Linux cross target whose programs run here
# under qemu-user: the rustup target, Debian's cross gcc and C library for it
# and qemu-user. Exports MRTR_CROSS_CC (the cross gcc), MRTR_CROSS_RUNNER
# (the qemu-user command that runs one of its programs, with the cross C
# library as the root of its dynamic loader) and cargo's
# CARGO_TARGET_<TRIPLE>_LINKER and _RUNNER, so that 'cargo test --target
# TRIPLE' links with the cross gcc and runs the tests under qemu-user.
cross_linux() {
    local triple="$1" gnu arch qemu var
    case "$triple" in
        aarch64-unknown-linux-gnu) gnu=aarch64-linux-gnu arch=arm64 qemu=qemu-aarch64 ;;
        armv7-unknown-linux-gnueabihf) gnu=arm-linux-gnueabihf arch=armhf qemu=qemu-arm ;;
        s390x-unknown-linux-gnu) gnu=s390x-linux-gnu arch=s390x qemu=qemu-s390x ;;
        *) die "cross_linux: no setup for $triple (aarch64-unknown-linux-gnu, armv7-unknown-linux-gnueabihf, s390x-unknown-linux-gnu)" ;;
    esac
    ensure_rustup_target "$triple"
    ensure_apt qemu-user "gcc-$gnu" "libc6-dev-$arch-cross"
    need_cmd "$gnu-gcc" "$qemu"
    export MRTR_CROSS_CC="$gnu-gcc"
    export MRTR_CROSS_RUNNER="$qemu -L /usr/$gnu"
    var="$(tr 'a-z-' 'A-Z_' <<<"$triple")"
    export "CARGO_TARGET_${var}_LINKER=$MRTR_CROSS_CC"
    export "CARGO_TARGET_${var}_RUNNER=$MRTR_CROSS_RUNNER"
}

# cross_windows: sets up x86_64-pc-windows-gnu, whose programs run here
# under wine: the rustup target, Debian's MinGW-w64 gcc/g++ and wine64 (the
# 64-bit wine alone: no i386 multiarch needed). Exports MRTR_CROSS_CC,
# MRTR_CROSS_CXX, MRTR_CROSS_RUNNER (wine64, quiet, with a private prefix
# under the per-user cache, or MRTR_WINEPREFIX, and a time limit of
# MRTR_WINE_TIMEOUT seconds per program, default 300) and cargo's linker and
# runner for the target, as cross_linux does. The prefix is made once, under
# the install lock, so that concurrent runs do not both make it.
cross_windows() {
    local wine=/usr/lib/wine/wine64 server=/usr/lib/wine/wineserver
    ensure_rustup_target x86_64-pc-windows-gnu
    ensure_apt gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 wine64
    need_cmd x86_64-w64-mingw32-gcc x86_64-w64-mingw32-g++ timeout
    [[ -x "$wine" ]] || wine="$(command -v wine64 || true)"
    [[ -n "$wine" && -x "$wine" ]] || die "cross_windows: wine64 not found"
    [[ -x "$server" ]] || server="$(command -v wineserver || true)"
    export WINEPREFIX="${MRTR_WINEPREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/mrtr/wine}"
    export WINEDEBUG=-all
    mkdir -p "$WINEPREFIX"
    if [[ ! -f "$WINEPREFIX/system.reg" ]]; then
        log "wine: making the prefix $WINEPREFIX"
        # shellcheck disable=SC2016 # expanded by the inner shell
        flock "$MRTR_INSTALL_LOCK" bash -c '[[ -f "$WINEPREFIX/system.reg" ]] && exit 0
            timeout -k 10 300 "$1" wineboot --init >/dev/null 2>&1
            if [[ -n "$2" ]]; then "$2" -w; fi' _ "$wine" "$server"
        [[ -f "$WINEPREFIX/system.reg" ]] || die "cross_windows: wineboot made no prefix in $WINEPREFIX"
    fi
    export MRTR_CROSS_CC=x86_64-w64-mingw32-gcc
    export MRTR_CROSS_CXX=x86_64-w64-mingw32-g++
    export MRTR_CROSS_RUNNER="timeout -k 10 ${MRTR_WINE_TIMEOUT:-300} $wine"
    export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER="$MRTR_CROSS_CC"
    export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER="$MRTR_CROSS_RUNNER"
}
