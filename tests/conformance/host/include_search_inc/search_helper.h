/* Found through -I include_search_inc by include_search.br's <search_helper.h>. */
#ifndef SEARCH_HELPER_H
#define SEARCH_HELPER_H
#define HELPER_SCALE 3
static int helper_twice(int x) { return 2 * x * HELPER_SCALE / HELPER_SCALE; }
#endif
