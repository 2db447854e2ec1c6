// The math the JIT inlines into SPMD kernels (stdlib/brook_math_inline.cpp,
// compiled to bitcode by clang, linked and inlined by jit/compiler.cpp) gives
// the scalar functions' bits: a loop over a buffer, JIT-compiled as kernels
// are, against brook_cr_expf and brook_cr_logf. Every 4099th float and the
// special ones by default; BROOK_TEST_MATH_INLINE_STEP=1 checks all 2^32
// inputs (stdlib/MATH.md records that run).
#include <doctest/doctest.h>

#ifdef BROOK_HAVE_JIT

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "jit/compiler.hpp"
#include "jit/math_bitcode.hpp"
#include "stdlib/brook_math.hpp"
#include "stdlib/brook_math_gang.hpp"
#include "stdlib/builtins.hpp"

using brook::jit::JitCompiler;

namespace {

// entry(in, out, n): out[i..i+16) = F(in[i..i+16)) for i < n, n a multiple of 16.
std::string loop_over(const std::string& f) {
  return "declare <16 x float> @" + f +
         "(<16 x float>)\n"
         "define void @$entry(ptr %in, ptr %out, i64 %n) #0 {\n"
         "entry:\n  br label %loop\n"
         "loop:\n"
         "  %i = phi i64 [0, %entry], [%next, %loop]\n"
         "  %p = getelementptr float, ptr %in, i64 %i\n"
         "  %x = load <16 x float>, ptr %p, align 4\n"
         "  %y = call <16 x float> @" +
         f +
         "(<16 x float> %x)\n"
         "  %q = getelementptr float, ptr %out, i64 %i\n"
         "  store <16 x float> %y, ptr %q, align 4\n"
         "  %next = add i64 %i, 16\n"
         "  %done = icmp uge i64 %next, %n\n"
         "  br i1 %done, label %exit, label %loop\n"
         "exit:\n  ret void\n}\n"
         "attributes #0 = { \"min-legal-vector-width\"=\"512\" \"prefer-vector-width\"=\"512\" }\n"
         "!brook.spmd = !{}\n";
}

using Loop = void (*)(const float*, float*, int64_t);

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

// Differences from `scalar` over the inputs step apart, plus the specials;
// the first few printed.
uint64_t differences(Loop loop, float (*scalar)(float), uint64_t step) {
  const uint32_t specials[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                               0xffc00000u, 0x7f800001u, 0x00000001u, 0x807fffffu, 0x3f800000u,
                               0xbf800000u, 0x42b17218u, 0x42b17217u, 0xc2cff1b5u, 0xc2d00000u,
                               0x42b20000u, 0x3c413d3au, 0x41178febu, 0x4c5d65a5u, 0x65d890d3u,
                               0x6f31a8ecu, 0x7f7fffffu, 0xff7fffffu, 0x33800000u};
  std::vector<float> in, out;
  uint64_t wrong = 0;
  auto flush = [&] {
    while (in.size() % 16) in.push_back(1.0f);
    out.assign(in.size(), 0.0f);
    loop(in.data(), out.data(), static_cast<int64_t>(in.size()));
    for (size_t i = 0; i < in.size(); ++i) {
      const uint32_t got = std::bit_cast<uint32_t>(out[i]),
                     want = std::bit_cast<uint32_t>(scalar(in[i]));
      if (got != want && ++wrong <= 5)
        MESSAGE("input " << hex(std::bit_cast<uint32_t>(in[i])) << ": inlined " << hex(got)
                         << ", scalar " << hex(want));
    }
    in.clear();
  };
  for (uint32_t s : specials) in.push_back(std::bit_cast<float>(s));
  for (uint64_t bits = 0; bits < (uint64_t{1} << 32); bits += step) {
    in.push_back(std::bit_cast<float>(static_cast<uint32_t>(bits)));
    if (in.size() == (1u << 20)) flush();
  }
  flush();
  return wrong;
}

}  // namespace

TEST_CASE("jit math inline: exp and log inlined into a loop give the scalar functions' bits") {
  if (brook::jit::math_bitcode().empty() ||
      brook::stdlib::brook_math_inline_symbol(brook::stdlib::Builtin::exp).empty()) {
    // Nothing is inlined on this build or CPU: kernels call the gang forms,
    // which tests/math/check_math --gang covers.
    CHECK(brook::stdlib::brook_math_inline_symbol(brook::stdlib::Builtin::log).empty() ==
          brook::stdlib::brook_math_inline_symbol(brook::stdlib::Builtin::exp).empty());
    return;
  }
  uint64_t step = 4099;
  if (const char* s = std::getenv("BROOK_TEST_MATH_INLINE_STEP"))
    step = std::strtoull(s, nullptr, 10);
  if (step == 0) step = 1;
  JitCompiler c({}, "");
  struct Case {
    brook::stdlib::Builtin id;
    float (*scalar)(float);
  };
  for (Case k : {Case{brook::stdlib::Builtin::exp, brook_cr_expf},
                 Case{brook::stdlib::Builtin::log, brook_cr_logf}}) {
    const std::string f(brook::stdlib::brook_math_inline_symbol(k.id));
    CAPTURE(f);
    const std::string ir = c.optimized_ir(JitCompiler::emit_ir_text(loop_over(f)));
    CHECK(ir.find("call <16 x float> @" + f) == std::string::npos);  // inlined
    CHECK(ir.find("vpermi2var") != std::string::npos);  // the table lookups in registers
    auto r = c.get(JitCompiler::emit_ir_text(loop_over(f)));
    REQUIRE(r.address);
    CHECK(differences(reinterpret_cast<Loop>(r.address), k.scalar, step) == 0);
  }
}

#endif  // BROOK_HAVE_JIT
