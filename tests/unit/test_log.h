#ifndef FAIRWAY_TESTS_UNIT_TEST_LOG_H
#define FAIRWAY_TESTS_UNIT_TEST_LOG_H

/*
 * The scheduler's log for a test: errors to stderr, and everything with
 * FW_HINTS_DEBUG set in the environment.
 */
void test_log_init(void);

#endif
