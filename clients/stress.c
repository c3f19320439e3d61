/*
 * fairway-stress: CPU-bound workers that are not Wayland clients, the
 * stressors of Etsion et al. Each forked worker repeats a fixed unit of
 * arithmetic until --duration is up and reports how many units it did
 * through a pipe, so that CPU contention shows as less work.
 *
 * --sessions puts each worker in a session of its own (setsid), and so,
 * where autogroups are on, in a task group of its own: how a desktop runs
 * CPU-bound jobs (a terminal's, another application's), which then
 * compete with an application's whole group, not with its threads.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clients/common/json.h"
#include "clients/common/options.h"
#include "clients/common/stop.h"
#include "clients/common/time.h"

/* About 0.1 ms of work on a 2020s core; the clock is read once per unit. */
#define UNIT_ITERATIONS 50000

static volatile uint64_t sink;

static void work_unit(uint64_t seed) {
	uint64_t x = seed | 1;
	for (int i = 0; i < UNIT_ITERATIONS; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	sink = x;
}

static void worker(int fd, uint64_t end, bool session) {
	/* A worker must not outlive an interrupted parent. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (session && setsid() < 0) {
		_exit(1);
	}
	signal(SIGINT, SIG_IGN);
	uint64_t units = 0;
	while (fw_now_ns() < end && !fw_stop_requested()) {
		work_unit(units);
		units++;
	}
	ssize_t n = write(fd, &units, sizeof(units));
	_exit(n == (ssize_t)sizeof(units) ? 0 : 1);
}

static bool read_all(int fd, void *buf, size_t len) {
	char *p = buf;
	while (len > 0) {
		ssize_t n = read(fd, p, len);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			return false;
		}
		p += n;
		len -= (size_t)n;
	}
	return true;
}

int main(int argc, char **argv) {
	double duration = 5;
	unsigned workers = 2;
	bool sessions = false;
	const struct fw_option options[] = {
			{"duration", FW_OPTION_DOUBLE, &duration, "SECONDS",
					"how long the workers spin (default 5)", 0, NULL},
			{"workers", FW_OPTION_UINT, &workers, "N",
					"number of worker processes (default 2)", 1, NULL},
			{"sessions", FW_OPTION_FLAG, &sessions, NULL,
					"each worker in a session of its own", 0, NULL},
	};
	const struct fw_program prog = {
			.name = "fairway-stress",
			.summary = "Runs CPU-bound worker processes; prints a JSON summary "
					   "of the work each did.",
			.options = options,
			.option_count = sizeof(options) / sizeof(options[0]),
	};
	fw_options_parse(&prog, argc, argv);
	if (workers > 1024) {
		fprintf(stderr, "%s: at most 1024 workers\n", prog.name);
		return 2;
	}
	fw_stop_install();

	uint64_t *work = calloc(workers, sizeof(*work));
	int *fds = calloc(workers, sizeof(*fds));
	pid_t *pids = calloc(workers, sizeof(*pids));
	if (work == NULL || fds == NULL || pids == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog.name);
		return 1;
	}
	int ret = 1;
	unsigned started = 0;
	uint64_t start = fw_now_ns();
	uint64_t end = start + (uint64_t)(duration * 1e9);
	for (; started < workers; started++) {
		int pipefd[2];
		if (pipe(pipefd) < 0) {
			fprintf(stderr, "%s: pipe: %s\n", prog.name, strerror(errno));
			goto out;
		}
		pid_t pid = fork();
		if (pid < 0) {
			fprintf(stderr, "%s: fork: %s\n", prog.name, strerror(errno));
			close(pipefd[0]);
			close(pipefd[1]);
			goto out;
		}
		if (pid == 0) {
			close(pipefd[0]);
			worker(pipefd[1], end, sessions);
		}
		close(pipefd[1]);
		fds[started] = pipefd[0];
		pids[started] = pid;
	}

	bool ok = true;
	for (unsigned i = 0; i < workers; i++) {
		if (!read_all(fds[i], &work[i], sizeof(work[i]))) {
			fprintf(stderr, "%s: worker %u did not report\n", prog.name, i);
			ok = false;
		}
	}
	double seconds = (double)(fw_now_ns() - start) / 1e9;
	if (ok) {
		struct fw_json json;
		fw_json_begin(&json, stdout);
		fw_json_string(&json, "client", "stress");
		fw_json_uint(&json, "workers", workers);
		fw_json_uint_array(&json, "work", work, workers);
		fw_json_double(&json, "seconds", seconds);
		fw_json_uint(&json, "unit_iterations", UNIT_ITERATIONS);
		fw_json_string(&json, "sessions", sessions ? "own" : "shared");
		fw_json_end(&json);
		ret = 0;
	}

out:
	for (unsigned i = 0; i < started; i++) {
		close(fds[i]);
		if (ret != 0) {
			kill(pids[i], SIGKILL);
		}
		while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR) {
		}
	}
	free(pids);
	free(fds);
	free(work);
	return ret;
}
