/* STUB: to be written */
#include "zinc_prov.h"
const OSSL_DISPATCH zinc_chacha20_functions[] = { { 0, NULL } };
