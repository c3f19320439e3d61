/*
 * A program with no libwayland of its own that loads the scheduler with
 * dlopen (tests/gate/transport_module.c), as a Wayland conformance
 * harness loads a compositor: the gate must serve through socketpairs.
 */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char *argv[]) {
	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE\n", argv[0]);
		return 2;
	}
	void *module = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (module == NULL) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	void (*check)(void) =
			(void (*)(void))dlsym(module, "transport_module_check");
	if (check == NULL) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	check();
	fprintf(stderr, "dlopen: ok\n");
	return 0;
}
