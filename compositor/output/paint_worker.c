#include "compositor/output/paint_worker.h"
#include "compositor/output/paint_job.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wlr/util/log.h>

struct fw_paint_worker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake; /* a job came, or stop */
	pthread_cond_t idle; /* a job was painted */
	struct wl_list queue; /* fw_paint_job.link: to paint, in order */
	struct wl_list done; /* fw_paint_job.link: painted, not yet told */
	bool painting;
	bool stop;
	/* What the main thread does not see until it has the lock again. */
	int event_fd;
	struct wl_event_source *source;
	/* FAIRWAY_TEST_PAINT_DELAY_MS: each paint held this long, and every
	 * paint the worker's, for the tests that need a frame being painted
	 * when something happens. */
	struct timespec delay;
	bool take_all;
};

/*
 * A job that writes fewer pixels than this is painted where it was built:
 * it costs the main thread less than the two wakeups of a hand-over, and
 * holds its clients no longer (bench/README.md, "tail").
 */
#define MIN_PIXELS (256 * 1024)

bool fw_paint_worker_wants(
		const struct fw_paint_worker *worker, const struct fw_paint_job *job) {
	return worker->take_all || job->pixels >= MIN_PIXELS;
}

/*
 * The worker keeps the default attributes a new thread starts with (the
 * main thread, raised, resets on fork): on two CPUs, with the main thread
 * busy serving flooders, the other CPU is where a client waking for its
 * answer runs, and a worker as heavy as the main thread would hold it for
 * the whole paint. At nice 0 a waking client preempts it; SCHED_IDLE
 * flooders never do.
 */
static void *run(void *data) {
	struct fw_paint_worker *worker = data;
	pthread_mutex_lock(&worker->lock);
	while (!worker->stop) {
		if (wl_list_empty(&worker->queue)) {
			pthread_cond_wait(&worker->wake, &worker->lock);
			continue;
		}
		struct fw_paint_job *job =
				wl_container_of(worker->queue.next, job, link);
		wl_list_remove(&job->link);
		worker->painting = true;
		pthread_mutex_unlock(&worker->lock);

		if (worker->delay.tv_sec != 0 || worker->delay.tv_nsec != 0) {
			nanosleep(&worker->delay, NULL);
		}
		fw_paint_job_run_worker(job);

		pthread_mutex_lock(&worker->lock);
		job->worker_done = true;
		wl_list_insert(worker->done.prev, &job->link);
		worker->painting = false;
		pthread_cond_broadcast(&worker->idle);
		uint64_t one = 1;
		/* Full (never in practice) still wakes the loop. */
		(void)!write(worker->event_fd, &one, sizeof(one));
	}
	pthread_mutex_unlock(&worker->lock);
	return NULL;
}

/* The painted callbacks, on the main thread. */
static int handle_done(int fd, uint32_t mask, void *data) {
	struct fw_paint_worker *worker = data;
	uint64_t count;
	if (read(fd, &count, sizeof(count)) < 0 && errno != EAGAIN) {
		wlr_log_errno(WLR_ERROR, "Cannot read the paint worker's eventfd");
	}
	struct wl_list done;
	wl_list_init(&done);
	pthread_mutex_lock(&worker->lock);
	wl_list_insert_list(&done, &worker->done);
	wl_list_init(&worker->done);
	pthread_mutex_unlock(&worker->lock);
	while (!wl_list_empty(&done)) {
		struct fw_paint_job *job = wl_container_of(done.next, job, link);
		wl_list_remove(&job->link);
		wl_list_init(&job->link);
		job->painted(job);
	}
	return 0;
}

struct fw_paint_worker *fw_paint_worker_create(struct wl_display *display) {
	struct fw_paint_worker *worker = calloc(1, sizeof(*worker));
	if (worker == NULL) {
		return NULL;
	}
	wl_list_init(&worker->queue);
	wl_list_init(&worker->done);
	const char *delay = getenv("FAIRWAY_TEST_PAINT_DELAY_MS");
	if (delay != NULL) {
		long ms = strtol(delay, NULL, 10);
		worker->delay.tv_sec = ms / 1000;
		worker->delay.tv_nsec = ms % 1000 * 1000000;
		worker->take_all = true;
		wlr_log(WLR_INFO,
				"Each paint held %ld ms (FAIRWAY_TEST_PAINT_DELAY_MS)", ms);
	}
	worker->event_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (worker->event_fd < 0) {
		goto error_alloc;
	}
	worker->source = wl_event_loop_add_fd(wl_display_get_event_loop(display),
			worker->event_fd, WL_EVENT_READABLE, handle_done, worker);
	if (worker->source == NULL) {
		goto error_fd;
	}
	pthread_mutex_init(&worker->lock, NULL);
	pthread_cond_init(&worker->wake, NULL);
	pthread_cond_init(&worker->idle, NULL);
	/*
	 * Signals are the main thread's (its loop reads them from a signalfd):
	 * the worker starts with every one blocked but the faults, so that a
	 * SIGTERM is never delivered to it.
	 */
	sigset_t all, old;
	sigfillset(&all);
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGSEGV);
	sigdelset(&all, SIGFPE);
	sigdelset(&all, SIGILL);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	int err = pthread_create(&worker->thread, NULL, run, worker);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err != 0) {
		wlr_log(WLR_ERROR, "Cannot start the paint worker: %s", strerror(err));
		goto error_sync;
	}
	return worker;

error_sync:
	pthread_cond_destroy(&worker->idle);
	pthread_cond_destroy(&worker->wake);
	pthread_mutex_destroy(&worker->lock);
	wl_event_source_remove(worker->source);
error_fd:
	close(worker->event_fd);
error_alloc:
	free(worker);
	return NULL;
}

void fw_paint_worker_destroy(struct fw_paint_worker *worker) {
	if (worker == NULL) {
		return;
	}
	pthread_mutex_lock(&worker->lock);
	worker->stop = true;
	pthread_cond_signal(&worker->wake);
	pthread_mutex_unlock(&worker->lock);
	pthread_join(worker->thread, NULL);
	pthread_cond_destroy(&worker->idle);
	pthread_cond_destroy(&worker->wake);
	pthread_mutex_destroy(&worker->lock);
	wl_event_source_remove(worker->source);
	close(worker->event_fd);
	free(worker);
}

void fw_paint_worker_submit(
		struct fw_paint_worker *worker, struct fw_paint_job *job) {
	pthread_mutex_lock(&worker->lock);
	job->worker_done = false;
	wl_list_insert(worker->queue.prev, &job->link);
	pthread_cond_signal(&worker->wake);
	pthread_mutex_unlock(&worker->lock);
}

void fw_paint_worker_finish(
		struct fw_paint_worker *worker, struct fw_paint_job *job) {
	pthread_mutex_lock(&worker->lock);
	while (!job->worker_done) {
		pthread_cond_wait(&worker->idle, &worker->lock);
	}
	/* Painted; told now rather than from the loop. */
	wl_list_remove(&job->link);
	wl_list_init(&job->link);
	pthread_mutex_unlock(&worker->lock);
	job->painted(job);
}
