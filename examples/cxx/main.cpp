// A C++ program using kernels, reductions and host functions of a .br file:
// a class owns the streams, std::vector moves data in and out, iostream prints.
// Built with brook_add_kernels (CMakeLists.txt) or a Makefile calling
// `brook cc` (Makefile); both print exactly expected.out on every backend.
#include <iomanip>
#include <iostream>
#include <utility>
#include <vector>

#include "swarm.h"

class Swarm {
 public:
  explicit Swarm(int n)
      : n_(n),
        pos_(brook_cc::stream<float2>({n})),
        vel_(brook_cc::stream<float2>({n})),
        next_(brook_cc::stream<float2>({n})),
        speed2_(brook_cc::stream<float>({n})) {
    std::vector<float2> p(n), v(n);
    for (int i = 0; i < n; ++i) {
      p[i] = {static_cast<float>(i), 0.0f};
      v[i] = {1.0f, 0.5f * static_cast<float>(i)};
    }
    pos_.read(p);
    vel_.read(v);
  }

  void advance(float dt) {
    step(pos_, vel_, dt, next_);
    std::swap(pos_, next_);  // handles: nothing is copied
  }

  std::vector<float2> positions() const { return pos_.to_vector(); }

  // Kinetic energy of particles of `mass`: a kernel, a reduction into a host
  // variable, then a host function of the .br file.
  float energy(float mass) {
    speed2(vel_, speed2_);
    float sum = 0.0f;
    total(speed2_, sum);
    return kinetic(mass, sum);
  }

  float fastest() {
    float m = 0.0f;
    largest(speed2_, m);
    return m;
  }

  // Sums of squared speeds over blocks of `n_ / blocks` particles: a
  // reduction into a stream.
  std::vector<float> block_sums(int blocks) {
    brook::Stream<float> out = brook_cc::stream<float>({blocks});
    total(speed2_, out);
    return out.to_vector();
  }

  int size() const { return n_; }

 private:
  int n_;
  brook::Stream<float2> pos_, vel_, next_;
  brook::Stream<float> speed2_;
};

int main() {
  Swarm swarm(4);
  swarm.advance(0.25f);
  swarm.advance(0.25f);
  std::cout << std::fixed << std::setprecision(2);
  for (const float2& p : swarm.positions()) std::cout << "(" << p.x << ", " << p.y << ") ";
  std::cout << "\n";
  float e = swarm.energy(2.0f);
  std::cout << "energy " << e << ", fastest " << swarm.fastest() << "\n";
  for (float s : swarm.block_sums(2)) std::cout << "block " << s << "\n";
  report(swarm.size(), e);  // prints from brook's host code
  std::cout << "reports so far: " << brook_cc::engine().get<int>("reports") << "\n";
  bool ok = e == 7.5f && swarm.fastest() == 3.25f;
  std::cout << (ok ? "OK" : "FAILED") << std::endl;
  return ok ? 0 : 1;
}
