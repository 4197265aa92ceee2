#ifndef MAGOS_CLI_CMD_H
#define MAGOS_CLI_CMD_H

/*
 * The commands of magos-sim, one file each (sim/cli/run.c, sim/cli/check.c, ...),
 * and what they share: the program name, the exit-code help, the options
 * every command reads the same way, loading inputs with diagnostics, and
 * filling a report from a run.  Each command owns its getopt table; options
 * common to several commands are interpreted by cmd_opt_common() so that
 * they mean the same everywhere.
 */

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "reports/plan_text.h"
#include "reports/report.h"
#include "reports/variants_text.h"
#include "sim/base/limits.h"
#include "sim/cli/cli.h"
#include "sim/cli/progress.h"
#include "sim/run/run.h"
#include "sim/load/scenario.h"
#include "sim/plan/trials.h"

/* "magos-sim": the name used in messages. */
extern const char *const cmd_prog;

/* The "Exit codes:" block every usage text ends with. */
extern const char cmd_exit_codes_help[];

/* Option codes above any short option character. */
enum cmd_optcode {
	CMD_OPT_HORIZON = 256,
	CMD_OPT_JSON,
	CMD_OPT_COLOR,
	CMD_OPT_NO_COLOR,
	CMD_OPT_WIDTH,
	CMD_OPT_UNTIL,
	CMD_OPT_TIMELINE,
	CMD_OPT_LIMIT,
	CMD_OPT_NOW,
	CMD_OPT_FIRST_FREE = 512, /* commands number their own long options from here */
};

/* The long options with a shared meaning; commands copy the entries they accept. */
#define CMD_LONGOPT_SEED     { "seed", required_argument, NULL, 's' }
#define CMD_LONGOPT_HORIZON  { "horizon", required_argument, NULL, CMD_OPT_HORIZON }
#define CMD_LONGOPT_JSON     { "json", required_argument, NULL, CMD_OPT_JSON }
#define CMD_LONGOPT_QUIET    { "quiet", no_argument, NULL, 'q' }
#define CMD_LONGOPT_WIDTH    { "width", required_argument, NULL, CMD_OPT_WIDTH }
#define CMD_LONGOPT_UNTIL    { "until", required_argument, NULL, CMD_OPT_UNTIL }
#define CMD_LONGOPT_TIMELINE { "timeline", required_argument, NULL, CMD_OPT_TIMELINE }
#define CMD_LONGOPT_COLOR    { "color", required_argument, NULL, CMD_OPT_COLOR }
#define CMD_LONGOPT_NO_COLOR { "no-color", no_argument, NULL, CMD_OPT_NO_COLOR }
#define CMD_LONGOPT_HELP     { "help", no_argument, NULL, 'h' }
#define CMD_LONGOPT_LIMIT    { "limit", required_argument, NULL, CMD_OPT_LIMIT }
#define CMD_LONGOPT_NOW      { "now", required_argument, NULL, CMD_OPT_NOW }

/* The help line of --limit, the same in every command. */
#define CMD_HELP_LIMIT \
	"      --limit NAME=N    set a bound on the input or the work (input-bytes,\n" \
	"                        documents, alias-nodes, errors, ...; docs/limits.md)\n"

/* Values of the shared options after parsing. */
struct cmd_opts {
	struct run_opts run;
	const char *json;   /* NULL, a path, or "-" for stdout */
	const char *color;  /* "auto" (default), "always" or "never" */
	bool quiet;
	unsigned width;     /* columns, 60..1000, default 80 */
	enum rep_timeline timeline;
	struct limits lim;  /* --limit NAME=N, else the defaults (sim/base/limits.h) */
	bool now_set;       /* --now: the wall-clock time of simulated time 0 */
	int64_t now_ms;     /* Unix ms */
};

/* cmd_opts_init() - the defaults: color auto, width 80, default limits, everything else unset. */
void cmd_opts_init(struct cmd_opts *o);

/* The single-valued options a command has seen so far (cmd_once()).  A zeroed struct is none. */
struct cmd_seen {
	int c[32]; /* getopt_long() codes */
	size_t n;
};

/*
 * cmd_once() - refuses an option that takes one value given a second time,
 * which would silently replace the first (`run --at 30m --at 40m`).
 * Options that add up (--limit, --max-regression, --disable) and flags may
 * repeat.  Call it with every getopt_long() result before acting on it.
 * @opts: the command's option table (names the option for the message).
 * @c:    the getopt_long() result.
 * @seen: the options seen so far, updated.
 * Returns: CLI_OK; or CLI_USAGE after printing "magos-sim CMD: --NAME given
 *          twice: ..." and the try line to stderr.
 */
