#!/usr/bin/env python3
"""Finishes include/mrtr.h after cbindgen (called by scripts/gen-header).

1. Drops the `# Safety` sections of the doc comments: they restate, for Rust
   readers, the pointer contract the header's preamble states once for C
   readers (the Rust sources keep them; clippy requires them there).
2. Fails when a doc names an `mrtr_*` function or type the header does not
   declare (a stale name).
3. Inserts a table of contents after the preamble: every function, grouped
   by area, with the first sentence of its doc, so a reader finds a
   function's neighbours without scrolling the whole header.

3. Writes a one-line doc comment on one line (`/** text */` instead of
   three lines), where it fits in 100 characters.

Usage: header_post.py FILE   (rewrites FILE in place; deterministic)
"""
import re
import sys

# Areas in reading order: (title, predicate on the function name). Every
# function must fall in one (the script fails otherwise), the first that fits.
AREAS = [
    ("Client calls (one handle for a call and the task it becomes)",
     lambda n: n.startswith("mrtr_call_")),
    ("The run loop (the library's: as steps, or blocking over callbacks)",
     lambda n: n.startswith("mrtr_runner_") or n == "mrtr_run"),
    ("Client helpers: forms, URL consent, HTTP headers, tools, version retry, SSE",
     lambda n: n.startswith(("mrtr_form_", "mrtr_url_", "mrtr_http_", "mrtr_tool_", "mrtr_sse_"))
     or n == "mrtr_version_retry"),
    ("Server", lambda n: n.startswith("mrtr_server_")),
    ("Sealing requestState",
     lambda n: n.startswith(("mrtr_seal", "mrtr_unseal", "mrtr_binding_", "mrtr_principal_",
                             "mrtr_invalid_"))),
    ("Library: versions, statuses, JSON",
     lambda n: n in ("mrtr_version", "mrtr_protocol_version", "mrtr_status_str")
     or n.startswith("mrtr_json_")),
]

# when the return type has a line of its own.
FN = re.compile(r"^(?:(?:MRTR_NODISCARD )?[A-Za-z_][\w *]*?\b)?(mrtr_\w+)\(", re.M)


def strip_safety(text):
    """Removes a `// # Safety` section: to the end of its doc comment."""
    out, skipping = [], False
    for line in text.split("\n"):
        doc = line.strip().startswith("//")
        if line.strip() == "// # Safety":
            skipping = True
            # Drop the blank `//` line that introduced the section.
            if out and out[-1].strip() == "//":
                out.pop()
            continue
        if skipping and doc:
            continue
        skipping = False
        out.append(line)
    return "\n".join(out)


def first_sentence(doc_lines, room):
    text = " ".join(l.strip()[2:].strip() for l in doc_lines)
    text = re.sub(r"\s+", " ", text).strip()
    m = re.match(r"(.+?)\.(\s|$)", text)
    s = m.group(1) if m else text
    return s if len(s) <= room else s[: room - 3].rstrip() + "..."


def toc(text):
    lines = text.split("\n")
    entries = []
    for i, line in enumerate(lines):
        m = FN.match(line)
        if not m:
            continue
        # The doc comment right above: its `//` lines.
        j = i - 1
        if j >= 0 and lines[j].strip() == "MRTR_NODISCARD":
            j -= 1
        doc = []
        while j >= 0 and lines[j].strip().startswith("//"):
            doc.insert(0, lines[j])
            j -= 1
        entries.append((m.group(1), doc))
    groups = [(title, []) for title, _ in AREAS]
    for name, summary in entries:
        k = next((k for k, (_, pred) in enumerate(AREAS) if pred(name)), None)
        if k is None:
            sys.exit(f"header_post.py: {name} is in no area of AREAS")
        groups[k][1].append((name, summary))
    out = ["/*", f" * Contents ({len(entries)} functions)."]
    for title, items in groups:
        if not items:
            continue
        out.append(" *")
        out.append(f" * {title}:")
        # Lines of at most 100 characters: " *   " + name + "  " + summary.
        width = max(len(n) for n, _ in items)
        room = 100 - 5 - width - 2
        for name, doc in items:
            summary = first_sentence(doc, room)
            out.append(f" *   {name.ljust(width)}  {summary}".rstrip())
    out.append(" */")
    return "\n".join(out)


def check_names(text):
    """Fails on a name in the docs that the header does not declare (a
    function or type renamed or removed since the doc was written)."""
    declared = set(FN.findall(text)) | set(re.findall(r"^} (mrtr_\w+);", text, re.M))
    declared |= set(re.findall(r"^typedef struct (mrtr_\w+) ", text, re.M))
    stale = sorted(set(re.findall(r"\b(mrtr_[a-z0-9_]*[a-z0-9])\b(?!_\*)", text)) - declared)
    if stale:
        sys.exit(f"header_post.py: the docs name what the header does not declare: {stale}")


