/* STUB: to be written */
#include "zinc/chacha20.h"
#include "internal.h"
void zinc_chacha20_choose(void) {}
const char *chacha20_implementation(void) { return "portable C"; }
