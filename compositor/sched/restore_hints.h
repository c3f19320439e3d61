#ifndef FAIRWAY_COMPOSITOR_SCHED_RESTORE_HINTS_H
#define FAIRWAY_COMPOSITOR_SCHED_RESTORE_HINTS_H

/*
 * fairway --restore-hints: gives back every thread attribute a fairway
 * that did not exit cleanly left changed (scheduler/hints/hints.h), from its
 * journal, and exits. Prints what it restored, could not restore (each
 * with an error line saying why), refused, found gone, and the journals
 * it skipped. Returns the exit status: 1 if anything was not restored or
 * refused, or a journal was skipped (not fairway's own), else 0.
 */
int fw_restore_hints(void);

#endif
