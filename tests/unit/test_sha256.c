/*
 * engine/sha256: the FIPS 180-4 example messages (NIST "Examples with
 * intermediate values", SHA-256: one block "abc", two blocks of 448 bits,
 * the 896-bit message, a million 'a') and the padding edges 55/56/63/64
 * bytes, hashed in one call and fed in pieces of every size.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/sha256.h"
#include "tests/unit/cu_main.h"

struct vec {
	const char *msg; /* NULL: `n` times 'a' */
	size_t n;
	const char *hex;
};

static const struct vec vecs[] = {
	{ "", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ "abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqr"
	  "lmnopqrsmnopqrstnopqrstu",
	  112, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
	{ NULL, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
	{ NULL, 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
	{ NULL, 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
	{ NULL, 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34" },
	{ NULL, 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
	{ NULL, 119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb" },
};

static char *message(const struct vec *v)
{
	char *m = malloc(v->n + 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	if (v->msg)
		memcpy(m, v->msg, v->n);
	else
		memset(m, 'a', v->n);
	m[v->n] = '\0';
	return m;
}

static void test_fips_vectors(void)
{
	for (size_t i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++) {
		char *m = message(&vecs[i]);
		unsigned char d[SHA256_DIGEST_LEN];
		char hex[65];

		sha256(m, vecs[i].n, d);
		sha256_hex(d, hex);
		CU_ASSERT_STRING_EQUAL(hex, vecs[i].hex);
		free(m);
	}
}

/* The same digests when the message arrives in pieces of 1..130 bytes. */
static void test_streaming(void)
{
	for (size_t i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++) {
		if (vecs[i].n > 1000)
			continue;
		char *m = message(&vecs[i]);
		for (size_t piece = 1; piece <= 130; piece++) {
			struct sha256_ctx c;
			unsigned char d[SHA256_DIGEST_LEN];
			char hex[65];

			sha256_init(&c);
			for (size_t off = 0; off < vecs[i].n; off += piece)
				sha256_update(&c, m + off, vecs[i].n - off < piece ? vecs[i].n - off : piece);
			sha256_final(&c, d);
			sha256_hex(d, hex);
			CU_ASSERT_STRING_EQUAL(hex, vecs[i].hex);
		}
		free(m);
	}
}

static CU_TestInfo tests[] = {
	{ "FIPS 180-4 example messages and padding edges", test_fips_vectors },
	{ "streaming in pieces gives the same digest", test_streaming },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("sha256", tests);
}
