/* Shared by pair_kern.br and pair_main.br, each translated by its own
   `brook cc`: the anonymous struct is one type in the program. */
typedef struct {
  float x;
  float y;
} Pair;
