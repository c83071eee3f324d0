/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CPU feature detection (zinc_cpu_read(), run once by zinc_init()) and the
 * choice of a path from a glue's table.
 */
#include "config.h"
#include <stdlib.h>
#include "internal.h"

unsigned int zinc_cpu_features;

#if defined(ZINC_ASM_X86_64)
/* generated/x86_64-cpuid.S */
void zinc_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t out[4]);
uint64_t zinc_xgetbv(uint32_t xcr);

static unsigned int detect_x86_64(void)
{
	uint32_t r[4], max_leaf;
	unsigned int f = 0;
	uint64_t xcr0 = 0;

	zinc_cpuid(0, 0, r);
	max_leaf = r[0];
	if (max_leaf < 1)
		return 0;
	zinc_cpuid(1, 0, r);
	if (r[2] & (1u << 9))
		f |= ZINC_CPU_X86_SSSE3;
	/* ymm and zmm state count only when the OS saves them (OSXSAVE, XCR0). */
	if (r[2] & (1u << 27))
		xcr0 = zinc_xgetbv(0);
	if ((r[2] & (1u << 28)) && (xcr0 & 0x6) == 0x6)
		f |= ZINC_CPU_X86_AVX;
	if (max_leaf < 7)
		return f;
	zinc_cpuid(7, 0, r);
	if ((f & ZINC_CPU_X86_AVX) && (r[1] & (1u << 5)))
		f |= ZINC_CPU_X86_AVX2;
	if (r[1] & (1u << 8))
		f |= ZINC_CPU_X86_BMI2;
	if (r[1] & (1u << 19))
		f |= ZINC_CPU_X86_ADX;
	if ((f & ZINC_CPU_X86_AVX) && (xcr0 & 0xe0) == 0xe0) {
		if (r[1] & (1u << 16))
			f |= ZINC_CPU_X86_AVX512F;
		if (f & ZINC_CPU_X86_AVX512F) {
			if (r[1] & (1u << 31))
				f |= ZINC_CPU_X86_AVX512VL;
			if (r[1] & (1u << 30))
				f |= ZINC_CPU_X86_AVX512BW;
			if (r[1] & (1u << 21))
				f |= ZINC_CPU_X86_AVX512IFMA;
			if (r[2] & (1u << 6))
				f |= ZINC_CPU_X86_AVX512VBMI2;
		}
	}
	return f;
}
#elif defined(ZINC_ASM_ARMV4) || defined(ZINC_ASM_ARMV8)
#if defined(__linux__)
#include <sys/auxv.h>
#endif

static unsigned int detect_arm(void)
{
	unsigned int f = ZINC_CPU_ARM_ASM;

#if defined(__linux__) && defined(ZINC_ASM_ARMV8)
	if (getauxval(AT_HWCAP) & HWCAP_ASIMD)
		f |= ZINC_CPU_ARM_NEON;
#elif defined(__linux__)
	if (getauxval(AT_HWCAP) & HWCAP_ARM_NEON)
		f |= ZINC_CPU_ARM_NEON;
#elif defined(ZINC_ASM_ARMV8)
	/* Advanced SIMD is part of the AArch64 ABI of Apple and the BSDs. */
	f |= ZINC_CPU_ARM_NEON;
#endif
	return f;
}
#endif

static const struct {
	unsigned int bit;
	const char *name;
} feature_names[] = {
#if defined(ZINC_ASM_ARMV8)
	{ ZINC_CPU_ARM_ASM, "armv8" },
	{ ZINC_CPU_ARM_NEON, "neon" },
#elif defined(ZINC_ASM_ARMV4)
	{ ZINC_CPU_ARM_ASM, "armv7" },
	{ ZINC_CPU_ARM_NEON, "neon" },
#else
	{ ZINC_CPU_X86_SSSE3, "ssse3" },
	{ ZINC_CPU_X86_AVX, "avx" },
	{ ZINC_CPU_X86_AVX2, "avx2" },
	{ ZINC_CPU_X86_BMI2, "bmi2" },
	{ ZINC_CPU_X86_ADX, "adx" },
	{ ZINC_CPU_X86_AVX512F, "avx512f" },
	{ ZINC_CPU_X86_AVX512VL, "avx512vl" },
	{ ZINC_CPU_X86_AVX512BW, "avx512bw" },
	{ ZINC_CPU_X86_AVX512IFMA, "avx512ifma" },
	{ ZINC_CPU_X86_AVX512VBMI2, "avx512vbmi2" },
#endif
};

static char features_string[128];

/*
 * ZINC_CPU limits the features zinc uses to a comma-separated list of the
 * names above, so that every path can run on one machine; "none" (or any
 * list without a known name) leaves the portable C.  Unset: all detected.
 */
static unsigned int features_allowed(void)
{
#ifdef HAVE_SECURE_GETENV
	const char *list = secure_getenv("ZINC_CPU");
#else
	const char *list = getenv("ZINC_CPU");
#endif
	unsigned int allowed = 0;
	size_t i;

	if (list == NULL || *list == '\0')
		return ~0u;
	while (*list != '\0') {
		size_t len = strcspn(list, ",");

		for (i = 0; i < sizeof(feature_names) / sizeof(feature_names[0]); i++)
			if (strlen(feature_names[i].name) == len &&
			    strncmp(feature_names[i].name, list, len) == 0)
				allowed |= feature_names[i].bit;
		list += len;
		if (*list == ',')
			list++;
	}
	return allowed;
}

void zinc_cpu_read(void)
{
	size_t i, n = 0;

#if defined(ZINC_ASM_X86_64)
	zinc_cpu_features = detect_x86_64();
#elif defined(ZINC_ASM_ARMV4) || defined(ZINC_ASM_ARMV8)
	zinc_cpu_features = detect_arm();
#endif
	zinc_cpu_features &= features_allowed();
	for (i = 0; i < sizeof(feature_names) / sizeof(feature_names[0]); i++) {
		size_t len = strlen(feature_names[i].name);

		if (!(zinc_cpu_features & feature_names[i].bit) ||
		    n + len + 2 > sizeof(features_string))
			continue;
		if (n > 0)
			features_string[n++] = ' ';
		memcpy(features_string + n, feature_names[i].name, len);
		n += len;
	}
	if (n == 0)
		memcpy(features_string, "none", 5);
}

const char *zinc_cpu_features_string(void)
{
	return features_string;
}

const void *zinc_choose_path(const void *paths, size_t count, size_t size,
			     unsigned int features)
{
	const unsigned char *entry = paths;
	size_t i;

	if (features == 0)
		return NULL;
	for (i = 0; i < count; i++, entry += size) {
		const struct zinc_path *p = (const void *)entry;

		if ((features & p->needs) == p->needs)
			return p;
	}
	return NULL;
}
