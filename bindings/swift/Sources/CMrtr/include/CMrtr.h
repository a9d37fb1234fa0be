/* The one header of the CMrtr module: the repository's C API, unchanged.
 * (Sources/CMrtr/include -> bindings/swift -> repository root.) */
#include "../../../../../include/mrtr.h"
