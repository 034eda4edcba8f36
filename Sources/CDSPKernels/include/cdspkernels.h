#ifndef CADENCE_CDSPKERNELS_H
#define CADENCE_CDSPKERNELS_H

/// 1 when this processor and its OS run AVX2 (cpuid and xgetbv, through the compiler's runtime), else 0.
int cadence_has_avx2(void);

/// The true-peak interpolator's inner loop (`TruePeakInterpolator.detect`) in 256-bit AVX2:
/// for each group of 8 frames g in [0, groups), the largest magnitude over `channels` lanes
/// of the 8 sub-samples of each frame, stored to `peaks[8g ..< 8g + 8]`.
///
/// Lane c starts at `lanes + c * lane_stride`; frame i of the group reads lane[i ..< i + 20]
/// (19 frames of history, then the frame). `weights` holds phases 1–7, 20 taps each, oldest
/// first; phase 0 is lane[i + 9] itself. The sums are formed in exactly the order, and with
/// exactly the roundings (a multiply, then an add, never fused), of the portable Swift loop,
/// so both give the same bits. Only call it when `cadence_has_avx2()` is 1.
void cadence_true_peak_avx2(
    const float *lanes, int channels, int lane_stride, const float *weights, float *peaks, int groups);

#endif
