/*
 * Which transport the gate takes (scheduler/gate/transport_choose.h), with a
 * real round trip through what was chosen:
 *   transport-test with-shim: a program that exports the shim, where the
 *   shim also refuses what it does not emulate;
 *   transport-test-no-shim without-shim: one linked without it.
 * transport-loader covers a compositor loaded with dlopen.
 */
#include "tests/gate/transport_roundtrip.h"
#include <stdio.h>
#include <string.h>

int main(int argc, char *argv[]) {
	if (argc != 2) {
		fprintf(stderr, "usage: %s with-shim|without-shim\n", argv[0]);
		return 2;
	}
	if (strcmp(argv[1], "with-shim") == 0) {
		transport_check_with_shim();
		transport_check_refusals();
	} else if (strcmp(argv[1], "without-shim") == 0) {
		transport_check_without_shim();
	} else {
		fprintf(stderr, "unknown case %s\n", argv[1]);
		return 2;
	}
	fprintf(stderr, "%s: ok\n", argv[1]);
	return 0;
}
