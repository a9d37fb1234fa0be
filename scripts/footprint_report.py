#!/usr/bin/env python3
"""The report half of scripts/footprint: reads the linked probe images and
the other measurements the shell script made, prints a Markdown report.

Standard library only. Every number comes from a tool's output on the
images (llvm-size, llvm-nm, llvm-objdump, llvm-readobj, a symbolizer); none
is estimated.
"""

import argparse
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict

# Entry points of core's panic machinery: a call or branch to one of these
# from any other function is a panic site. Matched on demangled names.
PANIC_ENTRY = re.compile(
    r"^(core::panicking::"
    r"|core::slice::index::"
    r"|core::str::slice_error_fail"
    r"|core::option::(unwrap|expect)_failed"
    r"|core::result::unwrap_failed"
    r"|core::slice::copy_from_slice_impl::len_mismatch_fail"
    r"|core::slice::<impl \[T\]>::copy_from_slice::len_mismatch_fail"
    r"|core::cell::panic_"
    r"|core::char::methods::encode_utf8_raw::do_panic"
    r"|core::panic::"
    r"|(__rustc::)?rust_begin_unwind)"
)

# Any trace of an allocator: Rust's allocator shims or libc's malloc family.
ALLOC_SUBSTR = ("__rust_alloc", "__rust_dealloc", "__rust_realloc", "__rg_alloc", "__rdl_alloc",
                "__rust_alloc_error_handler", "__rust_no_alloc_shim")
ALLOC_EXACT = {"malloc", "calloc", "realloc", "free", "posix_memalign", "aligned_alloc",
               "memalign", "valloc"}

BUILD_DOC = {
    "call": "Call state machine (init, write_request, feed, input_at, answer)",
    "client": "whole client module but the UI helpers (Call + resend/feed_copy/save/restore, Task, roots, http, sse)",
    "ui": "client + the UI helpers behind their own features (form, url)",
    "server": "server request reader (ServerRequest::parse_indexed and its error response) and the server-side wire vocabulary (parse request, caps, inputResponses, error writers)",
    "seal": "Sealer::new, seal, unseal, binding_digest (+ json::parse of arguments)",
    "full": "client + server + seal",
    "full+ui": "full + the UI helpers",
    "full+sha2compact": "full, with RUSTFLAGS --cfg sha2_backend_soft=\"compact\" (rolled SHA-256)",
}


def run(cmd, stdin=None):
    return subprocess.run(cmd, input=stdin, capture_output=True, text=True, check=True).stdout


def kib(n):
    return f"{n / 1024:.1f} KiB"


