// NPP, the vendor anchor of the convolution family (anchors_npp_convolve.cu).
// NPP is optional: CMake compiles the calls only when it finds the nppif /
// nppc libraries (GPUPRIM_HAS_NPP); otherwise npp_available() is false and
// the benchmark's vendor rows say "NPP not available".
#pragma once

#include <cstdint>

#include "gpuprim/core/macros.hpp"

namespace gpuprim::bench {

#if GPUPRIM_HAS_CUDA
bool npp_available();

// NPP's filters read past the ROI (they have no border handling): `src`
// points at the ROI's first pixel inside an image with at least k / 2
// pixels of margin on every side. Steps are in bytes. Every call enqueues
// on the stream given at construction and throws std::runtime_error on an
// NPP error (or when NPP is not available).
class npp_convolve {
 public:
  explicit npp_convolve(stream_t stream);

  // nppiFilter_32f_C1R_Ctx with a k x k filter (device memory), anchor k / 2.
  void general(const float* src, int src_step, float* dst, int dst_step, int rows, int cols,
               const float* filter, int k) const;
  // nppiFilterRow_32f_C1R_Ctx over rows + k - 1 rows into tmp (same margin
  // as src), then nppiFilterColumn_32f_C1R_Ctx into dst (1-D device taps).
  void separable(const float* src, int src_step, float* tmp, int tmp_step, float* dst, int dst_step,
                 int rows, int cols, const float* taps, int k) const;
  // nppiFilterGaussBorder_8u_C3R_Ctx, 5 x 5 mask, border replicate.
  void gauss5_rgb8(const std::uint8_t* src, int src_step, std::uint8_t* dst, int dst_step, int rows,
                   int cols) const;

  static const char* general_name() { return "nppiFilter_32f_C1R"; }
  static const char* separable_name() { return "nppiFilterRow + nppiFilterColumn_32f_C1R"; }
  static const char* gauss_name() { return "nppiFilterGaussBorder_8u_C3R (5x5)"; }

 private:
  stream_t stream_;
};
#endif

}  // namespace gpuprim::bench
