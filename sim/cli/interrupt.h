#ifndef MAGOS_CLI_INTERRUPT_H
#define MAGOS_CLI_INTERRUPT_H

/*
 * What a command undoes when SIGINT, SIGTERM or SIGHUP ends it (Ctrl-C, a
 * kill, a closed terminal): the temporaries of its output files
 * (sim/cli/outfile.h) and the progress line on the terminal
 * (sim/cli/progress.h).  One handler serves them all, so that neither
 * replaces the other's: it runs every cleanup registered, in the order
 * registered, then the process dies of the signal, as it would have without
 * it (SA_RESETHAND restores the default action and the signal is raised
 * again).  A signal the shell ignores (a background job's SIGINT) stays
 * ignored.
 */

/*
 * intr_at_signal() - runs @fn in the signal handler when one of those
 * signals arrives; the first call installs the handler.  Registering the
 * same @fn again does nothing.  @fn runs on whichever thread takes the
 * signal, at any point of the others' work: it must be async-signal-safe
 * (write(2), unlink(2), atomics and sig_atomic_t flags only).  At most 8
 * cleanups: more is a programming error and aborts.
 */
void intr_at_signal(void (*fn)(void));

#endif
