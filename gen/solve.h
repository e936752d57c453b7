/*
 * The generator's work, against the game interface: counting the game tree and solving every
 * position of a state space by retrograde analysis (children before parents, ply by ply).
 */
#ifndef OXO_SOLVE_H
#define OXO_SOLVE_H

#include "space.h"
#include "table.h"

/* Counts the game tree of g over its canonical space (oxo_space_count): tree nodes and games are
 * the move sequences reaching each position, which equals walking the tree node by node
 * (tests/test_enum.c does that walk independently). */
int oxo_count(const oxo_game *g, oxo_table_counts *c);

/* Solves every node of s: entries[i] = OXO_ENTRY(value for the side to move, distance). */
void oxo_solve(const oxo_space *s, uint8_t *entries);

/* Builds the table of g over its canonical space: counts, entries, generator name. NULL when out of
 * memory. */
oxo_table *oxo_build_table(const oxo_game *g);

#endif
