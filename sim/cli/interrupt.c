/* SIGINT, SIGTERM and SIGHUP: one handler for the cleanups (see interrupt.h). */
/* sigaction's SA_RESETHAND is XSI. */
#define _XOPEN_SOURCE 700

#include "sim/cli/interrupt.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define CLEANUPS_MAX 8

/* Atomic slots: the handler may read them on any thread while one is filled. */
static void (*_Atomic cleanups[CLEANUPS_MAX])(void);

static void on_signal(int sig)
{
	for (size_t i = 0; i < CLEANUPS_MAX; i++) {
		void (*fn)(void) = atomic_load(&cleanups[i]);

		if (fn)
			fn();
	}
	/* SA_RESETHAND restored the default action: die of the signal, as without us. */
	raise(sig);
}

static void install(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction sa, old;

		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sa.sa_flags = SA_RESETHAND;
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}

void intr_at_signal(void (*fn)(void))
{
	for (size_t i = 0; i < CLEANUPS_MAX; i++) {
		void (*cur)(void) = atomic_load(&cleanups[i]);

		if (cur == fn)
			return;
		if (!cur) {
			atomic_store(&cleanups[i], fn);
			/* (the first cleanup installs the handler, once it has something to run) */
			if (i == 0)
				install();
			return;
		}
	}
	abort(); /* a command has a handful of cleanups: running out of slots is a bug */
}
