// Device-wide selection in a single pass: copy_if, copy_flagged, partition,
// partition_three_way, unique, unique_by_key, run_length_encode and
// reduce_by_key are one kernel, run over a "selection"
// (gpuprim/detail/select/selections.hpp: what an element's class is and
// where an element of a class goes). Each element is read once; each output
// written once, in input order (no atomics decide positions).
//
// One block handles one tile of Threads * Items elements:
//  1. Each warp loads its 32 * Items elements with coalesced (vector) loads
//     into a padded shared buffer (cuda/warp/warp_exchange.cuh); each lane then
//     reads back its Items consecutive elements.
//  2. Each lane classifies its elements (dropped, or one of up to three
//     output classes; unique's and the reductions' classes look at the
//     element before) and sums its class counts: the scan's accumulator is
//     the vector of counts, or for a reduction the pair (heads, value of
//     the open run) under the segmented operator. A block_scan gives each
//     thread its prefix within the tile and the tile's aggregate.
//  3. Warp 0 learns the tile's prefix by decoupled look-back
//     (cuda/device/decoupled_lookback.cuh); the last tile writes the totals
//     (and a reduction's last run value).
//  4. Each element's rank within its class in the tile gives it a slot in
//     a shared list of tile-local indices, classes one after another. A
//     reduction also writes each finished run's value, at the head that
//     ends it, straight to memory.
//  5. The block walks the slot list in order: consecutive threads write
//     consecutive outputs, so the stores are coalesced whatever the
//     selection's density.
// Counts are 32-bit inside a call of fewer than 2^31 elements (they ride in
// the look-back's status word) and 64-bit above.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "gpuprim/cuda/block/block_scan.cuh"
#include "gpuprim/cuda/device/decoupled_lookback.cuh"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/partial.cuh"
#include "gpuprim/cuda/support/vector.cuh"
#include "gpuprim/cuda/support/workspace.cuh"
#include "gpuprim/cuda/warp/warp_exchange.cuh"
#include "gpuprim/detail/select/entry.hpp"
#include "gpuprim/detail/select/selections.hpp"

