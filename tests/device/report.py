"""Footprint and transcript of the device firmware, from the build and the
logs test_device.py left.

    report.py --elf FW.elf --map FW.map --log DIR

Prints: flash and RAM of the firmware (and how much of the flash is
libmrtr, compiler builtins, libgcc and the firmware's own C), the stack
high-water mark (painted stack, the largest any case reached), the
instructions per request of the Python SDK client's unlock_door session
(qemu -icount shift=0: the firmware's clock counts instructions), and that
session's transcript: every line each side sent over the UART.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path


def section_sizes(elf: str) -> dict[str, int]:
    out = subprocess.run(["arm-none-eabi-size", "-A", elf], capture_output=True, text=True, check=True).stdout
    sizes = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].startswith(".") and parts[1].isdigit():
            sizes[parts[0]] = int(parts[1])
    return sizes


def flash_by_origin(map_path: str) -> dict[str, int]:
    """Bytes of code and read-only data by input file, from the link map."""
    text = Path(map_path).read_text()
    text = text[text.find("Linker script and memory map"):]
    # An input section is ".name 0xADDR 0xSIZE file", the name sometimes on a
    # line of its own.
    pat = re.compile(r"^ (\.(?:text|rodata)\S*)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$", re.M)
    joined = re.sub(r"^ (\.\S+)\n\s+(0x)", r" \1 \2", text, flags=re.M)
    by: dict[str, int] = {}
    for _name, _addr, size, origin in pat.findall(joined):
        if "libmrtr.a(mrtr." in origin:
            key = "libmrtr (mrtr-ffi + mrtr-core, LTO)"
        elif "compiler_builtins" in origin:
            key = "Rust compiler builtins (in libmrtr.a)"
        elif "libgcc.a" in origin:
            key = "libgcc"
        else:
            key = "firmware C (examples/device/src)"
        by[key] = by.get(key, 0) + int(size, 16)
    return by


STATS = re.compile(r"device: request in=(\d+) out=(\d+) insns=(\d+) stack_high_water=(\d+)")


FLOAT = re.compile(r"dec2flt|flt2dec|grisu|dragon|float_to_decimal|fmt..float"
                   r"|^__aeabi_(d\w+|\w+2d)$|^__\w*df\w*$")


def float_routines(elf: str) -> list[str]:
    """Symbols of code that parses, formats or computes with doubles (Rust's
    dec2flt and float formatting, the soft-float built-ins)."""
    out = subprocess.run(["arm-none-eabi-nm", "--demangle", elf], capture_output=True, text=True,
                         check=True).stdout
    names = [line.split(maxsplit=2)[-1] for line in out.splitlines() if line.strip()]
    return sorted(n for n in names if FLOAT.search(n))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--elf", required=True)
    p.add_argument("--map", required=True)
    p.add_argument("--log", required=True)
    a = p.parse_args()

    s = section_sizes(a.elf)
    flash = s.get(".vectors", 0) + s.get(".text", 0) + s.get(".ARM.exidx", 0) + s.get(".data", 0)
    static_ram = s.get(".data", 0) + s.get(".bss", 0)
    logs = sorted(Path(a.log).glob("*.log"))
    high = 0
    for log in logs:
        for m in STATS.finditer(log.read_text(errors="replace")):
            high = max(high, int(m.group(4)))
        for m in re.finditer(r"client exit \d+, stack_high_water=(\d+)", log.read_text(errors="replace")):
            high = max(high, int(m.group(1)))
    print("== device firmware footprint (thumbv7em, libmrtr at opt-level z, C at -Os)")
    print(f"{'what':<44} {'bytes':>9}")
    print(f"{'flash (vectors + code + read-only data)':<44} {flash:>9}")
    for k, v in sorted(flash_by_origin(a.map).items(), key=lambda kv: -kv[1]):
        print(f"{'  of which ' + k:<44} {v:>9}")
    print(f"{'RAM, static (.data + .bss)':<44} {static_ram:>9}")
    print(f"{'RAM, stack reserved':<44} {s.get('.stack', 0):>9}")
    print(f"{'RAM, stack high-water (painted, all cases)':<44} {high:>9}")
    text = s.get(".text", 0)
    goal = 100 * 1024
    print(f"goal .text <= {goal} B (issue 26): {'MET' if text <= goal else 'MISSED'} ({text} B)")
    floats = float_routines(a.elf)
    print(f"float routines linked: {len(floats)}" + "".join(f"\n  {f}" for f in floats))
    if floats:
        # The library keeps every number as its exact decimal text; a float
        # parser or soft-float routine in the image means one came back.
        raise SystemExit("the device image links float code")

    trace = Path(a.log) / "sdk-unlock-door.log"
    if not trace.exists():
        return
    lines = trace.read_text(errors="replace").splitlines()
    print("\n== instructions per request (Python SDK client, unlock_door session)")
    print(f"{'request':<40} {'in':>6} {'out':>6} {'instructions':>13}")
    last = ""
    for line in lines:
        if line.startswith("<- "):
            try:
                msg = json.loads(line[3:])
                params = msg.get("params", {})
                last = msg.get("method", "?")
                if "name" in params:
                    last += " " + params["name"]
                if "requestState" in params:
                    last += " (retry)"
            except ValueError:
                last = "(not JSON)"
        m = STATS.match(line)
        if m:
            print(f"{last:<40} {m.group(1):>6} {m.group(2):>6} {m.group(3):>13}")
    print("\n== transcript: the Python SDK client (mcp 2.3.0) drives unlock_door through the device")
    print("   (<- what the client sent, -> what the device answered; non-ASCII shown as '.')")
    for line in lines:
        if line.startswith("<- ") or line.startswith("-> "):
            print(line)


if __name__ == "__main__":
    main()
