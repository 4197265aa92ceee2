#ifndef MAGOS_ENGINE_SHA256_H
#define MAGOS_ENGINE_SHA256_H

/*
 * SHA-256 as FIPS 180-4 (August 2015) §6.2 defines it, over bytes.  The
 * StageSet port needs it for migrationDigest (crypto/sha256 over the JSON
 * of a migration); engine/ links against libc only, so it is written here.
 *
 * Streaming use: sha256_init(), any number of sha256_update(), then
 * sha256_final().  One-shot: sha256().
 */

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_LEN 32

/*
 * The hash state.  Invariants: `nbuf` < 64 bytes are waiting in `buf` for a
 * full block; `nbytes` counts every byte fed so far (the message length).
 */
struct sha256_ctx {
	uint32_t h[8];        /* the intermediate hash value H(i) */
	uint64_t nbytes;      /* message length so far, bytes */
	unsigned char buf[64];
	size_t nbuf;
};

/* sha256_init() - the initial hash value H(0) (§5.3.3).  Cannot fail. */
void sha256_init(struct sha256_ctx *c);

/*
 * sha256_update() - feeds @n bytes of @data (may be NULL when @n is 0).
 * Cannot fail.  Cost: O(n).
 */
void sha256_update(struct sha256_ctx *c, const void *data, size_t n);

/*
 * sha256_final() - pads the message (§5.1.1), hashes the last block(s) and
 * writes the 32-byte digest to @out.  @c must be initialised again before
 * reuse.  Cannot fail.
 */
void sha256_final(struct sha256_ctx *c, unsigned char out[SHA256_DIGEST_LEN]);

/* sha256() - the digest of @n bytes of @data in one call.  Cannot fail. */
void sha256(const void *data, size_t n, unsigned char out[SHA256_DIGEST_LEN]);

/*
 * sha256_hex() - @d as 64 lower-case hex digits and a NUL into @out (what
 * Go's hex.EncodeToString prints).  Cannot fail.
 */
void sha256_hex(const unsigned char d[SHA256_DIGEST_LEN], char out[2 * SHA256_DIGEST_LEN + 1]);

#endif
