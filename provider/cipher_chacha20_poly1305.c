/* STUB: to be written */
#include "zinc_prov.h"
const OSSL_DISPATCH zinc_chacha20_poly1305_functions[] = { { 0, NULL } };
const OSSL_DISPATCH zinc_xchacha20_poly1305_functions[] = { { 0, NULL } };
