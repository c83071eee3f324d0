/* STUB: to be written */
#include "zinc/curve25519.h"
#include "internal.h"
void zinc_curve25519_choose(void) {}
const char *curve25519_implementation(void) { return "portable C"; }
