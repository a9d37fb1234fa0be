/*
 * Small text helpers over caller buffers: an appending writer that never
 * overflows (it records the overflow instead), and a reader of one member
 * of a flat JSON object that mrtr has already validated.
 */
#ifndef DEVICE_TEXT_H
#define DEVICE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mrtr.h"

/* An appending writer into buf[0..cap). `ok` turns false on the first write
 * that does not fit (or a string that is not UTF-8), and stays false. */
typedef struct text {
    char *buf;
    size_t cap;
    size_t len;
    bool ok;
} text;

text text_new(char *buf, size_t cap);
void text_raw(text *t, const char *s);
void text_bytes(text *t, const char *p, size_t n);
/* Appends `s` (n bytes of UTF-8) as a JSON string literal, quotes included. */
void text_json(text *t, const char *p, size_t n);
void text_i64(text *t, int64_t v);
/* Appends v / 100 with two decimals ("-1.05"). */
void text_centi(text *t, int64_t v);
mrtr_str text_str(const text *t);

/* Finds member `name` (plain ASCII, compared after decoding the key's
 * escapes) of the JSON object `obj` (already valid JSON, e.g. checked by
 * mrtr_form_validate) and writes the raw span of its value to `*out`.
 * Nested values are skipped whole. False when absent or `obj` is not an
 * object. */
bool json_member(mrtr_str obj, const char *name, mrtr_str *out);

/* The value `v` is the literal `true`. */
bool json_is_true(mrtr_str v);

/* Reads an integer literal (no fraction or exponent, within +-2^53). */
bool json_int(mrtr_str v, int64_t *out);

/* Compares the bytes of `s` with the NUL-terminated `lit`. */
bool str_eq(mrtr_str s, const char *lit);

#endif
