// What AMD's Brook+ 1.4 SDK hosts take from its headers (BROOKPLUS.md §1),
// found missing by building the SDK's tutorials:
//  - brook/Stream.h alone gives memset, memcpy, strcmp, malloc and printf
//    (Brook+'s VectorDataType.h included <stdlib.h> and <string.h>), so this
//    file includes nothing else on purpose (KernelInterface.h is what the
//    bindings' NAME.h includes besides);
//  - the host vectors convert to pointers as Brook+'s did (float4 to float*,
//    the integer vectors to T* and const T*, double2 not at all);
//  - Stream<T>::getDevices, setProperty, operator StreamImpl* and
//    Stream(StreamImpl*), which shares the stream;
//  - streamRead/streamWrite take the stream by value, so a domain()
//    temporary can be read and written.
// The expected output (sdk_host.out) is derived by hand.
#include "brook/KernelInterface.h"
#include "brook/Stream.h"

// ---- what NAME.cpp of the bindings holds (brcc's form) ---------------------
static const char brook_source[] = R"BROOK(
kernel void twice(float input<>, out float output<>) { output = 2.0f * input; }
)BROOK";

class __twice {
 public:
  void operator()(const ::brook::Stream<float>& input, const ::brook::Stream<float>& output) {
    ::brook::plus::Launch l(brook_source, "sdk_host.br", "twice");
    l.stream(input);
    l.stream(output);
    l.run(&brook_domain_);
  }
  EXTENDCLASS();
};
__THREAD__ __twice twice;
// ---- end of the bindings ---------------------------------------------------

// Brook+'s conversions exactly: float vectors only to a mutable pointer,
// the integer vectors to both, double2 to none.
static_assert(std::is_convertible_v<float4&, float*>);
static_assert(!std::is_convertible_v<const float4&, const float*>);
static_assert(std::is_convertible_v<int2&, int*>);
static_assert(std::is_convertible_v<const int2&, const int*>);
static_assert(std::is_convertible_v<const uint4&, const unsigned int*>);
static_assert(std::is_convertible_v<char3&, char*>);
static_assert(std::is_convertible_v<const uchar4&, const unsigned char*>);
static_assert(std::is_convertible_v<const short2&, const short*>);
static_assert(std::is_convertible_v<ushort4&, unsigned short*>);
static_assert(!std::is_convertible_v<double2&, double*>);
static_assert(!std::is_convertible_v<double2&, const double*>);
// The vectors keep their layout.
static_assert(sizeof(float4) == 4 * sizeof(float) && sizeof(uchar3) == 3);

static int sum3(const int* p) {
  return p[0] + p[1] + p[2];
}

int main() {
  // Headers: the C library functions, from brook/Stream.h alone.
  char* scratch = static_cast<char*>(malloc(16));
  memset(scratch, 0, 16);
  memcpy(scratch, "brook", 6);
  printf("headers: strcmp %d, strlen %d\n", strcmp(scratch, "brook"), int(strlen(scratch)));
  free(scratch);

  // Vectors as arrays: t[i] writes the components in order x, y, z, w.
  float4 t;
  for (int i = 0; i < 4; ++i) t[i] = float(10 * (i + 1));
  printf("float4: %g %g %g %g\n", t.x, t.y, t.z, t.w);
  const int3 i3(1, 20, 300);
  printf("int3 as const int*: %d\n", sum3(i3));
  uint4 u(7, 8, 9, 10);
  unsigned int d[4];
  memcpy(d, u, sizeof d);  // uint4 -> const unsigned int* -> const void*
  printf("uint4 copied: %u %u %u %u\n", d[0], d[1], d[2], d[3]);
  uchar4 c(1, 2, 3, 4);
  c[2] = 200;
  printf("uchar4: %d %d %d %d\n", c.x, c.y, c.z, c.w);

  unsigned int dims[] = {8};
  float in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[8] = {0};
  brook::Stream<float> s(1, dims);
  streamRead(s, in);

  // streamWrite/streamRead of a temporary domain: [2, 6) of s.
  unsigned int start[] = {2}, end[] = {6};
  streamWrite(s.domain(start, end), out);
  printf("domain written: %g %g %g %g\n", out[0], out[1], out[2], out[3]);
  float back[4] = {-1, -2, -3, -4};
  streamRead(s.domain(start, end), back);
  streamWrite(s, out);
  printf("after domain read:");
  for (float v : out) printf(" %g", v);
  printf("\n");

  // getDevices: the stream's one device; no count, no answer.
  unsigned int count = 99;
  brook::Device* device = s.getDevices(&count);
  printf("devices: %u, type %s, null count gives %s\n", count, device ? device->getType() : "none",
         s.getDevices(nullptr) ? "a device" : "null");

  // StreamImpl*: a Stream made from it is the same stream, not a copy of it.
  StreamImpl* impl = s;
  brook::Stream<float> same(impl);
  brook::Stream<float> doubled(1, dims);
  twice(same, doubled);
  const float tens[8] = {10, 20, 30, 40, 50, 60, 70, 80};
  same.read(tens);  // reaches s
  streamWrite(s, out);
  printf("shared impl: %s, s[2] = %g, s[5] = %g\n",
         static_cast<StreamImpl*>(same) == impl ? "yes" : "no", out[2], out[5]);
  doubled.write(out);
  printf("twice via shared: %g %g\n", out[0], out[7]);
  brook::Stream<float> none(static_cast<StreamImpl*>(nullptr));
  printf("from null: rank %u\n", none.getRank());

  // setProperty: only a Direct3D stream has properties, and brook has no
  // Direct3D.
  s.setProperty("d3dDevice", nullptr);
  int e = s.error();
  printf("setProperty on a plain stream: error %d, log [%s]\n", e, s.errorLog());
  brook::Stream<float> d3d(1, dims, "d3d9");
  float resource = 0;
  d3d.setProperty("d3dResource", &resource);
  e = d3d.error();
  printf("setProperty on a d3d9 stream: error %d, log [%s]\n", e, d3d.errorLog());
  printf("errors after: %d %d\n", int(s.error()), int(d3d.error()));
  return 0;
}
