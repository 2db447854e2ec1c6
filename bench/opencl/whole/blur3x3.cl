// Hand-written whole blur3x3 (bench/whole/blur3x3.br): a hashed image, then
// bench/opencl/blur3x3.cl's kernel (clamped edges), ping-pong.
__kernel void init(__global float* img, int width) {
  uint x = get_global_id(0), y = get_global_id(1);
  uint h = x * 2654435761u ^ y * 40503u;
  h = h ^ (h >> 13);
  img[y * width + x] = (float)(h & 255u);
}
