"""The one reader of the C structs of include/mrtr.h for the scripts that check
or generate code against them (scripts/gen-jni-slots, scripts/test-bindings-parity):
each `typedef struct mrtr_x { ... } mrtr_x;` as its member names, in
declaration order.

A member line the reader cannot name (two members on one line, a function
pointer over several lines, ...) is an error, not a silent gap: a check
built on a partial list would pass for the wrong reason.
"""
import re

STRUCT = re.compile(r"^typedef struct (mrtr_\w+) \{\n(.*?)\n\}", re.S | re.M)
MEMBER = re.compile(r"(\w+)(?:\[[^\]]*\])?;$")
FN_MEMBER = re.compile(r"\(\*(\w+)\)\(.*\);$")


class HeaderError(Exception):
    """The header has a struct member line this reader cannot name."""


def structs(header):
    """{struct name: [member names in order]} for every struct of `header`
    (the text of include/mrtr.h). Raises HeaderError on a member line it
    cannot read."""
    out = {}
    for m in STRUCT.finditer(header):
        members = []
        for line in m.group(2).splitlines():
            line = line.split("//")[0].strip()
            if not line:
                continue
            member = FN_MEMBER.search(line) or MEMBER.search(line)
            if not member:
                raise HeaderError(f"cannot read the member line {line!r} of struct {m.group(1)}")
            members.append(member.group(1))
        out[m.group(1)] = members
    return out
