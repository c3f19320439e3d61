#include "compositor/spawn.h"
#include "compositor/output/dri.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wlr/util/log.h>

static struct rlimit original_nofile;
static bool nofile_raised;

/*
 * Runs in every child fairway forks, including the ones wlroots forks for
 * Xwayland behind our back: they must not inherit our fd limit (select()
 * users break above 1024) nor the signals wl_event_loop_add_signal blocked
 * in us (an Xwayland that outlived a crashed fairway ignored SIGTERM).
 */
static void reset_child_state(void) {
	sigset_t set;
	sigemptyset(&set);
	sigprocmask(SIG_SETMASK, &set, NULL);
	signal(SIGPIPE, SIG_DFL);
	if (nofile_raised) {
		setrlimit(RLIMIT_NOFILE, &original_nofile);
	}
}

void fw_spawn_init(void) {
	static bool done;
	if (done) {
		return;
	}
	done = true;
	/* Every client's socket is two fds here, and its pools may be more. */
	if (getrlimit(RLIMIT_NOFILE, &original_nofile) == 0 &&
			original_nofile.rlim_cur < original_nofile.rlim_max) {
		struct rlimit raised = original_nofile;
		raised.rlim_cur = raised.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &raised) == 0) {
			nofile_raised = true;
		} else {
			wlr_log_errno(WLR_ERROR, "Cannot raise RLIMIT_NOFILE");
		}
	}
	pthread_atfork(NULL, NULL, reset_child_state);
}

void fw_spawn_set_render_defaults(void) {
	/*
	 * Without a GPU, GTK 4's default GL renderer runs on llvmpipe and its
	 * first start compiles every shader in software: seconds of a blank
	 * window on a loaded machine (docs/architecture.md has the numbers).
	 * Its cairo renderer draws the same at once. A user's own choice
	 * stands.
	 */
	if (getenv("GSK_RENDERER") == NULL && !fw_dri_has_node("renderD")) {
		setenv("GSK_RENDERER", "cairo", true);
	}
}

pid_t fw_spawn(char *const argv[]) {
	return fw_spawn_output(argv, -1);
}

pid_t fw_spawn_output(char *const argv[], int output_fd) {
	pid_t pid = fork();
	if (pid < 0) {
		wlr_log_errno(WLR_ERROR, "fork failed");
		return -1;
	}
	if (pid == 0) {
		/* wl_event_loop_add_signal blocked these in us. */
		reset_child_state();
		setpgid(0, 0);
		if (output_fd >= 0) {
			dup2(output_fd, STDOUT_FILENO);
			dup2(output_fd, STDERR_FILENO);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	/* Also in the parent, so a kill(-pid) right away cannot miss it. */
	setpgid(pid, pid);
	return pid;
}

bool fw_spawn_shell(const char *command, const char *activation_token) {
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
			/* Its own token, or none: never one fairway was given. */
			if (activation_token != NULL) {
				setenv("XDG_ACTIVATION_TOKEN", activation_token, 1);
			} else {
				unsetenv("XDG_ACTIVATION_TOKEN");
			}
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
