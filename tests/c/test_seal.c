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
                          MRTR_SEAL_DEFAULT_SKEW_SECONDS, 0, &out->s);
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
    CHECK_STATUS(mrtr_binding_digest(str_of("tools/call"), str_of("get_weather"), a, len, out),
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
    st = mrtr_unseal(s, now, t, binding, principal, scratch, scratch_len, &state, &r);
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
    CHECK(len > 3 && memcmp(tok, "m1.", 3) == 0);
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
                                  &s),
                 MRTR_ERR_KEY_ERROR);
    ring[0].ptr = KEY_A;
    ring[0].len = 32;
    CHECK_STATUS(mrtr_sealer_init(mem, mrtr_sealer_size(), ring, 1, str_of(""), 0, 60, 0, &s),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mrtr_sealer_init(mem, mrtr_sealer_size(), ring, 1, str_of(AUDIENCE), 0, 60, 100,
                                  &s),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mrtr_sealer_init(mem, mrtr_sealer_size() - 1, ring, 1, str_of(AUDIENCE), 0, 60,
                                  0, &s),
                 MRTR_ERR_WORKSPACE_TOO_SMALL);
    CHECK_STATUS(mrtr_sealer_init((uint8_t *)mem + 4, mrtr_sealer_size(), ring, 1,
                                  str_of(AUDIENCE), 0, 60, 0, &s),
                 MRTR_ERR_MISALIGNED);
    CHECK_STATUS(mrtr_sealer_init(mem, mrtr_sealer_size(), NULL, 1, str_of(AUDIENCE), 0, 60, 0,
                                  &s),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_sealer_init(mem, mrtr_sealer_size(), ring, 1, str_of(AUDIENCE), 0, 60, 0,
                                  NULL),
                 MRTR_ERR_NULL_POINTER);
    CHECK(s == NULL);
    CHECK_STATUS(mrtr_sealer_init(mem, mrtr_sealer_size(), ring, 1, str_of(AUDIENCE), 0, 60, 0,
                                  &s),
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
        CHECK_STATUS(mrtr_unseal(s, 1, t, bind, NULL, scratch, need - 1, &st, &r),
                     MRTR_ERR_BUFFER_TOO_SMALL);
        CHECK_STATUS(mrtr_unseal(s, 1, t, NULL, NULL, scratch, need, &st, &r),
                     MRTR_ERR_NULL_POINTER);
        CHECK_STATUS(mrtr_unseal(s, 1, t, bind, NULL, scratch, need, NULL, &r),
                     MRTR_ERR_NULL_POINTER);
        CHECK_STATUS(mrtr_unseal(s, 1, t, bind, NULL, scratch, need, &st, NULL),
                     MRTR_ERR_NULL_POINTER);
        /* The scratch may not overlap the token. */
        CHECK_STATUS(mrtr_unseal(s, 1, t, bind, NULL, tok, n, &st, &r), MRTR_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(mrtr_unseal(s, 1, t, bind, NULL, scratch, need, &st, &r), MRTR_OK);
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
    CHECK_STATUS(mrtr_binding_digest(str_of("tools/call"), str_of("t"), (const uint8_t *)"{", 1,
                                     bind),
                 MRTR_ERR_JSON);
    CHECK_STATUS(mrtr_binding_digest(str_of("tools/call"), str_of("t"),
                                     (const uint8_t *)"{\"a\":1,\"a\":2}", 13, bind),
                 MRTR_ERR_JSON);
    CHECK_STATUS(mrtr_binding_digest(str_of("tools/call"), str_of("t"), NULL, 0, NULL),
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
    CHECK_EQ_STR(mrtr_unseal_reason_str(10), "unknown reason");
    CHECK(mrtr_seal_token_len(0, false) < mrtr_seal_token_len(0, true));
    CHECK(mrtr_seal_token_len(SIZE_MAX, true) == SIZE_MAX);
}

void suite_seal(void) {
    RUN(test_seal_round_trip_and_refusals);
    RUN(test_key_rotation);
    RUN(test_seal_limits_and_misuse);
    RUN(test_reasons_and_wire_constants);
}
