/* Supplies what C lacks to compile Brook host programs with gcc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <assert.h>
#include <stdbool.h>
#include <time.h>
typedef unsigned int uint;
typedef unsigned char uchar;
typedef unsigned short ushort;
#define brmalloc malloc
#define brfree free
