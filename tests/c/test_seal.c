#include "testutil.h"

void suite_seal(void) {}
