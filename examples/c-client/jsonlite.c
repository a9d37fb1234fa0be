/* jsonlite: see jsonlite.h. */
#include "jsonlite.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mrtr.h"

/* Nesting the client accepts in documents it reads itself (answers file,
 * arguments). The protocol's own messages are bounded by the call limits. */
#define JL_MAX_DEPTH 64

static bool is_ws(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static size_t skip_ws(jl_span d, size_t i) {
    while (i < d.n && is_ws(d.p[i])) {
        i++;
    }
    return i;
}

/* The index just past the string token starting at `i` (a '"'). */
static size_t skip_string(jl_span d, size_t i) {
    i++;
    while (i < d.n) {
        char c = d.p[i];
        if (c == '\\') {
            i += 2;
            continue;
        }
        i++;
        if (c == '"') {
            break;
        }
    }
    return i < d.n ? i : d.n;
}

/* The index just past the value starting at `i` (no leading whitespace). */
static size_t skip_value(jl_span d, size_t i) {
    size_t depth = 0;
    if (i >= d.n) {
        return d.n;
    }
    do {
        char c = d.p[i];
        if (c == '"') {
            i = skip_string(d, i);
        } else if (c == '{' || c == '[') {
            depth++;
            i++;
        } else if (c == '}' || c == ']') {
            depth--;
            i++;
        } else if (depth > 0) {
            i++; /* ',', ':', whitespace, literal and number bytes */
        } else {
            /* A scalar at the top: runs to the next delimiter. */
            while (i < d.n && !is_ws(d.p[i]) && d.p[i] != ',' && d.p[i] != ']' && d.p[i] != '}') {
                i++;
            }
        }
    } while (depth > 0 && i < d.n);
    return i;
}

bool jl_valid(jl_span v) {
    return mrtr_json_validate((const uint8_t *)v.p, v.n, JL_MAX_DEPTH, NULL) == MRTR_OK;
}

jl_span jl_trim(jl_span v) {
    size_t start = skip_ws(v, 0);
    size_t end = v.n;
    while (end > start && is_ws(v.p[end - 1])) {
        end--;
    }
    v.p += start;
    v.n = end - start;
    return v;
}

char jl_kind(jl_span v) {
    v = jl_trim(v);
    return v.n > 0 ? v.p[0] : '\0';
}

static bool container_begin(jl_span v, char open, jl_iter *it) {
    v = jl_trim(v);
    if (v.n < 2 || v.p[0] != open) {
        return false;
    }
    it->doc = v;
    it->pos = 1;
    return true;
}

/* Moves past a ',' before the next item; false at the closing bracket. */
static bool container_next(jl_iter *it) {
    size_t i = skip_ws(it->doc, it->pos);
    if (i < it->doc.n && it->doc.p[i] == ',') {
        i = skip_ws(it->doc, i + 1);
    }
    it->pos = i;
    return i < it->doc.n && it->doc.p[i] != '}' && it->doc.p[i] != ']';
}

bool jl_object_begin(jl_span obj, jl_iter *it) {
    return container_begin(obj, '{', it);
}

bool jl_object_next(jl_iter *it, jl_span *key, jl_span *value) {
    size_t k, v, end;
    if (!container_next(it)) {
        return false;
    }
    k = it->pos;
    end = skip_string(it->doc, k);
    key->p = it->doc.p + k;
    key->n = end - k;
    v = skip_ws(it->doc, end);
    if (v < it->doc.n && it->doc.p[v] == ':') {
        v = skip_ws(it->doc, v + 1);
    }
    end = skip_value(it->doc, v);
    value->p = it->doc.p + v;
    value->n = end - v;
    it->pos = end;
    return true;
}

bool jl_array_begin(jl_span arr, jl_iter *it) {
    return container_begin(arr, '[', it);
}

bool jl_array_next(jl_iter *it, jl_span *value) {
    size_t end;
    if (!container_next(it)) {
        return false;
    }
    end = skip_value(it->doc, it->pos);
    value->p = it->doc.p + it->pos;
    value->n = end - it->pos;
    it->pos = end;
    return true;
}

char *jl_string_dup(jl_span token, size_t *len) {
    size_t need = 0;
    char *out;
    enum mrtr_status st;
    token = jl_trim(token);
    if (token.n < 2 || token.p[0] != '"') {
        return NULL;
    }
    st = mrtr_json_decode_string((const uint8_t *)token.p, token.n, NULL, 0, &need);
    if (st != MRTR_OK && st != MRTR_ERR_BUFFER_TOO_SMALL) {
        return NULL;
    }
    out = malloc(need + 1);
    if (out == NULL) {
        return NULL;
    }
    if (need > 0 &&
        mrtr_json_decode_string((const uint8_t *)token.p, token.n, (uint8_t *)out, need, &need) != MRTR_OK) {
        free(out);
        return NULL;
    }
    out[need] = '\0';
    if (len != NULL) {
        *len = need;
    }
    return out;
}

bool jl_string_equals(jl_span token, const char *text) {
    char buf[256];
    size_t n = 0;
    size_t want = strlen(text);
    enum mrtr_status st;
    token = jl_trim(token);
    if (token.n < 2 || token.p[0] != '"') {
        return false;
    }
    /* Most keys have no escapes: compare the bytes between the quotes. */
    if (memchr(token.p, '\\', token.n) == NULL) {
        return token.n - 2 == want && memcmp(token.p + 1, text, want) == 0;
    }
    st = mrtr_json_decode_string((const uint8_t *)token.p, token.n, (uint8_t *)buf, sizeof buf, &n);
    if (st == MRTR_OK) {
        return n == want && memcmp(buf, text, want) == 0;
    }
    if (st == MRTR_ERR_BUFFER_TOO_SMALL && n == want) {
        char *heap = jl_string_dup(token, &n);
        bool same = heap != NULL && n == want && memcmp(heap, text, want) == 0;
        free(heap);
        return same;
    }
    return false;
}

bool jl_get(jl_span obj, const char *key, jl_span *out) {
    jl_iter it;
    jl_span k, v;
    if (!jl_object_begin(obj, &it)) {
        return false;
    }
    while (jl_object_next(&it, &k, &v)) {
        if (jl_string_equals(k, key)) {
            *out = v;
            return true;
        }
    }
    return false;
}

/* The length of a C1 control or bidi formatting character at s[i], or 0. */
static size_t unsafe_char_len(const unsigned char *s, size_t n, size_t i) {
    if (s[i] == 0xC2 && i + 1 < n && s[i + 1] >= 0x80 && s[i + 1] <= 0x9F) {
        return 2;
    }
    if (s[i] == 0xE2 && i + 2 < n &&
        ((s[i + 1] == 0x80 && s[i + 2] >= 0xAA && s[i + 2] <= 0xAE) ||
         (s[i + 1] == 0x81 && s[i + 2] >= 0xA6 && s[i + 2] <= 0xA9))) {
        return 3;
    }
    return 0;
}

/* The code point of the 2- or 3-byte sequence at s. */
static unsigned code_point(const unsigned char *s, size_t len) {
    if (len == 2) {
        return ((unsigned)(s[0] & 0x1F) << 6) | (unsigned)(s[1] & 0x3F);
    }
    return ((unsigned)(s[0] & 0x0F) << 12) | ((unsigned)(s[1] & 0x3F) << 6) | (unsigned)(s[2] & 0x3F);
}

void jl_write_safe(FILE *out, const char *text, size_t n) {
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < n) {
        size_t len = unsafe_char_len(s, n, i);
        if (len > 0) {
            fprintf(out, "\\u%04x", code_point(s + i, len));
            i += len;
        } else if ((s[i] < 0x20 && s[i] != '\n' && s[i] != '\t') || s[i] == 0x7F) {
            fprintf(out, "\\x%02x", (unsigned)s[i]);
            i++;
        } else {
            fputc(s[i], out);
            i++;
        }
    }
}

