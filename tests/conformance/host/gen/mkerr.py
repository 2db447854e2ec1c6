# Writes runtime-error conformance tests: NAME.br, NAME.out (stdout before the error)
# and NAME.err (the diagnostic: location line, source line, caret).
import os, sys
H = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
tests = []
# `inner` and `callers`: the call stack printed under the caret (innermost
# function, then each caller with the line and token of its call, and how many
# times that call repeats in a recursion).
def t(name, src, line, token, message, out, occurrence=1, inner=None, callers=()):
    tests.append((name, src, line, token, message, out, occurrence, inner, callers))

def column(name, lines, line, token, occ):
    text = lines[line - 1]
    pos = -1
    for _ in range(occ):
        pos = text.find(token, pos + 1)
        assert pos >= 0, (name, token)
    return pos + 1

t('err_index_past_end', '''// Writing a[10] into int a[10]: one past the last element.
int main() {
  int a[10];
  for (int i = 0; i < 10; i++) a[i] = i;
  printf("filled\\n");
  int i = 10;
  a[i] = 1;
  printf("not reached\\n");
  return 0;
}
''', 7, '[', "index 10 is out of bounds for type 'int[10]'", 'filled\n')

t('err_index_negative', '''// Counting down one step too far reads a[-1].
int main() {
  int a[5] = {1, 2, 3, 4, 5};
  int sum = 0;
  for (int i = 4; i >= -1; i--) {
    printf("i = %d\\n", i);
    sum += a[i];
  }
  printf("sum %d\\n", sum);
  return 0;
}
''', 7, '[', "index -1 is out of bounds for type 'int[5]'", 'i = 4\ni = 3\ni = 2\ni = 1\ni = 0\ni = -1\n')

t('err_index_2d_row', '''// The row index of a 2-D array is checked against the number of rows.
int main() {
  int m[3][4];
  int r = 3;
  printf("rows: 3\\n");
  m[r][0] = 1;
  return 0;
}
''', 6, '[', "index 3 is out of bounds for type 'int[3][4]'", 'rows: 3\n')

t('err_index_2d_row_overflow', '''// m[1][4] stays inside the array's memory but overflows row 1: still an error.
int main() {
  int m[3][4];
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 4; c++) m[r][c] = r * 4 + c;
  printf("m[1][3] = %d\\n", m[1][3]);
  int c = 4;
  printf("m[1][4] = %d\\n", m[1][c]);
  return 0;
}
''', 8, '[', "index 4 is out of bounds for type 'int[4]'", 'm[1][3] = 7\n', occurrence=4)

t('err_index_struct_field', '''// An array field is bounded by its own size, not by the struct around it.
struct S { int a[4]; int b; };
int main() {
  struct S s;
  s.b = 7;
  printf("b = %d\\n", s.b);
  int i = 4;
  s.a[i] = 1;
  printf("b = %d\\n", s.b);
  return 0;
}
''', 8, '[', "index 4 is out of bounds for type 'int[4]'", 'b = 7\n')

t('err_index_char_array', '''// Filling a char array one element too far.
int main() {
  char name[8];
  for (int n = 0; n <= 8; n++) {
    printf("%d ", n);
    name[n] = 'a' + n;
  }
  printf("\\n");
  return 0;
}
''', 6, '[', "index 8 is out of bounds for type 'char[8]'", '0 1 2 3 4 5 6 7 8 ')

t('err_index_global', '''// A global array indexed past its end from inside a function.
double g[5];
double get(int j) {
  return g[j];
}
int main() {
  printf("%.1f\\n", get(4));
  printf("%.1f\\n", get(5));
  return 0;
}
''', 4, '[', "index 5 is out of bounds for type 'double[5]'", '0.0\n', inner='get', callers=[('main', 8, 'get', 1, 1)])

t('err_ptr_past_malloc', '''// A pointer walking off the end of a malloc block.
int main() {
  int* p = (int*)malloc(10 * sizeof(int));
  for (int i = 0; i < 10; i++) p[i] = i;
  printf("filled\\n");
  int sum = 0;
  int* q = p;
  for (int i = 0; i <= 10; i++) sum += *q++;
  printf("sum %d\\n", sum);
  return 0;
}
''', 8, '*', "out-of-bounds access: 4 bytes at offset 40 of a 40-byte block from malloc (line 3)", 'filled\n', occurrence=1)

