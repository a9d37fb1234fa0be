#!/usr/bin/env python3
"""Import circles between the files of mrtr-core (issue 26: none is allowed).

Reads every module file of core/src (test files and `#[cfg(test)]` modules
left out), takes each `crate::`, `super::` and `self::` path it names (in
`use` items, braces expanded, and in code), resolves the path to the file
of the module that defines it, and draws an arrow from the file to that one.
A path through a module's face (`mod.rs`, `lib.rs`) to a name the face
re-exports (`pub use sub::Name`) points at the file that defines the name,
as a reader would follow it. Prints every circle (files that reach each
other through arrows) with the names that tie it, and exits non-zero if
there is one.

Usage: scripts/check-imports.py [CRATE_SRC]   (default: core/src)
"""

import os
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
PATH = re.compile(r"\b(crate|super|self)((?:::(?:" + IDENT + r"))+)")


def module_files(src):
    """Module path (a tuple) -> file, for every non-test module file."""
    mods = {}
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames[:] = sorted(d for d in dirnames if d != "tests")
        rel = os.path.relpath(dirpath, src)
        base = () if rel == "." else tuple(rel.split(os.sep))
        for f in sorted(filenames):
            if not f.endswith(".rs") or f == "tests.rs":
                continue
            stem = f[:-3]
            if stem in ("mod", "lib") or (base == () and stem == "main"):
                mods[base] = os.path.join(dirpath, f)
            else:
                mods[base + (stem,)] = os.path.join(dirpath, f)
    return mods


def strip(text):
    """The code without comments, string literals and `#[cfg(test)]` modules."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+" + IDENT + r"\s*\{", text):
        if m.start() < i:
            continue
        out.append(text[i:m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


def expand(tree):
    """`a::{b, c::{d, self}}` -> ["a::b", "a::c::d", "a::c"]."""
    tree = tree.strip()
    brace = tree.find("{")
    if brace < 0:
        return [re.sub(r"\s+as\s+" + IDENT + r"$", "", tree).strip()]
    head, body = tree[:brace].rstrip(":").strip(), tree[brace + 1 : tree.rindex("}")]
    parts, depth, cur = [], 0, ""
    for ch in body:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += {"{": 1, "}": -1}.get(ch, 0)
        cur += ch
    parts.append(cur)
    paths = []
    for p in parts:
        if not p.strip():
            continue
        for sub in expand(p):
            paths.append(head if sub == "self" else (head + "::" + sub if head else sub))
    return paths


def paths_in(code):
    """Every crate-relative path the code names, as written."""
    found = []
    for m in re.finditer(r"\buse\s+([^;]+);", code):
        found.extend(expand(m.group(1)))
    rest = re.sub(r"\buse\s+[^;]+;", " ", code)
    found.extend(m.group(0) for m in PATH.finditer(rest))
    return found


def reexports(mods, faces):
    """Face module -> {name: module path it re-exports the name from}."""
    out = {}
    for mod in faces:
        code = strip(open(mods[mod], encoding="utf-8").read())
        names = {}
        for m in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", code):
            for p in expand(m.group(1)):
                segs = p.split("::")
                if segs[0] == "self":
                    segs = segs[1:]
                if len(segs) >= 2 and segs[0] not in ("crate", "super", "core"):
                    names[segs[-1]] = mod + tuple(segs[:-1])
        out[mod] = names
    return out


def resolve(mods, reexp, here, path):
    """The module file a path written in module `here` points into."""
    segs = path.split("::")
    if segs[0] == "crate":
        cur, segs = (), segs[1:]
    elif segs[0] in ("super", "self"):
        cur = here
        while segs and segs[0] in ("super", "self"):
            if segs[0] == "super":
                cur = cur[:-1]
            segs = segs[1:]
    else:
        return None
    # Longest module prefix, then through faces that re-export the next name.
    while segs and cur + (segs[0],) in mods:
        cur, segs = cur + (segs[0],), segs[1:]
    seen = set()
    while segs and cur in reexp and segs[0] in reexp[cur] and cur not in seen:
        seen.add(cur)
        target = reexp[cur][segs[0]]
        while target not in mods and target:
            target = target[:-1]
        cur = target
    return cur if cur in mods else None


def circles(edges):
    """Strongly connected components with more than one file (Tarjan)."""
    index, low, on, stack, comps, n = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return comps


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "core/src"
    mods = module_files(src)
    faces = {m for m, f in mods.items() if os.path.basename(f) in ("mod.rs", "lib.rs")}
    reexp = reexports(mods, faces)
    edges, names = {}, {}
    for mod, f in mods.items():
        code = strip(open(f, encoding="utf-8").read())
        for p in paths_in(code):
            t = resolve(mods, reexp, mod, p)
            if t is None or t == mod:
                continue
            # A face's `pub use` of its own submodule hands names on; it is
            # not the face depending on them.
            if mod in faces and t[: len(mod)] == mod:
                continue
            edges.setdefault(f, set()).add(mods[t])
            names.setdefault((f, mods[t]), set()).add(p.split("::")[-1])
    comps = circles(edges)
    files = len(mods)
    arrows = sum(len(v) for v in edges.values())
    if not comps:
        print(f"imports: {files} files of {src}, {arrows} arrows, no circle")
        return 0
    for i, comp in enumerate(comps, 1):
        print(f"circle {i}: {', '.join(comp)}")
        for a in comp:
            for b in comp:
                if (a, b) in names:
                    print(f"  {a} -> {b}: {', '.join(sorted(names[(a, b)]))}")
    print(f"imports: {len(comps)} circle(s) among the {files} files of {src}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