WIDTH = 100


def pack(decl):
    """One function declaration (one line) as lines of at most WIDTH
    columns: whole when it fits; else the return type on its own line and
    the parameters packed after the parenthesis, continuation lines
    aligned under the first parameter."""
    if len(decl) <= WIDTH or "(" not in decl:
        return [decl]
    # Too long for one line: the return type on a line of its own (BSD
    # style), then the name and its parameters.
    m = re.match(r"^(.*?)\b(mrtr_\w+\(.*)$", decl)
    ret, decl = m.group(1).rstrip(), m.group(2)
    if len(decl) <= WIDTH:
        return [ret, decl]
    head, rest = decl.split("(", 1)
    params = [p.strip() for p in rest[: -len(");")].split(",")]
    indent = " " * (len(head) + 1)
    lines, line = [], head + "("
    for i, p in enumerate(params):
        piece = p + ("," if i + 1 < len(params) else ");")
        if line.endswith("(") or len(line) + 1 + len(piece) <= WIDTH:
            line += ("" if line.endswith("(") else " ") + piece
        else:
            lines.append(line)
            line = indent + piece
    lines.append(line)
    return [ret] + lines


def family(line):
    """The family of a `#define MRTR_...` line (`MRTR_CAP` for
    `MRTR_CAP_ROOTS`), or None."""
    m = re.match(r"^#define (MRTR_[A-Z0-9]+)_", line)
    return m.group(1) if m else None


def group_defines(text):
    """No blank line between constants of one family (`MRTR_CAP_*`,
    `MRTR_TEXT_*`, ...): each family reads as one block."""
    lines = text.split("\n")
    out = []
    last = None  # family of the last #define emitted
    i = 0
    while i < len(lines):
        line = lines[i]
        if line == "" and last is not None:
            # Look past the blank line and the next item's comment.
            j = i + 1
            while j < len(lines) and lines[j].startswith("//"):
                j += 1
            if j < len(lines) and family(lines[j]) == last:
                i += 1
                continue
        out.append(line)
        if line.startswith("#define "):
            last = family(line)
        elif line and not line.startswith("//"):
            last = None
        i += 1
    return "\n".join(out)


def trailing_member_docs(text):
    """In a struct or enum, a member with a one-line doc gets it as a
    trailing comment, aligned within the block, when the line stays within
    WIDTH columns; longer docs stay above their member."""
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        if not re.match(r"^(typedef )?(struct|enum) \w+ \{$", line):
            continue
        body = []
        while i < len(lines) and not lines[i].startswith("}"):
            body.append(lines[i])
            i += 1
        # (doc, member) pairs where the doc is exactly one line.
        pairs, k = [], 0
        while k < len(body):
            one = (k + 1 < len(body) and body[k].lstrip().startswith("//")
                   and not body[k + 1].lstrip().startswith("//")
                   and (k == 0 or not body[k - 1].lstrip().startswith("//")))
            if one:
                pairs.append((body[k + 1], body[k].strip()))
                k += 2
            else:
                pairs.append((body[k], None))
                k += 1
        width = max((len(m) for m, d in pairs if d), default=0)
        for member, doc in pairs:
            joined = member.ljust(width) + "  " + doc if doc else member
            if doc and len(joined) > WIDTH:
                out.extend(["  " + doc, member])
            else:
                out.append(joined)
    return "\n".join(out)


def attribute_inline(text):
    """`MRTR_NODISCARD` on the line of the declaration it marks (cbindgen
    puts it on a line of its own), and each function declaration packed
    into lines of at most WIDTH columns."""
    out, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        line = lines[i]
        if line == "MRTR_NODISCARD" and i + 1 < len(lines):
            i += 1
            line = "MRTR_NODISCARD " + lines[i]
        if re.match(r"^(MRTR_NODISCARD )?[A-Za-z_][\w *]*\bmrtr_\w+\(.*\);$", line):
            out.extend(pack(line))
        else:
            out.append(line)
        i += 1
    return "\n".join(out)


def main():
    path = sys.argv[1]
    text = open(path, encoding="utf-8").read()
    text = group_defines(trailing_member_docs(attribute_inline(strip_safety(text))))
    check_names(text)
    contents = toc(text)
    # After the preamble comment (the file's first comment block).
    end = text.index("*/") + 2
    text = text[:end] + "\n\n" + contents + text[end:]
    open(path, "w", encoding="utf-8").write(text)


if __name__ == "__main__":
    main()