t('err_ptr_index_malloc', '''// Indexing a pointer past its malloc block reports the byte offset and size.
double average(double* values, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += values[i];
  return s / n;
}
int main() {
  double* d = (double*)malloc(3 * sizeof(double));
  d[0] = 1; d[1] = 2; d[2] = 6;
  printf("%.1f\\n", average(d, 3));
  printf("%.1f\\n", average(d, 4));
  return 0;
}
''', 4, '[', "out-of-bounds access: 8 bytes at offset 24 of a 24-byte block from malloc (line 8)", '3.0\n',
  inner='average', callers=[('main', 11, 'average', 1, 1)])

t('err_null_deref', '''// Writing through a null pointer.
int main() {
  int x = 1;
  int* p = &x;
  *p = 2;
  printf("x = %d\\n", x);
  p = 0;
  *p = 3;
  return 0;
}
''', 8, '*', "null pointer dereference", 'x = 2\n')

t('err_null_arrow', '''// p->f on a null struct pointer.
struct Node { int value; struct Node* next; };
int main() {
  struct Node last = {3, 0};
  struct Node* n = &last;
  printf("value %d\\n", n->value);
  n = n->next;
  printf("value %d\\n", n->value);
  return 0;
}
''', 8, '->', "null pointer dereference", 'value 3\n')

t('err_null_index', '''// Indexing a null pointer.
int main() {
  char* s = 0;
  printf("indexing\\n");
  char c = s[0];
  printf("%c\\n", c);
  return 0;
}
''', 5, '[', "null pointer dereference", 'indexing\n')

t('err_use_after_free', '''// Reading memory after it was freed.
int main() {
  int* p = (int*)malloc(4 * sizeof(int));
  p[0] = 11;
  printf("%d\\n", *p);
  free(p);
  printf("freed\\n");
  printf("%d\\n", *p);
  return 0;
}
''', 8, '*', "use of memory after free", '11\nfreed\n')

t('err_use_after_free_arrow', '''// Writing a field of a freed struct.
struct Node { int value; };
int main() {
  struct Node* n = (struct Node*)malloc(sizeof(struct Node));
  n->value = 1;
  printf("value %d\\n", n->value);
  free(n);
  n->value = 2;
  return 0;
}
''', 8, '->', "use of memory after free", 'value 1\n')

t('err_dangling_local', '''// A pointer to a local variable of a function that has returned.
int* make() {
  int local = 42;
  return &local;
}
int main() {
  int* p = make();
  printf("got a pointer\\n");
  printf("%d\\n", *p);
  return 0;
}
''', 9, '*', "use of a pointer to a variable that no longer exists", 'got a pointer\n')

t('err_dangling_array', '''// A local array returned from a function no longer exists.
int* numbers() {
  int arr[3] = {1, 2, 3};
  return arr;
}
int main() {
  int* p = numbers();
  printf("calling done\\n");
  int second = p[1];
  printf("%d\\n", second);
  return 0;
}
''', 9, '[', "use of a pointer to a variable that no longer exists", 'calling done\n')

t('err_double_free', '''// Freeing the same block twice.
int main() {
  char* buf = (char*)malloc(16);
  strcpy(buf, "data");
  printf("%s\\n", buf);
  free(buf);
  printf("freed once\\n");
  free(buf);
  return 0;
}
''', 8, 'free', "double free", 'data\nfreed once\n')

t('err_free_stack_array', '''// free() of an array that malloc did not allocate.
int main() {
  int a[4] = {1, 2, 3, 4};
  printf("%d\\n", a[3]);
  free(a);
  return 0;
}
''', 5, 'free', "free() of a pointer that malloc did not return", '4\n')

t('err_free_interior', '''// free() needs the pointer malloc returned, not one inside the block.
int main() {
  char* p = (char*)malloc(8);
  char* q = p + 1;
  printf("offset %ld\\n", q - p);
  free(q);
  return 0;
}
''', 6, 'free', "free() of a pointer that malloc did not return", 'offset 1\n')

t('err_div_zero', '''// Integer division by zero.
int divide(int a, int b) {
  return a / b;
}
int main() {
  printf("%d\\n", divide(7, 2));
  printf("%d\\n", divide(7, 0));
  return 0;
}
''', 3, '/', "integer division by zero", '3\n', inner='divide', callers=[('main', 7, 'divide', 1, 1)])

