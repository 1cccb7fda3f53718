/* killer_support.h - what the parts of the killer suite (test_killer*.c)
 * share: the puzzles of tests/data/killer_puzzles, a blank grid, and
 * parsing that fails the running test on error. */
#ifndef KILLER_SUPPORT_H
#define KILLER_SUPPORT_H

#include <stddef.h>

#include "killer.h"
#include "sudoku.h"

/* The most puzzles a test reads from the file. */
#define KT_MAX_PUZZLES 200

/* A puzzle of the file: its givens, solution, cages and number of givens. */
struct kt_puzzle {
    struct sudoku_grid puzzle, solution;
    struct killer_cages cages;
    unsigned givens;
};

/* 81 dots: a grid with no givens. */
extern const char kt_blank[];

/* Reads up to max puzzles of tests/data/killer_puzzles (run from the
 * repository root) into out; returns how many. */
size_t kt_load_set(struct kt_puzzle *out, size_t max);

/* The grid of an 81-character line. */
struct sudoku_grid kt_grid_of(const char *text);

/* Parses the cages of text into *k. */
void kt_parse_ok(const char *text, struct killer_cages *k);

/* k as the API's "cages" value, [{"sum": s, "cells": [[r, c], ...]}, ...],
 * into out (size bytes; the running test fails if it does not fit). */
void kt_cages_json(const struct killer_cages *k, char *out, size_t size);

#endif
