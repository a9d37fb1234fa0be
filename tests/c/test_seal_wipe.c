/*
 * Issue 16: no key material left behind. A thread whose stack is a buffer
 * of ours builds a sealer, seals, unseals and wipes (from a frame 2 KiB
 * below its own); then, still on that thread, the dead stack below its
 * frame (everything the library's frames used) and the sealer's memory are
 * scanned for the key, the derived keys (K_enc, K_siv), the XChaCha20
 * subkey of the token and its Poly1305 one-time key (r || s, and each half
 * alone: a Poly1305 state may keep s as plain bytes), pinned by the core test
 * `derived_keys_and_the_first_subkey_of_the_wipe_vector_are_pinned`
 * (core/src/seal/tests.rs) for the same inputs. The scan runs before the
 * thread exits, since the C library's thread exit reuses that stack. A
 * control run leaves the subkey in a dead frame on purpose and must find
 * it, so a clean scan means something.
 *
 * On Windows a thread cannot run on a buffer of ours (CreateThread takes a
 * stack size, not an address, and winpthreads keeps the address given to
 * pthread_attr_setstack unused), so there the worker runs on the calling
 * thread: a frame of REGION_BYTES below the worker's is filled
 * first (the compiler's stack probes commit its pages) and dies, the
 * library's frames then reuse that region, and the region is the dead
 * stack scanned.
 */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#if defined(__SANITIZE_ADDRESS__)
#define MRTR_WIPE_SKIP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MRTR_WIPE_SKIP 1
#endif
#endif

#ifndef MRTR_WIPE_SKIP
#if !defined(_WIN32)
#include <pthread.h>
#endif

#define STACK_BYTES (512u * 1024u)
#define REGION_BYTES (256u * 1024u)
#define FILL 0x77
/* The lowest bytes of the scanned stack, which the library must not reach:
 * they stay FILL, so the library ran inside the scanned region. */
#define UNTOUCHED_BYTES 4096u

static const uint8_t K_ENC[32] = {0xa5, 0x80, 0x69, 0x2c, 0x95, 0xfc, 0xc1, 0xe1, 0xb8, 0xa7, 0x6f,
                                  0xbc, 0xf3, 0xb8, 0x6f, 0xc2, 0x77, 0x67, 0x7f, 0x4e, 0x8f, 0x11,
                                  0x32, 0x9b, 0x99, 0xa9, 0x6d, 0x84, 0x5d, 0x23, 0x7c, 0xb6};
static const uint8_t K_SIV[32] = {0x82, 0x53, 0x89, 0xc8, 0x7d, 0x2f, 0xd5, 0xd8, 0x72, 0xf6, 0x17,
                                  0x54, 0xa4, 0x97, 0x11, 0x83, 0x51, 0x23, 0xf6, 0xc8, 0x5b, 0xdb,
                                  0x00, 0x95, 0xc8, 0xd8, 0x72, 0xae, 0x96, 0x9a, 0x27, 0x33};
static const uint8_t SUBKEY[32] = {0x7e, 0x65, 0x8c, 0xc3, 0xfa, 0x44, 0x10, 0x59, 0xe8, 0x5b, 0x9b,
                                   0x3a, 0x8d, 0x48, 0xf3, 0xd4, 0xf4, 0x37, 0x20, 0xb6, 0x42, 0xdc,
                                   0x4b, 0xa9, 0x01, 0x6c, 0x23, 0x5e, 0xa8, 0x8c, 0x9e, 0xf9};

static const uint8_t POLY_KEY[32] = {
    0x85, 0x93, 0x6d, 0xff, 0x02, 0x41, 0x76, 0x79, 0x73, 0x7a, 0xe0, 0x07, 0x5d, 0x33, 0x0b, 0x0a,
    0xb2, 0x9c, 0x6d, 0x77, 0xc0, 0xc7, 0x82, 0x04, 0x8e, 0x7d, 0x49, 0x55, 0x58, 0xe5, 0x36, 0x8a};

static uint8_t key[32];
static uint8_t binding[32];
static uint8_t nonce[24];
static uint8_t token[256];
static uint8_t scratch[256];

struct job {
    uint8_t *stack;
    void *mem;
    int control;
    mrtr_status init, seal, unseal;
    size_t enc_in_sealer, siv_in_sealer;
    /* Found in the dead stack below the worker's frame. */
    size_t key_left, enc_left, siv_left, subkey_left;
    size_t poly_r_left, poly_s_left; /* a 16-byte half of the Poly1305 key */
    size_t scanned; /* bytes of dead stack scanned */
    size_t used;    /* of which not FILL any more */
    size_t low_fill; /* of the lowest UNTOUCHED_BYTES, still FILL */
};

