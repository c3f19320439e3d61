#include "compositor/spawn.h"
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wlr/util/log.h>

static void reset_child_state(void) {
	sigset_t set;
	sigemptyset(&set);
	sigprocmask(SIG_SETMASK, &set, NULL);
	signal(SIGPIPE, SIG_DFL);
}

pid_t fw_spawn(char *const argv[]) {
	pid_t pid = fork();
	if (pid < 0) {
		wlr_log_errno(WLR_ERROR, "fork failed");
		return -1;
	}
	if (pid == 0) {
		/* wl_event_loop_add_signal blocked these in us. */
		reset_child_state();
		setpgid(0, 0);
		execvp(argv[0], argv);
		_exit(127);
	}
	/* Also in the parent, so a kill(-pid) right away cannot miss it. */
	setpgid(pid, pid);
	return pid;
}

bool fw_spawn_shell(const char *command) {
	pid_t pid = fork();
	if (pid < 0) {
		wlr_log_errno(WLR_ERROR, "fork failed");
		return false;
	}
	if (pid == 0) {
		reset_child_state();
		setsid();
		/* The grandchild is reparented to init: we never reap it. */
		pid_t grandchild = fork();
		if (grandchild == 0) {
			execl("/bin/sh", "/bin/sh", "-c", command, (char *)NULL);
			_exit(127);
		}
		_exit(grandchild < 0 ? 1 : 0);
	}
	waitpid(pid, NULL, 0);
	return true;
}

void fw_spawn_wait_group(pid_t pid) {
	if (pid <= 0) {
		return;
	}
	/* Two seconds of grace, then no more. */
	for (int i = 0; i < 200; i++) {
		pid_t ret = waitpid(pid, NULL, WNOHANG);
		if (ret == pid || (ret < 0 && errno == ECHILD)) {
			return;
		}
		nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
	}
	wlr_log(WLR_INFO, "Process group %d ignored SIGTERM, killing it", (int)pid);
	kill(-pid, SIGKILL);
	waitpid(pid, NULL, 0);
}
