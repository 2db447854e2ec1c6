/* A second translation unit of c99_units: its own static helper `calls`. */
#include <stdio.h>
#include "c99_units.h"

static int calls = 0;

static const char* describe(void) { return "shapes"; }

double shape_area(const shape* s) {
  calls++;
  units_total++;
  if (s->kind == SHAPE_SQUARE) return s->size * s->size;
  return 3.14159 * s->size * s->size;
}

const char* shape_name(shape_kind k) {
  printf("[%s: call %d]\n", describe(), calls);
  return k == SHAPE_SQUARE ? "square" : "circle";
}
