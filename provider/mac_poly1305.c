/* STUB: to be written */
#include "zinc_prov.h"
const OSSL_DISPATCH zinc_poly1305_mac_functions[] = { { 0, NULL } };
