// Precompiled segmented scans over std::int64_t (head flags; offsets become flags).
#include "segmented_scan_instantiate.cuh"

GPUPRIM_INSTANTIATE_SEGMENTED_SCAN(std::int64_t)

template void gpuprim::detail::cuda_mark_segment_heads<std::uint64_t>(const std::uint64_t*,
                                                                      std::size_t, std::uint8_t*,
                                                                      std::size_t,
                                                                      gpuprim::stream_t);
template void gpuprim::detail::cuda_mark_segment_heads<std::int64_t>(const std::int64_t*,
                                                                     std::size_t, std::uint8_t*,
                                                                     std::size_t,
                                                                     gpuprim::stream_t);