static size_t count(const uint8_t *hay, size_t len, const uint8_t *pat, size_t plen) {
    size_t i, n = 0;
    for (i = 0; i + plen <= len; i++) {
        if (hay[i] == pat[0] && memcmp(hay + i, pat, plen) == 0) {
            n++;
        }
    }
    return n;
}

/* The control: copy the subkey and the Poly1305 key into a frame that
 * then dies. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static uint8_t leave_residue(void) {
    volatile uint8_t frame[96];
    size_t i;
    for (i = 0; i < 32; i++) {
        frame[i + 16] = SUBKEY[i];
        frame[i + 56] = POLY_KEY[i];
    }
    return frame[16];
}

/* Everything the library does, in frames at least 2 KiB below the
 * worker's, so that the scan's own frames cannot touch them. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void deep_ops(struct job *j) {
    volatile uint8_t pad[2048];
    mrtr_sealer *s = NULL;
    mrtr_bytes ring[1], state, tok;
    mrtr_bytes out_state;
    mrtr_unseal_reason reason;
    size_t n = 0;
    pad[0] = 0;
    pad[sizeof pad - 1] = 0;
    if (j->control) {
        /* Not a tail call: the residue must stay below the pad. */
        if (leave_residue() != SUBKEY[0]) {
            j->init = MRTR_ERR_INTERNAL;
        }
        pad[1] = 1;
        return;
    }
    ring[0].ptr = key;
    ring[0].len = sizeof key;
    j->init = mrtr_sealer_init(j->mem, mrtr_sealer_size(), ring, 1, str_of("wipe-test"), 0, 60, 0,
                               &s, NULL);
    if (j->init != MRTR_OK) {
        return;
    }
    j->enc_in_sealer = count((const uint8_t *)j->mem, mrtr_sealer_size(), K_ENC, 32);
    j->siv_in_sealer = count((const uint8_t *)j->mem, mrtr_sealer_size(), K_SIV, 32);
    state.ptr = (const uint8_t *)"hello";
    state.len = 5;
    j->seal = mrtr_seal(s, 1780000000u, nonce, binding, NULL, state, token, sizeof token, &n);
    tok.ptr = token;
    tok.len = n;
    j->unseal = mrtr_unseal(s, 1780000001u, tok, binding, NULL, scratch, sizeof scratch,
                            &out_state, &reason, NULL);
    mrtr_sealer_wipe(s);
    pad[1] = 1; /* keeps the pad (and the calls) below this frame */
}

static void *worker(void *arg) {
    struct job *j = (struct job *)arg;
    volatile uint8_t here = 0;
    size_t dead, i;
    deep_ops(j);
    /* The stack grows down on every target here: dead is [stack, here). */
    dead = (size_t)((const uint8_t *)&here - j->stack);
    dead = dead > 256 ? dead - 256 : 0;
    j->scanned = dead;
    j->key_left = count(j->stack, dead, key, 32);
    j->enc_left = count(j->stack, dead, K_ENC, 32);
    j->siv_left = count(j->stack, dead, K_SIV, 32);
    j->subkey_left = count(j->stack, dead, SUBKEY, 32);
    j->poly_r_left = count(j->stack, dead, POLY_KEY, 16);
    j->poly_s_left = count(j->stack, dead, POLY_KEY + 16, 16);
    for (i = 0; i < dead; i++) {
        j->used += j->stack[i] != FILL;
        j->low_fill += i < UNTOUCHED_BYTES && j->stack[i] == FILL;
    }
    return here == 0 ? NULL : arg;
}

#if defined(_WIN32)
/* Fills REGION_BYTES of this thread's stack below the caller's frame with
 * FILL; returns the address of the lowest byte (as an integer: the frame
 * dies, and its memory is the region). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static uintptr_t fill_region(void) {
    volatile uint8_t area[REGION_BYTES];
    size_t i;
    for (i = 0; i < REGION_BYTES; i++) {
        area[i] = FILL;
    }
    return (uintptr_t)&area[0];
}

/* Runs `j` on this thread, in a region of its stack filled with FILL. */
static int run_here(struct job *j) {
    j->stack = (uint8_t *)fill_region();
    return worker(j) == NULL ? 0 : -1;
}
#else

