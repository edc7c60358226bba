// Device-wide selection, the host driver: picks the tile shape, the count
// type and the kernels of cuda/device/select/kernels.cuh (whose comment
// describes the single pass) and launches them.
//  - A call that writes nothing (counts only) runs select_count: one read of
//    the input, no look-back.
//  - Otherwise select_decoupled_lookback, once. A stable partition must know
//    the selected total before it places the rest: it counts first (one
//    more read, stream-ordered, nothing waits on the host).
// Counts are 32-bit inside a call of fewer than 2^31 elements and 64-bit
// above.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "gpuprim/cuda/device/select/kernels.cuh"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/vector.cuh"
#include "gpuprim/cuda/support/workspace.cuh"
#include "gpuprim/detail/select/entry.hpp"
#include "gpuprim/detail/select/selections.hpp"

namespace gpuprim::cuda_impl {

template <class Count, class S>
void launch_select(const S& s, std::uint64_t n, std::uint64_t* counts, stream_t stream) {
  using K = typename S::staged;
  using T = typename select_accumulator<S, Count>::type;
  using tile = select_tile<S, Count>;
  constexpr int threads = tile::threads;
  constexpr int items = tile::items;
  constexpr int vec = tile::vec;
  constexpr bool can_vectorize = vec > 1 && items % vec == 0;
  const std::uint64_t tiles = ceil_div(n, std::uint64_t(threads) * items);
  bool aligned = is_aligned(s.input, 16);
  if constexpr (select_accumulator<S, Count>::stages_values) {
    aligned = aligned && is_aligned(s.values.data, 16);
  }
  const launch_shape shape{static_cast<unsigned>(tiles), threads, 0, stream};
  if (!s.emits) {
    // Counts only: the words are added to, from zero.
    static_assert(sizeof(unsigned long long) == sizeof(std::uint64_t));
    detail::fill_bytes(counts, 0, S::counted * sizeof(std::uint64_t), stream);
    auto* sums = reinterpret_cast<unsigned long long*>(counts);
    if (can_vectorize && aligned) {
      launch("select_count", "select", select_count<threads, items, (can_vectorize ? vec : 1), S>,
             shape, s, n, sums);
    } else {
      launch("select_count", "select", select_count<threads, items, 1, S>, shape, s, n, sums);
    }
    return;
  }
  const auto lookback = stream_tile_lookback<T, true>(stream, tiles, "gpuprim::select");
  const auto run = [&](auto kernel) {
    const unsigned prefetch =
        tiles > persistent_grid_size(kernel, threads, 0) ? select_prefetch_tiles : 0;
    launch("select_decoupled_lookback", "select", kernel, shape, s, n, lookback, counts, prefetch);
  };
  if (can_vectorize && aligned) {
    run(select_decoupled_lookback<threads, items, (can_vectorize ? vec : 1), Count, true, S>);
  } else {
    run(select_decoupled_lookback<threads, items, 1, Count, true, S>);
  }
}

// 32-bit counts below 2^31 elements, 64-bit above.
template <class S>
void launch_select_counted(const S& s, std::uint64_t n, std::uint64_t* counts, stream_t stream) {
  if (n < (std::uint64_t{1} << 31)) {
    launch_select<std::uint32_t>(s, n, counts, stream);
  } else {
    launch_select<std::uint64_t>(s, n, counts, stream);
  }
}

}  // namespace gpuprim::cuda_impl

namespace gpuprim::detail {

template <class S>
void cuda_select_into(const S& s, std::size_t n, std::uint64_t* counts, stream_t stream) {
  if (n == 0) {
    fill_bytes(counts, 0, S::counted * sizeof(std::uint64_t), stream);
    return;
  }
  if constexpr (requires(const S& x) { x.selected_total; }) {
    // A stable partition puts the rest after every selected element: it
    // counts them first (stream-ordered; nothing waits on the host).
    if (s.emits && s.rest == rest_layout::after_selected) {
      const scratch_buffer total(sizeof(std::uint64_t), stream);
      S counting = s;
      counting.emits = false;
      cuda_impl::launch_select_counted(counting, n, total.get<std::uint64_t>(), stream);
      S placing = s;
      placing.selected_total = total.get<std::uint64_t>();
      cuda_impl::launch_select_counted(placing, n, counts, stream);
      return;
    }
  }
  cuda_impl::launch_select_counted(s, n, counts, stream);
}

}  // namespace gpuprim::detail
