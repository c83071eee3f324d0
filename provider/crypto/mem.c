/* SPDX-License-Identifier: Apache-2.0 */
/* Memory helpers every primitive and the provider share; they call nothing of zinc. */
#include "config.h"
#include <string.h>
#include "zinc/zinc.h"

void zinc_memzero(void *p, size_t len)
{
	/* A volatile function pointer: the compiler cannot prove the call dead. */
	static void *(*const volatile memset_v)(void *, int, size_t) = memset;

	memset_v(p, 0, len);
}

bool zinc_memeq(const void *a, const void *b, size_t len)
{
	const volatile uint8_t *x = a, *y = b;
	uint8_t d = 0;
	size_t i;

	for (i = 0; i < len; i++)
		d |= x[i] ^ y[i];
	return d == 0;
}