/* Runs `j` on a thread whose stack is `stack` (filled with FILL first). */
static int run_on(uint8_t *stack, struct job *j) {
    pthread_attr_t attr;
    pthread_t t;
    int rc;
    memset(stack, FILL, STACK_BYTES);
    if (pthread_attr_init(&attr) != 0) {
        return -1;
    }
    rc = pthread_attr_setstack(&attr, stack, STACK_BYTES);
    if (rc == 0) {
        rc = pthread_create(&t, &attr, worker, j);
    }
    if (rc == 0) {
        rc = pthread_join(t, NULL);
    }
    pthread_attr_destroy(&attr);
    return rc;
}

/* Runs `j` on a new thread whose stack is a buffer of ours. */
static int run_here(struct job *j) {
    void *stack = NULL;
    int rc;
    if (posix_memalign(&stack, 4096, STACK_BYTES) != 0 || stack == NULL) {
        return -1;
    }
    j->stack = (uint8_t *)stack;
    rc = run_on((uint8_t *)stack, j);
    free(stack);
    return rc;
}
#endif

/* Under valgrind a dead stack reads as undefined memory: the scan would be
 * one long report. Valgrind preloads its vgpreload libraries. */
static int under_valgrind(void) {
    const char *p = getenv("LD_PRELOAD");
    return p != NULL && strstr(p, "vgpreload") != NULL;
}

static void test_no_key_material_survives_seal_unseal_and_wipe(void) {
    struct job j;
    size_t i;
    for (i = 0; i < 32; i++) {
        key[i] = (uint8_t)(i * 7 + 1);
        binding[i] = 0x11;
    }
    memset(nonce, 0x5a, sizeof nonce);

    /* Control: a dead frame's copies of the subkey and the Poly1305 key
     * are found. */
    memset(&j, 0, sizeof j);
    j.control = 1;
    CHECK(run_here(&j) == 0);
    CHECK_EQ_SIZE(j.subkey_left, 1);
    CHECK_EQ_SIZE(j.poly_r_left, 1);
    CHECK_EQ_SIZE(j.poly_s_left, 1);

    /* The real run. */
    memset(&j, 0, sizeof j);
    j.mem = ws_new(mrtr_sealer_size());
    CHECK(run_here(&j) == 0);
    CHECK_STATUS(j.init, MRTR_OK);
    CHECK_STATUS(j.seal, MRTR_OK);
    CHECK_STATUS(j.unseal, MRTR_OK);
    /* The derived keys were in the sealer (the pinned values are right)... */
    CHECK_EQ_SIZE(j.enc_in_sealer, 1);
    CHECK_EQ_SIZE(j.siv_in_sealer, 1);
    /* ...and are gone from it after the wipe... */
    CHECK_EQ_SIZE(count((const uint8_t *)j.mem, mrtr_sealer_size(), K_ENC, 32), 0);
    CHECK_EQ_SIZE(count((const uint8_t *)j.mem, mrtr_sealer_size(), K_SIV, 32), 0);
    /* ...and no copy of the key, a derived key, the subkey or either half of
     * the Poly1305 key is left on the stack the library ran on. */
    CHECK_EQ_SIZE(j.key_left, 0);
    CHECK_EQ_SIZE(j.enc_left, 0);
    CHECK_EQ_SIZE(j.siv_left, 0);
    CHECK_EQ_SIZE(j.subkey_left, 0);
    CHECK_EQ_SIZE(j.poly_r_left, 0);
    CHECK_EQ_SIZE(j.poly_s_left, 0);
    /* The library did run on the scanned stack (the seal needs kilobytes),
     * and inside it: the lowest bytes were never reached. */
    CHECK(j.scanned > 8192 && j.used > 1024);
    CHECK_EQ_SIZE(j.low_fill, UNTOUCHED_BYTES);
    free(j.mem);
}

void suite_seal_wipe(void) {
    if (under_valgrind()) {
        SKIP(test_no_key_material_survives_seal_unseal_and_wipe,
             "the dead stack is undefined memory under valgrind; the plain, UBSan and dev "
             "runs scan it");
        return;
    }
    RUN(test_no_key_material_survives_seal_unseal_and_wipe);
}

#else

void suite_seal_wipe(void) {
    SKIP(test_no_key_material_survives_seal_unseal_and_wipe,
         "AddressSanitizer moves frames off the thread's stack; the plain, UBSan and dev "
         "runs scan it");
}

#endif
