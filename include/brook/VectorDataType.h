// Brook+'s header of host vector types (float2..4, int2..4, uint2..4, ...), which
// the AMD SDK samples' common.h includes: the same types as brook/Stream.h's.
// In a .br file run by brook the header is built in and these types are
// the language's own.
#pragma once

#include "brook/brookplus_core.h"
