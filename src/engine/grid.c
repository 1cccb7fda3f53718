/* grid.c - the one table of unit names (include/engine/grid.h). The
 * classic and the cover engine number their units alike, which the
 * assertions below hold, so one table serves both. */
#include "grid.h"

#include "cover.h"

_Static_assert((int)SUDOKU_ROW == (int)COVER_ROW &&
                   (int)SUDOKU_COLUMN == (int)COVER_COLUMN &&
                   (int)SUDOKU_BOX == (int)COVER_BOX,
               "sudoku and cover units share their numbers");
_Static_assert(COVER_KING == 6, "one name per enum cover_unit");

const char *grid_unit_name(unsigned kind)
{
    static const char *const names[] = {
        [COVER_ROW] = "row",     [COVER_COLUMN] = "column",
        [COVER_BOX] = "box",     [COVER_DIAGONAL] = "diagonal",
        [COVER_EXTRA] = "extra", [COVER_KNIGHT] = "knight",
        [COVER_KING] = "king",
    };

    return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : NULL;
}
