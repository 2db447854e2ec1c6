int main() {
  printf("before exit\n");
  exit(5);
  printf("main must not run\n");
  return 0;
}
