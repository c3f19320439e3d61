#include "compositor/config/config_file.h"
#include "tests/unit/check.h"
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xkbcommon/xkbcommon.h>

#define CHECK_STR(a, b) \
	do { \
		const char *check_a_ = (a); \
		const char *check_b_ = (b); \
		if (check_a_ == NULL || strcmp(check_a_, check_b_) != 0) { \
			fprintf(stderr, "%s:%d: %s: %s == %s failed: \"%s\" != \"%s\"\n", \
					__FILE__, __LINE__, __func__, #a, #b, \
					check_a_ ? check_a_ : "(null)", check_b_); \
			exit(1); \
		} \
	} while (0)

/* The built-in configuration, on the heap. */
static struct fw_config *config_create(void) {
	struct fw_config *config = calloc(1, sizeof(*config));
	CHECK(config != NULL);
	fw_config_init(config);
	return config;
}

static void config_destroy(struct fw_config *config) {
	fw_config_finish(config);
	free(config);
}

static struct fw_config *parse(const char *text, bool ok) {
	struct fw_config *config = config_create();
	bool parsed = fw_config_file_parse(config, "cfg", text);
	if (parsed != ok) {
		for (size_t i = 0; i < config->error_count; i++) {
			fprintf(stderr, "  %s\n", config->errors[i]);
		}
	}
	CHECK(parsed == ok);
	CHECK(ok == (config->error_count == 0));
	return config;
}

static void test_defaults(void) {
	struct fw_config *config = parse("", true);
	CHECK_INT(config->binding_count, 4);
	const struct fw_binding *b =
			fw_config_binding(config, FW_MOD_LOGO, XKB_KEY_Return);
	CHECK(b != NULL);
	CHECK_INT(b->action, FW_ACTION_TERMINAL);
	/* Shift makes E upper case; the binding matches either. */
	b = fw_config_binding(config, FW_MOD_LOGO | FW_MOD_SHIFT, XKB_KEY_E);
	CHECK(b != NULL);
	CHECK_INT(b->action, FW_ACTION_EXIT);
	CHECK(fw_config_binding(config, FW_MOD_ALT, XKB_KEY_Tab) != NULL);
	CHECK(fw_config_binding(config, FW_MOD_LOGO, XKB_KEY_q) != NULL);
	CHECK(fw_config_binding(config, 0, XKB_KEY_q) == NULL);
	CHECK_INT(config->input.repeat_rate, 25);
	CHECK_INT(config->input.repeat_delay, 600);
	CHECK_INT(config->input.tap, -1);
	CHECK_INT(config->rule_count, 0);
	config_destroy(config);
}

static void test_bindings(void) {
	struct fw_config *config = parse(
			"# comment\n"
			"   \n"
			"bind super+return exec foot -e sh -c 'echo \"hi there\"; sleep 1'\n"
			"bind Ctrl+Alt+Delete exit\n"
			"bind Super+F fullscreen\n"
			"unbind Super+Q\n"
			"\tbind Mod4+shift+r reload   \n",
			true);
	const struct fw_binding *b =
			fw_config_binding(config, FW_MOD_LOGO, XKB_KEY_Return);
	CHECK(b != NULL);
	CHECK_INT(b->action, FW_ACTION_EXEC);
	/* The command is the rest of the line as written, for sh -c. */
	CHECK_STR(b->command, "foot -e sh -c 'echo \"hi there\"; sleep 1'");
	b = fw_config_binding(config, FW_MOD_CTRL | FW_MOD_ALT, XKB_KEY_Delete);
	CHECK(b != NULL && b->action == FW_ACTION_EXIT);
	b = fw_config_binding(config, FW_MOD_LOGO, XKB_KEY_F);
	CHECK(b != NULL && b->action == FW_ACTION_FULLSCREEN);
	CHECK(fw_config_binding(config, FW_MOD_LOGO, XKB_KEY_q) == NULL);
	b = fw_config_binding(config, FW_MOD_LOGO | FW_MOD_SHIFT, XKB_KEY_R);
	CHECK(b != NULL && b->action == FW_ACTION_RELOAD);
	/* Defaults 4, one replaced, one removed, three new. */
	CHECK_INT(config->binding_count, 6);
	config_destroy(config);
}

