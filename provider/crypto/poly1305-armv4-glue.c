/* SPDX-License-Identifier: Apache-2.0 */
/* STUB: to be written (poly1305 on armv4). */

/*
 * Dispatch point: the arch glue replaces this section.
 *
 * The portable and arch layouts of ctx->opaque differ: an arch
 * implementation whose init accepted a context owns ctx->opaque from then
 * on, and its blocks and emit must accept that context too (the choice is
 * made once, by zinc_init(), so they do).  blocks takes whole 16-byte
 * blocks; padbit is 1 for full message blocks and 0 for the final padded
 * one.  emit writes (h + s) mod 2^128, s being ctx->nonce.  Returning false
 * means "not handled": the portable code runs instead.
 */
static void poly1305_arch_choose(unsigned int features)
{
	(void)features;
}

static bool poly1305_init_arch(void *opaque, const uint8_t key[16])
{
	(void)opaque;
	(void)key;
	return false;
}

static bool poly1305_blocks_arch(void *opaque, const uint8_t *in, size_t len,
				 uint32_t padbit)
{
	(void)opaque;
	(void)in;
	(void)len;
	(void)padbit;
	return false;
}

static bool poly1305_emit_arch(void *opaque, uint8_t mac[POLY1305_MAC_SIZE],
			       const uint32_t nonce[4])
{
	(void)opaque;
	(void)mac;
	(void)nonce;
	return false;
}

static const char *poly1305_arch_name(void)
{
	return NULL;
}

