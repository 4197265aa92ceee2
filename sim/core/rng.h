#ifndef MAGOS_SIM_RNG_H
#define MAGOS_SIM_RNG_H

/*
 * Random numbers: PCG32 streams and their GSL adapter.
 *
 * The generator is PCG-XSH-RR with 64-bit state and 32-bit output ("pcg32"),
 * written here from M. E. O'Neill, "PCG: A Family of Simple Fast
 * Space-Efficient Statistically Good Algorithms for Random Number Generation"
 * (2014): a 64-bit LCG (multiplier 6364136223846793005, odd increment chosen
 * by the stream) whose old state is permuted into the output by an xorshift
 * and a data-dependent rotation.  Seeding, bounded draws and jump-ahead follow
 * the reference's pcg32_srandom_r, pcg32_boundedrand_r and the LCG advance
 * by repeated squaring, so a struct rng seeded with (42, 54) prints exactly
 * what the reference pcg32-demo prints (tests/unit/test_rng.c checks all five
 * rounds).  Everything is 64-bit integer arithmetic: identical on every
 * machine.
 *
 * Streams.  Every stochastic source (a model, a target) owns its own stream,
 * derived from (scenario seed, Monte Carlo trial, source id) by rng_stream(),
 * so that a what-if change in one place does not shift the draws anywhere
 * else (common random numbers).
 *
 * GSL.  GSL's samplers (gsl_ran_*) draw from a gsl_rng; rng_gsl_type is a
 * gsl_rng_type whose state *is* a struct rng, so a gsl_rng built on it draws
 * the PCG32 sequence.  This header therefore includes <gsl/gsl_rng.h>: the
 * samplers need a gsl_rng, and GSL declares gsl_rng as an anonymous struct,
 * which cannot be forward-declared.
 */

#include <stdint.h>

#include <gsl/gsl_rng.h>

/*
 * One PCG32 generator.  Invariant: @inc is odd (the LCG's increment; it
 * selects one of 2^63 streams).  @state is the LCG state; any value is valid.
 * Plain data: copy it to fork a stream, compare it to check two streams are
 * at the same point.
 */
struct rng {
	uint64_t state; /* LCG state; the next output is a permutation of it */
	uint64_t inc;   /* LCG increment, always odd: 2 * stream selector + 1 */
};

/*
 * rng_gsl_init() - configure GSL for this program: call first thing in main()
 * (and in every test program), before any other GSL call.
 * Turns GSL's error handler off (by default GSL aborts the process on any
 * domain or range error); GSL functions then report errors through their
 * return values (NaN, GSL_E* codes), which the callers check.
 * Never calls gsl_rng_env_setup(): nothing here reads the environment.
 * Errors:  cannot fail.  Idempotent.
 */
void rng_gsl_init(void);

/*
 * rng_seed() - seed @r exactly as the reference pcg32_srandom_r() does.
 * @r:         generator to fill (caller-owned).
 * @initstate: starting state; any value.
 * @initseq:   stream selector; any value (its top bit is dropped: the
 *             increment is 2 * @initseq + 1).
 * Errors:  cannot fail.
 */
void rng_seed(struct rng *r, uint64_t initstate, uint64_t initseq);

/*
 * rng_stream() - seed @out with the independent stream of one stochastic
 * source in one trial.
 * @out:       generator to fill (caller-owned).
 * @seed:      scenario seed.
 * @trial:     Monte Carlo trial index (0 for a single run).
 * @source_id: NUL-terminated name of the source, e.g.
 *             "ws/default/demo-dev/plan"; borrowed, not kept.  Bytes are
 *             hashed as they are (no normalisation): "a/b" and "a//b" differ.
 * Derivation (fixed: changing it changes every seeded result):
 *     h  = FNV-1a 64 of the bytes of @source_id (offset basis
 *          0xcbf29ce484222325, prime 0x100000001b3);
 *     k  = mix(mix(mix(@seed ^ 0x9e3779b97f4a7c15) ^ h) ^ @trial);
 *     initstate = mix(k + 0x9e3779b97f4a7c15);
 *     initseq   = mix(k + 2 * 0x9e3779b97f4a7c15);
 *     rng_seed(@out, initstate, initseq);
 * where mix() is the SplitMix64 output function (z ^= z >> 30;
 * z *= 0xbf58476d1ce4e5b9; z ^= z >> 27; z *= 0x94d049bb133111eb;
 * z ^= z >> 31), a bijection on 64 bits, all arithmetic modulo 2^64.  Each
 * step is a bijection in the value folded in, so two trials of one source,
 * or two seeds, never share a key; two ids share one only if their FNV-1a
 * hashes collide.
 * Errors:  cannot fail.
 */
