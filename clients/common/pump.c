#include "clients/common/pump.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <time.h>

#include "clients/common/stop.h"
#include "clients/common/time.h"

/*
 * Well below the 4096-byte output buffer so that requests queued by event
 * handlers (pongs, acks, destroys) still fit.
 */
#define SENDER_MAX_BYTES 2048
/* libwayland flushes inline after 28 queued fds (MAX_FDS_OUT). */
#define SENDER_MAX_FDS 16

/* timeout_ns: -1 waits for ever. */
static int wait_and_read(struct wl_display *display, int64_t timeout_ns,
		bool flushing, bool *unsent) {
	while (wl_display_prepare_read(display) != 0) {
		if (wl_display_dispatch_pending(display) < 0) {
			return -1;
		}
	}
	*unsent = false;
	if (wl_display_flush(display) < 0) {
		if (errno != EAGAIN) {
			wl_display_cancel_read(display);
			return -1;
		}
		*unsent = true;
	}
	struct pollfd pfd = {
			.fd = wl_display_get_fd(display),
			.events = POLLIN | (*unsent ? POLLOUT : 0),
	};
	/*
	 * A caller that only waits to send must not block for events once the
	 * flush above went through: the compositor may have nothing to say.
	 */
	if (flushing && !*unsent) {
		timeout_ns = 0;
	}
	struct timespec timeout = fw_ns_to_timespec((uint64_t)timeout_ns);
	int n = ppoll(&pfd, 1, timeout_ns >= 0 ? &timeout : NULL, NULL);
	if (n < 0) {
		wl_display_cancel_read(display);
		return errno == EINTR ? 0 : -1;
	}
	if (pfd.revents & POLLIN) {
		if (wl_display_read_events(display) < 0) {
			return -1;
		}
	} else {
		wl_display_cancel_read(display);
		if (pfd.revents & (POLLERR | POLLHUP | POLLNVAL)) {
			return -1;
		}
	}
	return wl_display_dispatch_pending(display);
}

int fw_pump(struct wl_display *display, int timeout_ms) {
	bool unsent;
	return wait_and_read(display,
			timeout_ms < 0 ? -1 : (int64_t)timeout_ms * 1000000, false,
			&unsent);
}

/* Nanoseconds left until deadline_ns; -1 (for ever) for a deadline of 0. */
static int64_t ns_until(uint64_t deadline_ns) {
	if (deadline_ns == 0) {
		return -1;
	}
	uint64_t now = fw_now_ns();
	return deadline_ns > now ? (int64_t)(deadline_ns - now) : 0;
}

int fw_pump_until(struct wl_display *display, uint64_t deadline_ns) {
	bool unsent;
	return wait_and_read(display, ns_until(deadline_ns), false, &unsent);
}

int fw_flush_blocking(struct wl_display *display, uint64_t deadline_ns) {
	while (true) {
		if (wl_display_dispatch_pending(display) < 0) {
			return -1;
		}
		if (wl_display_flush(display) >= 0) {
			return 0;
		}
		if (errno != EAGAIN) {
			return -1;
		}
		if (fw_stop_requested() ||
				(deadline_ns != 0 && fw_now_ns() >= deadline_ns)) {
			return 1;
		}
		bool unsent;
		if (wait_and_read(display, ns_until(deadline_ns), true, &unsent) < 0) {
			return -1;
		}
	}
}

void fw_sender_init(struct fw_sender *sender, struct wl_display *display,
		uint64_t deadline_ns) {
	sender->display = display;
	sender->bytes = 0;
	sender->fds = 0;
	sender->deadline_ns = deadline_ns;
	sender->requests = 0;
	sender->max_bytes = SENDER_MAX_BYTES;
}

int fw_sender_flush(struct fw_sender *sender) {
	int ret = fw_flush_blocking(sender->display, sender->deadline_ns);
	if (ret == 0) {
		sender->bytes = 0;
		sender->fds = 0;
	}
	return ret;
}

int fw_sender_reserve(struct fw_sender *sender, size_t bytes, size_t fds) {
	if (sender->bytes + bytes > sender->max_bytes ||
			sender->fds + fds > SENDER_MAX_FDS) {
		int ret = fw_sender_flush(sender);
		if (ret != 0) {
			return ret;
		}
	}
	sender->bytes += bytes;
	sender->fds += fds;
	sender->requests++;
	return 0;
}
