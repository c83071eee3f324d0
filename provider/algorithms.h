/* SPDX-License-Identifier: Apache-2.0 */
/* What zinc_prov.c offers the core: one implementation file each. */
#ifndef ZINC_ALGORITHMS_H
#define ZINC_ALGORITHMS_H

#include <openssl/core.h>

/*
 * zinc.preferred is zinc's own name, so that `default_properties =
 * ?zinc.preferred` keeps preferring zinc when an application's query names
 * `provider` itself (stunnel asks for provider!=fips), which replaces a
 * default `?provider=zinc`.
 */
#define ZINC_PROPERTIES "provider=zinc,zinc.preferred=yes"

extern const OSSL_DISPATCH zinc_chacha20_functions[];
extern const OSSL_DISPATCH zinc_chacha20_poly1305_functions[];
extern const OSSL_DISPATCH zinc_xchacha20_poly1305_functions[];
/* The same with OpenSSL 3.5's cipher pipeline functions, for a 3.5+ core. */
extern const OSSL_DISPATCH zinc_chacha20_pipeline_functions[];
extern const OSSL_DISPATCH zinc_chacha20_poly1305_pipeline_functions[];
extern const OSSL_DISPATCH zinc_xchacha20_poly1305_pipeline_functions[];
extern const OSSL_DISPATCH zinc_poly1305_mac_functions[];
extern const OSSL_DISPATCH zinc_blake2s_mac_functions[];
extern const OSSL_DISPATCH zinc_blake2s256_functions[];
extern const OSSL_DISPATCH zinc_x25519_keymgmt_functions[];
extern const OSSL_DISPATCH zinc_x25519_keyexch_functions[];
extern const OSSL_DISPATCH zinc_generic_skeymgmt_functions[];
/* Encoders and decoders come as whole tables: one entry per output or input. */
extern const OSSL_ALGORITHM zinc_x25519_encoders[];
extern const OSSL_ALGORITHM zinc_x25519_decoders[];

/*
 * OSSL_FUNC_PROVIDER_GET_CAPABILITIES: "TLS-GROUP" (capabilities.c), with
 * its type where zinc_prov.c's table takes it.
 */
int zinc_get_capabilities(void *provctx, const char *capability, OSSL_CALLBACK *cb, void *arg);

#endif
