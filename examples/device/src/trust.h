/*
 * What the device needs to seal requestState without a TRNG or an RTC:
 * a provisioned key ring, a boot counter that is written back before it is
 * used, a clock that only moves forward across restarts, and nonces that
 * never repeat under one key. See README.md, "Nonces and time".
 */
#ifndef DEVICE_TRUST_H
#define DEVICE_TRUST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mrtr.h"

/* Token lifetime: a person answers a form within five minutes. */
#define TRUST_TTL_SECONDS 300u
/* Device time runs in epochs of 2^16 s (18.2 h): boot k starts at
 * TRUST_TIME_BASE + k * TRUST_EPOCH_SECONDS. */
#define TRUST_EPOCH_SECONDS 65536u
/* 2026-01-01T00:00:00Z: device time starts here (tokens need a unix time). */
#define TRUST_TIME_BASE 1767225600u
/* The provisioned record's file (semihosting; flash on a real board). */
#define TRUST_NVM_PATH "mrtr-device.nvm"
/* Bytes of the record: magic, boot counter, key count, two keys, id. */
#define TRUST_NVM_BYTES 104u

/* Reads the record, counts this boot and writes the count back before any
 * seal, then builds the sealer. False (sealing off: every tool that needs
 * a requestState answers an error) when the record is missing or bad, the
 * write-back fails, or the counter is used up. */
bool trust_init(void);

/* The sealer, or NULL when sealing is off. */
const mrtr_sealer *trust_sealer(void);

/* The device's time for seal and unseal: TRUST_TIME_BASE + epoch *
 * TRUST_EPOCH_SECONDS + seconds into the epoch. When the uptime would take
 * a token sealed in this epoch past its end, the next epoch starts (the
 * counter is written back first). Returns false when time is unavailable
 * (sealing off, or the write-back failed): fail closed. */
bool trust_now(uint64_t *now);

/* The next 24-byte seal nonce: epoch counter (8 bytes, little endian), the
 * seal counter of this epoch (8), the device id's first 8 bytes. Never the
 * same twice under one key ring, even across restarts. */
void trust_nonce(uint8_t out[24]);

/* The boot (epoch) counter of this run. */
uint64_t trust_epoch(void);

#endif
