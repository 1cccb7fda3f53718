/* sudoku_avx512.c - the solver's kernel (sudoku.c's propagation and search)
 * built for AVX512: the Makefile compiles this file with the -m flags of
 * that path, and sudoku.c's dispatch calls it only on a CPU that has them.
 * Off x86-64 it is empty. */
#if defined(__x86_64__) && defined(__GNUC__)
#define SUDOKU_KERNEL sudoku_kernel_avx512
#include "sudoku.c"
#else
typedef int sudoku_avx512_unused; /* ISO C: no empty translation unit */
#endif