void rng_stream(struct rng *out, uint64_t seed, uint64_t trial, const char *source_id);

/*
 * rng_next_u32() - the next output of @r, uniform over 0..2^32-1.
 * Errors:  cannot fail.  Cost: O(1).
 */
uint32_t rng_next_u32(struct rng *r);

/*
 * rng_bounded_u32() - uniform integer in [0, @bound), without modulo bias.
 * @bound: number of outcomes, >= 1 (0 is a caller bug: asserted).
 * Method: the reference's rejection: outputs below 2^32 mod @bound are
 * discarded and the first accepted output is reduced modulo @bound, so it
 * consumes one draw almost always and matches pcg32_boundedrand_r draw for
 * draw.
 * Errors:  cannot fail.  Cost: O(1) expected (at most 2 draws on average).
 */
uint32_t rng_bounded_u32(struct rng *r, uint32_t bound);

/*
 * rng_uniform01() - uniform double in [0, 1) with 53 random bits.
 * Takes two draws, a then b: returns (((a << 32) | b) >> 11) * 2^-53, so the
 * result is a multiple of 2^-53 between 0 and 1 - 2^-53.  The GSL adapter's
 * get_double is this function.
 * Errors:  cannot fail.
 */
double rng_uniform01(struct rng *r);

/*
 * rng_advance() - jump @r ahead by @delta draws in O(log @delta), as if
 * rng_next_u32() had been called @delta times (results discarded).
 * @delta: number of steps modulo 2^64; to step back n draws pass
 *         (uint64_t)0 - n (the LCG has period 2^64).
 * Errors:  cannot fail.
 */
void rng_advance(struct rng *r, uint64_t delta);

/*
 * rng_gsl_type - GSL generator type over struct rng.
 * Its state is a struct rng; get is rng_next_u32() (min 0, max 2^32-1) and
 * get_double is rng_uniform01() (two draws, in [0, 1)).  gsl_rng_set(g, s)
 * seeds with rng_seed(state, s, 0).  Prefer rng_gsl_new() over
 * gsl_rng_alloc(rng_gsl_type).
 */
extern const gsl_rng_type *const rng_gsl_type;

/*
 * rng_gsl_new() - a new gsl_rng drawing the stream rng_stream(@seed, @trial,
 * @source_id) would seed.
 * Returns: a new generator; caller frees with gsl_rng_free() (accepts NULL).
 * Errors:  aborts on out-of-memory, like xmalloc().
 */
gsl_rng *rng_gsl_new(uint64_t seed, uint64_t trial, const char *source_id);

/*
 * rng_gsl_new_from() - a new gsl_rng starting where @r stands; the two then
 * advance independently (@r is copied, not shared).
 * Returns: a new generator; caller frees with gsl_rng_free().
 * Errors:  aborts on out-of-memory.
 */
gsl_rng *rng_gsl_new_from(const struct rng *r);

/*
 * rng_gsl_wrap() - make the caller-owned @g a GSL view of the stream @r,
 * without allocating: draws through @g advance @r itself.
 * @g: filled in; never pass it to gsl_rng_free() (it owns nothing).
 * @r: borrowed; must outlive every use of @g.
 * Errors:  cannot fail.
 */
void rng_gsl_wrap(gsl_rng *g, struct rng *r);

/*
 * rng_gsl_state() - the PCG32 stream inside @g.
 * @g: a generator of type rng_gsl_type (asserted).
 * Returns: a borrowed pointer, valid as long as @g (for a wrapped @g, the
 *          struct rng it wraps).
 */
struct rng *rng_gsl_state(const gsl_rng *g);

#endif
