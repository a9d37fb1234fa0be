/* SwiftPM builds a C target only when it has a source file; the code is in
 * libmrtr (linked through the module map). This file adds nothing. */
#include "CMrtr.h"
typedef int cmrtr_translation_unit_is_not_empty;
