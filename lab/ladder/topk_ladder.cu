// Host side of the top-k ladder: the launchers of the four rungs and the
// table that the tests and `gpuprim bench order --ladder` iterate.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>

#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/topk.cuh"
#include "lab/ladder/topk.cuh"
#include "lab/ladder/topk_ladder.hpp"

namespace gpuprim::ladder {
namespace {

constexpr const char* algorithm = "topk ladder";

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("gpuprim::ladder: " + what);
}

void check_k(device_span<const float> in, std::size_t k, device_span<float> values,
             device_span<std::int64_t> indices) {
  require(k >= 1 && k <= in.size(),
          "k is " + std::to_string(k) + ", it must be from 1 to " + std::to_string(in.size()));
  require(values.size() >= k && indices.size() >= k,
          "the outputs hold " + std::to_string(values.size()) + " values and " +
              std::to_string(indices.size()) + " indices, k is " + std::to_string(k));
}

void run_full_sort(device_span<const float> in, std::size_t k, device_span<float> values,
                   device_span<std::int64_t> indices, stream_t stream) {
  check_k(in, k, values, indices);
  detail::cuda_topk_by_sort(in.data(), 1, in.size(), in.size(), k, true, values.data(), k,
                            indices.data(), k, stream);
}

void run_block_bitonic(device_span<const float> in, std::size_t k, device_span<float> values,
                       device_span<std::int64_t> indices, stream_t stream) {
  check_k(in, k, values, indices);
  const std::uint64_t n = in.size();
  require(k <= std::size_t(topk_bitonic_max_k),
          "the block bitonic rung keeps at most 1024 per block, k is " + std::to_string(k));
  require(n < 0xFFFFFFFFull, "the block bitonic rung keys indices in 32 bits");
  const int kp = static_cast<int>(std::bit_ceil(k));
  const std::uint64_t blocks = std::max<std::uint64_t>(
      1, std::min<std::uint64_t>(cuda_impl::ceil_div(n, topk_bitonic_batch),
                                 std::uint64_t(cuda_impl::current_multiprocessor_count()) * 2));
  const std::uint64_t chunk = cuda_impl::ceil_div(n, blocks);
  const std::uint64_t m = blocks * kp;
  const detail::scratch_buffer keys(m * sizeof(std::uint64_t), stream);
  cuda_impl::launch("topk_block_bitonic", algorithm, topk_block_bitonic,
                    {static_cast<unsigned>(blocks), topk_bitonic_threads, 0, stream}, in.data(), n,
                    chunk, kp, keys.get<std::uint64_t>());
  detail::cuda_merge_sort_into(keys.get<std::uint64_t>(),
                               static_cast<detail::order_no_value*>(nullptr), m, greater{}, stream);
  cuda_impl::launch("topk_bitonic_write", algorithm, topk_bitonic_write,
                    {static_cast<unsigned>(cuda_impl::ceil_div(k, 256)), 256, 0, stream}, in.data(),
                    keys.get<const std::uint64_t>(), std::uint64_t{k}, values.data(),
                    indices.data());
}

void run_digit_passes(device_span<const float> in, std::size_t k, device_span<float> values,
                      device_span<std::int64_t> indices, stream_t stream) {
  check_k(in, k, values, indices);
  cuda_impl::topk_select_tuning no_pre_filter;
  no_pre_filter.sample_min_n = std::numeric_limits<std::uint64_t>::max();
  cuda_impl::topk_radix_select(in.data(), in.size(), k, true, values.data(), indices.data(), stream,
                               no_pre_filter, algorithm);
}

void run_radix_select(device_span<const float> in, std::size_t k, device_span<float> values,
                      device_span<std::int64_t> indices, stream_t stream) {
  check_k(in, k, values, indices);
  topk(cuda.on(stream), in, k, values, indices);
}

constexpr topk_rung topk_ladder[] = {
    {"topk_full_sort",
     "the first correct design: a stable merge sort of all n (value, index) pairs, O(n log n)",
     run_full_sort},
    {"topk_block_bitonic",
     "sorts only 2048-element batches in shared memory and folds each into the block's best k "
     "(bitonic max-merge), then sorts blocks x k candidates; k <= 1024, n < 2^32 - 1",
     run_block_bitonic},
    {"topk_digit_passes",
     "no comparison sort of the input: digit histograms narrow to the k-th key, each pass a read "
     "of the array, one compaction, a sort of about k + 2^16 candidates",
     run_digit_passes},
    {"topk_radix_select",
     "the array read once: a sampled pivot keeps a few times k elements, the digit passes and "
     "the compaction read only those",
     run_radix_select},
};

}  // namespace

GPUPRIM_LADDER_DEFINE(topk_rung, topk_rungs, topk_ladder);

}  // namespace gpuprim::ladder
