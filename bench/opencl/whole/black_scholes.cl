// Hand-written whole black_scholes (bench/whole/black_scholes.br): init, then
// bench/opencl/black_scholes.cl's kernel.
__kernel void init(__global float* price, __global float* strike, __global float* years) {
  int i = get_global_id(0);
  price[i] = 10.0f + (float)(i % 100) * 0.5f;
  strike[i] = 20.0f + (float)(i % 37);
  years[i] = 0.25f + (float)(i % 10) * 0.2f;
}
static float cnd(float d) {
  float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
  float poly = k * (0.319381530f +
               k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
  float w = 0.39894228040143267794f * exp(-0.5f * d * d) * poly;
  return d > 0.0f ? 1.0f - w : w;
}
__kernel void black_scholes(__global const float* price, __global const float* strike,
                            __global const float* years, float r, float v,
                            __global float* call, __global float* put) {
  size_t i = get_global_id(0);
  float s = price[i], x = strike[i], t = years[i];
  float sqrt_t = sqrt(t);
  float d1 = (log(s / x) + (r + 0.5f * v * v) * t) / (v * sqrt_t);
  float d2 = d1 - v * sqrt_t;
  float discounted = x * exp(-r * t);
  call[i] = s * cnd(d1) - discounted * cnd(d2);
  put[i] = discounted * (1.0f - cnd(d2)) - s * (1.0f - cnd(d1));
}
