/*
 * Must NOT compile with -Werror where the header gives MRTR_NODISCARD
 * ([[nodiscard]]: C2x/C23, C++17): ignoring a returned mrtr_status is a bug
 * that MRTR_NODISCARD turns into a warning. scripts/test-c checks that the
 * compiler refuses this file.
 */
#include "mrtr.h"

void ignores_the_status(void);
void ignores_the_status(void) {
    mrtr_json_validate(NULL, 0, 0, NULL);
}