static void test_outputs(void) {
	struct fw_config *config =
			parse("output * scale 1.5\n"
				  "output HDMI-A-1 mode 1920x1080@59.94Hz position -1920,0\n"
				  "output HDMI-A-1 transform flipped-90 disable\n"
				  "output eDP-1 mode 800x600 scale 2 enable\n",
					true);
	struct fw_output_config out;
	CHECK(fw_config_output(config, "HDMI-A-1", &out));
	CHECK(out.has_mode);
	CHECK_INT(out.width, 1920);
	CHECK_INT(out.height, 1080);
	CHECK_INT(out.refresh_mhz, 59940);
	CHECK(out.has_position);
	CHECK_INT(out.x, -1920);
	CHECK_INT(out.y, 0);
	CHECK(out.scale == 1.5);
	CHECK_INT(out.transform, 5);
	CHECK_INT(out.enabled, 0);
	CHECK(fw_config_output(config, "eDP-1", &out));
	CHECK(out.scale == 2);
	CHECK_INT(out.refresh_mhz, 0);
	CHECK_INT(out.enabled, 1);
	CHECK_INT(out.transform, -1);
	/* Any other output gets what "*" says. */
	CHECK(fw_config_output(config, "DP-3", &out));
	CHECK(out.scale == 1.5);
	CHECK(!out.has_mode);
	config_destroy(config);

	config = parse("", true);
	CHECK(!fw_config_output(config, "DP-3", &out));
	config_destroy(config);
}

static void test_input_and_scheduler(void) {
	struct fw_config *config =
			parse("keyboard layout us,de\n"
				  "keyboard variant ,nodeadkeys\n"
				  "keyboard options grp:alt_shift_toggle\n"
				  "keyboard repeat-rate 40\n"
				  "keyboard repeat-delay 250\n"
				  "pointer accel -0.5\n"
				  "pointer accel-profile flat\n"
				  "pointer tap on\n"
				  "pointer natural-scroll off\n"
				  "exec mako\n"
				  "exec swaybg -i \"$HOME/bg.png\"\n"
				  "scheduler interval 3\n"
				  "scheduler max-slice 9.5\n"
				  "scheduler hint-map background:policy=batch,nice=10\n",
					true);
	const struct fw_input_config *input = &config->input;
	CHECK_STR(input->xkb_layout, "us,de");
	CHECK_STR(input->xkb_variant, ",nodeadkeys");
	CHECK_STR(input->xkb_options, "grp:alt_shift_toggle");
	CHECK(input->xkb_model == NULL);
	CHECK_INT(input->repeat_rate, 40);
	CHECK_INT(input->repeat_delay, 250);
	CHECK(input->has_accel && input->accel == -0.5);
	CHECK_INT(input->accel_profile, 0);
	CHECK_INT(input->tap, 1);
	CHECK_INT(input->natural_scroll, 0);
	CHECK_INT(config->autostart_count, 2);
	CHECK_STR(config->autostart[0], "mako");
	CHECK_STR(config->autostart[1], "swaybg -i \"$HOME/bg.png\"");
	CHECK(config->sched.interval_ms == 3);
	CHECK(config->sched.max_slice_ms == 9.5);
	CHECK_INT(config->source.sched_interval, FW_CONFIG_FILE);
	CHECK_INT(config->source.hint_map[RATINGS_BACKGROUND], FW_CONFIG_FILE);
	CHECK_INT(config->source.hint_map[RATINGS_INTERACTIVE], FW_CONFIG_DEFAULT);
	CHECK_INT(config->hints.targets[RATINGS_BACKGROUND].policy, SCHED_BATCH);
	CHECK_INT(config->hints.targets[RATINGS_BACKGROUND].nice, 10);
	config_destroy(config);
}

/* A setting a flag gave stays whatever the file says; the others follow
 * the file. */
static void test_flags_win(void) {
	struct fw_config *config = config_create();
	config->sched.interval_ms = 4;
	config->source.sched_interval = FW_CONFIG_FLAG;
	CHECK(hints_config_parse_target(&config->hints, "output:nice=3"));
	config->source.hint_map[RATINGS_OUTPUT] = FW_CONFIG_FLAG;
	CHECK(fw_config_file_parse(config, "cfg",
			"scheduler interval 3\n"
			"scheduler max-slice 9\n"
			"scheduler hint-map output:nice=7\n"
			"scheduler hint-map background:nice=5\n"));
	CHECK(config->sched.interval_ms == 4);
	CHECK_INT(config->source.sched_interval, FW_CONFIG_FLAG);
	CHECK(config->sched.max_slice_ms == 9);
	CHECK_INT(config->source.sched_max_slice, FW_CONFIG_FILE);
	CHECK_INT(config->hints.targets[RATINGS_OUTPUT].nice, 3);
	CHECK_INT(config->hints.targets[RATINGS_BACKGROUND].nice, 5);
	/* A bad value is an error whoever wins. */
	CHECK(!fw_config_file_parse(config, "cfg", "scheduler interval 0\n"));
	config_destroy(config);
}

