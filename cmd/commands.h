/*
 * The commands, one file each: mask.c has mask and list, xps.c xps and
 * rps.
 */
#ifndef IRQAFF_COMMANDS_H
#define IRQAFF_COMMANDS_H

#include "cmd/cli.h"

extern const struct command show_command;
extern const struct command set_command;
extern const struct command spread_command;
extern const struct command balance_command;
extern const struct command default_command;
extern const struct command isolate_command;
extern const struct command explain_command;
extern const struct command cpus_command;
extern const struct command top_command;
extern const struct command queues_command;
extern const struct command save_command;
extern const struct command restore_command;
extern const struct command check_command;
extern const struct command mask_command;
extern const struct command list_command;
extern const struct command xps_command;
extern const struct command rps_command;

#endif
