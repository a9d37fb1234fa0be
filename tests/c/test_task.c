#include "testutil.h"

void suite_task(void) {}
