#include "compositor/config/config_apply.h"
#include "compositor/config/config_file.h"
#include "compositor/input/input_config.h"
#include "compositor/output/output.h"
#include "compositor/output/output_config.h"
#include "compositor/sched/app_rules.h"
#include "compositor/sched/ratings.h"
#include "compositor/sched/sched.h"
#include "compositor/server.h"
#include "compositor/shell/activation.h"
#include "compositor/shell/decoration.h"
#include "compositor/spawn.h"
#include "scheduler/gate/gate.h"
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

/*
 * --config, else $XDG_CONFIG_HOME/fairway/config (~/.config without it),
 * else FW_SYSCONFDIR/fairway/config, whichever exists first; NULL if
 * none does. The caller frees it.
 */
static char *config_path(const struct fw_config *flags) {
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

int fw_config_apply_check(const struct fw_config *flags) {
	char *path = flags->check_config_path != NULL
			? strdup(flags->check_config_path)
			: config_path(flags);
	if (path == NULL) {
		/* Running without a file is normal: nothing in it can be wrong. */
		char *user = user_config_path();
		printf("fairway: no configuration file (neither %s nor %s): "
			   "fairway runs on its built-in defaults\n",
				user != NULL ? user : "$XDG_CONFIG_HOME/fairway/config",
				SYSTEM_CONFIG);
		fflush(stdout);
		free(user);
		return 0;
	}
	/* The file alone: no flag hides what it says. */
	struct fw_config config;
	fw_config_init(&config);
	bool ok = fw_config_file_load(&config, path);
	for (size_t i = 0; i < config.error_count; i++) {
		fprintf(stderr, "%s\n", config.errors[i]);
	}
	if (ok) {
		printf("%s: ok\n", path);
		fflush(stdout);
	}
	fw_config_finish(&config);
	free(path);
	return ok ? 0 : 1;
}

/*
 * The command line's settings with the file at path over them (the
 * built-in ones without a file); false, with every error logged and
 * nothing kept, if the file has any.
 */
static bool read_config(struct fw_config *config, const struct fw_config *flags,
		const char *path) {
	/* The command line's own no memory: a plain copy. */
	*config = *flags;
	if (fw_config_file_load(config, path)) {
		return true;
	}
	for (size_t i = 0; i < config->error_count; i++) {
		wlr_log(WLR_ERROR, "%s", config->errors[i]);
	}
	fw_config_finish(config);
	return false;
}

static int handle_sighup(int signal_number, void *data) {
	struct fw_server *server = data;
	fw_config_apply_reload(server);
	return 0;
}

bool fw_config_apply_init(struct fw_server *server) {
	server->flags = server->config;
	char *path = config_path(&server->flags);
	bool ok = read_config(&server->config, &server->flags, path);
	if (!ok && server->flags.config_path != NULL) {
		wlr_log(WLR_ERROR, "Not starting: %s has errors", path);
		free(path);
		return false;
	}
	if (!ok) {
		/* A typo must not keep anyone out of their session. */
		wlr_log(WLR_ERROR,
				"%s has errors and is ignored: running on the built-in "
				"defaults; fix it and send SIGHUP to reload",
				path);
		if (!read_config(&server->config, &server->flags, NULL)) {
			free(path);
			return false;
		}
	} else if (path != NULL) {
		wlr_log(WLR_INFO, "Configuration from %s", path);
	} else {
		wlr_log(WLR_INFO, "No configuration file: built-in defaults");
	}
	free(path);

	server->sighup_source = wl_event_loop_add_signal(
			server->loop, SIGHUP, handle_sighup, server);
	return server->sighup_source != NULL;
}

void fw_config_apply_finish(struct fw_server *server) {
	if (server->sighup_source != NULL) {
		wl_event_source_remove(server->sighup_source);
		server->sighup_source = NULL;
	}
	fw_config_finish(&server->config);
}

void fw_config_apply_autostart(struct fw_server *server) {
	for (size_t i = 0; i < server->config.autostart_count; i++) {
		const char *command = server->config.autostart[i];
		wlr_log(WLR_INFO, "Autostart: %s", command);
		fw_spawn_shell(command, fw_activation_issue(server->activation));
	}
}

bool fw_config_apply_reload(struct fw_server *server) {
	char *path = config_path(&server->flags);
	struct fw_config config;
	if (!read_config(&config, &server->flags, path)) {
		wlr_log(WLR_ERROR,
				"Reload refused: %s has errors; the running configuration "
				"stays",
				path);
		free(path);
		return false;
	}
	fw_config_finish(&server->config);
	server->config = config;

	struct fw_output *output;
	wl_list_for_each(output, &server->outputs, link) {
		fw_output_config_apply(output);
	}
	fw_input_config_reload(server);
	fw_decoration_apply_config(server);
	fw_sched_apply_config(server->sched);
	fw_ratings_set_hint_targets(server->ratings, server->config.hints.targets);
	fw_app_rules_set(
			server->app_rules, server->config.rules, server->config.rule_count);
	wlr_log(WLR_INFO, "Configuration reloaded from %s",
			path != NULL ? path : "the built-in defaults");
	free(path);
	return true;
}
