// Brook+ 1.4's device interface (brook/Device.h), as its MultiGPU and
// MonteCarlo samples use it:
//
//   unsigned int count = 0;
//   brook::Device* devices = brook::getDevices("cal", &count);
//   ...                                   // one thread per device
//   brook::useDevices(devices + i, 1, NULL);
//
// brook runs every stream and kernel of a process on one engine, on the
// backend $BROOK_BACKEND names (jit by default; opencl may be a GPU), so there
// is exactly one device of every kind asked for ("all", "cal", "cpu"):
// programs that split their work by the device count run it in one part.
// CAL's device properties and native bindings cannot be offered.
#pragma once

namespace brook {

class Device {
 public:
  // The kind it was asked for: "cal" for getDevices("cal", …), else "cpu".
  const char* getType() const { return type_; }
  // CAL's native handles: there are none; always null.
  void* getBindings() const { return nullptr; }

 private:
  friend Device* getDevices(const char* type, unsigned int* count);
  explicit Device(const char* type) : type_(type) {}
  const char* type_;
};

// The devices of `type` ("all", "cal" or "cpu"; another name has none):
// `*count` receives how many (1, or 0 for an unknown type, which returns null).
// The array lives as long as the process.
Device* getDevices(const char* type, unsigned int* count);

// Makes `devices` the ones the calling thread's later streams and kernels
// use. brook has a single engine, so this changes only what the thread's
// later streams' getDevices() names (the first of `devices`);
// `old_count`, when not null, receives the count in use before (1).
void useDevices(Device* devices, unsigned int count, unsigned int* old_count);

}  // namespace brook