class Image:
    def __init__(self, args, rel):
        self.args = args
        self.rel = rel
        self.target, self.opt, self.build = rel.split("/")[-3:]
        self.dir = os.path.join(args.out, rel)
        self.elf = os.path.join(self.dir, "image.elf")
        self.sections = self._sections()
        self.symbols = self._symbols()

    def _sections(self):
        sections = {}
        for line in run([self.args.size, "-A", self.elf]).splitlines():
            parts = line.split()
            if len(parts) >= 2 and parts[0].startswith(".") and parts[1].isdigit():
                sections[parts[0]] = sections.get(parts[0], 0) + int(parts[1])
        return sections

    def _symbols(self):
        """(size, type, demangled name) of every defined symbol with a size."""
        out = run([self.args.nm, "-C", "--size-sort", "-S", "--defined-only", self.elf])
        symbols = []
        for line in out.splitlines():
            m = re.match(r"^[0-9a-f]+ ([0-9a-f]+) (\w) (.*)$", line)
            if m:
                symbols.append((int(m.group(1), 16), m.group(2), m.group(3)))
        return symbols

    @property
    def text(self):
        return self.sections.get(".text", 0)

    @property
    def rodata(self):
        return sum(v for k, v in self.sections.items()
                   if k.startswith(".rodata") or k.startswith(".data.rel.ro"))

    @property
    def data(self):
        return sum(v for k, v in self.sections.items()
                   if k in (".data", ".bss", ".tdata", ".tbss"))

    def largest_functions(self, n=10):
        funcs = [s for s in self.symbols if s[1] in "tTwW"]
        return list(reversed(funcs[-n:]))

    def float_symbols(self):
        """(size, name) of code that parses, formats or computes with f64:
        core's dec2flt and float formatting (flt2dec, grisu, dragon) and
        the soft-float built-ins (ARM EABI __aeabi_d*, libgcc-style
        __*df*)."""
        pat = re.compile(r"dec2flt|flt2dec|grisu|dragon|float_to_decimal|fmt::float"
                         r"|f64 as core::str::traits::FromStr|compiler_builtins::float"
                         r"|^__aeabi_(d\w+|\w+2d)$|^__\w*df\w*$")
        return [(size, name) for size, _, name in self.symbols if pat.search(name)]

    def allocator_symbols(self):
        names = set()
        for path in ("archive-symbols.txt", "undefined.txt"):
            with open(os.path.join(self.dir, path)) as f:
                names.update(line.strip() for line in f if line.strip())
        names.update(run([self.args.nm, self.elf]).split())
        return sorted(n for n in names
                      if n in ALLOC_EXACT or any(s in n for s in ALLOC_SUBSTR))

    def undefined(self):
        with open(os.path.join(self.dir, "undefined.txt")) as f:
            return sorted({line.strip() for line in f if line.strip()})

    def disassemble(self):
        """Panic sites [(address, caller, callee)] (every call or branch into
        a panic entry from another function) and the reverse call graph
        {callee: [(address, caller)]}."""
        out = run([self.args.objdump, "-d", "-C", "--no-show-raw-insn", self.elf])
        sites = []
        callers = defaultdict(list)
        caller = ""
        for line in out.splitlines():
            head = re.match(r"^([0-9a-f]+) <(.*)>:$", line)
            if head:
                caller = head.group(2)
                continue
            insn = re.match(r"^\s*([0-9a-f]+):\s+(.*)$", line)
            if not insn:
                continue
            address = int(insn.group(1), 16)
            # `bl 0x2973a <name> @ imm = ..` (Arm), `call 0x1234 <name>` (x86);
            # names may hold angle brackets themselves.
            target = re.search(r"0x[0-9a-f]+ <(.+)>(\s+@.*)?$", insn.group(2))
            if not target:
                continue
            callee = target.group(1)
            if re.search(r"\+0x[0-9a-f]+$", callee) or callee == caller:
                continue
            callers[callee].append((address, caller))
            if PANIC_ENTRY.match(callee) and not PANIC_ENTRY.match(caller):
                sites.append((address, caller, callee))
        return sites, callers


SYMBOL_CACHE = {}


def symbolize(args, elf, addresses):
    """For each address, its inlining chain [(function, file, line)],
    innermost first; [] when no symbolizer is available. Cached per image."""
    cache = SYMBOL_CACHE.setdefault(elf, {})
    missing = sorted({a for a in addresses if a not in cache})
    if missing:
        cache.update(symbolize_uncached(args, elf, missing))
    return {a: cache.get(a, []) for a in addresses}


def symbolize_uncached(args, elf, addresses):
    if not args.symbolizer or not addresses:
        return {a: [] for a in addresses}
    text = "".join(f"0x{a:x}\n" for a in addresses)
    tool = os.path.basename(args.symbolizer)
    chains = {}
    if tool.startswith("llvm-symbolizer"):
        out = run([args.symbolizer, "--inlining", "--demangle", f"--obj={elf}"], stdin=text)
        blocks = [b for b in out.strip("\n").split("\n\n")]
        for a, block in zip(addresses, blocks):
            lines = block.splitlines()
            chain = []
            for fn, loc in zip(lines[0::2], lines[1::2]):
                file, line = (loc.rsplit(":", 2) + ["0", "0"])[:2]
                chain.append((fn, file, line))
            chains[a] = chain
    else:  # binutils addr2line
        out = run([args.symbolizer, "-a", "-i", "-f", "-C", "-e", elf], stdin=text)
        current = None
        pending = None
        for line in out.splitlines():
            if re.match(r"^0x[0-9a-f]+$", line):
                current = int(line, 16)
                chains[current] = []
                pending = None
            elif pending is None:
                pending = line
            else:
                file, _, lineno = line.partition(":")
                chains[current].append((pending, file, lineno.split(" ")[0]))
                pending = None
    return {a: chains.get(a, []) for a in addresses}


def mrtr_frame(args, chain):
    """The innermost frame of a chain in mrtr-core's sources, as
    `core/src/FILE:LINE`, or None."""
    core = os.path.join(args.root, "core", "src") + os.sep
    for _, file, line in chain:
        if file.startswith(core):
            return f"core/src/{file[len(core):]}:{line}"
    return None