static void newline(FILE *out, int indent) {
    int i;
    fputc('\n', out);
    for (i = 0; i < indent; i++) {
        fputs("  ", out);
    }
}

/* Copies string token [i, end) to `out`, writing the characters a
 * terminal would act on (C1 controls, bidi formatting) as \u escapes: the
 * same JSON value. (Raw C0 controls cannot occur in a valid string.) */
static void pretty_string(FILE *out, const unsigned char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        size_t len = unsafe_char_len(s, n, i);
        if (len > 0) {
            fprintf(out, "\\u%04x", code_point(s + i, len));
            i += len;
        } else {
            fputc(s[i], out);
            i++;
        }
    }
}

bool jl_compact(FILE *out, jl_span v, size_t max) {
    size_t i = 0;
    v = jl_trim(v);
    while (i < v.n) {
        if (i >= max) {
            return true;
        }
        if (is_ws(v.p[i])) {
            i++;
        } else if (v.p[i] == '"') {
            size_t end = skip_string(v, i);
            pretty_string(out, (const unsigned char *)v.p + i, end - i);
            i = end;
        } else {
            fputc(v.p[i], out);
            i++;
        }
    }
    return false;
}

void jl_pretty(FILE *out, jl_span v, int indent) {
    size_t i = 0;
    v = jl_trim(v);
    while (i < v.n) {
        char c = v.p[i];
        if (is_ws(c)) {
            i++;
        } else if (c == '"') {
            size_t end = skip_string(v, i);
            pretty_string(out, (const unsigned char *)v.p + i, end - i);
            i = end;
        } else if (c == '{' || c == '[') {
            size_t next = skip_ws(v, i + 1);
            fputc(c, out);
            if (next < v.n && (v.p[next] == '}' || v.p[next] == ']')) {
                fputc(v.p[next], out); /* {} and [] stay on one line */
                i = next + 1;
            } else {
                indent++;
                newline(out, indent);
                i = next;
            }
        } else if (c == '}' || c == ']') {
            indent--;
            newline(out, indent);
            fputc(c, out);
            i++;
        } else if (c == ',') {
            fputc(',', out);
            newline(out, indent);
            i = skip_ws(v, i + 1);
        } else if (c == ':') {
            fputs(": ", out);
            i = skip_ws(v, i + 1);
        } else {
            fputc(c, out);
            i++;
        }
    }
}
