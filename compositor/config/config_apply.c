#include "compositor/config/config_apply.h"
#include "compositor/config/config_file.h"
#include "compositor/input/input_config.h"
#include "compositor/output/output.h"
#include "compositor/output/output_config.h"
#include "compositor/sched/app_rules.h"
#include "compositor/sched/ratings.h"
#include "compositor/sched/sched.h"
#include "compositor/server.h"
#include "compositor/spawn.h"
#include "scheduler/gate.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wlr/util/log.h>

#define SYSTEM_CONFIG FW_SYSCONFDIR "/fairway/config"

static char *user_config_path(void) {
	const char *base = getenv("XDG_CONFIG_HOME");
	const char *suffix = "/fairway/config";
	if (base == NULL || base[0] != '/') {
		/* The XDG base directory spec ignores a relative one. */
		base = getenv("HOME");
		suffix = "/.config/fairway/config";
		if (base == NULL || base[0] == '\0') {
			return NULL;
		}
	}
	char *path = NULL;
	if (asprintf(&path, "%s%s", base, suffix) < 0) {
		return NULL;
	}
	return path;
}

char *fw_config_file_path(const struct fw_config *flags) {
	if (flags->config_path != NULL) {
		return strdup(flags->config_path);
	}
	char *path = user_config_path();
	if (path != NULL && access(path, F_OK) == 0) {
		return path;
	}
	free(path);
	if (access(SYSTEM_CONFIG, F_OK) == 0) {
		return strdup(SYSTEM_CONFIG);
	}
	return NULL;
}

int fw_config_check(const struct fw_config *flags) {
	char *path = flags->check_config_path != NULL
			? strdup(flags->check_config_path)
			: fw_config_file_path(flags);
	if (path == NULL) {
		char *user = user_config_path();
		fprintf(stderr, "fairway: no configuration file: neither %s nor %s\n",
				user != NULL ? user : "$XDG_CONFIG_HOME/fairway/config",
				SYSTEM_CONFIG);
		free(user);
		return 1;
	}
	struct fw_file_config *file = fw_file_config_create();
	if (file == NULL) {
		free(path);
		return 1;
	}
	bool ok = fw_file_config_load(file, path);
	for (size_t i = 0; i < file->error_count; i++) {
		fprintf(stderr, "%s\n", file->errors[i]);
	}
	if (ok) {
		printf("%s: ok\n", path);
		fflush(stdout);
	}
	fw_file_config_destroy(file);
	free(path);
	return ok ? 0 : 1;
}

/*
 * What the file may set and the flags did not: the slices and the hint
 * map, class by class. Everything else in config is the flags' alone.
 */
static void merge(struct fw_config *config, const struct fw_config *flags,
		const struct fw_file_config *file) {
	config->sched.interval_ms = flags->sched.interval_ms > 0
			? flags->sched.interval_ms
			: file->sched_interval_ms;
	config->sched.max_slice_ms = flags->sched.max_slice_ms > 0
			? flags->sched.max_slice_ms
			: file->sched_max_slice_ms;
	for (int i = 0; i < RATINGS_CLASS_COUNT; i++) {
		config->hints.targets[i] =
				!flags->hint_map_set[i] && file->hint_map_set[i]
				? file->hint_map[i]
				: flags->hints.targets[i];
	}
}

/* Reads the file at path; NULL with every error logged if it has any. */
static struct fw_file_config *read_file(const char *path) {
	struct fw_file_config *file = fw_file_config_create();
	if (file == NULL) {
		wlr_log(WLR_ERROR, "Out of memory reading the configuration");
		return NULL;
	}
	if (path != NULL && !fw_file_config_load(file, path)) {
		for (size_t i = 0; i < file->error_count; i++) {
			wlr_log(WLR_ERROR, "%s", file->errors[i]);
		}
		fw_file_config_destroy(file);
		return NULL;
	}
	return file;
}

static int handle_sighup(int signal_number, void *data) {
	struct fw_server *server = data;
	fw_config_reload(server);
	return 0;
}

bool fw_config_init(struct fw_server *server) {
	server->flags = server->config;
	char *path = fw_config_file_path(&server->flags);
	struct fw_file_config *file = read_file(path);
	if (file == NULL && server->flags.config_path != NULL) {
		wlr_log(WLR_ERROR, "Not starting: %s has errors", path);
		free(path);
		return false;
	}
	if (file == NULL) {
		/* A typo must not keep anyone out of their session. */
		wlr_log(WLR_ERROR,
				"%s has errors and is ignored: running on the built-in "
				"defaults; fix it and send SIGHUP to reload",
				path);
		file = read_file(NULL);
		if (file == NULL) {
			free(path);
			return false;
		}
	} else if (path != NULL) {
		wlr_log(WLR_INFO, "Configuration from %s", path);
	} else {
		wlr_log(WLR_INFO, "No configuration file: built-in defaults");
	}
	free(path);
	server->file = file;
	merge(&server->config, &server->flags, file);

	server->sighup_source = wl_event_loop_add_signal(
			server->loop, SIGHUP, handle_sighup, server);
	return server->sighup_source != NULL;
}

void fw_config_finish(struct fw_server *server) {
	if (server->sighup_source != NULL) {
		wl_event_source_remove(server->sighup_source);
		server->sighup_source = NULL;
	}
	fw_file_config_destroy(server->file);
	server->file = NULL;
}

void fw_config_autostart(struct fw_server *server) {
	for (size_t i = 0; i < server->file->autostart_count; i++) {
		const char *command = server->file->autostart[i];
		wlr_log(WLR_INFO, "Autostart: %s", command);
		fw_spawn_shell(command);
	}
}

bool fw_config_reload(struct fw_server *server) {
	char *path = fw_config_file_path(&server->flags);
	struct fw_file_config *file = read_file(path);
	if (file == NULL) {
		wlr_log(WLR_ERROR,
				"Reload refused: %s has errors; the running configuration "
				"stays",
				path);
		free(path);
		return false;
	}
	fw_file_config_destroy(server->file);
	server->file = file;
	merge(&server->config, &server->flags, file);

	struct fw_output *output;
	wl_list_for_each(output, &server->outputs, link) {
		fw_output_apply_config(output);
	}
	fw_input_reconfigure(server);
	fw_sched_apply_config(server->sched);
	fw_ratings_set_hint_targets(server->ratings, server->config.hints.targets);
	fw_app_rules_set(server->app_rules, file->rules, file->rule_count);
	wlr_log(WLR_INFO, "Configuration reloaded from %s",
			path != NULL ? path : "the built-in defaults");
	free(path);
	return true;
}
