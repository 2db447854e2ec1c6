// Hand-written whole invert_grey (bench/whole/invert_grey.br): init, then
// bench/opencl/invert_grey.cl's kernel in place.
__kernel void init(__global uchar4* img, int width) {
  int x = get_global_id(0), y = get_global_id(1);
  img[y * width + x] = (uchar4)((uchar)(x & 255), (uchar)(y & 255), (uchar)((x + y) & 255), (uchar)255);
}
