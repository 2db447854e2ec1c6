// interp/fiber.hpp: the fibers group kernels run on (interp and JIT).
#include <doctest/doctest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "interp/fiber.hpp"

using brook::interp::FiberCancelled;
using brook::interp::FiberSet;

TEST_CASE("fibers interleave at yield and keep their own stacks") {
  FiberSet set;
  std::vector<std::string> log;
  for (int group = 0; group < 3; ++group) {  // stacks are reused from group to group
    log.clear();
    set.start(3, [&](int64_t i) {
      double local = static_cast<double>(i) * 1.5;  // lives across the switches
      for (int round = 0; round < 2; ++round) {
        log.push_back(std::to_string(i) + ":" + std::to_string(round));
        CHECK(FiberSet::current() == &set);
        set.yield(static_cast<uint64_t>(round + 10));
        local += 1.0;
      }
      CHECK(local == static_cast<double>(i) * 1.5 + 2.0);
    });
    for (int round = 0; round < 3; ++round) {
      for (int64_t i = 0; i < 3; ++i) set.resume(i);
      for (int64_t i = 0; i < 3; ++i) {
        CHECK(set.finished(i) == (round == 2));
        if (round < 2) CHECK(set.site(i) == static_cast<uint64_t>(round + 10));
      }
    }
    CHECK(FiberSet::current() == nullptr);
    CHECK(log == std::vector<std::string>{"0:0", "1:0", "2:0", "0:1", "1:1", "2:1"});
  }
}

TEST_CASE("an exception in a fiber reaches resume; cancel_all unwinds the others") {
  FiberSet set;
  auto owned = std::make_shared<int>(7);  // a fiber's copy must be released by unwinding
  set.start(3, [&](int64_t i) {
    std::shared_ptr<int> mine = owned;
    if (i == 1) throw std::runtime_error("boom");
    if (set.yield(1)) throw FiberCancelled{};
    FAIL("a cancelled fiber ran on");
  });
  set.resume(0);
  CHECK(owned.use_count() == 2);
  CHECK_THROWS_WITH_AS(set.resume(1), "boom", std::runtime_error);
  CHECK(set.finished(1));
  set.cancel_all();
  CHECK(set.finished(0));
  CHECK(set.finished(2));
  CHECK(owned.use_count() == 1);
}

TEST_CASE("fibers left suspended are abandoned by the next start (the JIT's way)") {
  FiberSet set;
  int finished = 0;
  for (int group = 0; group < 4; ++group) {
    set.start(2, [&](int64_t) {
      char buffer[256] = {};  // leaves stack poison behind under AddressSanitizer
      buffer[0] = 1;
      set.yield(static_cast<uint64_t>(buffer[0]));
      if (group == 3) ++finished;
    });
    set.resume(0);
    set.resume(1);
    if (group == 3) {
      set.resume(0);
      set.resume(1);
    }
  }
  CHECK(finished == 2);
}
