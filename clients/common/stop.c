#include "clients/common/stop.h"

#include <signal.h>
#include <stdbool.h>
#include <string.h>

static volatile sig_atomic_t stop_flag = 0;

static void handle_stop_signal(int signo) {
	stop_flag = 1;
}

void fw_stop_install(void) {
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handle_stop_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

bool fw_stop_requested(void) {
	return stop_flag != 0;
}
