"""Footprint and transcript of the device firmware, from the build and the
logs test_device.py left.

    report.py --elf FW.elf --map FW.map --log DIR

Prints: flash and RAM of the firmware (and how much of the flash is
libmrtr, compiler builtins, libgcc and the firmware's own C), .text by
component (mrtr-core by module, the C ABI, RustCrypto by crate, Rust's
core library, compiler builtins, the firmware's C; by input section of the
link map, each Rust section attributed to the crate its symbol names, so
core code LTO inlined into a C ABI function counts as the C ABI), the stack
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


# The RustCrypto crates the seal links (directly or through each other).
RUSTCRYPTO = {"sha2", "hmac", "digest", "chacha20", "chacha20poly1305", "poly1305", "cipher",
              "universal_hash", "hybrid_array", "inout", "block_buffer", "crypto_common", "aead",
              "zeroize", "typenum", "subtle", "cmov"}
PRIMITIVE = {"u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128",
             "isize", "bool", "char", "str", "f32", "f64"}


def legacy_path(sym: str) -> str:
    """The path of a legacy-mangled Rust symbol (`_ZN...E`), `::`-joined,
    with the `$LT$`-style escapes decoded."""
    body = sym[3:]
    parts = []
    i = 0
    while i < len(body) and body[i].isdigit():
        j = i
        while j < len(body) and body[j].isdigit():
            j += 1
        n = int(body[i:j])
        parts.append(body[j:j + n])
        i = j + n
    path = "::".join(parts)
    for esc, ch in (("$LT$", "<"), ("$GT$", ">"), ("$RF$", "&"), ("$BP$", "*"), ("$C$", ","),
                    ("$u20$", " "), ("$u3b$", ";"), ("$u5b$", "["), ("$u5d$", "]"), ("$u7b$", "{"),
                    ("$u7d$", "}"), ("..", "::")):
        path = path.replace(esc, ch)
    return path.lstrip("_")


def first_crate(path: str) -> str:
    """The crate of a demangled path; for `<T as Trait>::f`, T's crate, or
    the trait's when T is a core or primitive type."""
    m = re.match(r"^<(.*?) as ([^<>]*)", path)
    if m:
        own = first_crate(m.group(1))
        if own == "core" and m.group(2):
            return first_crate(m.group(2))
        return own
    path = re.sub(r"^[<&\[*( ]+|^(mut|const|dyn) ", "", path)
    path = re.sub(r"^[<&\[*( ]+", "", path)
    name = re.match(r"[A-Za-z_][A-Za-z0-9_]*", path)
    # A primitive or a generic parameter (one capital letter): core's.
    if not name or name.group(0) in PRIMITIVE or re.fullmatch(r"[A-Z]", name.group(0)):
        return "core"
    return name.group(0)


def symbol_crate(sym: str) -> tuple[str, str]:
    """(crate, mrtr-core module or "") of a (mangled) Rust symbol."""
    if sym.startswith("_ZN"):
        path = legacy_path(sym)
        crate = first_crate(path)
        module = ""
        if crate == "mrtr_core":
            m = re.search(r"mrtr_core::(\w+)", path)
            module = m.group(1) if m else ""
        return crate, module
    if sym.startswith("_R"):
        m = re.search(r"C(?:s[0-9A-Za-z]*_)?(\d+)", sym)
        if m:
            n = int(m.group(1))
            start = m.end()
            crate = sym[start:start + n]
            module = ""
            if crate == "mrtr_core":
                rest = re.match(r"(\d+)", sym[start + n:])
                if rest:
                    k = int(rest.group(1))
                    off = start + n + len(rest.group(1))
                    module = sym[off:off + k]
            return crate, module
    return "", ""


