#ifndef MAGOS_CLI_PROGRESS_H
#define MAGOS_CLI_PROGRESS_H

/*
 * The progress line of long work on standard error: trials, sets of trials,
 * scenarios, files, bytes loaded, simulated time.  One line, redrawn in
 * place ("\r...\033[K") at most 10 times a second, first drawn once the work
 * has taken 0.5 s (short work prints nothing), with a rate and an estimate
 * of the time left, and erased by prog_clear() before anything else is
 * printed, or by the signal handler of sim/cli/interrupt.h when SIGINT,
 * SIGTERM or SIGHUP ends the command half way (Ctrl-C leaves no half line
 * before the shell's prompt).
 *
 * MAGOS_PROGRESS_AFTER (seconds, default 0.5) moves the first drawing (the
 * tests set 0, so that they need no long work).
 *
 * Only on a terminal: on when standard error is a TTY, TERM is not "dumb",
 * CI is unset or empty (CI systems set it, and their logs would keep every
 * redraw), and the command was not asked to be quiet.  Off, every call is a
 * no-op.  Not thread-safe: call from one thread (the trial runner reports
 * from the thread that started the trials).
 */

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct prog {
	bool on;                     /* drawing at all */
	double after;                /* s of a phase before its first drawing */
	bool shown;                  /* a line is on the screen */
	struct timespec start, last; /* of this phase; of the last redraw */
	char label[96];              /* what is being done: "trials", "loading x.yaml" */
};

/* prog_init() - @p off when @quiet or not on a terminal (above), else on; no phase yet. */
void prog_init(struct prog *p, bool quiet);

/*
 * prog_start() - a new phase named @label (copied, cut to fit): its clock
 * starts now, and the 0.5 s before the first drawing starts over.
 */
void prog_start(struct prog *p, const char *label);

/* prog_count() - @done of @total @unit ("trials") done: a bar, the rate per second, the time left. */
void prog_count(struct prog *p, uint64_t done, uint64_t total, const char *unit);

/* prog_bytes() - @done of @total bytes read: a bar, MB/s, the time left. */
void prog_bytes(struct prog *p, uint64_t done, uint64_t total);

/*
 * prog_sim() - one run at simulated time @now_ms of @horizon_ms after
 * @events events: a bar over the horizon, events per second, and the time
 * left to the horizon as an upper bound ("ETA <= m:ss"; a run usually ends
 * earlier, when the change completes).
 */
void prog_sim(struct prog *p, int64_t now_ms, int64_t horizon_ms, uint64_t events);

/* prog_clear() - erases the line when one is shown. */
void prog_clear(struct prog *p);

/*
 * prog_trials_cb() - a callback for trials_opts.progress whose context is a
 * struct prog_trials: reports @done + @t->before of @t->total trials.
 */
struct prog_trials {
	struct prog *p;
	uint64_t before, total; /* trials of earlier sets; of all sets */
};
void prog_trials_cb(void *ctx, uint32_t done, uint32_t n);

#endif
