// Included by sema_error_in_include.br: the error must point here.
float half_of(float x) {
  return x / undefined_divisor;
}
