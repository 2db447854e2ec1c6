// What a BrookGPU application writes by hand: the prototypes brcc gives the
// kernels of kernels.br, over BrookGPU's C++ interface: constants as brcc
// declared them (`const float& s`); kneighbour's by value, as earlier
// `brook cc` output declared it, which still links.
#ifndef KERNELS_PROTO_H
#define KERNELS_PROTO_H
#include <brook/brook.hpp>

void kscale(const float& s, ::brook::stream a, ::brook::stream b);
void kneighbour(::brook::stream a, const float n, ::brook::stream b);
void kshift4(::brook::stream a, const float4& by, ::brook::stream b);
void ksum(::brook::stream a, float& s);
void ksum(::brook::stream a, ::brook::stream s);
void kgrid(::brook::iter it, ::brook::stream b);
typedef struct {
  float4 pos;
  float2 vel;
} Particle;
void kstep(::brook::stream p, const float& dt, ::brook::stream q);
void khalfswap(::brook::stream a, ::brook::stream b);
#endif
