/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Parameter lookup for the per-record and per-message paths: inline,
 * because a call to strcmp costs more than comparing names of a few letters.
 */
#ifndef ZINC_PARAMS_H
#define ZINC_PARAMS_H

#include <stdbool.h>
#include <openssl/core.h>

static inline bool zinc_name_eq(const char *key, const char *name)
{
	while (*key != '\0' && *key == *name) {
		key++;
		name++;
	}
	return *key == *name;
}

/* OSSL_PARAM_locate for the per-message paths (a MAC's size at final, an IV length at init). */
static inline OSSL_PARAM *zinc_param_locate(OSSL_PARAM params[], const char *name)
{
	for (; params != NULL && params->key != NULL; params++)
		if (zinc_name_eq(params->key, name))
			return params;
	return NULL;
}

#endif
