/* A third translation unit of c99_units: the same static names again. */
#include "c99_units.h"

int units_total = 100;

static int calls = 0;
static double sum = 0.0;

static const char* describe(void) { return "stats"; }

void stats_add(double value) {
  calls++;
  sum += twice(value) / 2.0;
}

double stats_mean(void) { return calls ? sum / calls : 0.0; }

int stats_count(void) { return calls + (describe()[0] == 's' ? 1000 : 0); }

static double biggest(double a, double b) { return a > b ? a : b; }

double (*stats_reducer(void))(double, double) { return biggest; }
