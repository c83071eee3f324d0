/* STUB: to be written */
#include "zinc/poly1305.h"
#include "internal.h"
void zinc_poly1305_choose(void) {}
const char *poly1305_implementation(void) { return "portable C"; }
