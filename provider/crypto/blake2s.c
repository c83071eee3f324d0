/* STUB: to be written */
#include "zinc/blake2s.h"
#include "internal.h"
void zinc_blake2s_choose(void) {}
const char *blake2s_implementation(void) { return "portable C"; }
