/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A GENERIC-SECRET opaque key (skeymgmt_generic.c), the keydata of an
 * EVP_SKEY that zinc made: never empty.
 */
#ifndef ZINC_SKEY_H
#define ZINC_SKEY_H

#include <stddef.h>

struct zinc_skey {
	unsigned char *bytes;
	size_t len;
};

/* For an skey init: the bytes for the algorithm's init, NULL (no new key) for no skey. */
static inline const unsigned char *zinc_skey_bytes(const void *skeydata, size_t *len)
{
	const struct zinc_skey *skey = skeydata;

	*len = skey != NULL ? skey->len : 0;
	return skey != NULL ? skey->bytes : NULL;
}

#endif