int cmd_once(const char *cmd, const struct option *opts, int c, struct cmd_seen *seen);

/*
 * cmd_opt_common() - interprets one shared option returned by getopt_long().
 * @c:      the getopt_long() result ('s', 'q', 'h', ':', '?' or a CMD_OPT_* code).
 * @cmd:    the command name, for messages ("run").
 * @usage:  prints the command's help to the given stream (for -h).
 * @argv:   the command's argv (for naming the offending option).
 * Returns: -1 when the option was taken and parsing goes on; otherwise the
 *          exit code to return (CLI_OK after --help, CLI_USAGE after printing
 *          what was wrong to stderr).  An option code it does not know is a
 *          usage error naming the option: a command passes here only the
 *          codes it did not handle itself.
 */
int cmd_opt_common(int c, const char *cmd, void (*usage)(FILE *), char **argv,
		   struct cmd_opts *o);

/*
 * cmd_load() - loads @paths (@n of them) as one scenario into @s within the
 * bounds @lim (also the number of errors printed) and prints the
 * diagnostics (warnings of a good load too) to stderr, coloured when
 * @color.  @s is initialised whatever happens; release it with scn_release().
 * A scenario that loads is also checked for what `check` refuses in its
 * spec.expect (exp_parse(): an unknown metric, a step no Rollout has, a bad
 * limit), with the same diagnostics, printed before the loader's warnings
 * as `check` prints them; the expectations are not evaluated.  Its
 * variants are checked too (var_check(): every one parses and applies),
 * their errors printed after the loader's, whatever spec.expect's.
 * @p: the progress line (bytes parsed of each file), or NULL.
 * Returns: 0, or CLI_INVALID when an error was found (in spec.expect or
 *          spec.variants too).
 */
int cmd_load(char *const *paths, size_t n, const struct limits *lim, struct scenario *s,
	     bool color, struct prog *p);

/*
 * cmd_resume_horizon() - --horizon (@o) on the Scenario's clock, as
 * spec.horizon: for a run resumed from a snapshot of the simulator
 * (@s->resumed) it counts from the original run's start, so it ends the
 * run where it would have ended the uninterrupted one.  Sets @s's horizon
 * (scn_set_horizon()) and o->run.horizon_ms to what is left of it, this
 * run's own length.  A resumed run whose horizon (--horizon, else
 * spec.horizon) ends at or before the snapshot has no simulated time left
 * and is refused.  Call once the clock is final (after --now).  @cmd names
 * the command in the message.
 * Returns: CLI_OK; or CLI_USAGE after printing what the horizon was, when
 *          the snapshot was taken and how to run on, to stderr.
 */
int cmd_resume_horizon(const char *cmd, struct cmd_opts *o, struct scenario *s);

/*
 * cmd_resume_horizon_refusal() - why cmd_resume_horizon() refuses @s with
 * the options @o (a resumed run whose horizon ends at or before the
 * snapshot), without the command's name: a new string the caller frees;
 * NULL when it does not refuse.  For `check`, which reports it as the
 * scenario's failed result as well.
 */
char *cmd_resume_horizon_refusal(const struct cmd_opts *o, const struct scenario *s);

/*
 * cmd_clock() - the clock options of @o on scenario @s, once loaded: --now
 * (scn_set_clock()), then --horizon and a resumed run's horizon
 * (cmd_resume_horizon()); the warnings about the clock
 * (scn_warn_later_times(), scn_warn_other_run() with the run's seed) into
 * @d.  @o->run.horizon_ms becomes @s's own length: give each scenario its
 * own copy of the options.
 * Returns: CLI_OK, or CLI_USAGE after printing why to stderr.
 */
int cmd_clock(const char *cmd, struct cmd_opts *o, struct scenario *s, struct diag *d);

/*
 * cmd_building() - names what the main thread builds from now on, for the
 * out-of-memory message (engine/xalloc.h's xalloc_what()): printf-style,
 * kept in a static buffer.  Main thread only.
 */