static void test_rules(void) {
	struct fw_config *config =
			parse("rule app_id=org.gnome.* priority 5 spoofable\n"
				  "rule exe=/usr/bin/make hint background priority -10\n"
				  "rule class=XTerm hint interactive spoofable\n"
				  "rule exe=*/mpv hint policy=batch,nice=5,slice_us=0\n"
				  "rule exe=/usr/bin/top hint keep\n"
				  "rule exe=/opt/*/bin/game priority -3\n"
				  "rule app_id=org.example.* priority -2 hint background\n",
					true);
	CHECK_INT(config->rule_count, 7);
	const struct fw_rule *r = &config->rules[0];
	CHECK_INT(r->match, FW_MATCH_APP_ID);
	CHECK_STR(r->pattern, "org.gnome.*");
	CHECK(r->has_priority && r->priority == 5 && r->hint == FW_HINT_NONE);
	CHECK(r->claimable);
	CHECK_INT(r->line, 1);
	r = &config->rules[1];
	CHECK_INT(r->match, FW_MATCH_EXE);
	CHECK(r->has_priority && r->priority == -10);
	CHECK(r->hint == FW_HINT_CLASS && r->class == RATINGS_BACKGROUND);
	CHECK(!r->claimable);
	r = &config->rules[2];
	CHECK_INT(r->match, FW_MATCH_X_CLASS);
	CHECK(!r->has_priority && r->class == RATINGS_INTERACTIVE);
	CHECK(r->claimable);
	/* A directory left open is anyone's to fill. */
	CHECK(config->rules[3].claimable && config->rules[5].claimable);
	CHECK(config->rules[6].claimable && !config->rules[4].claimable);
	/* A target of its own, in hint-map's words. */
	r = &config->rules[3];
	CHECK_INT(r->hint, FW_HINT_TARGET);
	CHECK(!r->target.keep);
	CHECK_INT(r->target.policy, SCHED_BATCH);
	CHECK(r->target.set_nice && r->target.nice == 5);
	CHECK_INT(r->target.slice_ns, 0);
	CHECK_INT(r->target.uclamp_min, -1);
	r = &config->rules[4];
	CHECK(r->hint == FW_HINT_TARGET && r->target.keep);
	config_destroy(config);
}

