// Brook+'s umbrella header: the stream class and what generated bindings use.
#pragma once

#include "brook/KernelInterface.h"
#include "brook/Stream.h"
