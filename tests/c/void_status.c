/*
 * Must compile with -Werror in every mode: a status cast to void is ignored
 * on purpose, and MRTR_NODISCARD lets the cast say so (scripts/test-c).
 */
#include "mrtr.h"

void ignores_the_status_on_purpose(void);
void ignores_the_status_on_purpose(void) {
    (void)mrtr_json_validate(NULL, 0, 0, NULL);
}
