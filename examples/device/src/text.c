#include "text.h"

#include "board.h"

text text_new(char *buf, size_t cap) {
    text t = {buf, cap, 0, buf != NULL};
    return t;
}

void text_bytes(text *t, const char *p, size_t n) {
    if (!t->ok || n > t->cap - t->len) {
        t->ok = false;
        return;
    }
    memcpy(t->buf + t->len, p, n);
    t->len += n;
}

void text_raw(text *t, const char *s) { text_bytes(t, s, strlen(s)); }

void text_json(text *t, const char *p, size_t n) {
    if (!t->ok) {
        return;
    }
    size_t wrote = 0;
    mrtr_str s = {p, n};
    if (mrtr_json_write_string(s, (uint8_t *)t->buf + t->len, t->cap - t->len, &wrote) != MRTR_OK) {
        t->ok = false;
        return;
    }
    t->len += wrote;
}

void text_i64(text *t, int64_t v) {
    char buf[21];
    size_t i = sizeof buf;
    uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        uint32_t digit;
        m = udiv64_small(m, 10, &digit);
        buf[--i] = (char)('0' + digit);
    } while (m);
    if (v < 0) {
        buf[--i] = '-';
    }
    text_bytes(t, buf + i, sizeof buf - i);
}

void text_centi(text *t, int64_t v) {
    uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    uint32_t cents;
    if (v < 0) {
        text_raw(t, "-");
    }
    m = udiv64_small(m, 100, &cents);
    text_i64(t, (int64_t)m);
    char frac[3] = {'.', (char)('0' + cents / 10), (char)('0' + cents % 10)};
    text_bytes(t, frac, 3);
}

mrtr_str text_str(const text *t) {
    mrtr_str s = {t->buf, t->len};
    return s;
}

bool str_eq(mrtr_str s, const char *lit) {
    size_t n = strlen(lit);
    return s.len == n && (n == 0 || memcmp(s.ptr, lit, n) == 0);
}

/* ---- flat member reader over valid JSON ------------------------------------ */

static size_t skip_ws(const char *p, size_t i, size_t n) {
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r')) {
        i++;
    }
    return i;
}

/* Index just past the string starting at p[i] == '"'. */
static size_t skip_string(const char *p, size_t i, size_t n) {
    for (i++; i < n; i++) {
        if (p[i] == '\\') {
            i++;
        } else if (p[i] == '"') {
            return i + 1;
        }
    }
    return n;
}

/* Index just past the value starting at p[i]. */
static size_t skip_value(const char *p, size_t i, size_t n) {
    if (i >= n) {
        return n;
    }
    if (p[i] == '"') {
        return skip_string(p, i, n);
    }
    if (p[i] == '{' || p[i] == '[') {
        size_t depth = 0;
        while (i < n) {
            char c = p[i];
            if (c == '"') {
                i = skip_string(p, i, n);
                continue;
            }
            if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                depth--;
                if (depth == 0) {
                    return i + 1;
                }
            }
            i++;
        }
        return n;
    }
    while (i < n && p[i] != ',' && p[i] != '}' && p[i] != ']' && p[i] != ' ' && p[i] != '\t' &&
           p[i] != '\n' && p[i] != '\r') {
        i++;
    }
    return i;
}

bool json_member(mrtr_str obj, const char *name, mrtr_str *out) {
    const char *p = obj.ptr;
    size_t n = obj.len;
    size_t i = skip_ws(p, 0, n);
    if (i >= n || p[i] != '{') {
        return false;
    }
    i = skip_ws(p, i + 1, n);
    while (i < n && p[i] == '"') {
        size_t end = skip_string(p, i, n);
        char key[64];
        size_t klen = 0;
        bool match = mrtr_json_decode_string((const uint8_t *)p + i, end - i, (uint8_t *)key,
                                             sizeof key, &klen) == MRTR_OK &&
                     klen == strlen(name) && memcmp(key, name, klen) == 0;
        i = skip_ws(p, end, n);
        if (i >= n || p[i] != ':') {
            return false;
        }
        i = skip_ws(p, i + 1, n);
        size_t vend = skip_value(p, i, n);
        if (match) {
            out->ptr = p + i;
            out->len = vend - i;
            return true;
        }
        i = skip_ws(p, vend, n);
        if (i < n && p[i] == ',') {
            i = skip_ws(p, i + 1, n);
        }
    }
    return false;
}

bool json_is_true(mrtr_str v) { return str_eq(v, "true"); }

bool json_int(mrtr_str v, int64_t *out) {
    size_t i = 0;
    bool neg = false;
    if (v.len > 0 && v.ptr[0] == '-') {
        neg = true;
        i = 1;
    }
    if (i >= v.len || v.len - i > 16) {
        return false;
    }
    int64_t m = 0;
    for (; i < v.len; i++) {
        char c = v.ptr[i];
        if (c < '0' || c > '9') {
            return false;
        }
        m = m * 10 + (c - '0');
    }
    *out = neg ? -m : m;
    return true;
}
