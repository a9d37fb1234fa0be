#!/usr/bin/env python3
"""What a program linking one member of a static library needs from outside.

Reads `llvm-nm -A LIB` (every symbol, prefixed with `LIB:MEMBER:`) on stdin.
Starting from the members whose name matches ROOT_REGEX, follows undefined
symbols to the archive members that define them, as a linker pulls members
in, and prints the symbols no member defines, one per line. With
--mach-o, one leading underscore is stripped (Mach-O symbol names).
Used by scripts/test-mobile.
"""
import re
import sys


def main() -> int:
    args = sys.argv[1:]
    macho = "--mach-o" in args
    args = [a for a in args if a != "--mach-o"]
    if len(args) != 1:
        print("usage: archive_needs.py [--mach-o] ROOT_REGEX < nm-output", file=sys.stderr)
        return 2
    root = re.compile(args[0])
    defined: dict[str, str] = {}
    undefined: dict[str, set[str]] = {}
    for line in sys.stdin:
        # LIB:MEMBER: VALUE TYPE NAME   or   LIB:MEMBER:          U NAME
        head, sep, rest = line.rstrip("\n").rpartition(": ")
        if not sep:
            continue
        member = head.rsplit(":", 1)[-1]
        fields = rest.split()
        if len(fields) < 2:
            continue
        kind, name = fields[-2], fields[-1]
        if macho and name.startswith("_"):
            name = name[1:]
        undefined.setdefault(member, set())
        if kind == "U":
            undefined[member].add(name)
        elif kind.isupper() or kind in ("w", "v"):
            defined.setdefault(name, member)
    todo = [m for m in undefined if root.search(m)]
    if not todo:
        print(f"archive_needs: no member matches {args[0]}", file=sys.stderr)
        return 1
    pulled = set(todo)
    needs: set[str] = set()
    while todo:
        member = todo.pop()
        for sym in undefined.get(member, ()):
            owner = defined.get(sym)
            if owner is None:
                needs.add(sym)
            elif owner not in pulled:
                pulled.add(owner)
                todo.append(owner)
    for sym in sorted(needs):
        print(sym)
    return 0


if __name__ == "__main__":
    sys.exit(main())
