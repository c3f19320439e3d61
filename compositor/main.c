#include "compositor/config/command_line.h"
#include "compositor/config/config_apply.h"
#include "compositor/sched/restore_hints.h"
#include "compositor/sched/sched.h"
#include "compositor/sched/self_priority.h"
#include "compositor/server.h"
#include "compositor/spawn.h"
#include <stdlib.h>
#include <wlr/util/log.h>

int main(int argc, char *argv[]) {
	struct fw_config config;
	int ret = fw_command_line_parse(&config, argc, argv);
	if (ret == 1) {
		return 0;
	}
	if (ret != 0) {
		return ret;
	}
	if (config.log_level == WLR_DEBUG) {
		setenv("WLR_DEBUG", "1", true);
	}
	wlr_log_init(config.log_level, NULL);
	fw_sched_log_to_wlr();
	if (config.check_config) {
		return fw_config_apply_check(&config);
	}
	if (config.restore_hints) {
		return fw_restore_hints();
	}
	fw_spawn_init();

	struct fw_server *server = fw_server_create(&config);
	if (server == NULL) {
		return 1;
	}
	/* Before anything is spawned: they must be seen to start from the
	 * defaults, whatever the flag would do. */
	if (config.raise_priority) {
		fw_self_priority_raise();
		fw_self_priority_raise_group();
	}
	if (!fw_server_start(server)) {
		fw_server_destroy(server);
		fw_self_priority_lower_group();
		return 1;
	}
	if (config.raise_priority) {
		fw_self_priority_slice();
		if (config.raise_realtime) {
			fw_self_priority_realtime(server, config.raise_auto);
		}
	}
	int status = fw_server_run(server);
	fw_self_priority_realtime_finish();
	fw_server_destroy(server);
	fw_self_priority_lower_group();
	return status;
}
