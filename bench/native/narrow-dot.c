// The C peer of issue 20's narrow-storage DOT goals: how much faster than an f64 DOT can a compiled single-threaded
// loop read f32, bf16, fp16 and i8 storage from DRAM while computing in f64? The compiler may reassociate
// (`omp simd` reduction) and vectorise freely, so these are the fastest orders C reaches, not modprec's fixed ones.
// Build: gcc -O3 -march=native -fopenmp narrow-dot.c -o narrow-dot    Run: OMP_NUM_THREADS=1 ./narrow-dot [N] [ROUNDS]
// Prints one JSON object: per storage the median time (ms, rounds interleaved) and its ratio to f64.
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <omp.h>
#ifdef __F16C__
#include <immintrin.h>
#endif

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double dot_f64(const double *x, const double *y, long n) {
  double s = 0;
#pragma omp simd reduction(+ : s)
  for (long i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}

static double dot_f32(const float *x, const float *y, long n) {
  double s = 0;
#pragma omp simd reduction(+ : s)
  for (long i = 0; i < n; i++) s += (double)x[i] * (double)y[i];
  return s;
}

static inline float bf16_to_f32(uint16_t h) {
  uint32_t w = (uint32_t)h << 16;
  float f;
  memcpy(&f, &w, 4);
  return f;
}

static double dot_bf16(const uint16_t *x, const uint16_t *y, long n) {
  double s = 0;
#pragma omp simd reduction(+ : s)
  for (long i = 0; i < n; i++) s += (double)bf16_to_f32(x[i]) * (double)bf16_to_f32(y[i]);
  return s;
}

// fp16 through F16C (8 at a time) where the target has it; the products of two halves are exact in f32 (22 bits).
static double dot_f16(const uint16_t *x, const uint16_t *y, long n) {
#ifdef __F16C__
  __m256d s0 = _mm256_setzero_pd(), s1 = _mm256_setzero_pd();
  long i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 a = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(x + i)));
    __m256 b = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(y + i)));
    __m256 p = _mm256_mul_ps(a, b);
    s0 = _mm256_add_pd(s0, _mm256_cvtps_pd(_mm256_castps256_ps128(p)));
    s1 = _mm256_add_pd(s1, _mm256_cvtps_pd(_mm256_extractf128_ps(p, 1)));
  }
  double t[4];
  _mm256_storeu_pd(t, _mm256_add_pd(s0, s1));
  double s = t[0] + t[1] + t[2] + t[3];
  for (; i < n; i++) s += (double)_cvtsh_ss(x[i]) * (double)_cvtsh_ss(y[i]);
  return s;
#else
  (void)x; (void)y; (void)n;
  return -1;
#endif
}

static double dot_i8(const int8_t *x, const int8_t *y, long n) {
  long s = 0;
#pragma omp simd reduction(+ : s)
  for (long i = 0; i < n; i++) s += (int)x[i] * (int)y[i];
  return (double)s;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : (1L << 24);
  int rounds = argc > 2 ? atoi(argv[2]) : 9;
  double *x64 = aligned_alloc(64, n * 8), *y64 = aligned_alloc(64, n * 8);
  float *x32 = aligned_alloc(64, n * 4), *y32 = aligned_alloc(64, n * 4);
  uint16_t *xb = aligned_alloc(64, n * 2), *yb = aligned_alloc(64, n * 2), *xh = aligned_alloc(64, n * 2), *yh = aligned_alloc(64, n * 2);
  int8_t *x8 = aligned_alloc(64, n), *y8 = aligned_alloc(64, n);
  srand(1);
  for (long i = 0; i < n; i++) {
    double a = rand() / (double)RAND_MAX - 0.5, b = rand() / (double)RAND_MAX - 0.5;
    x64[i] = a; y64[i] = b; x32[i] = (float)a; y32[i] = (float)b;
    uint32_t wa, wb; float fa = (float)a, fb = (float)b;
    memcpy(&wa, &fa, 4); memcpy(&wb, &fb, 4);
    xb[i] = (uint16_t)(wa >> 16); yb[i] = (uint16_t)(wb >> 16);
#ifdef __F16C__
    xh[i] = _cvtss_sh(fa, 0); yh[i] = _cvtss_sh(fb, 0);
#else
    xh[i] = 0; yh[i] = 0;
#endif
    x8[i] = (int8_t)(a * 250); y8[i] = (int8_t)(b * 250);
  }
  const char *names[5] = {"f64", "f32", "bf16", "f16", "i8"};
  double *t = malloc(sizeof(double) * 5 * rounds);
  volatile double sink = 0;
  for (int r = 0; r < rounds; r++) {
    for (int k = 0; k < 5; k++) {
      double t0 = omp_get_wtime(), d = 0;
      switch (k) {
        case 0: d = dot_f64(x64, y64, n); break;
        case 1: d = dot_f32(x32, y32, n); break;
        case 2: d = dot_bf16(xb, yb, n); break;
        case 3: d = dot_f16(xh, yh, n); break;
        default: d = dot_i8(x8, y8, n); break;
      }
      t[k * rounds + r] = omp_get_wtime() - t0;
      sink += d;
    }
  }
  double med[5];
  for (int k = 0; k < 5; k++) {
    qsort(t + k * rounds, rounds, sizeof(double), cmp);
    med[k] = t[k * rounds + rounds / 2];
  }
  printf("{\"n\": %ld, \"rounds\": %d, \"f16c\": %s, \"storages\": [", n, rounds,
#ifdef __F16C__
         "true"
#else
         "false"
#endif
  );
  for (int k = 0; k < 5; k++)
    printf("%s{\"storage\": \"%s\", \"ms\": %.3f, \"f64_over_this\": %.3f}", k ? ", " : "", names[k], med[k] * 1e3, med[0] / med[k]);
  printf("]}\n");
  return sink == 12345.678;
}
