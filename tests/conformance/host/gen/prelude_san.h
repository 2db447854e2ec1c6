#include "prelude.h"
__attribute__((constructor)) static void brook_unbuffer(void) { setvbuf(stdout, 0, _IONBF, 0); }