t('err_mod_zero', '''// Integer remainder by zero, unsigned operands.
int main() {
  unsigned int n = 10;
  unsigned int m = 0;
  printf("%u\\n", n % 3);
  printf("%u\\n", n % m);
  return 0;
}
''', 6, '%', "integer remainder by zero", '1\n', occurrence=2)

t('err_div_assign_zero', '''// /= by zero reports the compound operator.
int main() {
  long total = 100;
  long parts = 0;
  printf("total %ld\\n", total);
  total /= parts;
  printf("total %ld\\n", total);
  return 0;
}
''', 6, '/=', "integer division by zero", 'total 100\n')

t('err_deep_recursion', '''// Unbounded recursion stops at 10000 nested calls.
int down(int n) {
  return down(n + 1) + 1;
}
int main() {
  printf("recursing\\n");
  return down(0);
}
''', 3, 'down', "stack overflow: more than 10000 nested calls", 'recursing\n',
  inner='down', callers=[('down', 3, 'down', 1, 9998), ('main', 7, 'down', 1, 1)])

t('err_printf_double_for_d', '''// A %d conversion given a double (the format is not a literal, so it is checked at run time).
int main() {
  const char* fmt = "value %d\\n";
  printf(fmt, 3);
  printf(fmt, 2.5);
  return 0;
}
''', 5, 'printf', "format '%d' expects an 'int' argument, but argument 2 is a 'double'", 'value 3\n')

t('err_printf_too_few', '''// A format with more conversions than arguments.
int main() {
  const char* fmt = "%d and %d\\n";
  printf(fmt, 1, 2);
  printf(fmt, 1);
  return 0;
}
''', 5, 'printf', "too few arguments for format", '1 and 2\n')

t('err_sprintf_mismatch', '''// sprintf checks its format too; arguments are counted from sprintf's first.
int main() {
  char buf[32];
  const char* fmt = "%d";
  sprintf(buf, fmt, 12);
  printf("%s\\n", buf);
  sprintf(buf, fmt, 1.5);
  return 0;
}
''', 7, 'sprintf', "format '%d' expects an 'int' argument, but argument 3 is a 'double'", '12\n')

t('err_assert_fail', '''// A failing assert names its condition as written.
int main() {
  int x = 5;
  assert(x > 0);
  printf("first assert held\\n");
  assert(x == 4);
  printf("not reached\\n");
  return 0;
}
''', 6, 'assert', "assertion failed: x == 4", 'first assert held\n')

t('err_abort', '''// abort() ends the program with a runtime error.
void fail() {
  abort();
}
int main() {
  printf("about to abort\\n");
  fail();
  printf("not reached\\n");
  return 0;
}
''', 3, 'abort', "abort() called", 'about to abort\n', inner='fail', callers=[('main', 7, 'fail', 1, 1)])

t('err_malloc_huge', '''// Requests above 1 GiB fail with a runtime error instead of returning null.
int main() {
  char* ok = (char*)malloc(1000);
  ok[999] = 1;
  printf("small allocation fine\\n");
  char* big = (char*)malloc(2000000000);
  big[0] = 1;
  return 0;
}
''', 6, 'malloc', "out of memory: cannot allocate 2000000000 bytes", 'small allocation fine\n')

t('err_strlen_unterminated', '''// strlen of bytes without a terminating NUL inside their block.
int main() {
  char* s = (char*)malloc(3);
  memcpy(s, "abc", 3);
  printf("%c%c%c\\n", s[0], s[1], s[2]);
  int n = strlen(s);
  printf("%d\\n", n);
  return 0;
}
''', 6, 'strlen', "string is not NUL-terminated within its object", 'abc\n')

t('err_strtok_literal', '''// strtok writes its NULs into the string: a string literal is read-only.
int main() {
  char line[] = "a,b";
  printf("%s\\n", strtok(line, ","));
  char* t = strtok("c,d", ",");
  printf("%s\\n", t);
  return 0;
}
''', 5, 'strtok', "write to a string literal", 'a\n')

