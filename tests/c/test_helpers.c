#include "testutil.h"

void suite_helpers(void) {}
