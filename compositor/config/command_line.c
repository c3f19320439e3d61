#include "compositor/config/command_line.h"
#include "compositor/config/config.h"
#include "scheduler/parse_number.h"
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
		"Usage: fairway [options] [-- COMMAND [ARGS...]]\n"
		"\n"
		"  --backend auto|drm|wayland|x11|headless  backend (default auto)\n"
		"  --socket NAME        Wayland socket name (default: first free wayland-N)\n"
		"  --outputs N          headless outputs to create (default 1)\n"
		"  --output-size WxH    headless output size (default 1280x720)\n"
		"  --scheduler on|off   fair client scheduler (default on)\n"
		"  --gate-transport auto|memory|socketpair  how the scheduler feeds\n"
		"                       libwayland: from memory where its calls reach\n"
		"                       fairway, else through socketpairs (default\n"
		"                       auto: memory where a self-test passes)\n"
		"  --sched-interval MS  scheduler time slice (default 2)\n"
		"  --sched-max-slice MS longest slice of a lone client (default 6)\n"
		"  --stats FILE         write each client's scheduler statistics there,\n"
		"                       a JSON line per client per second (SIGUSR1\n"
		"                       logs them too); past 16 MiB FILE is moved to\n"
		"                       FILE.1 and begun again\n"
		"  --trace FILE         write a protocol trace there: every request,\n"
		"                       forwarded batch and event, timed, and each\n"
		"                       surface's first frame (fairway-trace-summary\n"
		"                       reads it); past 256 MiB FILE is moved to\n"
		"                       FILE.1 and begun again\n"
		"  --frame-schedule auto|off  auto (the default) sends each frame done\n"
		"                       ahead of the output's paint deadline by the\n"
		"                       client's measured draw time, so that what it\n"
		"                       draws then is shown at that frame; off paints\n"
		"                       on each frame event and sends every frame done\n"
		"                       after the paint\n"
		"  --render direct|scene  how outputs are painted: direct paints each\n"
		"                       damaged pixel once, with pixman; scene is\n"
		"                       wlr_scene's own pass (default direct)\n"
		"  --paint-thread on|off  with the pixman renderer, paint outputs on a\n"
		"                       thread of their own while clients are served\n"
		"                       (default on)\n"
		"  --no-xwayland        do not start XWayland\n"
		"  --screenshots-while-locked  let screencopy and export-dmabuf\n"
		"                       capture the lock screen (tests of what a\n"
		"                       lock shows); the clipboard stays closed\n"
		"  --demo               start demo clients and print a periodic report\n"
		"  --hints off|dry-run|on  kernel scheduling hints for clients from\n"
		"                       their output and input (default on; dry-run\n"
		"                       logs each change instead, at -V)\n"
		"  --hint-map CLASS:KEY=VALUE,...  change a class's hint, CLASS is\n"
		"                       interactive|output|background|idle, KEYs\n"
		"                       policy=other|batch|idle nice=N|keep slice_us=N\n"
		"                       uclamp_min=N, or CLASS:keep\n"
		"  --restore-hints      restore what a crashed fairway left and exit\n"
		"  --raise-priority on|off|rr|auto  run fairway's main thread at\n"
		"                       nice -10 (rr: SCHED_RR; auto: SCHED_RR while\n"
		"                       other programs contend the CPU) where privilege\n"
		"                       allows, not inherited by children (default auto)\n"
		"  --config FILE        read this configuration file (default:\n"
		"                       $XDG_CONFIG_HOME/fairway/config, else\n"
		"                       " FW_SYSCONFDIR
		"/fairway/config); see fairway(5)\n"
		"  --check-config [FILE]  report every error in the configuration\n"
		"                       file as FILE:LINE: message, exit 1 if any\n"
		"  -d                   debug log\n"
		"  -V                   verbose (info) log\n"
		"  -v                   print version and exit\n"
		"  -h                   print this help and exit\n"
		"\n"
		"With COMMAND, fairway runs it once ready and exits with its status.\n"
		"SIGHUP reloads the configuration file.\n";

static int usage_error(const char *what, const char *arg) {
	fprintf(stderr, "fairway: %s: %s\n", what, arg);
	fputs(usage_text, stderr);
	return 2;
}

/* A duration in milliseconds, 0.05 to 1000. */
static bool parse_ms(const char *text, double *out) {
	return sched_parse_double(text, 0.05, 1000, out);
}

/* A flag with two values: yes sets *out, no clears it. */
static bool parse_switch(
		const char *text, const char *yes, const char *no, bool *out) {
	if (strcmp(text, yes) == 0) {
		*out = true;
	} else if (strcmp(text, no) == 0) {
		*out = false;
	} else {
		return false;
	}
	return true;
}