def place(args, chain, caller):
    """Where a panic site lies: the innermost frame in mrtr-core's sources,
    else in a dependency's, else in Rust's core library, else the caller."""
    mine = mrtr_frame(args, chain)
    if mine:
        return mine, True
    for _, file, line in chain:
        m = re.search(r"/registry/src/[^/]+/(.*)$", file)
        if m:
            return f"{m.group(1)}:{line} (dependency, in `{short_fn(caller)}`)", False
    for _, file, line in chain:
        m = re.search(r"/library/(core/src/.*)$", file)
        if m:
            return f"Rust {m.group(1)}:{line} (in `{short_fn(caller)}`)", False
    return f"`{short_fn(caller)}` (no line info)", False


def frame_crate(args, file):
    """The crate a source file belongs to: "mrtr-core", a dependency's
    package name (version dropped), or None for Rust's own library."""
    core = os.path.join(args.root, "core", "src") + os.sep
    if file.startswith(core):
        return "mrtr-core"
    m = re.search(r"/registry/src/[^/]+/([^/]+?)-\d+\.\d+\.\d+[^/]*/", file)
    if m:
        return m.group(1)
    return None


def makers(args, elf, callers, chain, function, depth=4):
    """Which crates' code makes a panic site: the innermost frame of the
    site's inlining chain outside Rust's own library; when the whole chain
    lies in Rust's library (a core function kept out of line, such as a
    `Zip::new` or `copy_from_slice`), the innermost such frame at each call
    site of that function, walking up at most `depth` levels. So a slice
    index failure reached from mrtr-core's own indexing is mrtr-core's, and
    one inside chacha20's `zip` is chacha20's."""
    for _, file, _ in chain:
        crate = frame_crate(args, file)
        if crate:
            return {crate}
    found = set()
    seen = {function}
    level = [function]
    for _ in range(depth):
        sites = [(a, c) for f in level for a, c in callers.get(f, [])]
        if not sites:
            break
        chains = symbolize(args, elf, [a for a, _ in sites])
        nxt = []
        for a, c in sites:
            crate = next((k for k in (frame_crate(args, f) for _, f, _ in chains[a]) if k), None)
            if crate:
                found.add(crate)
            elif c not in seen:
                seen.add(c)
                nxt.append(c)
        level = nxt
    return found or {"?"}


# The RustCrypto crates mrtr-core's seal links (directly or through each
# other); a panic site they make is listed by crate.
RUSTCRYPTO = {"sha2", "hmac", "digest", "chacha20", "chacha20poly1305", "poly1305", "cipher",
              "universal-hash", "hybrid-array", "inout", "block-buffer", "crypto-common",
              "aead", "zeroize", "typenum", "cpufeatures", "opaque-debug", "subtle"}


def maker_label(crate):
    if crate == "mrtr-core":
        return "mrtr-core"
    if crate in RUSTCRYPTO:
        return f"RustCrypto {crate}"
    return crate


def short_fn(name):
    name = re.sub(r"::h[0-9a-f]{16}$", "", name)
    return name if len(name) <= 70 else name[:67] + "..."


def mrtr_callers(args, elf, callers, function, depth=4, limit=4):
    """The mrtr-core source lines from which `function` is reached: a
    breadth-first walk up the call graph (at most `depth` levels) that stops
    at each call site lying in mrtr-core's sources."""
    found = []
    seen = {function}
    level = [function]
    for _ in range(depth):
        sites = [(a, c) for f in level for a, c in callers.get(f, [])]
        if not sites:
            break
        chains = symbolize(args, elf, [a for a, _ in sites])
        nxt = []
        for a, c in sites:
            where = mrtr_frame(args, chains[a])
            if where:
                if where not in found:
                    found.append(where)
            elif c not in seen:
                seen.add(c)
                nxt.append(c)
        if len(found) >= limit:
            break
        level = nxt
    return found[:limit]


def stack_frames(args, rel):
    elf = os.path.join(args.out, rel, "image.elf")
    out = run([args.readobj, "--stack-sizes", "--demangle", elf])
    frames = []
    names = []
    for line in out.splitlines():
        m = re.match(r"^\s*Functions: \[(.*)\]$", line)
        if m:
            names = [n.strip() for n in m.group(1).split(",")]
            continue
        m = re.match(r"^\s*Size: (0x[0-9a-fA-F]+|\d+)$", line)
        if m and names:
            frames.append((int(m.group(1), 0), names[0]))
            names = []
    return sorted(frames, reverse=True)


