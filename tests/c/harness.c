/* The harness's counters and runner (see harness.h). */
#include "harness.h"

int harness_failed_checks;
static int harness_passed;
static int harness_failed;
static int harness_skipped;

void harness_run(const char *name, void (*test)(void)) {
    harness_failed_checks = 0;
    test();
    if (harness_failed_checks == 0) {
        harness_passed++;
        printf("ok   %s\n", name);
    } else {
        harness_failed++;
        printf("FAIL %s (%d failed checks)\n", name, harness_failed_checks);
    }
    fflush(stdout);
}

void harness_skip(const char *name, const char *why) {
    harness_skipped++;
    printf("skip %s (%s)\n", name, why);
    fflush(stdout);
}

int harness_finish(void) {
    if (harness_skipped > 0) {
        printf("%d passed, %d failed, %d skipped\n", harness_passed, harness_failed,
               harness_skipped);
    } else {
        printf("%d passed, %d failed\n", harness_passed, harness_failed);
    }
    return harness_failed == 0 ? 0 : 1;
}
