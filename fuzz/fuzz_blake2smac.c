/* SPDX-License-Identifier: Apache-2.0 */
/*
 * BLAKE2SMAC: zinc against the default provider with any subset of its
 * parameters ("size" as one of several integer types or a wrong one, "key",
 * "salt", "custom", of any length), set before init or given to it, a key
 * given to init or not, messages in pieces, a copy of the context part way,
 * and a second init that reuses the key.  The same calls must succeed, with
 * the same MACs.
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
	FZ_FETCH_PAIR(EVP_MAC_fetch, "BLAKE2SMAC", zm, dm);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz in = { data, size };
	struct fz_split sp;
	uint8_t flags = fz_u8(&in), which = fz_u8(&in);
	uint8_t key[40], key2[40], salt[12], custom[12];
	size_t keylen = fz_u8(&in) % sizeof(key), key2len = fz_u8(&in) % sizeof(key2);
	size_t saltlen = fz_u8(&in) % sizeof(salt), customlen = fz_u8(&in) % sizeof(custom);
	size_t size_t_v = fz_u8(&in) % 40;
	unsigned int uint_v = (unsigned int)size_t_v;
	int int_v = (int)(int8_t)fz_u8(&in);
	char utf8_v[] = "16";
	OSSL_PARAM params[5];
	size_t n = 0;
	struct fz_mac job = { .set_first = flags & 1, .again = flags & 2 };

	fz_take(&in, key, sizeof(key));
	fz_take(&in, key2, sizeof(key2));
	fz_take(&in, salt, sizeof(salt));
	fz_take(&in, custom, sizeof(custom));
	fz_split_init(&sp, &in);
	switch (which & 7) {
	case 1:
		params[n++] = OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size_t_v);
		break;
	case 2:
		params[n++] = OSSL_PARAM_construct_uint(OSSL_MAC_PARAM_SIZE, &uint_v);
		break;
	case 3:
		params[n++] = OSSL_PARAM_construct_int(OSSL_MAC_PARAM_SIZE, &int_v);
		break;
	case 4:
		params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_SIZE, utf8_v, 0);
		break;
	default:
		break;
	}
	if (which & 8)
		params[n++] = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_KEY, key, keylen);
	if (which & 16)
		params[n++] = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_SALT, salt, saltlen);
	if (which & 32)
		params[n++] = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_CUSTOM, custom,
								customlen);
	params[n] = OSSL_PARAM_construct_end();
	if (which & 64) {
		job.key = key2;
		job.keylen = key2len;
	}
	job.params = params;
	job.cut = fz_below(&in, 4096);
	job.msg = fz_ref(&in, SIZE_MAX, &job.len);
	fz_mac_compare(zm, dm, &job, &sp);
	return 0;
}
