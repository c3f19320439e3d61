/*
 * fairway-top: where fairway's time goes, client by client, live, and a
 * hand on each client's base priority. It speaks only
 * fairway-scheduler-unstable-v1 (protocol/), so it needs fairway's uid or
 * root: fairway shows the manager to nobody else.
 */
#include "clients/tools/fairway-top/model.h"
#include "clients/tools/fairway-top/output.h"
#include "clients/tools/fairway-top/screen.h"
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SETS 16

struct priority_set {
	pid_t pid;
	int value;
};

struct options {
	bool batch, json;
	unsigned long count; /* refreshes, 0: until stopped */
	unsigned long interval_ms;
	enum top_sort sort;
	struct priority_set sets[MAX_SETS];
	size_t set_count;
};

static void usage(FILE *out, const char *prog) {
	fprintf(out,
			"usage: %s [--batch [--json]] [--count N] [--interval MS]\n"
			"       [--sort KEY] [--set-priority PID=N]...\n"
			"\n"
			"Shows fairway's clients and what the scheduler gives each, "
			"refreshed\n"
			"every second, through fairway-scheduler-unstable-v1.\n"
			"\n"
			"  -b, --batch            print refreshes to stdout, no screen\n"
			"  -j, --json             with --batch: each refresh is one "
			"JSON array\n"
			"  -n, --count N          stop after N refreshes (0: never; "
			"default 0)\n"
			"  -i, --interval MS      refresh every MS ms, at least 100 "
			"(default 1000)\n"
			"  -s, --sort KEY         dispatch, rate, queue, class or "
			"priority\n"
			"  -p, --set-priority PID=N\n"
			"                         set the base priority of PID's "
			"connections\n"
			"                         to N in [-20, 20] first "
			"(repeatable)\n"
			"  -h, --help             show this help\n"
			"\n"
			"Keys: +/- raise or lower the selected client's base priority, "
			"up/down\n"
			"or j/k select, 1-5 or s sort, f or space freeze, q quit.\n",
			prog);
}

static void bad_usage(const char *prog, const char *why, const char *arg) {
	fprintf(stderr, "%s: %s%s%s\n", prog, why, arg != NULL ? ": " : "",
			arg != NULL ? arg : "");
	usage(stderr, prog);
	exit(2);
}

static bool parse_ulong(const char *text, unsigned long *value) {
	char *end;
	if (text[0] < '0' || text[0] > '9') {
		return false;
	}
	*value = strtoul(text, &end, 10);
	return *end == '\0' && *value < INT_MAX;
}

static bool parse_set(const char *text, struct priority_set *set) {
	char *end;
	long pid = strtol(text, &end, 10);
	if (end == text || *end != '=' || pid <= 0 || pid > INT_MAX) {
		return false;
	}
	const char *value_text = end + 1;
	long value = strtol(value_text, &end, 10);
	if (end == value_text || *end != '\0' || value < -20 || value > 20) {
		return false;
	}
	*set = (struct priority_set){.pid = (pid_t)pid, .value = (int)value};
	return true;
}