t('err_printf_s_unterminated', '''// %s reading past the end of an unterminated buffer.
int main() {
  char* s = (char*)malloc(4);
  memset(s, 'x', 4);
  printf("%d\\n", s[3]);
  printf("%s\\n", s);
  return 0;
}
''', 6, 'printf', "string is not NUL-terminated within its object", '120\n')

t('err_file_after_fclose', '''// A FILE* is a checked object: reading one after fclose is an error, not a crash.
#include <stdio.h>
int main() {
  FILE* f = fopen("err_file_after_fclose.tmp", "w");
  fprintf(f, "12\\n");
  fclose(f);
  f = fopen("err_file_after_fclose.tmp", "r");
  int n = 0;
  fscanf(f, "%d", &n);
  printf("read %d\\n", n);
  fclose(f);
  remove("err_file_after_fclose.tmp");
  fgetc(f);
  return 0;
}
''', 13, 'fgetc', "not a file opened by fopen, or already closed", 'read 12\n')

t('err_scanf_wrong_pointer', '''// scanf's pointer must match its conversion: %d stores an int, not a double.
#include <stdio.h>
int main() {
  double d = 0;
  const char* fmt = "%d";
  printf("scanning\\n");
  sscanf("42", fmt, &d);
  return 0;
}
''', 7, 'sscanf', "format '%d' expects 'int*', but argument 3 of 'sscanf' has type 'double*'", 'scanning\n')

t('err_top_level_div', '''// A runtime error in a top-level statement stops the script.
int zero = 0;
printf("before\\n");
int bad = 10 / zero;
printf("after\\n");
''', 4, '/', "integer division by zero", 'before\n')

t('err_call_null_function_pointer', '''// Calling through a null function pointer is a runtime error, not a crash.
#include <stdio.h>
typedef int (*op_fn)(int);
int twice(int x) { return 2 * x; }
op_fn pick(int i) { return i == 0 ? twice : NULL; }
int main() {
  int i;
  for (i = 0; i < 2; i++) {
    op_fn f = pick(i);
    printf("calling %d\\n", i);
    printf("%d\\n", f(5));
  }
  return 0;
}
''', 11, 'f(5', "call through a null function pointer", 'calling 0\n10\ncalling 1\n')

t('err_call_incompatible_function_pointer', '''// Calling a function through a pointer to another function type is undefined
// in C (6.3.2.3p8); here it is reported.
#include <stdio.h>
double half(double x) { return x / 2; }
typedef int (*int_fn)(int);
int main() {
  int_fn f = (int_fn)half;
  printf("cast done\\n");
  printf("%d\\n", f(3));
  return 0;
}
''', 9, 'f(3', "function 'half' has type 'double (double)' but is called as 'int (int)'", 'cast done\n')

t('err_function_pointer_as_data', '''// A function pointer converted to a data pointer cannot be read through.
#include <stdio.h>
int one(void) { return 1; }
int main() {
  int (*f)(void) = one;
  unsigned char* bytes = (unsigned char*)f;
  printf("%d\\n", f());
  printf("%d\\n", bytes[0]);
  return 0;
}
''', 8, '[', "dereference of a function pointer as data", '1\n')

t('err_qsort_null_comparator', '''// qsort's comparison function is called through its pointer: null is an error.
#include <stdio.h>
#include <stdlib.h>
int main() {
  int a[3] = {3, 1, 2};
  printf("sorting\\n");
  qsort(a, 3, sizeof(int), NULL);
  printf("%d\\n", a[0]);
  return 0;
}
''', 7, 'qsort', "call through a null function pointer", 'sorting\n')

t('err_va_arg_wrong_type', '''// va_arg must name the type the argument travelled as; a long read of an int
// is undefined in C (7.15.1.1) and reported here.
#include <stdarg.h>
#include <stdio.h>
long total(int n, ...) {
  va_list ap;
  long sum = 0;
  va_start(ap, n);
  while (n-- > 0) sum += va_arg(ap, long);
  va_end(ap);
  return sum;
}
int main() {
  printf("%ld\\n", total(2, 1L, 2L));
  printf("%ld\\n", total(2, 1L, 2));
  return 0;
}
''', 9, 'va_arg', "va_arg(ap, long) reads variadic argument 2, which is an 'int'", '3\n',
  inner='total', callers=(('main', 15, 'total', 1, 1),))

