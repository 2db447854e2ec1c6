// A C++ host written as Brook+'s samples are, against the bindings `brook cc
// --brookplus kernels.br` writes (kernels.h): streams, a constant, reductions
// to a host float, a float4 and a stream, a sized constant array, a .br
// struct, domainOffset/domainSize, domains, a subkernel, a scatter output.
// main.out is derived by hand.
#include <iostream>
#include <vector>
#include "brook/Stream.h"
#include "kernels.h"

template <class T>
bool checkBrookError(::brook::Stream<T>& stream) {
  if (stream.error() != ::brook::BR_NO_ERROR) {
    std::cout << stream.errorLog() << std::endl;
    return false;
  }
  return true;
}

int main() {
  unsigned int dim[] = {4, 2};
  ::brook::Stream<float> inputStream(2, dim);
  ::brook::Stream<float> outputStream(2, dim);
  std::vector<float> input(8), output(8);
  for (int i = 0; i < 8; ++i) input[i] = float(i);
  inputStream.read(&input[0]);
  hello_brook_check(inputStream, outputStream, 0.5f);
  outputStream.write(&output[0]);
  if (!checkBrookError(outputStream)) return 1;
  for (float v : output) std::cout << v << " ";
  std::cout << "\n";

  float res = 0.0f;
  hello_brook_sum(outputStream, res);
  unsigned int one[] = {1, 1};
  ::brook::Stream<float> resStream(2, one);
  hello_brook_sum(outputStream, resStream);
  float res2 = 0;
  resStream.write(&res2);
  std::cout << "sum " << res << " " << res2 << "\n";

  unsigned int n4[] = {3};
  ::brook::Stream<float4> quads(1, n4);
  float4 q[3] = {float4(1, 2, 3, 4), float4(10, 20, 30, 40), float4(100, 200, 300, 400)};
  quads.read(q);
  float4 f4;
  sum2d(quads, f4);
  std::cout << "sum2d " << f4.x << " " << f4.y << " " << f4.z << " " << f4.w << "\n";

  unsigned int im[] = {3, 3};
  ::brook::Stream<float> img(2, im), oimg(2, im);
  float pixels[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  float mask[3][3] = {{0, 0, 0}, {0, 0, 1}, {0, 0, 0}};  // the right neighbour
  img.read(pixels);
  image_filter(img, mask, oimg);
  float filtered[9];
  oimg.write(filtered);
  for (float v : filtered) std::cout << v << " ";
  std::cout << "\n";

  unsigned int wp[] = {6, 4};
  ::brook::Stream<int2> pos(2, wp);
  write_pos.domainOffset(uint4(1, 2, 0, 0));
  write_pos.domainSize(uint4(3, 2, 1, 1));
  write_pos(pos);
  int2 cells[24];
  pos.write(cells);
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 6; ++x) std::cout << cells[y * 6 + x].x << cells[y * 6 + x].y << " ";
    std::cout << "\n";
  }

  unsigned int n2[] = {2};
  ::brook::Stream<Pair> pairs(1, n2), swapped(1, n2);
  Pair ps[2] = {{1.5f, 7}, {-2.0f, 3}};
  pairs.read(ps);
  swap_pair(pairs, swapped);
  swapped.write(ps);
  std::cout << "pairs " << ps[0].a << " " << ps[0].b << " " << ps[1].a << " " << ps[1].b << "\n";

  unsigned int n8[] = {8};
  ::brook::Stream<float> xs(1, n8), ys(1, n8);
  xs.read(&input[0]);
  use_sub(xs.domain(2, 6), ys.domain(0, 4));
  ys.write(&output[0]);
  for (float v : output) std::cout << v << " ";
  std::cout << "\n";

  ::brook::Stream<int> vs(1, n8), rev(1, n8);
  int iv[8] = {10, 11, 12, 13, 14, 15, 16, 17}, ov[8];
  vs.read(iv);
  scatter_rev(vs, rev);
  rev.write(ov);
  for (int v : ov) std::cout << v << " ";
  std::cout << "\n";
  return 0;
}
