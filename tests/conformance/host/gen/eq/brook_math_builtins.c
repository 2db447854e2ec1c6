/* Hand-written C equivalents using LANGUAGE.md §9's definitions. */
#include "vectypes.h"
static double frac_d(double x) { return x - floor(x); }
static float frac_f(float x) { return x - floorf(x); }
static double lerp_d(double a, double b, double t) { return a + t * (b - a); }
static float lerp_f(float a, float b, float t) { return a + t * (b - a); }
static double min_d(double a, double b) { return b < a ? b : a; }
static double max_d(double a, double b) { return a < b ? b : a; }
static float max_f(float a, float b) { return a < b ? b : a; }
static float min_f(float a, float b) { return b < a ? b : a; }
static double clamp_d(double x, double lo, double hi) { return min_d(max_d(x, lo), hi); }
static float sat_f(float x) { return min_f(max_f(x, 0), 1); }
static double step_d(double e, double x) { return x >= e ? 1 : 0; }
static double sign_d(double x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }
static double smooth_d(double e0, double e1, double x) {
  double t = clamp_d((x - e0) / (e1 - e0), 0, 1);
  return t * t * (3 - 2 * t);
}
int main() {
  printf("frac %.6f %.6f\n", frac_d(2.75), frac_d(-1.25));
  printf("lerp %.6f %.6f\n", lerp_d(2.0, 4.0, 0.25), lerp_d(10.0, 0.0, 1.5));
  printf("clamp %.6f %.6f %.6f\n", clamp_d(5.0, 0.0, 1.0), clamp_d(-2.0, -1.0, 1.0), clamp_d(0.5, 0.0, 1.0));
  printf("saturate %.6f %.6f %.6f\n", clamp_d(1.5, 0, 1), clamp_d(-0.5, 0, 1), clamp_d(0.25, 0, 1));
  printf("step %.6f %.6f %.6f\n", step_d(1.0, 0.5), step_d(1.0, 1.0), step_d(1.0, 2.0));
  printf("sign %.6f %.6f %.6f %d\n", sign_d(-3.5), sign_d(0.0), sign_d(2.0), -1);
  printf("rsqrt %.6f\n", 1 / sqrt(4.0));
  printf("mad %.6f\n", 2.0 * 3.0 + 4.0);
  printf("smoothstep %.6f %.6f %.6f\n", smooth_d(0.0, 1.0, 0.5), smooth_d(0.0, 1.0, -1.0), smooth_d(0.0, 2.0, 0.5));
  printf("min max %d %d %.6f\n", -4, 3, max_d(1.5, 2.5));
  printf("abs %d %.6f\n", 9, 2.5);
  float4 v = {-1.5f, 0.25f, 2.75f, 1.0f};
  printf("frac4 %.6f %.6f %.6f %.6f\n", frac_f(v.x), frac_f(v.y), frac_f(v.z), frac_f(v.w));
  printf("saturate4 %.6f %.6f %.6f %.6f\n", sat_f(v.x), sat_f(v.y), sat_f(v.z), sat_f(v.w));
  printf("lerp4 %.6f %.6f %.6f %.6f\n", lerp_f(0, 4, 0.25f), lerp_f(0, 8, 0.25f), lerp_f(0, 12, 0.25f), lerp_f(0, 16, 0.25f));
  printf("max2 %.6f %.6f\n", max_f(1, 3), max_f(5, 2));
  printf("sqrt3 %.6f %.6f %.6f\n", sqrtf(4), sqrtf(9), sqrtf(16));
  printf("popcount %d clz %d ctz %d\n", __builtin_popcount(255), __builtin_clz(1), __builtin_ctz(8));
  return 0;
}
