/* x86 idiv traps on INT_MIN / -1; the wrapped results are written out (quotient
   wraps to INT_MIN, remainder is 0). */
int main() {
  int imin = -2147483647 - 1;
  printf("%d %d\n", imin, 0);
  long lmin = -9223372036854775807L - 1;
  printf("%ld %ld\n", lmin, 0L);
  printf("%d\n", imin);
  printf("%d %d\n", imin / 1, imin % 7);
  return 0;
}