def qemu_facts(path):
    facts = {}
    if not path or not os.path.exists(path):
        return facts
    with open(path) as f:
        for line in f:
            line = line.strip()
            m = re.search(r"work-item flow: (\d+) B from the top \((\d+) B below main\)", line)
            if m:
                facts["client_top"], facts["client_below"] = int(m.group(1)), int(m.group(2))
            m = re.search(r"Sealer::new: (\d+) B from the top \((\d+) B below main", line)
            if m:
                facts["sealer_top"], facts["sealer_below"] = int(m.group(1)), int(m.group(2))
            m = re.search(r"seal round trip: (\d+) B from the top \((\d+) B below main", line)
            if m:
                facts["seal_top"], facts["seal_below"] = int(m.group(1)), int(m.group(2))
            m = re.search(r"CallSlot (\d+) B", line)
            if m:
                facts["call_state"] = int(m.group(1))
            m = re.search(r"call workspace (\d+) B", line)
            if m:
                facts["workspace"] = int(m.group(1))
            m = re.search(r"request buffer (\d+) B", line)
            if m:
                facts["request"] = int(m.group(1))
            facts.setdefault("lines", []).append(line)
    return facts


def main():
    p = argparse.ArgumentParser()
    for name in ("out", "root", "nm", "size", "objdump", "readobj", "symbolizer", "rustc",
                 "nightly", "flows", "qemu-log"):
        p.add_argument(f"--{name}", default="")
    p.add_argument("--images", nargs="*", default=[])
    p.add_argument("--stack-images", nargs="*", default=[])
    args = p.parse_args()

    images = [Image(args, rel) for rel in args.images]
    failed = False
    print("# mrtr-core footprint\n")
    print(f"Toolchain: {args.rustc}. Probe: tests/footprint, LTO staticlib, panic = abort, "
          "codegen-units = 1, linked with rust-lld --gc-sections from the probe's entry "
          "points only (see scripts/footprint for the method).\n")
    print("Builds: " + "; ".join(f"**{k}**: {v}" for k, v in BUILD_DOC.items()) + ".\n")

    print("## Code size of the linked image (bytes)\n")
    print("| target | opt | build | .text | .rodata | .data+.bss | panic sites | allocator symbols |")
    print("|---|---|---|---:|---:|---:|---:|---|")
    sites_of = {}
    callers_of = {}
    for im in images:
        sites, callers = im.disassemble()
        sites_of[im.rel] = sites
        callers_of[im.rel] = callers
        alloc = im.allocator_symbols()
        if alloc:
            failed = True
        print(f"| {im.target} | {im.opt} | {im.build} | {im.text} ({kib(im.text)}) | "
              f"{im.rodata} | {im.data} | {len(sites)} | {', '.join(alloc) or 'none'} |")
    ext = sorted({u for im in images for u in im.undefined()})
    print(f"\nUndefined in the images (supplied by libc on x86_64; none expected on "
          f"Cortex-M): {', '.join(ext) or 'none'}.\n")

    print("## Largest 10 functions of each image (bytes)\n")
    for im in images:
        print(f"### {im.target} opt-level={im.opt} {im.build}\n")
        print("| bytes | function |\n|---:|---|")
        for size, _, name in im.largest_functions():
            print(f"| {size} | `{name[:110]}` |")
        print()

    print("## Panic sites\n")
    print("A panic site is a call or branch into core's panic entry points "
          "(`core::panicking::*`, slice/str index failures, `unwrap_failed`, "
          "`len_mismatch_fail`, ...) from any other function of the image. Each is "
          "placed at the innermost frame of its inlining chain that lies in "
          "mrtr-core's sources; a site inside a library function (Rust core's or a "
          "dependency's) lists the mrtr-core lines that reach that function. *Made by* "
          "names the crate whose code makes the failing call: the innermost frame outside "
          "Rust's own library, at the site or, for a core function kept out of line "
          "(`Zip::new`, `copy_from_slice`), at the places that call it. A site made by "
          "mrtr-core, directly or through a Rust core library call, is mrtr's; the rest "
          "are listed by crate.\n")
    by_place = defaultdict(Counter)
    reached_from = defaultdict(list)
    made_by = defaultdict(set)
    # Per image: which crate makes each site (mrtr-core, a RustCrypto crate,
    # another dependency).
    dep_sites = defaultdict(Counter)
    for im in images:
        sites = sites_of[im.rel]
        chains = symbolize(args, im.elf, [a for a, _, _ in sites])
        for a, caller, callee in sites:
            where, mine = place(args, chains[a], caller)
            crates = makers(args, im.elf, callers_of[im.rel], chains[a], caller)
            label = " + ".join(sorted(maker_label(c) for c in crates))
            made_by[where].update(crates)
            if "mrtr-core" in crates:
                kind = "library code" if not mine else "own code"
                dep_sites[im.rel][f"mrtr-core ({kind})"] += 1
            else:
                dep_sites[im.rel][label] += 1
            short = re.sub(r"(::)?<[^<>]*>$", "", callee).split("::")[-1]
            by_place[(where, short)][f"{im.target.split('-')[0]}/{im.opt}/{im.build}"] += 1
            if not mine:
                for src in mrtr_callers(args, im.elf, callers_of[im.rel], caller):
                    if src not in reached_from[where]:
                        reached_from[where].append(src)
    if by_place:
        print("| where | panics with | made by | reached from (mrtr-core) | images (count) |")
        print("|---|---|---|---|---|")
        for (where, callee), seen in sorted(by_place.items(),
                                            key=lambda kv: (not kv[0][0].startswith("core/"), kv[0])):
            via = ", ".join(reached_from.get(where, [])[:6]) or ("-" if where.startswith("core/") else "?")
            by = ", ".join(sorted(maker_label(c) for c in made_by[where]))
            print(f"| {where} | `{callee}` | {by} | {via} | "
                  f"{', '.join(f'{k} ({v})' for k, v in sorted(seen.items()))} |")
    else:
        print("None: no image reaches a panic entry point.")
    print()

    print("## Call workspace per spec flow\n")
    print("From `cargo run -p mrtr-core --example flow_workspace` (host build; "
          "the workspace size does not depend on the target, CallSlot does: "
          "usize fields).\n")
    print("```")
    with open(args.flows) as f:
        print(f.read().rstrip())
    print("```\n")

    print("## Stack\n")
    for rel in args.stack_images:
        frames = stack_frames(args, rel)
        target, opt = rel.split("/")[1:3]
        print(f"### Frames, {target} opt-level={opt} full ({args.nightly}, -Z emit-stack-sizes)\n")
        print("Per-function frames (not call chains); nightly's LLVM may inline "
              "differently from stable's.\n")
        print("| bytes | function |\n|---:|---|")
        for size, name in frames[:15]:
            print(f"| {size} | `{name[:110]}` |")
        entry = [(s, n) for s, n in frames if n.startswith("mrtr_fp_")]
        print("\nEntry points (own frame): " +
              ", ".join(f"`{n}` {s}" for s, n in sorted(entry, key=lambda e: e[1])) + "\n")
    if not args.stack_images:
        print("Per-function frames: skipped (no nightly toolchain).\n")
    q = qemu_facts(args.qemu_log)
    if q:
        print("### Measured under QEMU mps2-an386 (scripts/test-cortex-m, opt-level s)\n")
        print("```")
        print("\n".join(q.get("lines", [])))
        print("```\n")

    print("## Goals\n")
    thumb = [im for im in images if im.target.startswith("thumbv7em")]

    def verdict(value, limit, unit=" B"):
        if value <= limit:
            return f"MET ({value}{unit} <= {limit}{unit})"
        return f"MISSED by {value - limit}{unit} ({value}{unit} > {limit}{unit})"

    def na(what, why):
        print(f"- {what}: n/a ({why})")

    print("### Issue 18\n")
    print("Flash = .text + .rodata of the linked image (what an application's flash holds "
          "for these entry points); .text alone in parentheses.\n")
    for build, limit in (("call", 16), ("client", 32), ("full", 48)):
        what = f"{build} build, flash <= {limit} KiB, thumbv7em opt-level=z"
        im = next((i for i in thumb if i.build == build and i.opt == "z"), None)
        if im is None:
            na(what, "build not in this run's matrix")
            continue
        flash = im.text + im.rodata
        print(f"- {what}: {verdict(flash, limit * 1024)} ({kib(flash)}; .text {kib(im.text)})")
    if thumb:
        total = sum(len(sites_of[im.rel]) for im in thumb)
        worst = max(thumb, key=lambda im: len(sites_of[im.rel]))
        print(f"- 0 panic sites in every build at every opt level ({len(thumb)} thumbv7em images): "
              f"{verdict(total, 0, ' sites')}; most in {worst.opt}/{worst.build} "
              f"({len(sites_of[worst.rel])})")
        for im in thumb:
            if sites_of[im.rel]:
                where = dep_sites.get(im.rel, Counter())
                print(f"  - {im.opt}/{im.build}: {len(sites_of[im.rel])} sites, in " +
                      ", ".join(f"{k} ({v})" for k, v in sorted(where.items())))
    else:
        na("0 panic sites", "no thumbv7em image built")
    if "seal_below" in q:
        print(f"- seal round trip stack <= 3 KiB (QEMU, below main): "
              f"{verdict(q['seal_below'], 3072)}")
    else:
        na("seal round trip stack <= 3 KiB", "no QEMU run (MRTR_FOOTPRINT_QEMU=0)")
    ui_in_client = sorted({n for im in thumb if im.build in ("call", "client", "full")
                           for _, _, n in im.symbols
                           if "client::form::" in n or "client::url::" in n})
    if any(im.build in ("client", "full") for im in thumb):
        print("- UI helpers behind their own features (no `client::form`/`client::url` code in "
              "the call, client and full images): " +
              ("MET" if not ui_in_client else
               f"MISSED ({len(ui_in_client)} symbols, e.g. `{ui_in_client[0][:80]}`)"))
    for im in thumb:
        if im.opt == "z" and im.build in ("client", "ui", "full", "full+ui"):
            floats = im.float_symbols()
            size = sum(sz for sz, _ in floats)
            print(f"- no f64 code, z/{im.build}: " +
                  ("MET (no float parsing, formatting or soft-float symbol)" if not floats else
                   f"MISSED ({len(floats)} symbols, {size} B: " +
                   ", ".join(f"`{n[:48]}`" for _, n in sorted(floats, reverse=True)[:4]) + ")"))

    if thumb:
        print("\n### Issue 27\n")
        ours = {im.rel: sum(v for k, v in dep_sites.get(im.rel, Counter()).items()
                            if k.startswith("mrtr-core")) for im in thumb}
        print(f"- no panic site made by mrtr's code, Rust core library calls included "
              f"({len(thumb)} thumbv7em images): {verdict(sum(ours.values()), 0, ' sites')}")
        left = Counter()
        for im in thumb:
            for k, v in dep_sites.get(im.rel, Counter()).items():
                if not k.startswith("mrtr-core"):
                    left[k] = max(left[k], v)
        if left:
            print("  - left in other crates (most in any one image): " +
                  ", ".join(f"{k} ({v})" for k, v in sorted(left.items())))
        for build, limit in (("call", 20), ("client", 40), ("full", 56)):
            im = next((i for i in thumb if i.build == build and i.opt == "z"), None)
            if im is not None:
                print(f"- {build} .text <= {limit} KiB, thumbv7em opt-level=z: "
                      f"{verdict(im.text, limit * 1024)} ({kib(im.text)})")
    print("\n### Earlier issues\n")
    for build, limit, what in (("call", 32 * 1024, "call .text <= 32 KiB"),
                               ("full", 64 * 1024, "full .text <= 64 KiB"),
                               ("full+sha2compact", 64 * 1024, "full (sha2 compact) .text <= 64 KiB")):
        for im in sorted((i for i in thumb if i.build == build), key=lambda i: i.opt):
            print(f"- {what}, thumbv7em opt-level={im.opt}: {verdict(im.text, limit)}")
    if "workspace" in q and "call_state" in q:
        ram = q["workspace"] + q["call_state"]
        print(f"- RAM for the work-item flow (workspace {q['workspace']} + CallSlot "
              f"{q['call_state']}) <= 4 KiB plus the {q.get('request', '?')} B request buffer: "
              f"{verdict(ram, 4096)}")
    if "client_below" in q:
        print(f"- stack high-water <= 4 KiB, work-item flow: "
              f"{verdict(q['client_below'], 4096)} below main, {q['client_top']} B from the top")
    if "sealer_below" in q:
        print(f"- stack high-water <= 4 KiB, Sealer::new (server side, once): "
              f"{verdict(q['sealer_below'], 4096)} below main, {q['sealer_top']} B from the top")
    heap = [im.rel for im in images if im.allocator_symbols()]
    print(f"- heap: {'none: no allocator symbol in any image' if not heap else 'ALLOCATOR FOUND in ' + ', '.join(heap)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
