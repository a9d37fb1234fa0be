/*
 * Keys, boot counter, device time and nonces (see trust.h and README.md).
 *
 * The record (little endian), TRUST_NVM_BYTES long:
 *   0   "MRTRNVM1"           magic
 *   8   u64 epoch            the last epoch counter handed out
 *   16  u32 key count        1 or 2 (key 0 seals, both unseal)
 *   20  u32 reserved         0
 *   24  32 bytes key 0
 *   56  32 bytes key 1       (ignored when the count is 1)
 *   88  16 bytes device id   (the audience, and part of every nonce)
 */
#include "trust.h"

#include "board.h"

static const uint8_t MAGIC[8] = {'M', 'R', 'T', 'R', 'N', 'V', 'M', '1'};

static uint8_t nvm[TRUST_NVM_BYTES];
static uint64_t epoch;
static uint64_t epoch_start_ms;
static uint64_t seal_counter;
static bool sealing;

/* The sealer's memory, sized at build time from the header's limits and
 * checked against mrtr_sealer_size() at start. */
#define SEALER_BYTES 2048u
static uint64_t sealer_mem[SEALER_BYTES / 8];
static mrtr_sealer *sealer;

static uint64_t get_u64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) {
        v = (v << 8) | p[i];
    }
    return v;
}

static void put_u64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

static uint32_t get_u32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The largest epoch whose whole range stays below MRTR_SEAL_MAX_UNIX_TIME. */
#define MAX_EPOCH ((MRTR_SEAL_MAX_UNIX_TIME - TRUST_TIME_BASE) / TRUST_EPOCH_SECONDS - 2u)

/* Takes the next epoch: counts it in the record and writes the record back
 * before anything uses it. */
static bool next_epoch(void) {
    uint64_t last = get_u64(nvm + 8);
    if (last >= MAX_EPOCH) {
        log_line("device: epoch counter used up; sealing off");
        return false;
    }
    put_u64(nvm + 8, last + 1);
    if (!semi_write_file(TRUST_NVM_PATH, nvm, sizeof nvm)) {
        log_line("device: cannot write the boot counter back; sealing off");
        return false;
    }
    epoch = last + 1;
    epoch_start_ms = clock_ms();
    seal_counter = 0;
    return true;
}

bool trust_init(void) {
    sealing = false;
    long got = semi_read_file(TRUST_NVM_PATH, nvm, sizeof nvm);
    if (got != (long)sizeof nvm || memcmp(nvm, MAGIC, sizeof MAGIC) != 0) {
        log_line("device: no provisioned record (" TRUST_NVM_PATH "); sealing off");
        return false;
    }
    uint32_t nkeys = get_u32(nvm + 16);
    if (nkeys < 1 || nkeys > 2) {
        log_line("device: bad provisioned record (key count); sealing off");
        return false;
    }
    if (mrtr_sealer_size() > sizeof sealer_mem) {
        log_str("device: the sealer needs ");
        log_u64(mrtr_sealer_size());
        log_line(" bytes; sealing off");
        return false;
    }
    if (!next_epoch()) {
        return false;
    }
    mrtr_bytes keys[2] = {{nvm + 24, 32}, {nvm + 56, 32}};
    /* The audience names this device: its id in hex. */
    static char audience[12 + 32];
    static const char hex[] = "0123456789abcdef";
    memcpy(audience, "mrtr-device-", 12);
    for (size_t i = 0; i < 16; i++) {
        audience[12 + 2 * i] = hex[nvm[88 + i] >> 4];
        audience[13 + 2 * i] = hex[nvm[88 + i] & 15];
    }
    mrtr_str aud = {audience, sizeof audience};
    /* Skew 0: the clock is the device's own, nobody else's. */
    mrtr_status st = mrtr_sealer_init(sealer_mem, sizeof sealer_mem, keys, nkeys, aud,
                                      TRUST_TTL_SECONDS, 0, 0, &sealer, NULL);
    if (st != MRTR_OK) {
        log_str("device: sealer_init: ");
        log_line(mrtr_status_str(st));
        return false;
    }
    sealing = true;
    return true;
}

const mrtr_sealer *trust_sealer(void) { return sealing ? sealer : NULL; }

bool trust_now(uint64_t *now) {
    if (!sealing) {
        return false;
    }
    uint64_t into = udiv64_small(clock_ms() - epoch_start_ms, 1000u, NULL);
    /* A token sealed now must expire before the next epoch starts, so a
     * restart (which starts the next epoch at once) voids every token. */
    if (into + TRUST_TTL_SECONDS >= TRUST_EPOCH_SECONDS) {
        if (!next_epoch()) {
            sealing = false;
            return false;
        }
        into = 0;
    }
    *now = TRUST_TIME_BASE + epoch * TRUST_EPOCH_SECONDS + into;
    return true;
}

void trust_nonce(uint8_t out[24]) {
    put_u64(out, epoch);
    put_u64(out + 8, seal_counter);
    memcpy(out + 16, nvm + 88, 8);
    seal_counter++;
}

uint64_t trust_epoch(void) { return epoch; }
