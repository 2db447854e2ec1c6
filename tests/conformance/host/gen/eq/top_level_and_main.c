int calls = 0;
static void top_level(void) {
  printf("top level first\n");
  calls++;
  printf("second top-level statement\n");
  calls += 10;
}
int main(int argc, char** argv) {
  top_level();
  printf("main sees calls=%d argc=%d argv[0]=%s\n", calls, argc, argv[0]);
  return calls;
}