namespace gpuprim::cuda_impl {

// ---- accumulators -----------------------------------------------------------

// The counts of a selection's counted classes.
template <class Count, int Counted>
struct class_counts {
  Count c[Counted];
};

template <class Count, int Counted>
struct class_counts_sum {
  __device__ class_counts<Count, Counted> operator()(const class_counts<Count, Counted>& a,
                                                     const class_counts<Count, Counted>& b) const {
    class_counts<Count, Counted> r;
#pragma unroll
    for (int j = 0; j < Counted; ++j)
      r.c[j] = a.c[j] + b.c[j];
    return r;
  }
};

// A reduction's accumulator: the heads seen, and op folded over the values
// since the last of them (all values when there is none).
template <class Count, class V>
struct run_total {
  Count heads;
  V value;
};

template <class Count, class V, class Op>
struct run_total_op {
  Op op;
  __device__ run_total<Count, V> operator()(const run_total<Count, V>& a,
                                            const run_total<Count, V>& b) const {
    return {static_cast<Count>(a.heads + b.heads), b.heads != 0 ? b.value : op(a.value, b.value)};
  }
};

struct no_item_value {};

// What the kernel scans for selection S with counts of type Count.
template <class S, class Count, bool Reduces = S::reduces>
struct select_accumulator {
  using type = class_counts<Count, S::counted>;
  using item_value = no_item_value;
  static constexpr bool constant_values = true;
  static __device__ class_counts_sum<Count, S::counted> op(const S&) { return {}; }
  static __device__ item_value load(const S&, std::uint64_t) { return {}; }
  static __device__ type item(int cls, item_value) {
    type t;
#pragma unroll
    for (int j = 0; j < S::counted; ++j)
      t.c[j] = cls == j ? 1 : 0;
    return t;
  }
  static __device__ Count count(const type& t, int j) {
    return t.c[j];
  }
};

template <class S, class Count>
struct select_accumulator<S, Count, true> {
  using V = typename S::value_type;
  using type = run_total<Count, V>;
  using item_value = V;
  static constexpr bool constant_values = decltype(S::values)::constant;
  static __device__ run_total_op<Count, V, decltype(S::op)> op(const S& s) { return {s.op}; }
  static __device__ item_value load(const S& s, std::uint64_t i) { return s.values.at(i); }
  static __device__ type item(int cls, const V& v) { return {static_cast<Count>(cls == 0), v}; }
  static __device__ Count count(const type& t, int) { return t.heads; }
};

// ---- tile shape ---------------------------------------------------------------

// Elements per thread by the staged element's size: 24 four-byte elements
// (6144 a tile, 25 KB staged plus 12 KB of slots), about the scan's 64 to
// 96 bytes a thread, a whole number of 16-byte vectors each.
template <std::size_t Bytes>
inline constexpr int select_items_per_thread = Bytes == 1   ? 32
                                               : Bytes == 2 ? 24
                                               : Bytes == 4 ? 24
                                               : Bytes == 8 ? 12
                                                            : (Bytes <= 16 ? 6 : 1);
inline constexpr int select_threads = 256;
inline constexpr int select_min_blocks = 3;

// Where the r-th element of the rest goes.
template <class S>
__device__ std::uint64_t rest_position(const S& s, std::uint64_t r, std::uint64_t n) {
  const detail::rest_layout layout = detail::rest_of(s);
  if (layout == detail::rest_layout::reversed) return n - 1 - r;
  if constexpr (requires(const S& x) { x.selected_total; }) {
    if (layout == detail::rest_layout::after_selected) return *s.selected_total + r;
  }
  return r;
}

template <int Threads, int Items, int Vec, class Count, class S>
__global__ void __launch_bounds__(Threads, select_min_blocks)
    select_decoupled_lookback(S s, std::uint64_t n,
                              tile_lookback<typename select_accumulator<S, Count>::type> lookback,
                              std::uint64_t* counts_out) {
  using K = typename S::staged;
  using acc = select_accumulator<S, Count>;
  using T = typename acc::type;
  using exchange = warp_exchange<Items, Vec, K>;
  using slot_t = std::conditional_t<(Threads * Items <= 65536), std::uint16_t, std::uint32_t>;
  constexpr int warps = Threads / 32;
  constexpr int warp_elements = 32 * Items;
  constexpr int tile_elements = Threads * Items;
  constexpr int counted = S::counted;
  constexpr int sections = S::sections;

  struct alignas(16) staging {
    K slots[exchange::slots];
  };
  __shared__ staging exchange_storage[warps];
  __shared__ typename block_scan<Threads, T>::storage scan_storage;
  __shared__ slot_t slots[tile_elements];
  __shared__ partial<T> tile_prefix;

  const auto op = acc::op(s);
  const std::uint64_t tile = blockIdx.x;
  const std::uint64_t tile_begin = tile * tile_elements;
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const std::uint64_t warp_begin = tile_begin + std::uint64_t(warp) * warp_elements;
  const int warp_valid =
      warp_begin >= n ? 0
                      : static_cast<int>(std::min<std::uint64_t>(warp_elements, n - warp_begin));
  const int tile_valid = static_cast<int>(std::min<std::uint64_t>(tile_elements, n - tile_begin));
  const auto staged_at = [&](int e) -> const K& {
    return exchange_storage[e / warp_elements].slots[padded_index(e % warp_elements)];
  };

  // 1. Load.
  const exchange stage{exchange_storage[warp].slots};
  stage.load(s.input + warp_begin, warp_valid, lane);
  if constexpr (S::needs_previous) __syncthreads();  // the element before may be another warp's
  const int thread_valid = std::clamp(warp_valid - lane * Items, 0, Items);
  const int first = warp * warp_elements + lane * Items;  // tile-local index of item 0

  // 2. Classify, count, scan.
  signed char cls[Items];
  // A reduction's values stay in registers from step 2 to step 4 where they
  // take few registers a thread (each at least one); otherwise (byte keys,
  // 32 a thread, whose values spilled) step 4 reads them again, from L1 or L2.
  constexpr bool keep_values =
      S::reduces && !acc::constant_values &&
      Items * std::max<std::size_t>(4, sizeof(typename acc::item_value)) <= 96;
  typename acc::item_value values[keep_values ? Items : 1];
  partial<T> thread_total{T{}, thread_valid > 0};
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    cls[k] = -1;
    if (k < thread_valid) {
      const std::uint64_t i = tile_begin + first + k;
      const K x = stage.blocked(lane, k);
      K before{};
      const K* previous = nullptr;
      if constexpr (S::needs_previous) {
        if (i > 0) {
          before = first + k > 0 ? staged_at(first + k - 1) : s.input[i - 1];
          previous = &before;
        }
      }
      cls[k] = static_cast<signed char>(s.classify(x, previous, i));
      typename acc::item_value v{};
      if constexpr (S::reduces) v = acc::load(s, i);
      if constexpr (keep_values) values[k] = v;
      const T t = acc::item(cls[k], v);
      thread_total.value = k == 0 ? t : op(thread_total.value, t);
    }
  }
  const auto block = block_scan<Threads, T>{scan_storage}.exclusive_scan(thread_total, op);

