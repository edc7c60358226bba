// GPU scans of the package: the library's single-pass scan (cumsum, cummax,
// cummin, exclusive_scan) and its segmented reduce and scan, for every
// dtype the package takes (integer sums accumulate in int64 / uint64).
#include <cstring>

#include "gpu.hpp"
#include "gpuprim/cuda/scan.cuh"
#include "gpuprim/cuda/segmented.cuh"

namespace gpuprim::python::gpu {

void scan(scan_op op, bool exclusive, dtype in, dtype acc, const void* x, void* out, std::size_t n,
          const void* init, stream_t stream) {
  if (n == 0) return;
  visit_pair(in, acc, [&]<class In, class T>(type_tag<In>, type_tag<T>) {
    const scan_kind kind = exclusive ? scan_kind::exclusive : scan_kind::inclusive;
    const auto run = [&](auto o) {
      T start{};
      if (init) std::memcpy(&start, init, sizeof(T));
      detail::cuda_scan_into(static_cast<const In*>(x), static_cast<T*>(out), n, kind, start, o,
                             detail::unary_fetch<identity>{}, stream);
    };
    visit_scan_op<T>(op, run);
  });
}

void segmented_sum(dtype in, dtype acc, const void* x, std::size_t n, const std::int64_t* offsets,
                   std::size_t num_segments, void* out, stream_t stream) {
  if (num_segments == 0) return;
  visit_pair(in, acc, [&]<class In, class T>(type_tag<In>, type_tag<T>) {
    detail::cuda_segmented_reduce_into(static_cast<const In*>(x), n, offsets, num_segments,
                                       static_cast<T*>(out), T{0}, plus{}, stream);
  });
}

void segmented_cumsum(dtype in, dtype acc, const void* x, std::size_t n,
                      const std::int64_t* offsets, std::size_t num_offsets, void* out,
                      stream_t stream) {
  visit_pair(in, acc, [&]<class In, class T>(type_tag<In>, type_tag<T>) {
    inclusive_segmented_scan(cuda.on(stream), device_span<const In>(static_cast<const In*>(x), n),
                             device_span<const std::int64_t>(offsets, num_offsets),
                             device_span<T>(static_cast<T*>(out), n));
  });
}

}  // namespace gpuprim::python::gpu