static bool parse_size(const char *text, int *width, int *height) {
	const char *x = strchr(text, 'x');
	if (x == NULL || x == text || strlen(x + 1) == 0) {
		return false;
	}
	char buf[32];
	size_t len = (size_t)(x - text);
	if (len >= sizeof(buf)) {
		return false;
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	return sched_parse_int(buf, 1, 16384, width) &&
			sched_parse_int(x + 1, 1, 16384, height);
}

/* Which of names text is: its index, or -1. */
static int parse_choice(
		const char *text, const char *const *names, size_t count) {
	for (size_t i = 0; i < count; i++) {
		if (strcmp(text, names[i]) == 0) {
			return (int)i;
		}
	}
	return -1;
}

static const char *const backend_names[] = {
		[FW_BACKEND_AUTO] = "auto",
		[FW_BACKEND_DRM] = "drm",
		[FW_BACKEND_WAYLAND] = "wayland",
		[FW_BACKEND_X11] = "x11",
		[FW_BACKEND_HEADLESS] = "headless",
};

static const char *const transport_names[] = {
		[GATE_TRANSPORT_AUTO] = "auto",
		[GATE_TRANSPORT_MEMORY] = "memory",
		[GATE_TRANSPORT_SOCKETPAIR] = "socketpair",
};

#define NAMES(array) array, sizeof(array) / sizeof(array[0])

enum {
	OPT_BACKEND = 256,
	OPT_SOCKET,
	OPT_OUTPUTS,
	OPT_OUTPUT_SIZE,
	OPT_SCHEDULER,
	OPT_GATE_TRANSPORT,
	OPT_SCHED_INTERVAL,
	OPT_SCHED_MAX_SLICE,
	OPT_STATS,
	OPT_TRACE,
	OPT_NO_XWAYLAND,
	OPT_SCREENSHOTS_WHILE_LOCKED,
	OPT_DEMO,
	OPT_HINTS,
	OPT_HINT_MAP,
	OPT_RESTORE_HINTS,
	OPT_RENDER,
	OPT_CONFIG,
	OPT_CHECK_CONFIG,
	OPT_FRAME_SCHEDULE,
	OPT_RAISE_PRIORITY,
	OPT_PAINT_THREAD,
};

/* Which class a --hint-map value sets: its text before ':'. */
static void note_hint_class(struct fw_config *config, const char *text) {
	const char *colon = strchr(text, ':');
	for (int i = 0; colon != NULL && i < RATINGS_CLASS_COUNT; i++) {
		const char *name = ratings_class_name((enum ratings_class)i);
		if (strlen(name) == (size_t)(colon - text) &&
				strncmp(text, name, strlen(name)) == 0) {
			config->source.hint_map[i] = FW_CONFIG_FLAG;
		}
	}
}

int fw_command_line_parse(struct fw_config *config, int argc, char *argv[]) {
	fw_config_init(config);

	static const struct option long_options[] = {
			{"backend", required_argument, NULL, OPT_BACKEND},
			{"socket", required_argument, NULL, OPT_SOCKET},
			{"outputs", required_argument, NULL, OPT_OUTPUTS},
			{"output-size", required_argument, NULL, OPT_OUTPUT_SIZE},
			{"scheduler", required_argument, NULL, OPT_SCHEDULER},
			{"gate-transport", required_argument, NULL, OPT_GATE_TRANSPORT},
			{"sched-interval", required_argument, NULL, OPT_SCHED_INTERVAL},
			{"sched-max-slice", required_argument, NULL, OPT_SCHED_MAX_SLICE},
			{"stats", required_argument, NULL, OPT_STATS},
			{"trace", required_argument, NULL, OPT_TRACE},
			{"render", required_argument, NULL, OPT_RENDER},
			{"frame-schedule", required_argument, NULL, OPT_FRAME_SCHEDULE},
			{"no-xwayland", no_argument, NULL, OPT_NO_XWAYLAND},
			{"screenshots-while-locked", no_argument, NULL,
					OPT_SCREENSHOTS_WHILE_LOCKED},
			{"demo", no_argument, NULL, OPT_DEMO},
			{"hints", required_argument, NULL, OPT_HINTS},
			{"hint-map", required_argument, NULL, OPT_HINT_MAP},
			{"restore-hints", no_argument, NULL, OPT_RESTORE_HINTS},
			{"raise-priority", required_argument, NULL, OPT_RAISE_PRIORITY},
			{"paint-thread", required_argument, NULL, OPT_PAINT_THREAD},
			{"config", required_argument, NULL, OPT_CONFIG},
			{"check-config", optional_argument, NULL, OPT_CHECK_CONFIG},
			{"help", no_argument, NULL, 'h'},
			{"version", no_argument, NULL, 'v'},
			{0},
	};

	/* Reset getopt so that a harness may parse several times. */
	optind = 0;
	opterr = 0;
	int c, choice;
	/* '+' stops at the first non-option: COMMAND's own flags are its own. */
	while ((c = getopt_long(argc, argv, "+:dVvh", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_BACKEND:
			if ((choice = parse_choice(optarg, NAMES(backend_names))) < 0) {
				return usage_error("bad --backend value", optarg);
			}
			config->backend = (enum fw_backend_kind)choice;
			break;
		case OPT_SOCKET:
			if (optarg[0] == '\0' || strchr(optarg, '/') != NULL) {
				return usage_error("bad --socket value", optarg);
			}
			config->sched.socket = optarg;
			break;
		case OPT_OUTPUTS:
			if (!sched_parse_int(optarg, 1, 16, &config->outputs)) {
				return usage_error("bad --outputs value", optarg);
			}
			break;
		case OPT_OUTPUT_SIZE:
			if (!parse_size(optarg, &config->output_width,
						&config->output_height)) {
				return usage_error("bad --output-size value", optarg);
			}
			break;
		case OPT_SCHEDULER:
			if (!parse_switch(optarg, "on", "off", &config->sched.enabled)) {
				return usage_error("bad --scheduler value", optarg);
			}
			break;
		case OPT_GATE_TRANSPORT:
			if ((choice = parse_choice(optarg, NAMES(transport_names))) < 0) {
				return usage_error("bad --gate-transport value", optarg);
			}
			config->sched.transport = (enum gate_transport_choice)choice;
			break;
		case OPT_RENDER:
			if (!parse_switch(
						optarg, "direct", "scene", &config->render_direct)) {
				return usage_error("bad --render value", optarg);
			}
			break;
		case OPT_FRAME_SCHEDULE:
			if (!parse_switch(optarg, "auto", "off", &config->frame_schedule)) {
				return usage_error("bad --frame-schedule value", optarg);
			}
			break;
		case OPT_SCHED_INTERVAL:
			if (!parse_ms(optarg, &config->sched.interval_ms)) {
				return usage_error("bad --sched-interval value", optarg);
			}
			config->source.sched_interval = FW_CONFIG_FLAG;
			break;
		case OPT_SCHED_MAX_SLICE:
			if (!parse_ms(optarg, &config->sched.max_slice_ms)) {
				return usage_error("bad --sched-max-slice value", optarg);
			}
			config->source.sched_max_slice = FW_CONFIG_FLAG;
			break;
		case OPT_STATS:
			config->sched.stats_path = optarg;
			break;
		case OPT_TRACE:
			config->sched.trace_path = optarg;
			break;
		case OPT_NO_XWAYLAND:
			config->xwayland = false;
			break;
		case OPT_SCREENSHOTS_WHILE_LOCKED:
			config->screenshots_while_locked = true;
			break;
		case OPT_DEMO:
			config->demo = true;
			break;
		case OPT_HINTS:
			if (strcmp(optarg, "off") == 0) {
				config->hints.mode = HINTS_OFF;
			} else if (strcmp(optarg, "dry-run") == 0) {
				config->hints.mode = HINTS_DRY_RUN;
			} else if (strcmp(optarg, "on") == 0) {
				config->hints.mode = HINTS_ON;
			} else {
				return usage_error("bad --hints value", optarg);
			}
			break;
		case OPT_HINT_MAP:
			if (!hints_config_parse_target(&config->hints, optarg)) {
				return usage_error("bad --hint-map value", optarg);
			}
			note_hint_class(config, optarg);
			break;
		case OPT_CONFIG:
			if (optarg[0] == '\0') {
				return usage_error("bad --config value", optarg);
			}
			config->config_path = optarg;
			break;
		case OPT_CHECK_CONFIG:
			config->check_config = true;
			/* "--check-config FILE" as well as "--check-config=FILE" */
			if (optarg == NULL && optind < argc && argv[optind][0] != '-') {
				optarg = argv[optind++];
			}
			config->check_config_path = optarg;
			break;
		case OPT_RESTORE_HINTS:
			config->restore_hints = true;
			break;
		case OPT_RAISE_PRIORITY:
			config->raise_auto = strcmp(optarg, "auto") == 0;
			config->raise_realtime =
					config->raise_auto || strcmp(optarg, "rr") == 0;
			if (config->raise_realtime) {
				config->raise_priority = true;
			} else if (!parse_switch(
							   optarg, "on", "off", &config->raise_priority)) {
				return usage_error("bad --raise-priority value", optarg);
			}
			break;
		case OPT_PAINT_THREAD:
			if (!parse_switch(optarg, "on", "off", &config->paint_thread)) {
				return usage_error("bad --paint-thread value", optarg);
			}
			break;
		case 'd':
			config->log_level = WLR_DEBUG;
			break;
		case 'V':
			if (config->log_level < WLR_INFO) {
				config->log_level = WLR_INFO;
			}
			break;
		case 'v':
			printf("fairway " FAIRWAY_VERSION "\n");
			fflush(stdout);
			return 1;
		case 'h':
			fputs(usage_text, stdout);
			fflush(stdout);
			return 1;
		case ':':
			return usage_error("option needs a value", argv[optind - 1]);
		default:
			return usage_error("unknown option", argv[optind - 1]);
		}
	}

	if (optind < argc) {
		config->command = &argv[optind];
	}
	return 0;
}
