/*
 * jsonlite: small readers over JSON text that mrtr_json_validate accepted.
 *
 * mrtr's C API validates JSON and decodes strings; it has no tree API,
 * because the library itself never needs one. A client that wants a field
 * of a document (a key of the answers file, the texts of a sampling
 * request) walks the validated text with these functions. They rely on the
 * validation: on bytes that were not validated their results mean nothing
 * (they still never read outside the span). Nothing recurses, so a deep
 * document costs no stack.
 */
#ifndef MRTR_CLIENT_JSONLITE_H
#define MRTR_CLIENT_JSONLITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A view of bytes: `n` bytes at `p` (not NUL-terminated). */
typedef struct jl_span {
    const char *p;
    size_t n;
} jl_span;

/* Walks the members of an object or the elements of an array. */
typedef struct jl_iter {
    jl_span doc; /* the container, brackets included */
    size_t pos;  /* the next unread byte */
} jl_iter;

/* Is `v` exactly one valid JSON value (mrtr_json_validate, depth 64)? */
bool jl_valid(jl_span v);

/* `v` with leading and trailing JSON whitespace removed. */
jl_span jl_trim(jl_span v);

/* The first byte of the value: '{', '[', '"', 't', 'f', 'n' or a number. */
char jl_kind(jl_span v);

/* Starts walking object `obj` (returns false when it is not an object). */
bool jl_object_begin(jl_span obj, jl_iter *it);

/* The next member: its key as a string token (quotes included) and its
 * value. Returns false after the last member. */
bool jl_object_next(jl_iter *it, jl_span *key, jl_span *value);

/* Starts walking array `arr` (returns false when it is not an array). */
bool jl_array_begin(jl_span arr, jl_iter *it);

/* The next element; false after the last one. */
bool jl_array_next(jl_iter *it, jl_span *value);

/* Does string token `token` decode to the NUL-terminated `text`? */
bool jl_string_equals(jl_span token, const char *text);

/* The value of the first member of `obj` whose key decodes to `key`. */
bool jl_get(jl_span obj, const char *key, jl_span *out);

/* The decoded text of string token `token`, NUL-terminated, in a new
 * allocation (free it); NULL when it is not a string or memory ran out.
 * `*len` (optional) receives the length without the NUL. */
char *jl_string_dup(jl_span token, size_t *len);

/* Writes `n` bytes of UTF-8 text to `out` as a terminal should show text
 * from a peer: control characters (C0 except newline and tab, DEL, C1) and
 * bidirectional formatting characters are written as visible escapes
 * (\x1b, \u202e, ...), so a server cannot move the cursor, recolour the
 * screen or reorder what the user reads. */
void jl_write_safe(FILE *out, const char *s, size_t n);

/* Writes `v` to `out` on one line, without insignificant whitespace and
 * with the escapes of jl_pretty, stopping after `max` bytes of `v`.
 * Returns true when it stopped early. */
bool jl_compact(FILE *out, jl_span v, size_t max);

/* Writes `v` to `out` indented by two spaces per level, starting at
 * indentation `indent`. Strings are copied as written, except that C1
 * controls and bidirectional formatting characters are written as \u
 * escapes (the same JSON value, but harmless on a terminal). */
void jl_pretty(FILE *out, jl_span v, int indent);

#endif