static void parse_options(struct options *opts, int argc, char **argv) {
	static const struct option long_options[] = {
			{"batch", no_argument, NULL, 'b'},
			{"json", no_argument, NULL, 'j'},
			{"count", required_argument, NULL, 'n'},
			{"interval", required_argument, NULL, 'i'},
			{"sort", required_argument, NULL, 's'},
			{"set-priority", required_argument, NULL, 'p'},
			{"help", no_argument, NULL, 'h'},
			{0},
	};
	const char *prog = argv[0];
	*opts = (struct options){.interval_ms = 1000};
	int opt;
	opterr = 0;
	while ((opt = getopt_long(
					argc, argv, ":bjn:i:s:p:h", long_options, NULL)) != -1) {
		switch (opt) {
		case 'b':
			opts->batch = true;
			break;
		case 'j':
			opts->json = true;
			break;
		case 'n':
			if (!parse_ulong(optarg, &opts->count)) {
				bad_usage(prog, "--count needs a number", optarg);
			}
			break;
		case 'i':
			if (!parse_ulong(optarg, &opts->interval_ms) ||
					opts->interval_ms < 100) {
				bad_usage(prog, "--interval needs a number of ms, 100 or more",
						optarg);
			}
			break;
		case 's': {
			int found = -1;
			for (int i = 0; i < TOP_SORT_COUNT; i++) {
				if (strcmp(optarg, top_sort_name(i)) == 0) {
					found = i;
				}
			}
			if (found < 0) {
				bad_usage(prog, "unknown sort key", optarg);
			}
			opts->sort = (enum top_sort)found;
			break;
		}
		case 'p':
			if (opts->set_count == MAX_SETS) {
				bad_usage(prog, "too many --set-priority", NULL);
			}
			if (!parse_set(optarg, &opts->sets[opts->set_count++])) {
				bad_usage(prog, "--set-priority needs PID=N, N in [-20, 20]",
						optarg);
			}
			break;
		case 'h':
			usage(stdout, prog);
			exit(0);
		case ':':
			bad_usage(prog, "missing value for", argv[optind - 1]);
			break;
		default:
			bad_usage(prog, "unknown option", argv[optind - 1]);
			break;
		}
	}
	if (optind < argc) {
		bad_usage(prog, "unexpected argument", argv[optind]);
	}
	if (opts->json && !opts->batch) {
		bad_usage(prog, "--json goes with --batch", NULL);
	}
}

static bool apply_sets(struct top_model *model, const struct options *opts) {
	for (size_t i = 0; i < opts->set_count; i++) {
		const struct priority_set *set = &opts->sets[i];
		if (top_model_set_pid_priority(model, set->pid, set->value) == 0) {
			fprintf(stderr, "%s: no client of pid %d is connected\n",
					model->prog, (int)set->pid);
			return false;
		}
	}
	return opts->set_count == 0 || wl_display_roundtrip(model->display) >= 0;
}

/* A refresh comes with each round after the first: rates need two. */
static int run_batch(struct top_model *model, const struct options *opts) {
	unsigned shown = 0, seen = model->rounds;
	while (opts->count == 0 || shown < opts->count) {
		if (!top_model_dispatch(model, -1, NULL)) {
			return 1;
		}
		if (model->rounds == seen) {
			continue;
		}
		seen = model->rounds;
		if (seen < 2) {
			continue;
		}
		size_t count;
		struct top_client **rows = top_model_sorted(model, opts->sort, &count);
		if (rows == NULL) {
			return 1;
		}
		shown++;
		if (opts->json) {
			top_print_json(stdout, rows, count);
		} else {
			top_print_table(stdout, rows, count, shown);
		}
		free(rows);
	}
	return 0;
}

static int run_screen(struct top_model *model, const struct options *opts) {
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "%s: no terminal; use --batch\n", model->prog);
		return 1;
	}
	struct top_screen screen;
	if (!top_screen_init(&screen)) {
		fprintf(stderr, "%s: cannot set up the terminal\n", model->prog);
		return 1;
	}
	screen.sort = opts->sort;
	unsigned shown = 0, seen = model->rounds;
	int status = 0;
	top_screen_update(&screen, model);
	while (opts->count == 0 || shown < opts->count) {
		bool keys = false;
		if (!top_model_dispatch(model, STDIN_FILENO, &keys)) {
			status = 1;
			break;
		}
		if (keys && !top_screen_keys(&screen, model)) {
			break;
		}
		if (model->rounds != seen) {
			seen = model->rounds;
			shown += seen >= 2;
			top_screen_update(&screen, model);
		}
	}
	top_screen_finish(&screen);
	return status;
}

int main(int argc, char **argv) {
	struct options opts;
	parse_options(&opts, argc, argv);
	struct top_model model;
	const char *prog = "fairway-top";
	if (!top_model_init(&model, prog, (uint32_t)opts.interval_ms)) {
		top_model_finish(&model);
		return 1;
	}
	int status = 1;
	if (apply_sets(&model, &opts)) {
		status = opts.batch ? run_batch(&model, &opts)
							: run_screen(&model, &opts);
	}
	top_model_finish(&model);
	return status;
}
