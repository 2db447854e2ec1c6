// The doctest runner. Keep it silent: anything printed before doctest runs
// becomes a bogus test name for doctest_discover_tests.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