t('err_va_arg_past_end', '''// Reading more variadic arguments than the call passed is undefined in C.
#include <stdarg.h>
#include <stdio.h>
int sum(int n, ...) {
  va_list ap;
  int s = 0;
  va_start(ap, n);
  for (int i = 0; i < n; i++) s += va_arg(ap, int);
  va_end(ap);
  return s;
}
int main() {
  printf("%d\\n", sum(3, 1, 2, 3));
  printf("%d\\n", sum(4, 1, 2, 3));
  return 0;
}
''', 8, 'va_arg', "va_arg reads variadic argument 4, but the call passed 3", '6\n',
  inner='sum', callers=(('main', 14, 'sum', 1, 1),))

t('err_flexible_member_past_block', '''// A flexible array member indexes the memory after its struct: past the
// block that holds it is out of bounds, for a malloc'd and a local struct.
struct Text { int len; char data[]; };
int main() {
  struct Text* t = (struct Text*)malloc(sizeof(struct Text) + 2);
  t->data[1] = 'a';
  printf("%c\\n", t->data[1]);
  struct Text local;
  local.len = 0;
  local.data[0] = 'b';
  return 0;
}
''', 10, '[', "out-of-bounds access: 1 byte at offset 4 of 'local' (4 bytes)", 'a\n')

t('err_raise_default', '''// raise() of a signal whose disposition is SIG_DFL and whose default action
// ends the process (SIGTERM): a runtime error naming the signal.
#include <signal.h>
int main() {
  printf("raising\\n");
  signal(SIGTERM, SIG_DFL);
  raise(SIGTERM);
  printf("not reached\\n");
  return 0;
}
''', 7, 'raise', "raise(SIGTERM): the signal's default action ends the program", 'raising\n')

t('err_longjmp_returned', '''// longjmp to a setjmp whose function has returned: a runtime error, not a
// jump into a frame that is gone.
#include <setjmp.h>
jmp_buf env;
void arm() {
  if (setjmp(env)) printf("not reached\\n");
}
int main() {
  arm();
  printf("armed\\n");
  longjmp(env, 1);
  return 0;
}
''', 11, 'longjmp', "longjmp to a setjmp whose function has returned", 'armed\n')

t('err_longjmp_block_ended', '''// longjmp to a setjmp in a block that has ended (its function still runs).
#include <setjmp.h>
int main() {
  jmp_buf env;
  int n = 0;
  {
    if (setjmp(env)) printf("not reached\\n");
  }
  n++;
  printf("block ended\\n");
  longjmp(env, 1);
  return n;
}
''', 11, 'longjmp', "longjmp to a setjmp that is no longer active (its block or function has ended)",
  'block ended\n')

t('err_longjmp_unfilled', '''// longjmp with a jmp_buf no setjmp filled.
#include <setjmp.h>
int main() {
  jmp_buf env = {0};
  printf("jumping\\n");
  longjmp(env, 1);
  return 0;
}
''', 6, 'longjmp', "longjmp with a jmp_buf that no setjmp filled", 'jumping\n')

t('err_setjmp_place', '''// setjmp in a for loop's condition cannot be resumed here (C allows it only
// as an expression statement or the condition of if/switch/while).
#include <setjmp.h>
int main() {
  jmp_buf env;
  int i;
  printf("start\\n");
  for (i = 0; setjmp(env) < 1; i++) printf("not reached\\n");
  return 0;
}
''', 8, 'setjmp', "setjmp is supported only as a statement of its own or the condition of an if, switch or while that sits directly in a block", 'start\n')

for name, src, line, token, message, out, occ, inner, callers in tests:
    lines = src.split('\n')
    text = lines[line - 1]
    col = column(name, lines, line, token, occ)
    err = f'{name}.br:{line}:{col}: runtime error: {message}\n{text}\n{" " * (col - 1)}^\n'
    if inner:
        err += f'  in {inner}()'
        for caller, cline, ctoken, cocc, times in callers:
            err += f', called from {caller}() at {name}.br:{cline}:{column(name, lines, cline, ctoken, cocc)}'
            if times > 1: err += f' ({times} times)'
        err += '\n'
    with open(os.path.join(H, name + '.br'), 'w') as f: f.write(src)
    with open(os.path.join(H, name + '.out'), 'w') as f: f.write(out)
    with open(os.path.join(H, name + '.err'), 'w') as f: f.write(err)
print(len(tests), 'error tests written')
