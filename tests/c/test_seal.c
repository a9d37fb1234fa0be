/*
 * mrtr_seal / mrtr_unseal through the C API: round trip, every refusal
 * reason, key rotation, binding digests, limits and misuse.
 */
#include "testutil.h"

static const uint8_t KEY_A[32] = "0123456789abcdef0123456789abcdef";
static const uint8_t KEY_B[32] = "fedcba9876543210fedcba9876543210";
static const uint8_t NONCE[24] = "nonce-nonce-nonce-nonce";
#define AUDIENCE "https://mcp.example.com"

struct sealer {
    void *mem;
    mrtr_sealer *s;
};

static mrtr_status make(struct sealer *out, const uint8_t *const *keys, size_t n,
                        const char *audience) {
    mrtr_bytes ring[8];
    size_t i;
    mrtr_status st;
    for (i = 0; i < n && i < 8; i++) {
        ring[i].ptr = heap_copy(keys[i], 32);
        ring[i].len = 32;
    }
    out->mem = ws_new(mrtr_sealer_size());
    out->s = NULL;
    st = mrtr_sealer_init(out->mem, mrtr_sealer_size(), ring, n, str_of(audience), 0,
                          MRTR_SEAL_DEFAULT_SKEW_SECONDS, 0, &out->s, NULL);
    /* The keys are derived at init: the caller's copies may go. */
    for (i = 0; i < n && i < 8; i++) {
        memset((void *)(uintptr_t)ring[i].ptr, 0, 32);
        free((void *)(uintptr_t)ring[i].ptr);
    }
    return st;
}

static void binding_of(const char *args, uint8_t out[32]) {
    size_t len = args ? strlen(args) : 0;
    uint8_t *a = args ? heap_copy(args, len) : NULL;
    CHECK_STATUS(mrtr_binding_digest(str_of("tools/call"), str_of("get_weather"), a, len, out, NULL),
                 MRTR_OK);
    free(a);
}

