#include "compositor/shell/kill_timer.h"
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

static void *run_kill_timer(void *data) {
	struct fw_kill_timer *timer = data;
	struct pollfd cancel = {.fd = timer->cancel_fd, .events = POLLIN};
	int ret;
	do {
		ret = poll(&cancel, 1, timer->delay_ms);
	} while (ret < 0 && errno == EINTR);
	if (ret == 0 &&
			syscall(SYS_pidfd_send_signal, timer->pidfd, SIGKILL, NULL, 0) ==
					0) {
		atomic_store(&timer->fired, true);
	}
	return NULL;
}

bool fw_kill_timer_init(struct fw_kill_timer *timer, int pidfd, int delay_ms) {
	timer->delay_ms = delay_ms;
	atomic_init(&timer->fired, false);
	timer->pidfd = pidfd;
	if (timer->pidfd < 0) {
		return false;
	}
	timer->cancel_fd = eventfd(0, EFD_CLOEXEC);
	if (timer->cancel_fd < 0) {
		goto error_pidfd;
	}
	if (pthread_create(&timer->thread, NULL, run_kill_timer, timer) != 0) {
		goto error_eventfd;
	}
	return true;

error_eventfd:
	close(timer->cancel_fd);
error_pidfd:
	close(timer->pidfd);
	return false;
}

bool fw_kill_timer_finish(struct fw_kill_timer *timer) {
	uint64_t one = 1;
	while (write(timer->cancel_fd, &one, sizeof(one)) < 0 && errno == EINTR) {
	}
	pthread_join(timer->thread, NULL);
	close(timer->cancel_fd);
	close(timer->pidfd);
	return atomic_load(&timer->fired);
}
