// A BrookGPU application's C++ main (a class, std::vector, iostream) over
// BrookGPU's host interface: streams made from getStreamType lists ended by
// -1, streamRead/streamWrite, kernels declared in its own header, a domain
// view, streamSize, a reduction to a host float and one into a stream. The
// expected output (main.out) is derived by hand.
#include <iostream>
#include <vector>

#include "kernels_proto.h"

class Grid {
 public:
  Grid(int rows, int cols) : rows_(rows), cols_(cols), s_(::brook::getStreamType((float*)0), rows, cols, -1) {}
  void fill(float base) {
    std::vector<float> v(rows_ * cols_);
    for (int i = 0; i < rows_ * cols_; ++i) v[i] = base + static_cast<float>(i);
    streamRead(s_, v.data());
  }
  std::vector<float> values() const {
    std::vector<float> v(rows_ * cols_);
    streamWrite(s_, v.data());
    return v;
  }
  ::brook::stream& stream() { return s_; }

 private:
  int rows_, cols_;
  ::brook::stream s_;
};

static void print(const char* what, const std::vector<float>& v) {
  std::cout << what << ":";
  for (float x : v) std::cout << " " << x;
  std::cout << "\n";
}

int main() {
  Grid g(2, 4), h(2, 4);
  g.fill(1.0f);  // 1..8
  kscale(2.0f, g.stream(), h.stream());
  print("kscale", h.values());  // 2 4 ... 16

  float4 size = streamSize(g.stream());
  std::cout << "streamSize: " << size.x << " " << size.y << " " << size.z << " " << size.w << "\n";

  float total = 0;
  ksum(h.stream(), total);
  std::cout << "ksum: " << total << "\n";  // 2+4+...+16 = 72

  // Rows fold into a <2, 1> stream: 2+4+6+8 = 20, 10+12+14+16 = 52.
  ::brook::stream rows(::brook::getStreamType((float*)0), 2, 1, -1);
  ksum(h.stream(), rows);
  std::vector<float> r(2);
  streamWrite(rows, r.data());
  print("ksum rows", r);

  // A 1-D gather with float indices: b[i] = a[i] + a[max(i-1, 0)] + 0.5.
  ::brook::stream a = ::brook::stream::create<float>(5);
  ::brook::stream b = ::brook::stream::create<float>(5);
  std::vector<float> in = {1, 10, 100, 1000, 10000}, out(5);
  streamRead(a, in.data());
  kneighbour(a, 0.5f, b);
  streamWrite(b, out.data());
  print("kneighbour", out);  // 2.5 11.5 110.5 1100.5 11000.5

  // The right half of h scaled in place into g's right half through views.
  kscale(-1.0f, h.stream().domain(int2{2, 0}, int2{4, 2}), g.stream().domain(int2{2, 0}, int2{4, 2}));
  print("domain", g.values());  // 1 2 -6 -8 5 6 -14 -16

  ::brook::stream v(::brook::getStreamType((float4*)0), 3, -1), w(::brook::getStreamType((float4*)0), 3, -1);
  std::vector<float4> vin = {{1, 2, 3, 4}, {5, 6, 7, 8}, {0, 0, 0, 0}}, vout(3);
  streamRead(v, vin.data());
  kshift4(v, float4{10, 20, 30, 40}, w);
  streamSwap(v, w);  // v now holds the result
  streamWrite(v, vout.data());
  std::cout << "kshift4:";
  for (const float4& x : vout) std::cout << " (" << x.x << " " << x.y << " " << x.z << " " << x.w << ")";
  std::cout << "\n";

  // BrookGPU's iterator from C++: <2, 3> over (0, 0)..(3, 2) steps by one in
  // x and y (LANGUAGE.md §6), so floor gives each element's column and row.
  ::brook::iter it(__BRTFLOAT2, 2, 3, -1, 0.0f, 0.0f, 3.0f, 2.0f, -1);
  ::brook::stream grid(::brook::getStreamType((float*)0), 2, 3, -1);
  kgrid(it, grid);
  std::vector<float> cells(6);
  streamWrite(grid, cells.data());
  print("kgrid", cells);  // 0 10 20 1 11 21

  // A stream of a .br struct: getStreamType((Particle*)0) comes from brook cc's
  // kernels.cpp. pos moves by vel * 0.5: (6 12 3 4) and (-0.5 0.25 0 1); then
  // the first one again through views with dt = 0: (1 2 3 4).
  ::brook::stream ps(::brook::getStreamType((Particle*)0), 2, -1);
  ::brook::stream qs(::brook::getStreamType((Particle*)0), 2, -1);
  std::vector<Particle> pin = {{{1, 2, 3, 4}, {10, 20}}, {{0, 0, 0, 1}, {-1, 0.5f}}}, pout(2);
  streamRead(ps, pin.data());
  kstep(ps, 0.5f, qs);
  kstep(ps.domain(0, 1), 0.0f, qs.domain(0, 1));
  streamWrite(qs, pout.data());
  std::cout << "kstep:";
  for (const Particle& p : pout)
    std::cout << " (" << p.pos.x << " " << p.pos.y << " " << p.pos.z << " " << p.pos.w << " | "
              << p.vel.x << " " << p.vel.y << ")";
  std::cout << "\n";

  // BrookGPU's fixed-point codes are spellings of float..float4
  // (LANGUAGE.md §12), as the CPU runtime computed them: a fixed2 stream
  // holds float2 elements. (1 2) and (3 4) swapped and halved.
  static const ::brook::StreamType fixed2_list[] = {::brook::__BRTFIXED2, ::brook::__BRTNONE};
  static const ::brook::StreamType shortfixed2_list[] = {::brook::__BRTSHORTFIXED2,
                                                         ::brook::__BRTNONE};
  ::brook::stream fa(fixed2_list, 2, -1), fb(shortfixed2_list, 2, -1);
  std::vector<float2> fin = {{1, 2}, {3, 4}}, fout(2);
  streamRead(fa, fin.data());
  khalfswap(fa, fb);
  streamWrite(fb, fout.data());
  std::cout << "khalfswap:";
  for (const float2& x : fout) std::cout << " (" << x.x << " " << x.y << ")";
  std::cout << "\n";

  // A field list no .br struct gave: a clear error, not a wrong layout.
  static const ::brook::StreamType unnamed[] = {__BRTFLOAT, __BRTFLOAT2, __BRTNONE};
  try {
    ::brook::stream s(unnamed, 4, -1);
    std::cout << "no error for an unnamed field list\n";
  } catch (const brook::Error& e) {
    std::cout << "error: " << e.what();
  }

  try {
    ::brook::stream bad(::brook::getStreamType((float*)0), 2, 2, 2, 2, 2, -1);
    std::cout << "no error for five extents\n";
  } catch (const brook::Error& e) {
    std::cout << "error: " << e.what();
  }
  return 0;
}
