/* Included by preprocessor_include.br (not a test itself). */
#ifndef INCLUDE_HELPER_H
#define INCLUDE_HELPER_H
#define HELPER_SCALE 3
int helper_triple(int x) { return x * HELPER_SCALE; }
struct HelperPair { int a, b; };
#endif
