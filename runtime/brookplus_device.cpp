// Brook+'s brook/Device.h over brook's one engine: one device of each kind.
#include "brook/Device.h"

#include <cstring>

#include "runtime/brookplus_impl.hpp"

namespace brook {

namespace {

// What useDevices chose for the calling thread (Brook+'s choice is per
// thread); null until it is called.
thread_local Device* thread_device = nullptr;

}  // namespace

Device* getDevices(const char* type, unsigned int* count) {
  // Function statics: made once even when threads ask at the same time.
  static Device cal("cal");
  static Device cpu("cpu");
  Device* found = nullptr;
  if (type && std::strcmp(type, "cal") == 0)
    found = &cal;
  else if (type && (std::strcmp(type, "cpu") == 0 || std::strcmp(type, "all") == 0))
    found = &cpu;
  if (count) *count = found ? 1 : 0;
  return found;
}

void useDevices(Device* devices, unsigned int count, unsigned int* old_count) {
  if (old_count) *old_count = 1;
  if (devices && count > 0) thread_device = devices;
}

namespace plus {

Device* current_device() {
  if (thread_device) return thread_device;
  unsigned count = 0;
  return getDevices("all", &count);
}

}  // namespace plus

}  // namespace brook
