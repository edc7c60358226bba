// NPP's image filters, the convolution family's vendor anchor. Compiled
// against NPP only when CMake found it (GPUPRIM_HAS_NPP); without it every
// call throws and npp_available() says so.
#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "anchors_npp_convolve.hpp"

#if GPUPRIM_HAS_NPP
#include <nppi_filtering_functions.h>
#endif

namespace gpuprim::bench {

#if GPUPRIM_HAS_NPP

namespace {

// The device's properties, read once per device (cudaGetDeviceProperties
// is too slow to sit inside a timed call).
const cudaDeviceProp& properties_of(int device) {
  static std::mutex mutex;
  static std::map<int, cudaDeviceProp> cache;
  std::lock_guard lock(mutex);
  auto it = cache.find(device);
  if (it == cache.end()) {
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, device);
    it = cache.emplace(device, prop).first;
  }
  return it->second;
}

NppStreamContext context_for(stream_t stream) {
  NppStreamContext ctx{};
  int device = 0;
  cudaGetDevice(&device);
  const cudaDeviceProp& prop = properties_of(device);
  ctx.hStream = reinterpret_cast<cudaStream_t>(stream);
  ctx.nCudaDeviceId = device;
  ctx.nMultiProcessorCount = prop.multiProcessorCount;
  ctx.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  ctx.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  ctx.nSharedMemPerBlock = prop.sharedMemPerBlock;
  ctx.nCudaDevAttrComputeCapabilityMajor = prop.major;
  ctx.nCudaDevAttrComputeCapabilityMinor = prop.minor;
  unsigned flags = 0;
  cudaStreamGetFlags(ctx.hStream, &flags);
  ctx.nStreamFlags = flags;
  return ctx;
}

void check_npp(NppStatus status, const char* call) {
  if (status != NPP_SUCCESS) {
    throw std::runtime_error(std::string(call) + " failed with NPP status " +
                             std::to_string(static_cast<int>(status)));
  }
}

}  // namespace

bool npp_available() {
  return true;
}

npp_convolve::npp_convolve(stream_t stream) : stream_(stream) {}

void npp_convolve::general(const float* src, int src_step, float* dst, int dst_step, int rows,
                           int cols, const float* filter, int k) const {
  const NppStreamContext ctx = context_for(stream_);
  check_npp(nppiFilter_32f_C1R_Ctx(src, src_step, dst, dst_step, NppiSize{cols, rows}, filter,
                                   NppiSize{k, k}, NppiPoint{k / 2, k / 2}, ctx),
            "nppiFilter_32f_C1R_Ctx");
}

void npp_convolve::separable(const float* src, int src_step, float* tmp, int tmp_step, float* dst,
                             int dst_step, int rows, int cols, const float* taps, int k) const {
  const NppStreamContext ctx = context_for(stream_);
  const int r = k / 2;
  // Rows [-r, rows + r) of the row pass, so that the column pass has its halo.
  const auto* src_up = reinterpret_cast<const float*>(reinterpret_cast<const char*>(src) -
                                                      static_cast<long long>(r) * src_step);
  auto* tmp_up =
      reinterpret_cast<float*>(reinterpret_cast<char*>(tmp) - static_cast<long long>(r) * tmp_step);
  check_npp(nppiFilterRow_32f_C1R_Ctx(src_up, src_step, tmp_up, tmp_step,
                                      NppiSize{cols, rows + 2 * r}, taps, k, r, ctx),
            "nppiFilterRow_32f_C1R_Ctx");
  check_npp(nppiFilterColumn_32f_C1R_Ctx(tmp, tmp_step, dst, dst_step, NppiSize{cols, rows}, taps,
                                         k, r, ctx),
            "nppiFilterColumn_32f_C1R_Ctx");
}

void npp_convolve::gauss5_rgb8(const std::uint8_t* src, int src_step, std::uint8_t* dst,
                               int dst_step, int rows, int cols) const {
  const NppStreamContext ctx = context_for(stream_);
  check_npp(nppiFilterGaussBorder_8u_C3R_Ctx(src, src_step, NppiSize{cols, rows}, NppiPoint{0, 0},
                                             dst, dst_step, NppiSize{cols, rows},
                                             NPP_MASK_SIZE_5_X_5, NPP_BORDER_REPLICATE, ctx),
            "nppiFilterGaussBorder_8u_C3R_Ctx");
}

#else  // no NPP

bool npp_available() {
  return false;
}

npp_convolve::npp_convolve(stream_t stream) : stream_(stream) {}

namespace {
[[noreturn]] void no_npp() {
  throw std::runtime_error("NPP not available (this build did not find the nppif library)");
}
}  // namespace

void npp_convolve::general(const float*, int, float*, int, int, int, const float*, int) const {
  no_npp();
}
void npp_convolve::separable(const float*, int, float*, int, float*, int, int, int, const float*,
                             int) const {
  no_npp();
}
void npp_convolve::gauss5_rgb8(const std::uint8_t*, int, std::uint8_t*, int, int, int) const {
  no_npp();
}

#endif

}  // namespace gpuprim::bench
