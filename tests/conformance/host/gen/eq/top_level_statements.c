/* The top-level statements moved into main, in order; declarations stay global. */
int total = 0;
int square(int x) { return x * x; }
int later;
double avg;
struct P { int a; };
struct P p = {9};
int main() {
  for (int i = 1; i <= 10; i++) total += i;
  printf("total %d\n", total);
  printf("square %d\n", square(total));
  if (total > 50) printf("big\n"); else printf("small\n");
  later = total * 2;
  printf("later %d\n", later);
  {
    int scoped = 3;
    printf("block %d\n", scoped + later);
  }
  avg = total / 10.0;
  printf("avg %.1f\n", avg);
  while (later > 100) later /= 2;
  printf("halved %d\n", later);
  p.a++;
  printf("p.a %d\n", p.a);
}
