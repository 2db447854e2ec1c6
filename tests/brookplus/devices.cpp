// Brook+'s brook/Device.h as its MultiGPU sample uses it: ask for the "cal"
// devices, split the rows among them, one thread per device that selects it
// with useDevices and copies its part through a kernel. brook has one device
// of each kind, so the work runs in one part; the expected output
// (devices.out) is derived by hand.
#include <brook/Device.h>
#include <brook/brook.h>

#include <cstdio>
#include <thread>
#include <vector>

// ---- what NAME.cpp of the bindings holds (brcc's form) ---------------------
static const char brook_source[] = R"BROOK(
kernel void copy(float input<>, out float output<>) { output = input; }
)BROOK";

class __copy {
 public:
  void operator()(const ::brook::Stream<float>& input, const ::brook::Stream<float>& output) {
    ::brook::plus::Launch l(brook_source, "devices.br", "copy");
    l.stream(input);
    l.stream(output);
    l.run(&brook_domain_);
  }
  EXTENDCLASS();
};
__THREAD__ __copy copy;
// ---- end of the bindings ---------------------------------------------------

namespace {

const unsigned int width = 8, height = 6;

struct Part {
  brook::Device* device;
  const float* in;
  float* out;
  unsigned int rows;
};

void run(Part* p) {
  brook::useDevices(p->device, 1, nullptr);
  unsigned int dims[] = {width, p->rows};  // Brook+: dims[0] is the fastest extent
  brook::Stream<float> input(2, dims), output(2, dims);
  input.read(p->in);
  copy(input, output);
  output.write(p->out);
  if (output.error()) std::printf("error: %s\n", output.errorLog());
}

}  // namespace

int main() {
  unsigned int count = 0;
  brook::Device* devices = brook::getDevices("cal", &count);
  std::printf("cal devices: %u, type %s, bindings %s\n", count, devices ? devices->getType() : "-",
              devices && devices->getBindings() == nullptr ? "none" : "?");
  unsigned int all = 0;
  std::printf("all devices: %u, type %s\n", (brook::getDevices("all", &all), all),
              brook::getDevices("all", &all)->getType());
  unsigned int none = 7;
  std::printf("gpu devices: %u, %s\n", (brook::getDevices("gpu", &none), none),
              brook::getDevices("gpu", &none) ? "found" : "null");
  unsigned int old = 0;
  brook::useDevices(devices, count, &old);
  std::printf("in use before: %u\n", old);

  std::vector<float> in(width * height), out(width * height, -1.0f);
  for (unsigned int i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  std::vector<Part> parts(count);
  std::vector<std::thread> threads;
  for (unsigned int i = 0; i < count; ++i) {
    unsigned int rows = height / count;
    parts[i] = Part{devices + i, in.data() + i * rows * width, out.data() + i * rows * width, rows};
  }
  for (Part& p : parts) threads.emplace_back(run, &p);
  for (std::thread& t : threads) t.join();
  bool same = in == out;
  std::printf("out[0] = %g, out[47] = %g\n%s\n", out[0], out[47], same ? "Passed" : "Failed");
  return same ? 0 : 1;
}
