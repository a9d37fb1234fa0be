#include "testutil.h"

void suite_vectors(void) {}
