#include "sim/core/rng.h"

#include <assert.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>

/* The LCG multiplier of 64-bit PCG generators (O'Neill 2014, table of constants). */
#define PCG_MULT 6364136223846793005ULL

/* 2^64 / golden ratio, odd: SplitMix64's increment, here a key-schedule constant. */
#define GOLDEN_GAMMA 0x9e3779b97f4a7c15ULL

#define FNV1A64_BASIS 0xcbf29ce484222325ULL
#define FNV1A64_PRIME 0x100000001b3ULL

void rng_gsl_init(void)
{
	gsl_set_error_handler_off();
}

void rng_seed(struct rng *r, uint64_t initstate, uint64_t initseq)
{
	/* Order as in pcg32_srandom_r: step from 0, add the seed, step again,
	 * so that initstate lands one LCG step away from the first output. */
	r->state = 0;
	r->inc = (initseq << 1) | 1u;
	(void)rng_next_u32(r);
	r->state += initstate;
	(void)rng_next_u32(r);
}

uint32_t rng_next_u32(struct rng *r)
{
	uint64_t old = r->state;
	uint32_t xorshifted, rot;

	r->state = old * PCG_MULT + r->inc;
	/* XSH-RR: the top 5 bits choose a rotation of an xorshifted middle slice. */
	xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
	rot = (uint32_t)(old >> 59);
	return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

uint32_t rng_bounded_u32(struct rng *r, uint32_t bound)
{
	uint32_t threshold;

	assert(bound > 0);
	/* 2^32 mod bound, computed in 32 bits: the count of low outputs that
	 * would make some residues more likely than others. */
	threshold = (0u - bound) % bound;
	for (;;) {
		uint32_t x = rng_next_u32(r);

		if (x >= threshold)
			return x % bound;
	}
}

double rng_uniform01(struct rng *r)
{
	uint64_t hi = rng_next_u32(r);
	uint64_t lo = rng_next_u32(r);

	return (double)(((hi << 32) | lo) >> 11) * 0x1.0p-53;
}

void rng_advance(struct rng *r, uint64_t delta)
{
	/* Composing the affine map s -> m*s + c with itself by repeated
	 * squaring: after the loop, state * acc_mult + acc_plus is the state
	 * delta steps on (Brown, "Random number generation with arbitrary
	 * strides", 1994, as the PCG paper uses it). */
	uint64_t cur_mult = PCG_MULT, cur_plus = r->inc;
	uint64_t acc_mult = 1, acc_plus = 0;

	while (delta > 0) {
		if (delta & 1u) {
			acc_mult *= cur_mult;
			acc_plus = acc_plus * cur_mult + cur_plus;
		}
		cur_plus = (cur_mult + 1) * cur_plus;
		cur_mult *= cur_mult;
		delta >>= 1;
	}
	r->state = acc_mult * r->state + acc_plus;
}

/* SplitMix64's output function: a bijection on 64 bits with full avalanche. */
static uint64_t mix64(uint64_t z)
{
	z ^= z >> 30;
	z *= 0xbf58476d1ce4e5b9ULL;
	z ^= z >> 27;
	z *= 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return z;
}

static uint64_t fnv1a64(const char *s)
{
	uint64_t h = FNV1A64_BASIS;
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++) {
		h ^= *p;
		h *= FNV1A64_PRIME;
	}
	return h;
}

void rng_stream(struct rng *out, uint64_t seed, uint64_t trial, const char *source_id)
{
	uint64_t k;

	assert(source_id);
	k = mix64(seed ^ GOLDEN_GAMMA);
	k = mix64(k ^ fnv1a64(source_id));
	k = mix64(k ^ trial);
	rng_seed(out, mix64(k + GOLDEN_GAMMA), mix64(k + 2 * GOLDEN_GAMMA));
}

/* ---- GSL adapter: the gsl_rng state is a struct rng ---- */

static void gsl_pcg_set(void *state, unsigned long seed)
{
	rng_seed(state, seed, 0);
}

static unsigned long gsl_pcg_get(void *state)
{
	return rng_next_u32(state);
}

static double gsl_pcg_get_double(void *state)
{
	return rng_uniform01(state);
}

static const gsl_rng_type pcg32_gsl_type = {
	"magos-pcg32",	   /* name */
	0xffffffffUL,	   /* max: get() returns all 32 bits */
	0,		   /* min */
	sizeof(struct rng), /* size of the state gsl_rng_alloc() allocates */
	gsl_pcg_set,
	gsl_pcg_get,
	gsl_pcg_get_double,
};

const gsl_rng_type *const rng_gsl_type = &pcg32_gsl_type;

static gsl_rng *gsl_pcg_alloc(void)
{
	/* gsl_rng_alloc() seeds with gsl_rng_default_seed, which only
	 * gsl_rng_env_setup() changes, and we never call that; the callers
	 * overwrite the state anyway. */
	gsl_rng *g = gsl_rng_alloc(rng_gsl_type);

	if (!g)
		abort();
	return g;
}

gsl_rng *rng_gsl_new(uint64_t seed, uint64_t trial, const char *source_id)
{
	gsl_rng *g = gsl_pcg_alloc();

	rng_stream(g->state, seed, trial, source_id);
	return g;
}

gsl_rng *rng_gsl_new_from(const struct rng *r)
{
	gsl_rng *g = gsl_pcg_alloc();

	*(struct rng *)g->state = *r;
	return g;
}

void rng_gsl_wrap(gsl_rng *g, struct rng *r)
{
	g->type = rng_gsl_type;
	g->state = r;
}

struct rng *rng_gsl_state(const gsl_rng *g)
{
	assert(g->type == rng_gsl_type);
	return g->state;
}
