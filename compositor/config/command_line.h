#ifndef FAIRWAY_COMPOSITOR_CONFIG_COMMAND_LINE_H
#define FAIRWAY_COMPOSITOR_CONFIG_COMMAND_LINE_H

struct fw_config;

/*
 * Parses fairway's command line into config. 0: go on; 1: done (-h, -v
 * printed); 2: a bad flag, with the usage printed on stderr.
 */
int fw_command_line_parse(struct fw_config *config, int argc, char *argv[]);

#endif
