/* cli_variant.h - the `sudoku` command's other sizes and variant rules
 * (src/cli/cli_variant.c), the one entry point cli.c calls. */
#ifndef CLI_VARIANT_H
#define CLI_VARIANT_H

/* Runs the command when argv holds a variant option (--size, --box,
 * --regions, --diagonals, --anti-knight, --anti-king) and returns its exit
 * status; -1 when it holds none, so the classic command runs unchanged. */
int cli_variant_main(int argc, char **argv);

#endif