/* Every bad line is reported with its number, not only the first. */
static void test_errors(void) {
	static const struct {
		const char *line;
		const char *message; /* a part of it */
	} cases[] = {
			{"frobnicate 3", "unknown directive 'frobnicate'"},
			{"bind Hyper+x close", "unknown modifier 'Hyper'"},
			{"bind Super+NoSuchKey close", "unknown key 'NoSuchKey'"},
			{"bind Super+x", "usage: bind"},
			{"bind Super+x launch", "unknown action 'launch'"},
			{"bind Super+x close now", "'close' takes no arguments"},
			{"bind Super+x exec 'unterminated", "unterminated ' quote"},
			{"bind Super+x exec echo \"open", "unterminated \" quote"},
			{"unbind Super+z", "nothing is bound to Super+z"},
			{"output HDMI-A-1", "usage: output"},
			{"output HDMI-A-1 mode 1920", "bad mode '1920'"},
			{"output HDMI-A-1 mode 1920x1080@fast", "bad mode"},
			{"output HDMI-A-1 scale 0", "bad scale '0'"},
			{"output HDMI-A-1 transform 45", "bad transform '45'"},
			{"output HDMI-A-1 position 10", "bad position '10'"},
			{"output HDMI-A-1 scale", "'scale' needs a value"},
			{"output HDMI-A-1 brightness 3", "unknown output setting"},
			{"keyboard repeat-rate fast", "bad repeat-rate 'fast'"},
			{"keyboard repeat-delay 0", "bad repeat-delay '0'"},
			{"keyboard colour red", "unknown keyboard setting 'colour'"},
			{"keyboard layout", "usage: keyboard"},
			{"pointer accel 2", "bad accel '2'"},
			{"pointer tap maybe", "bad tap 'maybe'"},
			{"pointer accel-profile curvy", "bad accel-profile"},
			{"exec", "exec needs a command"},
			{"scheduler interval 0", "bad interval '0'"},
			{"scheduler max-slice 5000", "bad max-slice '5000'"},
			{"scheduler hint-map loud:nice=1", "bad hint-map"},
			{"scheduler hint-map output:nice=99", "bad hint-map"},
			{"scheduler quantum 3", "unknown scheduler setting"},
			{"rule app_id=foot", "usage: rule"},
			{"rule title=foot priority 1", "bad match 'title=foot'"},
			{"rule app_id= priority 1", "empty pattern"},
			{"rule app_id=foot priority 21", "bad priority '21'"},
			{"rule exe=/usr/bin/foot hint urgent", "bad hint 'urgent'"},
			{"rule exe=/usr/bin/foot hint nice=-30", "bad hint 'nice=-30'"},
			{"rule exe=/usr/bin/foot hint policy=fifo",
					"bad hint 'policy=fifo'"},
			{"rule exe=/usr/bin/foot nice 3", "unknown rule setting 'nice'"},
			{"rule exe=foot priority -1", "exe= matches the executable's full"},
			{"rule app_id=foot priority 1", "needs 'spoofable'"},
			{"rule app_id=foot hint interactive", "needs 'spoofable'"},
			{"rule app_id=foot hint output", "needs 'spoofable'"},
			{"rule class=XTerm hint nice=-1", "needs 'spoofable'"},
			{"rule exe=*/foot priority 2", "needs 'spoofable'"},
			{"rule app_id=foot spoofable", "usage: rule"},
			{"rule class=XTerm priority 3", "share Xwayland's connection"},
	};
	const size_t count = sizeof(cases) / sizeof(*cases);
	char text[8192] = "";
	for (size_t i = 0; i < count; i++) {
		strcat(text, "bind Super+b close\n"); /* good lines in between */
		strcat(text, cases[i].line);
		strcat(text, "\n");
	}
	struct fw_config *config = parse(text, false);
	for (size_t i = 0; i < config->error_count && i < count; i++) {
		char prefix[32];
		snprintf(prefix, sizeof(prefix), "cfg:%zu: ", 2 * i + 2);
		if (strncmp(config->errors[i], prefix, strlen(prefix)) != 0 ||
				strstr(config->errors[i], cases[i].message) == NULL) {
			fprintf(stderr, "for \"%s\" want \"%s...%s...\", got \"%s\"\n",
					cases[i].line, prefix, cases[i].message, config->errors[i]);
			exit(1);
		}
	}
	CHECK_INT(config->error_count, count);
	/* A bad output line changes nothing, even its good settings. */
	struct fw_output_config out;
	CHECK(!fw_config_output(config, "HDMI-A-1", &out));
	config_destroy(config);
}

static void test_bad_keymap(void) {
	struct fw_config *config = parse("keyboard layout us\n"
									 "keyboard layout no-such-layout\n"
									 "bind Super+b close\n",
			false);
	CHECK_INT(config->error_count, 1);
	CHECK(strncmp(config->errors[0],
				  "cfg:2: no keymap compiles from layout "
				  "'no-such-layout'",
				  43) == 0);
	config_destroy(config);
}

/*
 * A last line that ends in blanks, a tab or a CR and no newline: each is
 * read to its end (the parser once stepped past the trimmed length only,
 * and spun for ever). The meson timeout turns a hang into a failure.
 */
static void test_trailing_blanks(void) {
	static const char *const empty[] = {" ", "\t", "\r", " \t\r", "\n \r",
			"# a comment\r", "# a comment \t"};
	for (size_t i = 0; i < sizeof(empty) / sizeof(*empty); i++) {
		config_destroy(parse(empty[i], true));
	}
	static const char *const exec[] = {"exec true\r\n\r", "exec true ",
			"exec true\t \r", "\r\nexec true\n\t"};
	for (size_t i = 0; i < sizeof(exec) / sizeof(*exec); i++) {
		struct fw_config *config = parse(exec[i], true);
		CHECK_INT(config->autostart_count, 1);
		CHECK_STR(config->autostart[0], "true");
		config_destroy(config);
	}
}

/*
 * A file that is no configuration (--check-config /etc/shadow) gets one
 * error and no word of it is echoed; in a configuration, a line that
 * begins with something no directive could be called is not echoed
 * either, while a misspelt directive still is.
 */
