#include "compositor/shell/kill_timer.h"
#include "tests/unit/check.h"
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pid_t start_sleeper(void) {
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		pause();
		_exit(0);
	}
	return pid;
}

static int pidfd_of(pid_t pid) {
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

/* A timer that runs out kills the process, and says so. */
static void test_fires(void) {
	pid_t pid = start_sleeper();
	struct fw_kill_timer timer;
	CHECK(fw_kill_timer_init(&timer, pidfd_of(pid), 50));
	int status;
	CHECK_INT(waitpid(pid, &status, 0), pid);
	CHECK(WIFSIGNALED(status));
	CHECK_INT(WTERMSIG(status), SIGKILL);
	CHECK(fw_kill_timer_finish(&timer));
}

/* Finished in time, it kills nothing, however long its delay. */
static void test_cancelled(void) {
	pid_t pid = start_sleeper();
	struct fw_kill_timer timer;
	CHECK(fw_kill_timer_init(&timer, pidfd_of(pid), 60 * 1000));
	CHECK(!fw_kill_timer_finish(&timer));
	CHECK_INT(waitpid(pid, NULL, WNOHANG), 0);
	kill(pid, SIGTERM);
	int status;
	CHECK_INT(waitpid(pid, &status, 0), pid);
	CHECK_INT(WTERMSIG(status), SIGTERM);
}

/* A process already gone cannot be timed, nor one not named. */
static void test_gone(void) {
	pid_t pid = start_sleeper();
	kill(pid, SIGKILL);
	CHECK_INT(waitpid(pid, NULL, 0), pid);
	struct fw_kill_timer timer;
	CHECK(!fw_kill_timer_init(&timer, pidfd_of(pid), 50));
	CHECK(!fw_kill_timer_init(&timer, -1, 50));
}

int main(void) {
	RUN_TEST(test_fires);
	RUN_TEST(test_cancelled);
	RUN_TEST(test_gone);
	return 0;
}
