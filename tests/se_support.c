/* se_support.c - reading SE's ratings (se_support.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "se_support.h"

size_t se_read_file(const char *path, struct se_rated *out, size_t max)
{
    FILE *f = fopen(path, "r");
    char line[256];
    size_t n = 0;

    if (f == NULL)
        fail_msg("%s: cannot be read (run from the repository root)", path);
    while (n < max && fgets(line, sizeof line, f)) {
        int a, b, c, d, e, g;
        if (line[0] == '#' || strlen(line) < 83 ||
            sscanf(line + 82, "%d.%d/%d.%d/%d.%d", &a, &b, &c, &d, &e, &g) != 6)
            continue;
        memcpy(out[n].puzzle, line, 81);
        out[n].puzzle[81] = '\0';
        out[n].er = a * 10 + b;
        out[n].ep = c * 10 + d;
        out[n].ed = e * 10 + g;
        n++;
    }
    fclose(f);
    return n;
}

const char *se_level_of(int er)
{
    return er <= 23   ? "easy"
           : er <= 34 ? "medium"
           : er <= 46 ? "hard"
           : er <= 74 ? "expert"
                      : "extreme";
}
