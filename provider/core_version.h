/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The release of the libcrypto that loaded zinc, from the core's
 * "openssl-version" at load (zinc_prov.c): zinc offers what that release's
 * default provider offers, whichever 3.x headers it was built with.
 */
#ifndef ZINC_CORE_VERSION_H
#define ZINC_CORE_VERSION_H

#include <stdatomic.h>
#include <stdbool.h>

#define ZINC_OSSL_VERSION(major, minor) ((unsigned int)(major) << 8 | (unsigned int)(minor))
extern atomic_uint zinc_core_version;

static inline bool zinc_core_at_least(unsigned int major, unsigned int minor)
{
	return atomic_load_explicit(&zinc_core_version, memory_order_relaxed) >=
	       ZINC_OSSL_VERSION(major, minor);
}

#endif
