// Hand-written baseline: RenderScript's invert on uchar4 pixels (alpha kept).
__kernel void invert(__global const uchar4* in, __global uchar4* out) {
  size_t i = get_global_id(0);
  uchar4 p = in[i];
  out[i] = (uchar4)(255 - p.x, 255 - p.y, 255 - p.z, p.w);
}
