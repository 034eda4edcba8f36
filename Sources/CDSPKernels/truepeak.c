#include "cdspkernels.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

// The portable loop multiplies, then adds: a fused multiply-add would round once and give other bits.
#pragma STDC FP_CONTRACT OFF

int cadence_has_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
}

enum { SPAN = 20, DELAY = 10 };

/// |v|: the sign bit cleared.
__attribute__((target("avx2"))) static inline __m256 magnitude(__m256 v) {
    return _mm256_and_ps(v, _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF)));
}

/// The Swift loop's `larger(a, b)`: b where a < b, else a (NaN included).
__attribute__((target("avx2"))) static inline __m256 larger(__m256 a, __m256 b) {
    return _mm256_max_ps(b, a);
}

__attribute__((target("avx2"))) static inline __m256 subsample_peaks(const float *lane, const float *w) {
    __m256 a1 = _mm256_setzero_ps(), a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps(), a4 = _mm256_setzero_ps();
    for (int i = 0; i < SPAN; i++) {
        __m256 x = _mm256_loadu_ps(lane + i);
        a1 = _mm256_add_ps(a1, _mm256_mul_ps(x, _mm256_set1_ps(w[i])));
        a2 = _mm256_add_ps(a2, _mm256_mul_ps(x, _mm256_set1_ps(w[SPAN + i])));
        a3 = _mm256_add_ps(a3, _mm256_mul_ps(x, _mm256_set1_ps(w[2 * SPAN + i])));
        a4 = _mm256_add_ps(a4, _mm256_mul_ps(x, _mm256_set1_ps(w[3 * SPAN + i])));
    }
    __m256 a5 = _mm256_setzero_ps(), a6 = _mm256_setzero_ps(), a7 = _mm256_setzero_ps();
    for (int i = 0; i < SPAN; i++) {
        __m256 x = _mm256_loadu_ps(lane + i);
        a5 = _mm256_add_ps(a5, _mm256_mul_ps(x, _mm256_set1_ps(w[4 * SPAN + i])));
        a6 = _mm256_add_ps(a6, _mm256_mul_ps(x, _mm256_set1_ps(w[5 * SPAN + i])));
        a7 = _mm256_add_ps(a7, _mm256_mul_ps(x, _mm256_set1_ps(w[6 * SPAN + i])));
    }
    __m256 a0 = _mm256_loadu_ps(lane + SPAN - 1 - DELAY);
    __m256 low = larger(larger(magnitude(a0), magnitude(a1)), larger(magnitude(a2), magnitude(a3)));
    __m256 high = larger(larger(magnitude(a4), magnitude(a5)), larger(magnitude(a6), magnitude(a7)));
    return larger(low, high);
}

__attribute__((target("avx2"))) void cadence_true_peak_avx2(
    const float *lanes, int channels, int lane_stride, const float *weights, float *peaks, int groups) {
    for (int g = 0; g < groups; g++) {
        __m256 m = _mm256_setzero_ps();
        for (int c = 0; c < channels; c++) {
            m = larger(m, subsample_peaks(lanes + c * lane_stride + 8 * g, weights));
        }
        _mm256_storeu_ps(peaks + 8 * g, m);
    }
}

#else

// Other processors (arm64 …) take the portable Swift loop: no AVX2, and this is never called.
int cadence_has_avx2(void) { return 0; }

void cadence_true_peak_avx2(
    const float *lanes, int channels, int lane_stride, const float *weights, float *peaks, int groups) {
    (void)lanes, (void)channels, (void)lane_stride, (void)weights, (void)peaks, (void)groups;
}

#endif
