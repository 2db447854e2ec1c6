// Struct streams from C++ before anything else touches brook: made from
// getStreamType((Sample*)0), read, blended by a kernel, reduced and written
// back. The expected output (main.out) is derived by hand.
#include <brook/brook.hpp>

#include <cstdio>
#include <vector>

typedef struct {
  float4 colour;
  float weight;
} Sample;

void kblend(::brook::stream a, ::brook::stream b, ::brook::stream c);
void kheaviest(::brook::stream s, ::brook::stream best);
void kheaviest(::brook::stream s, Sample& best);

int main() {
  ::brook::stream a(::brook::getStreamType((Sample*)0), 3, -1);
  ::brook::stream b(::brook::getStreamType((Sample*)0), 3, -1);
  ::brook::stream c(::brook::getStreamType((Sample*)0), 3, -1);
  std::vector<Sample> in_a = {{{1, 0, 0, 1}, 1}, {{0, 1, 0, 1}, 3}, {{0, 0, 1, 1}, 2}};
  std::vector<Sample> in_b = {{{0, 0, 1, 1}, 1}, {{1, 1, 1, 1}, 1}, {{1, 0, 0, 1}, 6}};
  std::vector<Sample> out(3);
  streamRead(a, in_a.data());
  streamRead(b, in_b.data());
  kblend(a, b, c);
  streamWrite(c, out.data());
  for (const Sample& s : out)
    std::printf("(%g %g %g %g) x%g\n", s.colour.x, s.colour.y, s.colour.z, s.colour.w, s.weight);
  // Reduced into a one-element stream, and into a host Sample.
  ::brook::stream heaviest(::brook::getStreamType((Sample*)0), 1, -1);
  kheaviest(c, heaviest);
  Sample best;
  streamWrite(heaviest, &best);
  std::printf("heaviest: (%g %g %g %g) x%g\n", best.colour.x, best.colour.y, best.colour.z,
              best.colour.w, best.weight);
  Sample host{{0, 0, 0, 0}, 0};
  kheaviest(c, host);
  best = host;
  std::printf("heaviest: (%g %g %g %g) x%g\n", best.colour.x, best.colour.y, best.colour.z, best.colour.w,
              best.weight);
  return 0;
}
