/* The header every unit of c99_units includes. */
#ifndef C99_UNITS_H
#define C99_UNITS_H

typedef enum { SHAPE_SQUARE, SHAPE_CIRCLE } shape_kind;

typedef struct shape {
  shape_kind kind;
  double size;
} shape;

/* Each unit that includes this has it (static inline: one per unit in C). */
static inline double twice(double x) { return 2.0 * x; }

extern int units_total;                      /* defined in c99_units_stats.c */
double shape_area(const shape* s);           /* c99_units_shapes.c */
const char* shape_name(shape_kind k);        /* c99_units_shapes.c */
void stats_add(double value);                /* c99_units_stats.c */
double stats_mean(void);                     /* c99_units_stats.c */
int stats_count(void);                       /* c99_units_stats.c */
double (*stats_reducer(void))(double, double); /* c99_units_stats.c */

#endif
