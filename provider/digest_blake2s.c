/* STUB: to be written */
#include "zinc_prov.h"
const OSSL_DISPATCH zinc_blake2s256_functions[] = { { 0, NULL } };
