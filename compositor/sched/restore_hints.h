#ifndef FAIRWAY_COMPOSITOR_SCHED_RESTORE_HINTS_H
#define FAIRWAY_COMPOSITOR_SCHED_RESTORE_HINTS_H

/*
 * fairway --restore-hints: gives back every thread attribute a fairway
 * that did not exit cleanly left changed (scheduler/hints.h), from its
 * journal, and exits. Returns the exit status.
 */
int fw_restore_hints(void);

#endif
