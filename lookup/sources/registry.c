/*
 * The player's sources (source.h): a new kind of file is a file in this folder and a row here.
 * A file is played by the first row that claims it.
 */
#include "source.h"

/* One row a line, as a new one adds a line. */
/* clang-format off */
const oxo_source_ops *const oxo_sources[] = {
    &oxo_source_table,
    &oxo_source_keyed,
    &oxo_source_plies,
    &oxo_source_book,
    &oxo_source_q,
    &oxo_source_td,
    &oxo_source_ntuple,
    &oxo_source_neat,
    &oxo_source_azero,
    &oxo_source_ensemble,
    &oxo_source_judged,
    NULL,
};
/* clang-format on */