  // 3. The tile's prefix; the last tile's totals.
  if (tile == 0) {
    if (threadIdx.x == 0) {
      tile_prefix = {T{}, false};
      lookback.publish(0, tile_lookback<T>::inclusive_prefix, block.block_total.value);
    }
  } else {
    if (threadIdx.x == 0)
      lookback.publish(tile, tile_lookback<T>::aggregate, block.block_total.value);
    if (warp == 0) {
      const T prefix =
          lookback.template exclusive_prefix<scan_lookback_words, scan_first_poll_delay_ns, 0>(tile,
                                                                                               op);
      if (lane == 0) {
        tile_prefix = {prefix, true};
        lookback.publish(tile, tile_lookback<T>::inclusive_prefix,
                         op(prefix, block.block_total.value));
      }
    }
  }
  __syncthreads();
  if (tile + 1 == gridDim.x && threadIdx.x == 0) {
    const partial<T> total = combine(tile_prefix, block.block_total, op);
#pragma unroll
    for (int j = 0; j < counted; ++j)
      counts_out[j] = acc::count(total.value, j);
    if constexpr (S::reduces) {
      if (s.emits) s.write_value(acc::count(total.value, 0) - 1, total.value.value);
    }
  }
  if (!s.emits) return;

  // 4. Slots in the tile's list; a reduction's finished runs.
  Count tile_count[counted], local[counted], tile_base[counted];
  Count counted_before_tile = 0;
#pragma unroll
  for (int j = 0; j < counted; ++j) {
    tile_count[j] = acc::count(block.block_total.value, j);
    local[j] = block.exclusive_prefix.valid ? acc::count(block.exclusive_prefix.value, j) : 0;
    tile_base[j] = tile_prefix.valid ? acc::count(tile_prefix.value, j) : 0;
    counted_before_tile += tile_base[j];
  }
  int section_start[3] = {0, 0, 0};
#pragma unroll
  for (int j = 1; j < sections; ++j)
    section_start[j] = section_start[j - 1] + static_cast<int>(tile_count[j - 1]);
  partial<T> run = combine(tile_prefix, block.exclusive_prefix, op);
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const int c = cls[k];
    if (c >= 0) {
      // (Selects over the classes, not indexing by c: the arrays stay in
      // registers.)
      int slot = 0, taken = 0;
#pragma unroll
      for (int j = 0; j < counted; ++j) {
        if (c == j) slot = section_start[j] + static_cast<int>(local[j]);
        taken += static_cast<int>(local[j]);
        if (c == j) ++local[j];
      }
      if (c >= counted)
        slot = section_start[counted < sections ? counted : 0] + (first + k - taken);
      slots[slot] = static_cast<slot_t>(first + k);
    }
    if constexpr (S::reduces) {
      if (k < thread_valid) {
        // A head ends the run before it (whose value `run` holds).
        if (c == 0 && run.valid) s.write_value(acc::count(run.value, 0) - 1, run.value.value);
        typename acc::item_value v;
        if constexpr (keep_values) {
          v = values[k];
        } else {
          v = acc::load(s, tile_begin + first + k);
        }
        run = combine(run, partial<T>{acc::item(c, v), true}, op);
      }
    }
  }
  __syncthreads();

  // 5. Coalesced stores, in slot order.
  int emitted = tile_valid;  // a partition places every element
  if constexpr (sections == counted) {
    emitted = section_start[sections - 1] + static_cast<int>(tile_count[sections - 1]);
  }
  for (int j = threadIdx.x; j < emitted; j += Threads) {
    const int e = slots[j];
    int c = 0, start = 0;
    std::uint64_t base = tile_base[0];
#pragma unroll
    for (int q = 1; q < sections; ++q) {
      if (j >= section_start[q]) {
        c = q;
        start = section_start[q];
        base = q < counted ? tile_base[q < counted ? q : 0] : 0;
      }
    }
    const std::uint64_t r = static_cast<std::uint64_t>(j - start);
    const std::uint64_t dest =
        c < counted ? base + r : rest_position(s, tile_begin - counted_before_tile + r, n);
    s.write(c, dest, staged_at(e), tile_begin + e);
  }
}

template <class Count, class S>
void launch_select(const S& s, std::uint64_t n, std::uint64_t* counts, stream_t stream) {
  using K = typename S::staged;
  using T = typename select_accumulator<S, Count>::type;
  constexpr int threads = select_threads;
  constexpr int items = select_items_per_thread<sizeof(K)>;
  constexpr int vec = vector_items<K>;
  constexpr bool can_vectorize = vec > 1 && items % vec == 0;
  const std::uint64_t tiles = ceil_div(n, std::uint64_t(threads) * items);
  const auto lookback = stream_tile_lookback<T>(stream, tiles, "gpuprim::select");
  const launch_shape shape{static_cast<unsigned>(tiles), threads, 0, stream};
  if (can_vectorize && is_aligned(s.input, 16)) {
    launch("select_decoupled_lookback", "select",
           select_decoupled_lookback<threads, items, (can_vectorize ? vec : 1), Count, S>, shape, s,
           n, lookback, counts);
  } else {
    launch("select_decoupled_lookback", "select",
           select_decoupled_lookback<threads, items, 1, Count, S>, shape, s, n, lookback, counts);
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
