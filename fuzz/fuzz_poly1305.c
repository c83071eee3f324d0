/* SPDX-License-Identifier: Apache-2.0 */
/*
 * POLY1305: zinc against the default provider on keys of any length (as an
 * init argument or a "key" parameter), messages in pieces, a copy of the
 * context part way, and a second init without a key (refused once data
 * went in, as a one-time key must be).
 */
#include <openssl/core_names.h>
#include <openssl/params.h>
#include "fuzz.h"

static EVP_MAC *zm, *dm;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	FZ_FETCH_PAIR(EVP_MAC_fetch, "POLY1305", zm, dm);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz in = { data, size };
	struct fz_split sp;
	uint8_t flags = fz_u8(&in), key[48];
	size_t keylen = flags & 1 ? fz_u8(&in) % sizeof(key) : 32;
	OSSL_PARAM params[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
	struct fz_mac job = { .set_first = flags & 2, .again = flags & 4 };

	fz_take(&in, key, sizeof(key));
	fz_split_init(&sp, &in);
	if (flags & 8) {
		params[0] = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_KEY, key, keylen);
	} else {
		job.key = key;
		job.keylen = keylen;
	}
	job.params = params;
	job.cut = fz_below(&in, 4096);
	job.msg = fz_ref(&in, SIZE_MAX, &job.len);
	fz_mac_compare(zm, dm, &job, &sp);
	return 0;
}
