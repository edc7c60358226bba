// gp::argsort_batched for every radix sort key type (GPUPRIM_SORT_TYPES).
#include "gpuprim/cuda/device/device_argsort_batched.cuh"

namespace gpuprim::detail {

#define GPUPRIM_ARGSORT_BATCHED(name, K)                                                       \
  template void cuda_argsort_batched<K>(const K*, K*, std::int64_t*, std::size_t, std::size_t, \
                                        sort_order, stream_t);
GPUPRIM_SORT_TYPES(GPUPRIM_ARGSORT_BATCHED)
#undef GPUPRIM_ARGSORT_BATCHED

}  // namespace gpuprim::detail