/* Seals `state` at `now`; returns the heap token and its length. */
static uint8_t *seal(const mrtr_sealer *s, uint64_t now, const uint8_t binding[32],
                     const mrtr_bytes *principal, const char *state, size_t *len) {
    size_t need = 0, n = 0;
    uint8_t *tok;
    mrtr_bytes st;
    st.ptr = (const uint8_t *)state;
    st.len = strlen(state);
    CHECK_STATUS(mrtr_seal(s, now, NONCE, binding, principal, st, NULL, 0, &need),
                 MRTR_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_SIZE(need, mrtr_seal_token_len(st.len, principal != NULL));
    tok = (uint8_t *)ws_new(need);
    CHECK_STATUS(mrtr_seal(s, now, NONCE, binding, principal, st, tok, need - 1, &n),
                 MRTR_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_SIZE(n, need);
    CHECK_STATUS(mrtr_seal(s, now, NONCE, binding, principal, st, tok, need, &n), MRTR_OK);
    CHECK_EQ_SIZE(n, need);
    *len = n;
    return tok;
}

/* Unseals; on success compares the state with `expect`; returns the
 * status and the reason (0 when none was written). */
static mrtr_status unseal(const mrtr_sealer *s, uint64_t now, const uint8_t *tok, size_t len,
                          const uint8_t binding[32], const mrtr_bytes *principal,
                          const char *expect, int *reason) {
    size_t scratch_len = mrtr_unseal_scratch_len(len);
    uint8_t *scratch = (uint8_t *)ws_new(scratch_len);
    mrtr_bytes state = {NULL, 0};
    mrtr_unseal_reason r = (mrtr_unseal_reason)0;
    mrtr_bytes t;
    mrtr_status st;
    t.ptr = tok;
    t.len = len;
    st = mrtr_unseal(s, now, t, binding, principal, scratch, scratch_len, &state, &r, NULL);
    if (st == MRTR_OK && expect != NULL) {
        CHECK_EQ_TEXT(state.ptr, state.len, expect);
        CHECK(state.ptr >= scratch && state.ptr + state.len <= scratch + scratch_len);
    }
    *reason = (int)r;
    free(scratch);
    return st;
}

static void test_seal_round_trip_and_refusals(void) {
    const uint8_t *keys[1];
    struct sealer a, other;
    uint8_t bind[32], bind2[32];
    uint8_t *tok;
    size_t len = 0;
    int reason = 0;
    keys[0] = KEY_A;
    CHECK_STATUS(make(&a, keys, 1, AUDIENCE), MRTR_OK);
    binding_of("{\"location\":\"Paris\",\"units\":\"c\"}", bind);
    tok = seal(a.s, 1000, bind, NULL, "round=1", &len);
    CHECK(len > 3 && memcmp(tok, "m2.", 3) == 0);
    CHECK_STATUS(unseal(a.s, 1000, tok, len, bind, NULL, "round=1", &reason), MRTR_OK);
    CHECK(reason == 0);
    /* The same arguments, re-serialized, bind the same request. */
    binding_of("{ \"units\" : \"c\", \"location\": \"Pa\\u0072is\" }", bind2);
    CHECK(memcmp(bind, bind2, 32) == 0);
    CHECK_STATUS(unseal(a.s, 1000, tok, len, bind2, NULL, "round=1", &reason), MRTR_OK);
    /* Another value is another request. */
    binding_of("{\"location\":\"Lyon\",\"units\":\"c\"}", bind2);
    CHECK(memcmp(bind, bind2, 32) != 0);
    CHECK_STATUS(unseal(a.s, 1000, tok, len, bind2, NULL, NULL, &reason),
                 MRTR_ERR_INVALID_REQUEST_STATE);
    CHECK(reason == MRTR_UNSEAL_WRONG_REQUEST);
    /* No arguments differs from empty arguments. */
    binding_of(NULL, bind2);
    {
        uint8_t empty[32];
        binding_of("{}", empty);
        CHECK(memcmp(bind2, empty, 32) != 0);
    }
    /* Expiry (600 s + 60 s skew) and issue time. */
    CHECK_STATUS(unseal(a.s, 1000 + 660, tok, len, bind, NULL, "round=1", &reason), MRTR_OK);
    CHECK_STATUS(unseal(a.s, 1000 + 661, tok, len, bind, NULL, NULL, &reason),
                 MRTR_ERR_INVALID_REQUEST_STATE);
    CHECK(reason == MRTR_UNSEAL_EXPIRED);
    CHECK_STATUS(unseal(a.s, 1000 - 61, tok, len, bind, NULL, NULL, &reason),
                 MRTR_ERR_INVALID_REQUEST_STATE);
    CHECK(reason == MRTR_UNSEAL_NOT_YET_VALID);
    /* Tampering with the ciphertext. */
    tok[60] = (uint8_t)(tok[60] == 'A' ? 'B' : 'A');
    CHECK_STATUS(unseal(a.s, 1000, tok, len, bind, NULL, NULL, &reason),
                 MRTR_ERR_INVALID_REQUEST_STATE);
    CHECK(reason == MRTR_UNSEAL_TAMPERED);
    /* Not a token at all. */
    CHECK_STATUS(unseal(a.s, 1000, (const uint8_t *)"m2.abcd", 7, bind, NULL, NULL, &reason),
                 MRTR_ERR_INVALID_REQUEST_STATE);
    CHECK(reason == MRTR_UNSEAL_MALFORMED);
    free(tok);

    /* A service with another audience under the same key. */
    CHECK_STATUS(make(&other, keys, 1, "https://other.example"), MRTR_OK);
    tok = seal(other.s, 1000, bind, NULL, "x", &len);
    CHECK_STATUS(unseal(a.s, 1000, tok, len, bind, NULL, NULL, &reason),
                 MRTR_ERR_INVALID_REQUEST_STATE);
    CHECK(reason == MRTR_UNSEAL_TAMPERED);
    free(tok);
    free(other.mem);

    /* Principals. */
    {
        mrtr_bytes alice, bob;
        alice.ptr = (const uint8_t *)"issuer|client|alice";
        alice.len = 19;
        bob.ptr = (const uint8_t *)"issuer|client|bob";
        bob.len = 17;
        tok = seal(a.s, 1000, bind, &alice, "p", &len);
        CHECK_STATUS(unseal(a.s, 1000, tok, len, bind, &alice, "p", &reason), MRTR_OK);
        CHECK_STATUS(unseal(a.s, 1000, tok, len, bind, &bob, NULL, &reason),
                     MRTR_ERR_INVALID_REQUEST_STATE);
        CHECK(reason == MRTR_UNSEAL_WRONG_PRINCIPAL);
        CHECK_STATUS(unseal(a.s, 1000, tok, len, bind, NULL, NULL, &reason),
                     MRTR_ERR_INVALID_REQUEST_STATE);
        CHECK(reason == MRTR_UNSEAL_WRONG_PRINCIPAL);
        free(tok);
    }
    free(a.mem);
}

static void test_key_rotation(void) {
    const uint8_t *old_only[1], *both[2], *new_only[1];
    struct sealer s1, s2, s3;
    uint8_t bind[32];
    uint8_t *t_old, *t_new;
    size_t l_old = 0, l_new = 0;
    int reason = 0;
    old_only[0] = KEY_A;
    both[0] = KEY_B;
    both[1] = KEY_A;
    new_only[0] = KEY_B;
    binding_of("{}", bind);
    CHECK_STATUS(make(&s1, old_only, 1, AUDIENCE), MRTR_OK);
    CHECK_STATUS(make(&s2, both, 2, AUDIENCE), MRTR_OK);
    CHECK_STATUS(make(&s3, new_only, 1, AUDIENCE), MRTR_OK);
    t_old = seal(s1.s, 50, bind, NULL, "old", &l_old);
    t_new = seal(s2.s, 50, bind, NULL, "new", &l_new);
    /* [NEW, OLD] opens both; [NEW] only the new; [OLD] only the old. */
    CHECK_STATUS(unseal(s2.s, 50, t_old, l_old, bind, NULL, "old", &reason), MRTR_OK);
    CHECK_STATUS(unseal(s2.s, 50, t_new, l_new, bind, NULL, "new", &reason), MRTR_OK);
    CHECK_STATUS(unseal(s3.s, 50, t_new, l_new, bind, NULL, "new", &reason), MRTR_OK);
    CHECK_STATUS(unseal(s3.s, 50, t_old, l_old, bind, NULL, NULL, &reason),
                 MRTR_ERR_INVALID_REQUEST_STATE);
    CHECK(reason == MRTR_UNSEAL_UNKNOWN_KEY);
    CHECK_STATUS(unseal(s1.s, 50, t_new, l_new, bind, NULL, NULL, &reason),
                 MRTR_ERR_INVALID_REQUEST_STATE);
    CHECK(reason == MRTR_UNSEAL_UNKNOWN_KEY);
    free(t_old);
    free(t_new);
    free(s1.mem);
    free(s2.mem);
    free(s3.mem);
}

static void test_seal_limits_and_misuse(void) {
    const uint8_t *keys[9];
    struct sealer a;
    uint8_t bind[32], out[64];
    uint8_t *big = (uint8_t *)ws_new(5000);
    mrtr_bytes ring[2], state;
    size_t n = 0, i;
    int reason = 0;
    mrtr_sealer *s = NULL;
    const char *why = NULL;
    void *mem = ws_new(mrtr_sealer_size() + 8);
    static const uint8_t short_key[31] = "0123456789012345678901234567890";
    for (i = 0; i < 9; i++) {
        keys[i] = KEY_A;
    }
    memset(big, 'x', 5000);
    binding_of("{}", bind);
    /* Key errors. */
    CHECK_STATUS(make(&a, keys, 0, AUDIENCE), MRTR_ERR_KEY_ERROR);
    free(a.mem);
    CHECK_STATUS(make(&a, keys, 2, AUDIENCE), MRTR_ERR_KEY_ERROR); /* same key twice */
    free(a.mem);
    CHECK_STATUS(make(&a, keys, 9, AUDIENCE), MRTR_ERR_KEY_ERROR);
    free(a.mem);
    ring[0].ptr = short_key;
    ring[0].len = sizeof short_key;
    CHECK_STATUS(mrtr_sealer_init(mem, mrtr_sealer_size(), ring, 1, str_of(AUDIENCE), 0, 60, 0,
                                  &s, &why),
                 MRTR_ERR_KEY_ERROR);
    CHECK_EQ_STR(why, "KeyTooShort");
    ring[0].ptr = KEY_A;
    ring[0].len = 32;
    /* MRTR_ERR_INVALID_ARGUMENT has four causes: the reason names each. */
    CHECK_STATUS(mrtr_sealer_init(mem, mrtr_sealer_size(), ring, 1, str_of(""), 0, 60, 0, &s, &why),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_EQ_STR(why, "EmptyAudience");
    CHECK_STATUS(mrtr_sealer_init(mem, mrtr_sealer_size(), ring, 1, str_of(AUDIENCE), 0, 60, 100,
                                  &s, &why),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_EQ_STR(why, "MaxTokenTooSmall");
    CHECK_STATUS(mrtr_sealer_init(mem, mrtr_sealer_size(), ring, 1, str_of(AUDIENCE), 0, 999999,
                                  0, &s, &why),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_EQ_STR(why, "SkewOutOfRange");
    CHECK_STATUS(mrtr_sealer_init(mem, mrtr_sealer_size() - 1, ring, 1, str_of(AUDIENCE), 0, 60,
                                  0, &s, &why),
                 MRTR_ERR_WORKSPACE_TOO_SMALL);
    CHECK_EQ_STR(why, "MRTR_ERR_WORKSPACE_TOO_SMALL");
    CHECK_STATUS(mrtr_sealer_init((uint8_t *)mem + 4, mrtr_sealer_size(), ring, 1,
                                  str_of(AUDIENCE), 0, 60, 0, &s, NULL),
                 MRTR_ERR_MISALIGNED);
    CHECK_STATUS(mrtr_sealer_init(mem, mrtr_sealer_size(), NULL, 1, str_of(AUDIENCE), 0, 60, 0,
                                  &s, NULL),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_sealer_init(mem, mrtr_sealer_size(), ring, 1, str_of(AUDIENCE), 0, 60, 0,
                                  NULL, NULL),
                 MRTR_ERR_NULL_POINTER);
    CHECK(s == NULL);
    CHECK_STATUS(mrtr_sealer_init(mem, mrtr_sealer_size(), ring, 1, str_of(AUDIENCE), 0, 60, 0,
                                  &s, NULL),
                 MRTR_OK);
    /* Too large both ways, against the default 4 KiB. */
    state.ptr = big;
    state.len = 5000;
    CHECK_STATUS(mrtr_seal(s, 1, NONCE, bind, NULL, state, out, sizeof out, &n),
                 MRTR_ERR_LIMIT_EXCEEDED);
    CHECK_STATUS(unseal(s, 1, big, 5000, bind, NULL, NULL, &reason),
                 MRTR_ERR_INVALID_REQUEST_STATE);
    CHECK(reason == MRTR_UNSEAL_TOO_LARGE);
    /* Scratch one byte short. */
    {
        uint8_t *tok = seal(s, 1, bind, NULL, "abc", &n);
        size_t need = mrtr_unseal_scratch_len(n);
        uint8_t *scratch = (uint8_t *)ws_new(need);
        mrtr_bytes t = {NULL, 0}, st = {NULL, 0};
        mrtr_unseal_reason r;
        t.ptr = tok;
        t.len = n;
        CHECK(need > 0 && need < n);
        CHECK_STATUS(mrtr_unseal(s, 1, t, bind, NULL, scratch, need - 1, &st, &r, NULL),
                     MRTR_ERR_BUFFER_TOO_SMALL);
        CHECK_STATUS(mrtr_unseal(s, 1, t, NULL, NULL, scratch, need, &st, &r, NULL),
                     MRTR_ERR_NULL_POINTER);
        CHECK_STATUS(mrtr_unseal(s, 1, t, bind, NULL, scratch, need, NULL, &r, NULL),
                     MRTR_ERR_NULL_POINTER);
        CHECK_STATUS(mrtr_unseal(s, 1, t, bind, NULL, scratch, need, &st, NULL, NULL),
                     MRTR_ERR_NULL_POINTER);
        /* The scratch may not overlap the token. */
        CHECK_STATUS(mrtr_unseal(s, 1, t, bind, NULL, tok, n, &st, &r, NULL), MRTR_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(mrtr_unseal(s, 1, t, bind, NULL, scratch, need, &st, &r, NULL), MRTR_OK);
        CHECK_EQ_BYTES(st.ptr, st.len, "abc");
        free(scratch);
        free(tok);
    }
    CHECK_STATUS(mrtr_seal(s, 1, NULL, bind, NULL, state, out, sizeof out, &n),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_seal(s, 1, NONCE, NULL, NULL, state, out, sizeof out, &n),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_seal(NULL, 1, NONCE, bind, NULL, state, out, sizeof out, &n),
                 MRTR_ERR_NULL_POINTER);
    /* MRTR_ERR_JSON has two causes: the reason names each. */
    CHECK_STATUS(mrtr_binding_digest(str_of("tools/call"), str_of("t"), (const uint8_t *)"{", 1,
                                     bind, &why),
                 MRTR_ERR_JSON);
    CHECK_EQ_STR(why, "UnexpectedEnd");
    CHECK_STATUS(mrtr_binding_digest(str_of("tools/call"), str_of("t"),
                                     (const uint8_t *)"{\"a\":1,\"a\":2}", 13, bind, &why),
                 MRTR_ERR_JSON);
    CHECK_EQ_STR(why, "DuplicateKey");
    CHECK_STATUS(mrtr_binding_digest(str_of("tools/call"), str_of("t"), NULL, 0, NULL, NULL),
                 MRTR_ERR_NULL_POINTER);
    /* Wiping zeroes the memory and invalidates the handle. */
    mrtr_sealer_wipe(s);
    for (i = 0; i < mrtr_sealer_size(); i++) {
        if (((uint8_t *)mem)[i] != 0) {
            break;
        }
    }
    CHECK_EQ_SIZE(i, mrtr_sealer_size());
    state.len = 1;
    CHECK_STATUS(mrtr_seal(s, 1, NONCE, bind, NULL, state, out, sizeof out, &n),
                 MRTR_ERR_INVALID_ARGUMENT);
    mrtr_sealer_wipe(NULL);
    free(mem);
    free(big);
}

static void test_reasons_and_wire_constants(void) {
    CHECK(MRTR_INVALID_REQUEST_STATE_CODE == -32602);
    CHECK_EQ_STR(mrtr_invalid_request_state_message(), "Invalid or expired requestState");
    CHECK_EQ_STR(mrtr_unseal_reason_str(MRTR_UNSEAL_MALFORMED), "malformed token");
    CHECK_EQ_STR(mrtr_unseal_reason_str(MRTR_UNSEAL_TOO_LARGE), "token larger than the maximum");
    CHECK_EQ_STR(mrtr_unseal_reason_str(MRTR_UNSEAL_UNKNOWN_KEY),
                 "token sealed under an unknown key");
    CHECK_EQ_STR(mrtr_unseal_reason_str(MRTR_UNSEAL_TAMPERED), "token failed authentication");
    CHECK_EQ_STR(mrtr_unseal_reason_str(MRTR_UNSEAL_EXPIRED), "token expired");
    CHECK_EQ_STR(mrtr_unseal_reason_str(MRTR_UNSEAL_NOT_YET_VALID), "token issued in the future");
    CHECK_EQ_STR(mrtr_unseal_reason_str(MRTR_UNSEAL_WRONG_AUDIENCE),
                 "token sealed for another audience");
    CHECK_EQ_STR(mrtr_unseal_reason_str(MRTR_UNSEAL_WRONG_REQUEST),
                 "token bound to another request");
    CHECK_EQ_STR(mrtr_unseal_reason_str(MRTR_UNSEAL_WRONG_PRINCIPAL),
                 "token bound to another principal");
    CHECK_EQ_STR(mrtr_unseal_reason_str(0), "unknown reason");
    CHECK_EQ_STR(mrtr_unseal_reason_str(-1), "unknown reason");
    CHECK_EQ_STR(mrtr_unseal_reason_str(MRTR_UNSEAL_CLOCK_OUT_OF_RANGE),
                 "now is past MAX_UNIX_TIME");
    CHECK_EQ_STR(mrtr_unseal_reason_str(11), "unknown reason");
    CHECK(mrtr_seal_token_len(0, false) < mrtr_seal_token_len(0, true));
    CHECK(mrtr_seal_token_len(SIZE_MAX, true) == SIZE_MAX);
}

/* Builds a sealer over one key of `keylen` bytes with the given lifetime. */
static mrtr_status make_one(void **mem, mrtr_sealer **s, const uint8_t *key, size_t keylen,
                            uint64_t ttl, uint64_t skew) {
    mrtr_bytes ring[1];
    ring[0].ptr = key;
    ring[0].len = keylen;
    *mem = ws_new(mrtr_sealer_size());
    *s = NULL;
    return mrtr_sealer_init(*mem, mrtr_sealer_size(), ring, 1, str_of(AUDIENCE), ttl, skew, 0, s, NULL);
}

/* Issue 16: weak keys, bounded lifetime and clock, default sizes. */
static void test_weak_keys_and_bounded_time(void) {
    static const uint8_t zeros[32] = {0};
    uint8_t ones[48], almost[32];
    void *mem;
    mrtr_sealer *s;
    uint8_t bind[32], out[512];
    size_t n = 0, i;
    int reason = 0;
    uint8_t *tok;
    mrtr_bytes state;
    memset(ones, 0xff, sizeof ones);
    memset(almost, 0, sizeof almost);
    almost[31] = 1;
    CHECK_STATUS(make_one(&mem, &s, zeros, 32, 0, 60), MRTR_ERR_KEY_ERROR);
    free(mem);
    CHECK_STATUS(make_one(&mem, &s, ones, sizeof ones, 0, 60), MRTR_ERR_KEY_ERROR);
    free(mem);
    CHECK_STATUS(make_one(&mem, &s, almost, 32, 0, 60), MRTR_OK);
    free(mem);
    CHECK_STATUS(make_one(&mem, &s, KEY_A, 32, MRTR_SEAL_MAX_TTL_SECONDS + 1, 60),
                 MRTR_ERR_INVALID_ARGUMENT);
    free(mem);
    CHECK_STATUS(make_one(&mem, &s, KEY_A, 32, UINT64_MAX, 60), MRTR_ERR_INVALID_ARGUMENT);
    free(mem);
    CHECK_STATUS(make_one(&mem, &s, KEY_A, 32, 0, MRTR_SEAL_MAX_SKEW_SECONDS + 1),
                 MRTR_ERR_INVALID_ARGUMENT);
    free(mem);
    CHECK_STATUS(make_one(&mem, &s, KEY_A, 32, 0, UINT64_MAX), MRTR_ERR_INVALID_ARGUMENT);
    free(mem);
    CHECK(MRTR_SEAL_MAX_TTL_SECONDS == 86400 && MRTR_SEAL_MAX_SKEW_SECONDS == 300);
    CHECK(MRTR_SEAL_MAX_UNIX_TIME == UINT64_C(253402300799));
    CHECK(MRTR_SEAL_DEFAULT_MAX_TOKEN_BYTES == 4094);

    CHECK_STATUS(make_one(&mem, &s, KEY_A, 32, MRTR_SEAL_MAX_TTL_SECONDS,
                          MRTR_SEAL_MAX_SKEW_SECONDS),
                 MRTR_OK);
    binding_of("{}", bind);
    state.ptr = (const uint8_t *)"st";
    state.len = 2;
    /* A clock past year 9999 is refused, nothing written. */
    memset(out, 0xee, sizeof out);
    CHECK_STATUS(mrtr_seal(s, MRTR_SEAL_MAX_UNIX_TIME + 1, NONCE, bind, NULL, state, out,
                           sizeof out, &n),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mrtr_seal(s, UINT64_MAX, NONCE, bind, NULL, state, out, sizeof out, &n),
                 MRTR_ERR_INVALID_ARGUMENT);
    for (i = 0; i < sizeof out && out[i] == 0xee; i++) {
    }
    CHECK_EQ_SIZE(i, sizeof out);
    /* The widest window: valid through iat + ttl + skew, then expired. */
    tok = seal(s, 1000, bind, NULL, "st", &n);
    CHECK_STATUS(unseal(s, 1000 + 86400 + 300, tok, n, bind, NULL, "st", &reason), MRTR_OK);
    CHECK_STATUS(unseal(s, 1000 + 86400 + 301, tok, n, bind, NULL, NULL, &reason),
                 MRTR_ERR_INVALID_REQUEST_STATE);
    CHECK(reason == MRTR_UNSEAL_EXPIRED);
    CHECK_STATUS(unseal(s, MRTR_SEAL_MAX_UNIX_TIME + 1, tok, n, bind, NULL, NULL, &reason),
                 MRTR_ERR_INVALID_REQUEST_STATE);
    CHECK(reason == MRTR_UNSEAL_CLOCK_OUT_OF_RANGE);
    free(tok);
    /* Sealing at the last second of year 9999 works and unseals. */
    tok = seal(s, MRTR_SEAL_MAX_UNIX_TIME, bind, NULL, "st", &n);
    CHECK_STATUS(unseal(s, MRTR_SEAL_MAX_UNIX_TIME, tok, n, bind, NULL, "st", &reason), MRTR_OK);
    free(tok);
    mrtr_sealer_wipe(s);
    free(mem);
}

/* Issue 16: a repeated caller nonce no longer repeats the AEAD nonce. The
 * synthetic nonce is token bytes 4..28, base64 characters 3 + 8 .. 3 + 36
 * cover bytes 6..27 of it. */
static void test_a_repeated_nonce_is_harmless(void) {
    const uint8_t *keys[1];
    struct sealer a;
    uint8_t bind[32];
    uint8_t *t1, *t2, *t3;
    size_t n1 = 0, n2 = 0, n3 = 0;
    int reason = 0;
    keys[0] = KEY_A;
    CHECK_STATUS(make(&a, keys, 1, AUDIENCE), MRTR_OK);
    binding_of("{\"to\":\"bob\"}", bind);
    t1 = seal(a.s, 1000, bind, NULL, "{\"amount\":1}", &n1);
    t2 = seal(a.s, 1000, bind, NULL, "{\"amount\":9}", &n2);
    t3 = seal(a.s, 1000, bind, NULL, "{\"amount\":1}", &n3);
    CHECK_EQ_SIZE(n1, n2);
    CHECK(memcmp(t1, "m2.", 3) == 0);
    CHECK(memcmp(t1 + 11, t2 + 11, 28) != 0);
    /* The same claims and caller nonce: the same token. */
    CHECK(n3 == n1 && memcmp(t1, t3, n1) == 0);
    CHECK_STATUS(unseal(a.s, 1000, t1, n1, bind, NULL, "{\"amount\":1}", &reason), MRTR_OK);
    CHECK_STATUS(unseal(a.s, 1000, t2, n2, bind, NULL, "{\"amount\":9}", &reason), MRTR_OK);
    free(t1);
    free(t2);
    free(t3);
    mrtr_sealer_wipe(a.s);
    free(a.mem);
}

/* Issue 27: the tag decides. Both tokens below were made under KEY_A for the
 * binding of {"to":"bob"} at 1000 with NONCE and pinned by the core test
 * the_c_tests_genuine_and_caller_nonce_tokens_are_pinned
 * (core/src/seal/tests.rs): the first is what mrtr_seal makes; the second
 * holds the same claims encrypted with NONCE itself as the AEAD nonce. Its
 * tag verifies under the key, so only a key holder can have made it, and it
 * is accepted; one bit changed in the genuine token's nonce is tampered. */
static const char GENUINE[] =
    "m2.kVXE5_woHxwcgeBUfnK876ffCdc2pP3eJyiZGEA5HzOFVLahMDHOcNveese834RiFry"
    "yGoLwaPEBE53EW2yhkvmNffDJcGQxDaHs6lcgZo_0LgA8V0RnHwAG3MRzERs5gzS-7ddFK"
    "TK6dCxhh8wO5iy8p-5F8ycpqqZHlwvnF_uIi-zO-buFl9HgyYMianAzdTWantfUdmugruZ"
    "Qe1kACvQk_w";
static const char CALLER_NONCE[] =
    "m2.kVXE525vbmNlLW5vbmNlLW5vbmNlLW5vbmNlAF_ujcChFptYliU6aDYQUJRAM_GU1Rt"
    "zMr0rLJ-lERagH3dVFkVEYLFfDK3vUw5VaIbM875He5kfEvfnZ1ox8105AP74WkbdjVBCa"
    "g0ILiS7yeIFncrL9KhcjRDiZ2PNBdCOku1eewP1M0HpJm8kHJ3J6e0lYDo2YiDsnPeTPmB"
    "fSzeQBP5iIA";

static void test_the_tag_decides_not_the_nonce_derivation(void) {
    const uint8_t *keys[1];
    struct sealer a;
    uint8_t bind[32];
    uint8_t *t;
    size_t n = 0;
    int reason = 0;
    keys[0] = KEY_A;
    CHECK_STATUS(make(&a, keys, 1, AUDIENCE), MRTR_OK);
    binding_of("{\"to\":\"bob\"}", bind);
    t = seal(a.s, 1000, bind, NULL, "{\"amount\":1}", &n);
    CHECK_EQ_TEXT(t, n, GENUINE);
    CHECK_STATUS(unseal(a.s, 1000, (const uint8_t *)GENUINE, strlen(GENUINE), bind, NULL,
                        "{\"amount\":1}", &reason),
                 MRTR_OK);
    CHECK_STATUS(unseal(a.s, 1000, (const uint8_t *)CALLER_NONCE, strlen(CALLER_NONCE), bind, NULL,
                        "{\"amount\":1}", &reason),
                 MRTR_OK);
    /* Character 12 of the text lies in nonce bytes 6..8: flip one bit there. */
    t[12] = (uint8_t)(t[12] == 'A' ? 'B' : 'A');
    CHECK_STATUS(unseal(a.s, 1000, t, n, bind, NULL, NULL, &reason), MRTR_ERR_INVALID_REQUEST_STATE);
    CHECK(reason == MRTR_UNSEAL_TAMPERED);
    free(t);
    mrtr_sealer_wipe(a.s);
    free(a.mem);
}

/* Issue 16: a token refused after decryption leaves nothing in the
 * scratch; an accepted one reports its id and last valid second. */
/* What a server sharing a replay store across a fleet needs besides the
   token id and expiry (mrtr_unsealed_info): the principal digest a token
   binds, plain SHA-256 of the principal, so records can be keyed by it
   instead of by the credential. */
static void test_the_principal_digest_is_the_sha256_of_the_principal(void) {
    static const uint8_t abc_sha256[32] = {
        0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40,
        0xde, 0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17,
        0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
    static const uint8_t empty_sha256[32] = {
        0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14, 0x9a, 0xfb, 0xf4,
        0xc8, 0x99, 0x6f, 0xb9, 0x24, 0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b,
        0x93, 0x4c, 0xa4, 0x95, 0x99, 0x1b, 0x78, 0x52, 0xb8, 0x55};
    uint8_t buf[40], out[MRTR_PRINCIPAL_DIGEST_BYTES];
    mrtr_bytes p = {(const uint8_t *)"abc", 3}, none = {NULL, 0}, bad = {NULL, 3};
    CHECK(MRTR_PRINCIPAL_DIGEST_BYTES == 32);
    CHECK_STATUS(mrtr_principal_digest(p, out), MRTR_OK);
    CHECK(memcmp(out, abc_sha256, 32) == 0);
    CHECK_STATUS(mrtr_principal_digest(none, out), MRTR_OK);
    CHECK(memcmp(out, empty_sha256, 32) == 0);
    CHECK_STATUS(mrtr_principal_digest(p, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_principal_digest(bad, out), MRTR_ERR_NULL_POINTER);
    /* The output may not overlap the principal. */
    memcpy(buf, "abc", 3);
    p.ptr = buf;
    CHECK_STATUS(mrtr_principal_digest(p, buf + 2), MRTR_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mrtr_principal_digest(p, buf + 3), MRTR_OK);
    CHECK(memcmp(buf + 3, abc_sha256, 32) == 0);
}

static void test_scratch_wiped_and_token_info(void) {
    const uint8_t *keys[1];
    struct sealer a;
    uint8_t bind[32], other[32];
    uint8_t *tok, *tok2, *scratch;
    size_t n = 0, n2 = 0, need, i;
    mrtr_bytes t, st = {NULL, 0}, alice, mallory;
    mrtr_unseal_reason r = MRTR_UNSEAL_MALFORMED;
    mrtr_unsealed_info info, info2;
    uint8_t zero_id[16];
    keys[0] = KEY_A;
    CHECK_STATUS(make(&a, keys, 1, AUDIENCE), MRTR_OK);
    binding_of("{\"door\":1}", bind);
    binding_of("{\"door\":2}", other);
    alice.ptr = (const uint8_t *)"sub=alice";
    alice.len = 9;
    mallory.ptr = (const uint8_t *)"sub=mallory";
    mallory.len = 11;
    tok = seal(a.s, 1000, bind, &alice, "secret: unlock code 4711", &n);
    t.ptr = tok;
    t.len = n;
    need = mrtr_unseal_scratch_len(n);
    scratch = (uint8_t *)ws_new(need + 16);
    /* Wrong principal, wrong request, expired: all refused after decryption. */
    {
        const mrtr_bytes *who[3];
        const uint8_t *bnd[3];
        uint64_t when[3];
        mrtr_unseal_reason want[3];
        int k;
        who[0] = &mallory, bnd[0] = bind, when[0] = 1000, want[0] = MRTR_UNSEAL_WRONG_PRINCIPAL;
        who[1] = &alice, bnd[1] = other, when[1] = 1000, want[1] = MRTR_UNSEAL_WRONG_REQUEST;
        who[2] = &alice, bnd[2] = bind, when[2] = 1000 + 661, want[2] = MRTR_UNSEAL_EXPIRED;
        for (k = 0; k < 3; k++) {
            memset(scratch, 0xee, need + 16);
            memset(&info, 0xab, sizeof info);
            CHECK_STATUS(mrtr_unseal(a.s, when[k], t, bnd[k], who[k], scratch, need + 16, &st, &r,
                                     &info),
                         MRTR_ERR_INVALID_REQUEST_STATE);
            CHECK(r == want[k]);
            for (i = 0; i < need && scratch[i] == 0; i++) {
            }
            CHECK_EQ_SIZE(i, need);
            for (i = need; i < need + 16 && scratch[i] == 0xee; i++) {
            }
            CHECK_EQ_SIZE(i, need + 16);
        }
    }
    /* Accepted: the id and the last second (iat 1000 + ttl 600 + skew 60). */
    memset(zero_id, 0, sizeof zero_id);
    CHECK_STATUS(mrtr_unseal(a.s, 1000, t, bind, &alice, scratch, need, &st, &r, &info), MRTR_OK);
    CHECK_EQ_TEXT(st.ptr, st.len, "secret: unlock code 4711");
    CHECK(info.expires_at == 1660);
    CHECK(memcmp(info.token_id, zero_id, 16) != 0);
    /* A replay has the same id; another seal another id. */
    CHECK_STATUS(mrtr_unseal(a.s, 1001, t, bind, &alice, scratch, need, &st, &r, &info2), MRTR_OK);
    CHECK(memcmp(info.token_id, info2.token_id, 16) == 0);
    tok2 = seal(a.s, 1001, bind, &alice, "secret: unlock code 4711", &n2);
    t.ptr = tok2;
    t.len = n2;
    CHECK_STATUS(mrtr_unseal(a.s, 1001, t, bind, &alice, scratch, need, &st, &r, &info2), MRTR_OK);
    CHECK(memcmp(info.token_id, info2.token_id, 16) != 0);
    CHECK(info2.expires_at == 1661);
    /* out_info may not overlap the other outputs or the inputs. */
    CHECK_STATUS(mrtr_unseal(a.s, 1001, t, bind, &alice, scratch, need, &st, &r,
                             (mrtr_unsealed_info *)(void *)&st),
                 MRTR_ERR_INVALID_ARGUMENT);
    free(scratch);
    free(tok);
    free(tok2);
    mrtr_sealer_wipe(a.s);
    free(a.mem);
}

void suite_seal(void) {
    RUN(test_seal_round_trip_and_refusals);
    RUN(test_key_rotation);
    RUN(test_the_tag_decides_not_the_nonce_derivation);
    RUN(test_seal_limits_and_misuse);
    RUN(test_reasons_and_wire_constants);
    RUN(test_weak_keys_and_bounded_time);
    RUN(test_a_repeated_nonce_is_harmless);
    RUN(test_scratch_wiped_and_token_info);
    RUN(test_the_principal_digest_is_the_sha256_of_the_principal);
    suite_seal_wipe();
}
