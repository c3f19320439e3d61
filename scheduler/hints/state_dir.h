#ifndef FAIRWAY_SCHEDULER_HINTS_STATE_DIR_H
#define FAIRWAY_SCHEDULER_HINTS_STATE_DIR_H

#include <stdbool.h>

/*
 * Where fairway keeps what must outlive it (the hint journals), and the
 * checks that make what is read back from there trustworthy. fairway often
 * runs as root and replays what it finds there onto other processes, so a
 * file anyone else could have written must never be taken for its own.
 *
 * - As root: /run/fairway, made 0700 if missing. $XDG_RUNTIME_DIR is not
 *   used, as a root fairway may inherit a user's (sudo -E), and a user
 *   could write there.
 * - Otherwise: $XDG_RUNTIME_DIR, private to the user by the XDG rules.
 *
 * Either way the directory must be owned by the effective uid and
 * writable by nobody else, and files are opened relative to its fd, never
 * through a symlink, and created only where nothing is (O_EXCL).
 */

#define STATE_DIR_NAME "fairway"
#define STATE_DIR_ROOT "/run/" STATE_DIR_NAME

/*
 * The state directory of this process, made if need be: static storage, or
 * NULL with the reason logged.
 */
const char *state_dir_locate(void);

/*
 * Opens path as a state directory: a directory (the last component no
 * symlink), owned by the effective uid, writable by no group or other.
 * Returns its fd (O_CLOEXEC), or -1 with the reason logged.
 */
int state_dir_open(const char *path);

/*
 * Whether a file opened from a state directory may be trusted: a regular
 * file with one link, owned by the effective uid, mode 0600. Logs why not.
 */
bool state_dir_file_trusted(int fd, const char *name);

#endif
