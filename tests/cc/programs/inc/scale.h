// Included by incl.br through -I (tests/cc/cli.sh).
#define SCALE 3.0f