void cmd_building(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * cmd_loading() - from now on YAML loading reports to @p under @label
 * ("loading"; copied) the bytes parsed of the file being read;
 * cmd_loading(NULL, NULL) stops it and clears the line.  For the commands
 * that load through the library directly (check, lint).
 */
void cmd_loading(struct prog *p, const char *label);

/* cmd_run_tick() - a run_opts.tick for a struct cmd_tick: the simulated time of one run. */
struct cmd_tick {
	struct prog *p;
	int64_t horizon_ms;
};
void cmd_run_tick(void *ctx, int64_t now_ms, uint64_t events);

/*
 * cmd_fill_rep() - points @rep at the scenario @s and the run @r (borrowed;
 * both must outlive @rep) and sums the Job capacity figures.
 */
void cmd_fill_rep(struct rep_run *rep, const struct scenario *s, const struct run_result *r);

/*
 * Output files, all or nothing (sim/cli/outfile.h).  A command checks every
 * path it will write before any work (cmd_check_outputs()), writes each
 * output to a temporary (cmd_write_file()), then renames them all or none
 * (cmd_outputs_done()), and only then prints its terminal report.
 */

/*
 * cmd_distinct_outputs() - the usage checks of a command's output files,
 * made before anything else of them: none of the @n @paths (NULL entries
 * skipped) may be empty, no two may be standard output ("-"), and no two
 * may name one file, by name ("./r.json" and "r.json") or by device and
 * inode (a symlink and its target, a hard link): one output would silently
 * replace the other.  @opts names each path's option ("--json").
 * Returns: CLI_OK; or CLI_USAGE after printing "magos-sim CMD: --A and --B
 *          both write to 'PATH': give each its own file" (or "--A - and
 *          --B - both write to stdout: give one a file", or "--A needs a
 *          file name, not an empty one") and the try line to stderr.
 */
int cmd_distinct_outputs(const char *cmd, const char *const *opts, const char *const *paths,
			 size_t n);

/*
 * cmd_check_outputs() - of_check() of each of the @n @paths (NULL entries
 * skipped); @what names each for the message (NULL: none), as for
 * cmd_write_file().  An output that is one of the @ninputs @inputs (the
 * command's file arguments), or a file directly inside one of them that is a
 * directory, is refused first: the same file by device and inode, so
 * `run --json x.yaml x.yaml` or `check --junit` naming one of the globbed scenarios cannot replace an
 * input with a report.  The files a Scenario includes are known only after
 * its load: cmd_outputs_not_read() checks them.
 * Returns: CLI_OK; CLI_USAGE after printing "magos-sim CMD: [WHAT ]'PATH'
 * is also an input: ..."; or CLI_IO after printing "magos-sim CMD: cannot
 * write [WHAT ]'PATH': REASON".
 */
int cmd_check_outputs(const char *cmd, const char *const *paths, const char *const *what,
		      size_t n, char *const *inputs, size_t ninputs);

/*
 * cmd_outputs_not_read() - the check of cmd_check_outputs() against every
 * file the load of @s read (s->files: the scenario file, the files of its
 * spec.include, a directory's files), known only after the load and before
 * anything is written: an output that is one of them (by device and inode)
 * would replace an input with a report.  @paths, @what, @n as for
 * cmd_check_outputs().
 * Returns: CLI_OK, or CLI_USAGE after printing "magos-sim CMD: [WHAT ]'PATH'
 *          is also an input (FILE, read by the load): ...".
 */
int cmd_outputs_not_read(const char *cmd, const char *const *paths, const char *const *what,
			 size_t n, const struct scenario *s);

/*
 * cmd_write_file() - writes @write(f, @arg)'s output to a temporary beside
 * @path, renamed over it by cmd_outputs_done(); a stream ("-", a device or
 * FIFO) is written then, so @arg must live until then.
 * @cmd:   the command name for the message ("run").
 * @what:  what the file is ("JUnit report"), or NULL.
 * Returns: CLI_OK, or CLI_IO after printing
 *          "magos-sim CMD: cannot write [WHAT ]'PATH': REASON" to stderr
 *          (every temporary of the command is then removed).
 */
int cmd_write_file(const char *cmd, const char *what, const char *path,
		   int (*write)(FILE *f, const void *arg), const void *arg);

/*
 * cmd_append_file() - as cmd_write_file(), but @path is appended to (made
 * when it does not exist) by cmd_outputs_done(), not replaced: for
 * $GITHUB_STEP_SUMMARY, which every step of a job adds to.  Nothing is
 * written before then; the append is taken back if the rest fails.
 * Returns: CLI_OK, or CLI_IO after printing
 *          "magos-sim CMD: cannot write [WHAT ]'PATH': REASON" to stderr.
 */
int cmd_append_file(const char *cmd, const char *what, const char *path,
		    int (*write)(FILE *f, const void *arg), const void *arg);

/*
 * cmd_outputs_done() - with @rc CLI_OK, writes the streams and the appends
 * and renames every temporary of cmd_write_file() over its file, all or
 * none; otherwise removes the temporaries.
 * Returns: @rc, or CLI_IO after printing "magos-sim CMD: cannot write
 *          'PATH': REASON; no output file was replaced".
 */
int cmd_outputs_done(const char *cmd, int rc);

/*
 * cmd_outputs_stdout() - whether an output of cmd_write_file() was "-": the
 * document is then what standard output holds, so the command prints no
 * terminal report after it (README: "-" outputs are streams that replace
 * the report).
 */
bool cmd_outputs_stdout(void);

/* cmd_outputs_abort() - removes every temporary not committed (main()'s safety net). */
void cmd_outputs_abort(void);

/*
 * Writers for cmd_write_file() that run and merge share: merge prints from
 * the merged partials exactly what run prints from its trials, so both hand
 * the same writer the same argument.  Each writes one document to @f from
 * @arg (borrowed; its type is named below).
 * Returns: 0, or -1 when a write failed (errno set).
 */

/* cmd_put_plan_json() - the trials JSON (rep_plan_json()) of @arg, a struct rep_plan. */
int cmd_put_plan_json(FILE *f, const void *arg);

/* The rows cmd_put_rows_csv() writes: @n trial rows in index order (borrowed). */
struct cmd_csv_rows {
	const struct trial_row *rows;
	size_t n;
};

/* cmd_put_rows_csv() - one CSV row per trial (rep_plan_csv()) of @arg, a struct cmd_csv_rows. */
int cmd_put_rows_csv(FILE *f, const void *arg);

/* What a what-if report writes: the base, then @nv variants and @ns sweep values (all borrowed). */
struct cmd_whatif_out {
	const struct rep_plan *rp;   /* the base: its trials and statistics */
	const struct rep_variant *v; /* nv variants, then ns sweep values */
	size_t nv, ns;
	const char *param;           /* the swept parameter, NULL without a sweep */
	const struct trial_row *const *vrows; /* each variant's rp->n rows, for the CSV; or NULL */
};

/*
 * cmd_put_whatif_json() - the trials JSON with its `variants` array
 * (rep_plan_json_variants()) of @arg, a struct cmd_whatif_out: the base and
 * the nv + ns variants and sweep values.
 */
int cmd_put_whatif_json(FILE *f, const void *arg);

/*
 * cmd_put_variants_csv() - one CSV row per trial of the base and of each of
 * the nv variants, with a last column naming the set (rep_variants_csv())
 * of @arg, a struct cmd_whatif_out whose vrows are set.
 */
int cmd_put_variants_csv(FILE *f, const void *arg);

/*
 * cmd_put_sweep_csv() - one CSV row per sweep value (rep_sweep_csv()) of
 * @arg, a struct cmd_whatif_out.
 */
int cmd_put_sweep_csv(FILE *f, const void *arg);

/* The commands: argv[0] is the command name.  Return an exit code (enum cli_exit). */
/*
 * cmd_over_total_events() - says on stderr (one line) that the trials of
 * @cmd stopped at `--limit total-events` (@max events): which trial passed
 * it (@ov), and what asked for that many: @trials_key ("-n 1000000",
 * "spec.expect.trials: 100000") and the per-run budget of @s.
 */
void cmd_over_total_events(const char *cmd, const struct scenario *s, const struct trials_over *ov,
			   uint64_t max, const char *trials_key);

int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_lint(int argc, char **argv);
int cmd_compare(int argc, char **argv);

/* Their help texts, for `magos-sim help COMMAND` and -h. */
void cmd_usage_run(FILE *f);
void cmd_usage_check(FILE *f);
void cmd_usage_lint(FILE *f);
void cmd_usage_compare(FILE *f);

/*
 * Their long options: the table each command hands to getopt_long(), ending
 * in an all-zero entry.  These and merge's (compare.h) are what
 * cmd_opt_common() reads to tell an option of another command ("does not
 * apply to this command") from an unknown one.
 */
extern const struct option cmd_run_longopts[];
extern const struct option cmd_check_longopts[];
extern const struct option cmd_lint_longopts[];
extern const struct option cmd_compare_longopts[];

#endif
