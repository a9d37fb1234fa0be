"""Turns one `scripts/bench` run into one markdown table, a report and a chart.

    python report.py CRITERION_DIR RAW_DIR OUT_DIR

Reads criterion's estimates (median of each benchmark), the Python SDK's
times, callgrind instruction counts, allocation counts and the sealing
backend variants (all written by scripts/bench into RAW_DIR). Prints the
table on stdout; writes OUT_DIR/latest.md (table, goals, scaling, crypto
backends, environment) and OUT_DIR/ratios.png.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

MRTR = "mrtr"
HEADLINE = "1.6KB"
SIZE_SERIES = ["0.9KB", "16KB", "256KB", "1MB"]
COUNT_SERIES = ["n=1", "n=4", "n=16", "n=64"]
JOB_ORDER = ["validate", "parse+classify", "client leg", "server parse", "seal"]
# Every message input (the goals of issue 18 hold "at every size and count").
INPUT_ORDER_MSG = ["0.5KB", HEADLINE, *SIZE_SERIES, *COUNT_SERIES]
INPUT_ORDER = [*INPUT_ORDER_MSG, "0B", "64B", "256B", "1024B"]
# The rmcp contender's name, as jobs.rs and scripts/bench spell it.
RMCP = "rmcp 3.11.0"
CONTENDER_ORDER = [
    "mrtr", "mrtr C ABI", "mrtr Call", RMCP, "serde_json RawValue", "serde_json Value",
    "simd-json tape", "simd-json borrowed", "Python SDK",
    "mrtr seal+unseal", "mrtr seal+unseal+binding", "raw XChaCha20-Poly1305+SHA-256",
    "rmcp HMAC seal+open", "Python boundary seal+unseal", "Python AES-GCM codec seal+unseal",
]
# The row each job's ratios are taken against.
REFERENCE = {"validate": "mrtr", "parse+classify": "mrtr", "client leg": "mrtr", "server parse": "mrtr",
             "seal": "mrtr seal+unseal"}


def load_rows(criterion: Path, raw: Path) -> dict[tuple[str, str, str], dict[str, Any]]:
    rows: dict[tuple[str, str, str], dict[str, Any]] = {}
    for bench in criterion.glob("*/*/new/benchmark.json"):
        meta = json.loads(bench.read_text())
        est = json.loads((bench.parent / "estimates.json").read_text())
        group: str = meta["group_id"]
        job, _, inp = group.rpartition(" ")
        size = (meta.get("throughput") or {}).get("Bytes")
        rows[(meta["function_id"], job, inp)] = {
            "ns": est["median"]["point_estimate"],
            "lo": est["median"]["confidence_interval"]["lower_bound"],
            "hi": est["median"]["confidence_interval"]["upper_bound"],
            "bytes": size,
        }
    py = raw / "python.json"
    if py.exists():
        for r in json.loads(py.read_text())["rows"]:
            rows[(r["contender"], r["job"], r["input"])] = {"ns": r["seconds"] * 1e9, "bytes": r["bytes"]}
    allocs = raw / "allocs.json"
    if allocs.exists():
        for a in json.loads(allocs.read_text()):
            row = rows.get((a["contender"], a["job"], a["input"]))
            if row is not None:
                row["allocs"] = a["allocs"]
    cg = raw / "callgrind.json"
    if cg.exists():
        for c in json.loads(cg.read_text()):
            row = rows.get((c["contender"], c["job"], c["input"]))
            if row is not None:
                row["instr"] = c["instructions"]
    return rows


def order_key(key: tuple[str, str, str]) -> tuple[int, int, int]:
    c, j, i = key
    def idx(seq: list[str], v: str) -> int:
        return seq.index(v) if v in seq else len(seq)
    return (idx(JOB_ORDER, j), idx(INPUT_ORDER, i), idx(CONTENDER_ORDER, c))


def fmt_time(ns: float) -> str:
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} us"
    return f"{ns:.0f} ns"


def fmt_count(v: float) -> str:
    if v >= 1e6:
        return f"{v / 1e6:.2f} M"
    if v >= 1e3:
        return f"{v / 1e3:.1f} k"
    return f"{v:.0f}"


def ratio(rows: dict, contender: str, job: str, inp: str, field: str = "ns") -> float | None:
    ref = rows.get((REFERENCE[job], job, inp))
    row = rows.get((contender, job, inp))
    if not ref or not row or field not in ref or field not in row or not ref[field]:
        return None
    return row[field] / ref[field]


def main_table(rows: dict) -> str:
    out = ["| contender | job | input | median time | ratio vs mrtr | instructions/op | allocations/op |",
           "|---|---|---|---:|---:|---:|---:|"]
    for key in sorted(rows, key=order_key):
        c, j, i = key
        r = rows[key]
        rt = ratio(rows, c, j, i)
        ri = ratio(rows, c, j, i, "instr")
        ratio_s = "" if rt is None else f"{rt:.2f}x"
        if ri is not None and c != REFERENCE[j]:
            ratio_s += f" ({ri:.2f}x instr)"
        instr = fmt_count(r["instr"]) if "instr" in r else ""
        allocs = "" if "allocs" not in r else f"{r['allocs']:g}"
        out.append(f"| {c} | {j} | {i} | {fmt_time(r['ns'])} | {ratio_s} | {instr} | {allocs} |")
    return "\n".join(out)


def mbps(row: dict) -> float:
    return row["bytes"] / (row["ns"] * 1e-9) / 1e6


def throughput_section(rows: dict) -> tuple[str, dict[str, float]]:
    contenders = [c for c in CONTENDER_ORDER if any((c, "parse+classify", i) in rows for i in SIZE_SERIES)]
    out = ["| contender | " + " | ".join(SIZE_SERIES) + " | max/min |", "|---|" + "---:|" * (len(SIZE_SERIES) + 1)]
    spread: dict[str, float] = {}
    for c in contenders:
        vals = [mbps(rows[(c, "parse+classify", i)]) for i in SIZE_SERIES if (c, "parse+classify", i) in rows]
        spread[c] = max(vals) / min(vals)
        out.append(f"| {c} | " + " | ".join(f"{v:.0f}" for v in vals) + f" | {spread[c]:.2f} |")
    return "\n".join(out), spread


def count_section(rows: dict) -> tuple[str, dict[str, float]]:
    ns = [1, 4, 16, 64]
    out = ["| contender | job | " + " | ".join(f"{n} inputs" for n in ns) +
           " | us per added input (4->16) | (16->64) | growth |",
           "|---|---|" + "---:|" * (len(ns) + 3)]
    growth: dict[str, float] = {}
    for job in ("parse+classify", "client leg"):
        for c in CONTENDER_ORDER:
            ts = [rows.get((c, job, f"n={n}"), {}).get("ns") for n in ns]
            if None in ts:
                continue
            m1 = (ts[2] - ts[1]) / 12 / 1e3
            m2 = (ts[3] - ts[2]) / 48 / 1e3
            g = m2 / m1 if m1 > 0 else float("inf")
            growth[f"{c} / {job}"] = g
            out.append(f"| {c} | {job} | " + " | ".join(fmt_time(t) for t in ts) +
                       f" | {m1:.2f} | {m2:.2f} | {g:.2f} |")
    return "\n".join(out), growth


def variants_section(raw: Path) -> tuple[str, list[dict]]:
    path = raw / "seal-variants.json"
    if not path.exists():
        return "(not measured)", []
    lines = [json.loads(l) for l in path.read_text().splitlines() if l.strip()]
    variants = list(dict.fromkeys(l["variant"] for l in lines))
    jobs = list(dict.fromkeys(l["job"] for l in lines))
    out = ["| configuration | RUSTFLAGS | " + " | ".join(f"{j}, 256 B (median / best)" for j in jobs) +
           " | mrtr / raw (median) | mrtr / raw (best) |", "|---|---|" + "---:|" * (len(jobs) + 2)]
    best: tuple[float, str] | None = None
    for v in variants:
        sel = {l["job"]: l for l in lines if l["variant"] == v and l["size"] == 256}
        flags = next(l["rustflags"] for l in lines if l["variant"] == v) or "(none)"
        cells = [f"{fmt_time(sel[j]['ns'])} / {fmt_time(sel[j]['min_ns'])}" if j in sel else "" for j in jobs]
        m, r = sel["mrtr seal+unseal"], sel["raw XChaCha20-Poly1305+SHA-256"]
        out.append(f"| {v} | `{flags}` | " + " | ".join(cells) +
                   f" | {m['ns'] / r['ns']:.2f} | {m['min_ns'] / r['min_ns']:.2f} |")
        if best is None or m["min_ns"] < best[0]:
            best = (m["min_ns"], v)
    if best:
        out.append("")
        out.append(f"Fastest mrtr seal+unseal (best of rounds): **{best[1]}** ({fmt_time(best[0])}). "
                   "A user selects a backend in their application, not in mrtr: `RUSTFLAGS='--cfg "
                   "poly1305_backend=\"soft\"'` for one build, or `[build] rustflags = [\"--cfg\", "
                   "\"poly1305_backend=\\\"soft\\\"\"]` in the application's `.cargo/config.toml` "
                   "(cfgs apply to the whole build graph, so they reach mrtr-core's crypto dependencies).")
    return "\n".join(out), lines


# Reference points measured earlier on this kind of machine (the brief's),
# to read how loaded this run's machine was. The rmcp point was measured
# with rmcp 3.1.4 (the contender is now 3.11.0, issue 18).
REFERENCE_POINTS = [
    (RMCP, "parse+classify", HEADLINE, 34e3),
    ("serde_json Value", "parse+classify", HEADLINE, 4.9e3),
    ("serde_json RawValue", "parse+classify", HEADLINE, 1.2e3),
    ("simd-json tape", "parse+classify", HEADLINE, 1.3e3),
    ("Python SDK", "parse+classify", HEADLINE, 100e3),
    ("raw XChaCha20-Poly1305+SHA-256", "seal", "256B", 3.6e3),
    ("Python boundary seal+unseal", "seal", "256B", 40e3),
]


def reference_section(rows: dict) -> str:
    out = ["| contender | job | input | reference | this run | this run / reference |", "|---|---|---|---:|---:|---:|"]
    for c, j, i, ref in REFERENCE_POINTS:
        r = rows.get((c, j, i))
        if r:
            out.append(f"| {c} | {j} | {i} | {fmt_time(ref)} | {fmt_time(r['ns'])} | {r['ns'] / ref:.2f} |")
    return "\n".join(out)


def goal(name: str, measured: str, met: bool | None) -> str:
    mark = "n/a" if met is None else ("MET" if met else "MISSED")
    return f"| {name} | {measured} | {mark} |"


def goals_section(rows: dict, spread: dict[str, float], growth: dict[str, float], variants: list[dict]) -> str:
    """Issue 18's goals, each MET or MISSED with its measured figure, then
    the goals of earlier issues. A goal stated "in instructions and time"
    is met only when both ratios are within the limit; "not measured"
    (n/a) when the run has no figure for it."""
    def t(c: str, j: str, i: str = HEADLINE) -> float | None:
        r = rows.get((c, j, i))
        return r["ns"] if r else None
    def ins(c: str, j: str, i: str = HEADLINE) -> float | None:
        r = rows.get((c, j, i))
        return r.get("instr") if r else None
    def both(a: tuple, b: tuple) -> tuple[float | None, float | None]:
        ta, tb = t(*a), t(*b)
        ia, ib = ins(*a), ins(*b)
        rt = ta / tb if ta and tb else None
        ri = ia / ib if ia and ib else None
        return rt, ri
    def show(rt: float | None, ri: float | None) -> str:
        s = "not measured" if rt is None else f"{rt:.2f}x time"
        if ri is not None:
            s += f", {ri:.2f}x instructions"
        return s
    def within(rt: float | None, ri: float | None, limit: float) -> bool | None:
        if rt is None:
            return None
        return rt <= limit and (ri is None or ri <= limit)
    def worst(pairs: list[tuple[str, float | None, float | None]], limit: float) -> tuple[str, bool | None]:
        measured = [(i, rt, ri) for i, rt, ri in pairs if rt is not None]
        if not measured:
            return "not measured", None
        wt = max(measured, key=lambda p: p[1])
        with_ins = [p for p in measured if p[2] is not None]
        s = f"worst {wt[1]:.2f}x time ({wt[0]})"
        if with_ins:
            wi = max(with_ins, key=lambda p: p[2])
            s += f", worst {wi[2]:.2f}x instructions ({wi[0]})"
        s += f"; {len(measured)} inputs, {len(with_ins)} counted"
        met = all(within(rt, ri, limit) for _, rt, ri in measured)
        if len(measured) < len(INPUT_ORDER_MSG):
            missing = [i for i in INPUT_ORDER_MSG if i not in {p[0] for p in measured}]
            s += f"; not measured: {', '.join(missing)}"
            met = False if not met else None
        return s, met

    out = ["### Issue 18", "",
           "| goal | measured | result |", "|---|---|---|"]
    detail = ["", "Per input (time ratio; instruction ratio where callgrind counted it):", "",
              "| input | parse+classify mrtr / RawValue | client leg mrtr / RawValue parse "
              "| C ABI / Rust Call, parse+classify | C ABI / Rust, client leg | server parse mrtr / RawValue |",
              "|---|---:|---:|---:|---:|---:|"]
    parse_pairs, abi_pairs, leg_pairs, abi_leg_pairs = [], [], [], []
    cell = lambda rt, ri: "" if rt is None else (f"{rt:.2f}" + ("" if ri is None else f" ({ri:.2f})"))
    for i in INPUT_ORDER_MSG:
        p = both((MRTR, "parse+classify", i), ("serde_json RawValue", "parse+classify", i))
        # The C ABI reads a response inside a call: compared with the Rust
        # Call doing the same (contender "mrtr Call"), not with the bare parse.
        a = both(("mrtr C ABI", "parse+classify", i), ("mrtr Call", "parse+classify", i))
        l = both((MRTR, "client leg", i), ("serde_json RawValue", "parse+classify", i))
        al = both(("mrtr C ABI", "client leg", i), (MRTR, "client leg", i))
        sp = both((MRTR, "server parse", i), ("serde_json RawValue", "server parse", i))
        parse_pairs.append((i, *p))
        abi_pairs.append((i, *a))
        leg_pairs.append((i, *l))
        abi_leg_pairs.append((i, *al))
        detail.append(f"| {i} | {cell(*p)} | {cell(*l)} | {cell(*a)} | {cell(*al)} | {cell(*sp)} |")

    s_, met = worst(parse_pairs, 0.8)
    out.append(goal("parse+classify <= 0.8x serde_json borrowed+RawValue, in instructions and time, "
                    "every size 0.5 KB to 1 MB and 1 to 64 inputs", s_, met))
    sp_ = spread.get(MRTR)
    out.append(goal("parse+classify throughput flat within 20% from 0.9 KB to 1 MB (max/min MB/s <= 1.2)",
                    "not measured" if sp_ is None else f"max/min = {sp_:.2f}", None if sp_ is None else sp_ <= 1.2))
    rt, ri = both((MRTR, "client leg"), ("serde_json RawValue", "parse+classify"))
    out.append(goal(f"client leg ({HEADLINE}) <= 2x one serde_json RawValue parse", show(rt, ri),
                    within(rt, ri, 2.0)))
    s_, met = worst(abi_pairs, 1.2)
    out.append(goal("C ABI within 1.2x of the Rust path: parse+classify (C ABI / mrtr Call, the same "
                    "work), every input", s_, met))
    s_, met = worst(abi_leg_pairs, 1.2)
    out.append(goal("C ABI within 1.2x of the Rust path: client leg, every input", s_, met))
    rt, ri = both((MRTR, "server parse"), ("serde_json RawValue", "server parse"))
    out.append(goal(f"ServerRequest::parse <= 1.0x serde_json RawValue on the retry request ({HEADLINE})",
                    show(rt, ri), within(rt, ri, 1.0)))
    rt, ri = both((MRTR, "server parse", "n=64"), ("serde_json RawValue", "server parse", "n=64"))
    out.append(goal("same, retry request with 64 inputResponses", show(rt, ri), within(rt, ri, 1.0)))
    rt, ri = both(("mrtr seal+unseal", "seal", "256B"), ("raw XChaCha20-Poly1305+SHA-256", "seal", "256B"))
    out.append(goal("seal+unseal 256 B <= 1.2x raw XChaCha20-Poly1305 + SHA-256, default build (criterion)",
                    show(rt, ri), within(rt, ri, 1.2)))
    for name in ("default (runtime detection)", "poly1305 soft"):
        sel = [l for l in variants if l["variant"] == name and l["size"] == 256]
        m = next((l for l in sel if l["job"] == "mrtr seal+unseal"), None)
        r = next((l for l in sel if l["job"] == "raw XChaCha20-Poly1305+SHA-256"), None)
        if m and r:
            out.append(goal(f"seal+unseal 256 B <= 1.2x the floor, crypto build `{name}` "
                            "(interleaved rounds; median, best)",
                            f"{m['ns'] / r['ns']:.2f}x, {m['min_ns'] / r['min_ns']:.2f}x",
                            m["ns"] / r["ns"] <= 1.2))
        else:
            out.append(goal(f"seal+unseal 256 B <= 1.2x the floor, crypto build `{name}`", "not measured", None))
    out.extend(detail)

    out += ["", "### Earlier issues", "", "| goal | measured | result |", "|---|---|---|"]
    rt, ri = both((RMCP, "parse+classify"), (MRTR, "parse+classify"))
    out.append(goal(f"parse+classify {HEADLINE}: rmcp time / mrtr time >= 30", show(rt, ri),
                    None if rt is None else rt >= 30))
    rt, ri = both((MRTR, "parse+classify"), ("simd-json tape", "parse+classify"))
    out.append(goal(f"parse+classify {HEADLINE}: mrtr time / simd-json tape time <= 0.8", show(rt, ri),
                    None if rt is None else rt <= 0.8))
    rt, _ = both(("Python SDK", "parse+classify"), (MRTR, "parse+classify"))
    out.append(goal(f"parse+classify {HEADLINE}: Python SDK time / mrtr time >= 80", show(rt, None),
                    None if rt is None else rt >= 80))
    rt, _ = both(("Python boundary seal+unseal", "seal", "256B"), ("mrtr seal+unseal+binding", "seal", "256B"))
    out.append(goal("Python boundary seal+unseal 256 B / mrtr seal+unseal+binding >= 25", show(rt, None),
                    None if rt is None else rt >= 25))
    for job in ("parse+classify", "client leg"):
        g = growth.get(f"{MRTR} / {job}")
        out.append(goal(f"mrtr {job} linear in input requests (cost per added input, 16->64 vs 4->16, <= 1.2)",
                        "not measured" if g is None else f"{g:.2f}", None if g is None else g <= 1.2))
    return "\n".join(out)


def chart(rows: dict, out_png: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(15, 10))
    panels = [("parse+classify", HEADLINE, MRTR), ("client leg", HEADLINE, MRTR),
              ("seal", "256B", "mrtr seal+unseal")]
    for ax, (job, inp, ref) in zip(axes.flat, panels):
        names, vals = [], []
        for c in CONTENDER_ORDER:
            r = ratio(rows, c, job, inp)
            if r is not None:
                names.append(c)
                vals.append(r)
        colors = ["tab:green" if n.startswith("mrtr") else "tab:gray" for n in names]
        ax.barh(names[::-1], vals[::-1], color=colors[::-1])
        ax.set_xscale("log")
        ax.axvline(1.0, color="black", linewidth=0.8)
        ax.set_title(f"{job}, {inp}: median time / {ref} (log; < 1 is faster)")
        for y, v in enumerate(vals[::-1]):
            ax.text(v, y, f" {v:.2f}x", va="center", fontsize=8)
    ax = axes.flat[3]
    for c in CONTENDER_ORDER:
        pts = [(rows[(c, "parse+classify", i)]["bytes"], mbps(rows[(c, "parse+classify", i)]))
               for i in SIZE_SERIES if (c, "parse+classify", i) in rows]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                    linewidth=2.5 if c == MRTR else 1, label=c)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("message bytes (the 1.6 KB document compact, its conversation grown)")
    ax.set_ylabel("MB/s")
    ax.set_title("parse+classify throughput by size (flat is the goal)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out_png, dpi=100)


def main() -> None:
    criterion, raw, out_dir = (Path(a) for a in sys.argv[1:4])
    rows = load_rows(criterion, raw)
    table = main_table(rows)
    tput, spread = throughput_section(rows)
    counts, growth = count_section(rows)
    vtable, variants = variants_section(raw)
    env = json.loads((raw / "env.json").read_text()) if (raw / "env.json").exists() else {}
    sdk = json.loads((raw / "python.json").read_text()).get("sdk", "") if (raw / "python.json").exists() else ""
    out_dir.mkdir(parents=True, exist_ok=True)
    png = out_dir / "ratios.png"
    chart(rows, png)
    print(table)
    md = [
        "# mrtr side-by-side benchmarks (latest run of scripts/bench)",
        "",
        "Generated by `scripts/bench`; do not edit. Every number comes from one run on one machine,",
        "all contenders back to back. The machine is shared and noisy: read ratios, and the",
        "callgrind instruction counts (exact, noise-free) next to times.",
        "",
        "Environment: " + ", ".join(f"{k} {v}" for k, v in env.items()) + (f", Python SDK {sdk}" if sdk else ""),
        "",
        "## All measurements",
        "",
        "Ratio = this row's median time / the mrtr row of the same job and input",
        "(`mrtr seal+unseal` for sealing); above 1 means slower than mrtr.",
        "",
        table,
        "",
        "## Goals",
        "",
        goals_section(rows, spread, growth, variants),
        "",
        "## Throughput by size (parse+classify, MB/s)",
        "",
        tput,
        "",
        "## Cost by number of input requests",
        "",
        counts,
        "",
        "## Crypto backends (sealing, 256 B of state; each line is its own build)",
        "",
        "Timed by `mrtr-seal-variants time` (41 rounds of ~2 ms batches, jobs interleaved);",
        "best = fastest round, the least disturbed by other processes.",
        "",
        vtable,
        "",
        "## This run against the reference points of the brief",
        "",
        "Above 1: this run's machine was slower (busier) than the one the references came from.",
        "",
        reference_section(rows),
        "",
        "Profiles of mrtr's jobs (callgrind_annotate, inclusive): `profiles/`.",
        "",
        f"Chart: `{png.name}`.",
        "",
    ]
    (out_dir / "latest.md").write_text("\n".join(md))


if __name__ == "__main__":
    main()
