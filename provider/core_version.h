/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The release of the libcrypto that loaded zinc, from the core's
 * "openssl-version" at load (core_version.c): zinc offers what that
 * release's default provider offers, whichever 3.x headers it was built
 * with.
 */
#ifndef ZINC_CORE_VERSION_H
#define ZINC_CORE_VERSION_H

#include <stdatomic.h>
#include <stdbool.h>
#include <openssl/core.h>

#define ZINC_OSSL_VERSION(major, minor) ((unsigned int)(major) << 8 | (unsigned int)(minor))
extern atomic_uint zinc_core_version;

/*
 * From OSSL_provider_init, first: sets zinc_core_version, or raises
 * ZINC_R_WRONG_OPENSSL_MAJOR and returns 0 if the core is of another major
 * version than the libcrypto zinc was built for.
 */
int zinc_core_version_check(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in);

static inline bool zinc_core_at_least(unsigned int major, unsigned int minor)
{
	return atomic_load_explicit(&zinc_core_version, memory_order_relaxed) >=
	       ZINC_OSSL_VERSION(major, minor);
}

#endif