static void test_no_echo(void) {
	struct fw_config *config =
			parse("s3cret-token\nexec true\nroot:x:0:0\n", false);
	CHECK_INT(config->error_count, 1);
	CHECK(strstr(config->errors[0], "cfg:1: not a fairway configuration") ==
			config->errors[0]);
	CHECK_INT(config->autostart_count, 0);
	config_destroy(config);
	config = parse("\n# comment\nalice:$y$j9T$hash:20228::::::\n", false);
	CHECK_INT(config->error_count, 1);
	CHECK(strstr(config->errors[0], "alice") == NULL);
	config_destroy(config);
	config = parse("exec true\nfrobnicate now\nroot:x:0:0 tail\n", false);
	CHECK_INT(config->error_count, 2);
	CHECK(strstr(config->errors[0], "unknown directive 'frobnicate'") != NULL);
	CHECK(strstr(config->errors[1], "cfg:3: ") == config->errors[1]);
	CHECK(strstr(config->errors[1], "root") == NULL);
	config_destroy(config);
}

/* As root, only a file root owns and no one else may write. */
static void test_load_as_root(void) {
	if (geteuid() != 0) {
		fprintf(stderr, "not root: ownership checks skipped\n");
		return;
	}
	char path[] = "/tmp/fw-config-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(write(fd, "exec true\n", 10) == 10);
	close(fd);
	static const struct {
		uid_t uid;
		mode_t mode;
		bool ok;
	} cases[] = {
			{0, 0644, true},
			{0, 0600, true},
			{0, 0664, false},
			{0, 0646, false},
			{65534, 0644, false},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		CHECK(chown(path, cases[i].uid, (gid_t)-1) == 0);
		CHECK(chmod(path, cases[i].mode) == 0);
		struct fw_config *config = config_create();
		CHECK(fw_config_file_load(config, path) == cases[i].ok);
		if (!cases[i].ok) {
			CHECK(strstr(config->errors[0], "fairway runs as root") != NULL);
		}
		config_destroy(config);
	}
	unlink(path);
}

static void test_load(void) {
	struct fw_config *config = config_create();
	CHECK(!fw_config_file_load(config, "/nonexistent/fairway.conf"));
	CHECK_INT(config->error_count, 1);
	CHECK_STR(config->errors[0],
			"/nonexistent/fairway.conf: cannot read: No such file or "
			"directory");
	config_destroy(config);

	char path[] = "/tmp/fw-config-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	const char text[] = "bind Super+x close\r\noutput X-1 scale 2";
	CHECK(write(fd, text, sizeof(text) - 1) == (ssize_t)sizeof(text) - 1);
	close(fd);
	config = config_create();
	CHECK(fw_config_file_load(config, path));
	struct fw_output_config out;
	CHECK(fw_config_output(config, "X-1", &out) && out.scale == 2);
	config_destroy(config);
	unlink(path);

	/* No regular file: refused, never waited on. */
	CHECK(mkfifo(path, 0600) == 0);
	config = config_create();
	CHECK(!fw_config_file_load(config, path));
	CHECK(strstr(config->errors[0], "not a regular file") != NULL);
	config_destroy(config);
	unlink(path);
	config = config_create();
	CHECK(!fw_config_file_load(config, "/tmp"));
	CHECK(strstr(config->errors[0], "not a regular file") != NULL);
	config_destroy(config);

	/* /dev/null is no configuration at all, not a refused one. */
	config = config_create();
	CHECK(fw_config_file_load(config, "/dev/null"));
	CHECK_INT(config->error_count, 0);
	CHECK_INT(config->binding_count, 4);
	config_destroy(config);

	/* Nor one past FW_CONFIG_MAX_BYTES. */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	CHECK(fd >= 0);
	CHECK(ftruncate(fd, FW_CONFIG_MAX_BYTES + 1) == 0);
	close(fd);
	config = config_create();
	CHECK(!fw_config_file_load(config, path));
	CHECK(strstr(config->errors[0], "larger than") != NULL);
	config_destroy(config);
	unlink(path);
}

int main(void) {
	RUN_TEST(test_defaults);
	RUN_TEST(test_bindings);
	RUN_TEST(test_outputs);
	RUN_TEST(test_input_and_scheduler);
	RUN_TEST(test_flags_win);
	RUN_TEST(test_rules);
	RUN_TEST(test_errors);
	RUN_TEST(test_bad_keymap);
	RUN_TEST(test_trailing_blanks);
	RUN_TEST(test_no_echo);
	RUN_TEST(test_load_as_root);
	RUN_TEST(test_load);
	return 0;
}