def component(section: str, origin: str) -> str:
    """The component an input section of the image belongs to."""
    if "compiler_builtins" in origin:
        return "compiler builtins (Rust, in libmrtr.a)"
    if "libgcc.a" in origin:
        return "libgcc"
    if "libmrtr.a(" not in origin:
        return "firmware C (examples/device/src)"
    name = re.sub(r"^\.(text|rodata)\.((unlikely|hot|startup|exit)\.)?", "", section)
    name = re.sub(r"^\.L(switch\.table|anon)\.", "", name)
    if name.startswith("OUTLINED_FUNCTION"):
        return "machine-outlined fragments (any Rust crate)"
    if name.startswith("mrtr_"):
        return "mrtr-ffi (C ABI; core code inlined into it counts here)"
    crate, module = symbol_crate(name)
    if crate == "mrtr":
        return "mrtr-ffi (C ABI; core code inlined into it counts here)"
    if crate == "mrtr_core":
        return f"mrtr-core {module or '(other)'}"
    if crate in RUSTCRYPTO:
        return f"RustCrypto {crate.replace('_', '-')}"
    if crate == "core":
        return "Rust core library"
    if crate in ("compiler_builtins",):
        return "compiler builtins (Rust, in libmrtr.a)"
    if crate:
        return f"other Rust dependency {crate}"
    if section.startswith(".rodata"):
        return "read-only data without a symbol (literals, tables; any Rust crate)"
    return "other Rust code without a symbol"


def text_by_component(map_path: str) -> dict[str, list[int]]:
    """{component: [code bytes, read-only data bytes]} of the image's .text
    output section (device.ld places .rodata in it), from the link map."""
    text = Path(map_path).read_text()
    text = text[text.find("Linker script and memory map"):]
    joined = re.sub(r"^ (\.\S+)\n\s+(0x)", r" \1 \2", text, flags=re.M)
    pat = re.compile(r"^ (\.(?:text|rodata)\S*)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$", re.M)
    by: dict[str, list[int]] = {}
    # Sections in address order, each counted for the bytes no earlier one
    # covers: the linker merges the C compiler's string sections, which the
    # map lists at one address with their sizes before merging.
    covered = 0
    for addr, size, name, origin in sorted((int(a, 16), int(n, 16), s, o)
                                           for s, a, n, o in pat.findall(joined)):
        own = max(0, addr + size - max(addr, covered))
        covered = max(covered, addr + size)
        entry = by.setdefault(component(name, origin), [0, 0])
        entry[0 if name.startswith(".text") else 1] += own
    return by


def group_of(comp: str) -> str:
    for prefix in ("mrtr-core", "RustCrypto", "other Rust dependency"):
        if comp.startswith(prefix):
            return prefix
    return comp


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
    by = text_by_component(a.map)
    print(f"\n== .text by component ({text} B: code and the read-only data device.ld places in .text)")
    print(f"{'component':<66} {'code':>7} {'rodata':>7} {'total':>7}")
    groups: dict[str, int] = {}
    for k, (code, ro) in by.items():
        groups[group_of(k)] = groups.get(group_of(k), 0) + code + ro
    order = sorted(by.items(), key=lambda kv: (-groups[group_of(kv[0])], group_of(kv[0]),
                                               -(kv[1][0] + kv[1][1])))
    shown = set()
    for k, (code, ro) in order:
        g = group_of(k)
        if g != k and g not in shown:
            shown.add(g)
            print(f"{g + ' (all)':<66} {'':>7} {'':>7} {groups[g]:>7}")
        label = ("  " + k) if g != k else k
        print(f"{label:<66} {code:>7} {ro:>7} {code + ro:>7}")
    rest = text - sum(c + r for c, r in by.values())
    print(f"{'alignment padding and linker fill':<66} {'':>7} {'':>7} {rest:>7}")
    print()
    goal = 100 * 1024
    print(f"goal .text <= {goal} B (issue 26): {'MET' if text <= goal else 'MISSED'} ({text} B)")
    for kib in (100, 64):
        over = text - kib * 1024
        print(f"  .text over {kib} KiB: {max(over, 0)} B" + (" (under)" if over <= 0 else ""))
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
