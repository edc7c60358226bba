// Device-wide selection, the kernels: copy_if, copy_flagged, partition,
// partition_three_way, unique, unique_by_key, run_length_encode and
// reduce_by_key are one single-pass kernel, run over a "selection"
// (gpuprim/detail/select/selections.hpp: what an element's class is and
// where an element of a class goes), and a count of the classes is a second,
// read-only kernel. The host driver is cuda/device/device_select.cuh.
//
// select_decoupled_lookback: each element is read once, each output written
// once, in input order (no atomics decide positions). One block handles one
// tile of Threads * Items elements:
//  0. The block asks L2 for the input of the tile prefetch_tiles ahead (as
//     the scan does: the tiles that later tiles look back on then load from
//     L2 and publish sooner).
//  1. Each warp loads its 32 * Items keys (and a reduction's values) with
//     coalesced 16-byte loads into padded shared buffers
//     (cuda/warp/warp_exchange.cuh); each lane then reads back its Items
//     consecutive elements into registers. The element before a lane's
//     first one (unique's and the reductions' classes look at it) is the
//     last one of the lane before, or for lane 0 one load from global
//     memory: no block barrier.
//  2. Each lane classifies its elements (dropped, or one of up to three
//     output classes: a bit mask per class) and sums its class counts: the
//     scan's accumulator is the vector of counts, or for a reduction the pair
//     (heads, value of the open run) under the segmented operator. A
//     block_scan gives each thread its prefix within the tile and the
//     tile's aggregate.
//  3. Warp 0 learns the tile's prefix by decoupled look-back
//     (cuda/device/decoupled_lookback.cuh; a reduction's pair of 8 bytes
//     rides in two status words, with no fence); the last tile writes the
//     totals (and a reduction's last run value).
//  4. Each element's rank within its class in the tile gives it a place in
//     a shared list, classes one after another: the element itself, from
//     its register, in the staging buffer it was loaded through (free since
//     the block scan's barrier), or, for the selections that write an
//     element's index (nonzero's, unique_by_key's values), its tile-local
//     index in a list of its own (the staged elements stay). A reduction
//     folds its values again from the tile's prefix: the value of each run
//     that a head of the tile ends goes to a shared list too, at the head's
//     rank.
//  5. The block walks the lists in order: consecutive threads write
//     consecutive outputs, so the stores are coalesced whatever the
//     selection's density.
// Counts are 32-bit inside a call of fewer than 2^31 elements (they ride in
// the look-back's status word) and 64-bit above.
//
// select_count (a call that writes nothing: count_if, the sizes asked for
// before a short output is filled, a stable partition's selected total):
// steps 1 and 2 only, then one atomic add per block and class of its count
// (integer sums: the totals do not depend on the order).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "gpuprim/core/operators.hpp"
#include "gpuprim/cuda/block/block_scan.cuh"
#include "gpuprim/cuda/device/decoupled_lookback.cuh"
#include "gpuprim/cuda/support/partial.cuh"
#include "gpuprim/cuda/support/prefetch.cuh"
#include "gpuprim/cuda/support/vector.cuh"
#include "gpuprim/cuda/warp/warp_exchange.cuh"
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

// Whether a reduction folds a 1 per element with plus (run_length_encode):
// its run values are then lengths, which it counts in Count (a run is no
// longer than the call), whatever the output's type.
template <class S>
inline constexpr bool counts_run_lengths = decltype(S::values)::constant&&
    std::is_same_v<std::remove_cv_t<decltype(S::op)>, gpuprim::plus>;

// What the kernel scans for selection S with counts of type Count.
template <class S, class Count, bool Reduces = S::reduces>
struct select_accumulator {
  using type = class_counts<Count, S::counted>;
  using item_value = no_item_value;
  static constexpr bool stages_values = false;  // loads an array of values beside the keys
  static __device__ class_counts_sum<Count, S::counted> op(const S&) { return {}; }
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
  using item_value = std::conditional_t<counts_run_lengths<S>, Count, typename S::value_type>;
  using type = run_total<Count, item_value>;
  static constexpr bool stages_values = !decltype(S::values)::constant;
  using folding = std::conditional_t<counts_run_lengths<S>, gpuprim::plus, decltype(S::op)>;
  static __device__ run_total_op<Count, item_value, folding> op(const S& s) {
    if constexpr (counts_run_lengths<S>) {
      return {gpuprim::plus{}};
    } else {
      return {s.op};
    }
  }
  static __device__ type item(int cls, const item_value& v) {
    return {static_cast<Count>(cls == 0), v};
  }
  static __device__ Count count(const type& t, int) { return t.heads; }
  // The output's value of a run.
  static __device__ typename S::value_type result(const item_value& v) {
    return static_cast<typename S::value_type>(v);
  }
};

// A value staged beside each key: a reduction's (or a stand-in byte).
template <class S, class Count>
using staged_value_t =
    std::conditional_t<S::reduces, typename select_accumulator<S, Count>::item_value,
                       unsigned char>;

// ---- tile shape ---------------------------------------------------------------

inline constexpr int select_threads = 256;
// Resident blocks per SM the compiler must allow: 4 (64 registers a thread,
// as the scan's tile), 3 (85) for the reductions, which keep a run value
// beside each element, and for the three-way partition's two class masks
// (which spilled at 64).
template <class S>
inline constexpr int select_min_blocks = S::reduces || S::sections > 2 ? 3 : 4;

// Tiles ahead whose input a tile asks L2 for (the scan's distance,
// scan_prefetch_tiles, measured there).
inline constexpr unsigned select_prefetch_tiles = 64;

// Elements per thread by the staged element's size, where the elements
// compact in their staging buffer: the scan's 40 four-byte elements (10240
// a tile, 41 KB staged) and about as many bytes for the other sizes, a whole
// number of 16-byte vectors each.
template <std::size_t Bytes>
inline constexpr int select_items_per_thread = Bytes == 1   ? 32
                                               : Bytes == 2 ? 32
                                               : Bytes == 4 ? 40
                                               : Bytes == 8 ? 16
                                                            : (Bytes <= 16 ? 6 : 1);
// Where an index list of 2 bytes an element sits beside the staging buffer
// (writes_index), and for the reductions, which stage a value beside each
// key: as many elements as fit this many bytes, in whole vectors.
inline constexpr std::size_t select_staging_budget = 46 * 1024;

template <class S, class Count>
struct select_tile {
  using K = typename S::staged;
  using V = staged_value_t<S, Count>;
  static constexpr int threads = select_threads;
  static constexpr int key_items = select_items_per_thread<sizeof(K)>;
  // 32 times the bytes an element takes: its staged key (one pad slot per
  // 32), a reduction's value, an index list's entry.
  static constexpr std::size_t element_bytes_32 =
      sizeof(K) * 33 + (S::reduces ? sizeof(V) * 33 : 0) + (S::writes_index ? 2 * 32 : 0);
  static constexpr int fit =
      static_cast<int>(select_staging_budget * 32 / (threads * element_bytes_32));
  static constexpr int vec = std::max(vector_items<K>, S::reduces ? vector_items<V> : 1);
  // (Reductions: at most 16, the keys and the run values they end in
  // registers within 85 of them; 20 spilled.)
  static constexpr int limited = std::max(1, std::min({key_items, fit, S::reduces ? 16 : 64}));
  static constexpr int items = limited >= vec ? limited / vec * vec : limited;
};

// Where the r-th element of the rest goes (`selected`: the selected total,
// for the after_selected layout).
template <class S>
__device__ std::uint64_t rest_position(const S& s, std::uint64_t r, std::uint64_t n,
                                       std::uint64_t selected) {
  const detail::rest_layout layout = detail::rest_of(s);
  if (layout == detail::rest_layout::reversed) return n - 1 - r;
  if (layout == detail::rest_layout::after_selected) return selected + r;
  return r;
}

// The selected total a stable partition's rest goes after (device memory,
// counted before the call), or 0.
template <class S>
__device__ std::uint64_t selected_total_of(const S& s) {
  if constexpr (requires(const S& x) { x.selected_total; }) {
    if (detail::rest_of(s) == detail::rest_layout::after_selected) return *s.selected_total;
  }
  return 0;
}

// Step 0: L2 prefetch of the tile `ahead` tiles on (its keys, flags and values).
template <class S, int TileElements>
__device__ void prefetch_tile(const S& s, std::uint64_t n, std::uint64_t ahead) {
  const std::uint64_t begin = ahead * TileElements;
  const std::uint64_t count = std::min<std::uint64_t>(TileElements, n - begin);
  prefetch_block_to_l2(s.input + begin, count * sizeof(typename S::staged));
  if constexpr (requires(const S& x) { x.flags; }) {
    prefetch_block_to_l2(s.flags + begin, count * sizeof(*s.flags));
  }
  if constexpr (S::reduces) {
    if constexpr (!decltype(S::values)::constant) {
      prefetch_block_to_l2(s.values.data + begin, count * sizeof(*s.values.data));
    }
  }
}

// One warp's staging buffer and the element before its first.
template <int Items, class K>
struct select_warp_staging {
  static constexpr int slots = 32 * Items + Items;  // warp_exchange's padded slots
  K buffer[slots];
  K before;
};

// Steps 1 and 2's loading and classifying, shared by both kernels: the
// warp's keys staged, a lane's keys in registers, and their classes, one
// bit mask per class (-1: dropped).
template <int Items, int Vec, class S>
struct select_lane {
  using K = typename S::staged;
  using mask_t = std::conditional_t<(Items > 32), unsigned long long, unsigned>;
  static constexpr int sections = S::sections;
  const S& s;
  warp_exchange<Items, Vec, K> keys;
  int lane;
  int valid;            // of the lane's Items elements
  std::uint64_t first;  // global index of the lane's first element
  K x[Items];           // the lane's elements
  mask_t in_class[sections] = {};
  mask_t dropped = 0;  // (with sections > 1)

  static __device__ mask_t bit(int k) { return mask_t{1} << k; }

  __device__ int class_at(int k) const {
    if (k >= valid) return -1;
    if constexpr (sections == 1) {
      return in_class[0] & bit(k) ? 0 : -1;
    } else {
      if (dropped & bit(k)) return -1;
      int c = sections - 1;
#pragma unroll
      for (int j = sections - 2; j >= 0; --j)
        c = in_class[j] & bit(k) ? j : c;
      return c;
    }
  }

  // How many of the lane's elements fall in class j.
  __device__ unsigned count(int j) const {
    if (j < sections - 1 || sections == 1) return __popcll(in_class[j]);
    const mask_t all = valid >= 8 * static_cast<int>(sizeof(mask_t)) ? ~mask_t{0} : bit(valid) - 1;
    mask_t rest = all & ~dropped;
#pragma unroll
    for (int q = 0; q < sections - 1; ++q)
      rest &= ~in_class[q];
    return __popcll(rest);
  }

  // Classifies the lane's elements (the keys are staged); `before` points
  // to the element before the warp's first in shared memory, or is null
  // (lane 0 of the call's first warp). The element before each other one is
  // the staged one before it, in this warp: no block barrier.
  __device__ void classify(const K* before) {
#pragma unroll
    for (int k = 0; k < Items; ++k) {
      if (k < valid) {
        const int e = lane * Items + k;
        const K* previous = nullptr;
        if constexpr (S::needs_previous) {
          previous = e > 0 ? &keys.buffer[padded_index(e - 1)] : before;
        }
        x[k] = keys.blocked(lane, k);
        const int c = s.classify(x[k], previous, first + k);
        if constexpr (sections == 1) {
          in_class[0] |= c == 0 ? bit(k) : 0;
        } else {
          dropped |= c < 0 ? bit(k) : 0;
#pragma unroll
          for (int j = 0; j < sections - 1; ++j)
            in_class[j] |= c == j ? bit(k) : 0;
        }
      }
    }
  }
};

// The element before the warp's first (needs_previous only), loaded by
// lane 0 into `slot` (shared memory; seen by the warp after the staging
// load's __syncwarp); null when there is none.
template <class S>
__device__ const typename S::staged* load_before(const S& s, std::uint64_t warp_begin,
                                                 std::uint64_t n, int lane,
                                                 typename S::staged& slot) {
  if constexpr (S::needs_previous) {
    if (warp_begin > 0 && warp_begin < n) {
      if (lane == 0) slot = s.input[warp_begin - 1];
      return &slot;
    }
  }
  return nullptr;
}

// Step 5 for a selection with one plain output: the block stores list[0,
// count) at dst, in 16-byte vectors between a scalar head and tail.
template <int Threads, class K>
__device__ void store_list(K* dst, const K* list, int count) {
  constexpr int vec = vector_items<K>;
  int head = count, vectors = 0;
  if constexpr (vec > 1) {
    const auto address = reinterpret_cast<std::uintptr_t>(dst);
    if (address % sizeof(K) == 0) {
      head = std::min(count, static_cast<int>((16 - address % 16) % 16 / sizeof(K)));
      vectors = (count - head) / vec;
    }
  }
  for (int j = threadIdx.x; j < head; j += Threads)
    dst[j] = list[j];
  for (int v = threadIdx.x; v < vectors; v += Threads) {
    vector_of<K, vec> w;
#pragma unroll
    for (int c = 0; c < vec; ++c)
      w.items[c] = list[head + v * vec + c];
    *reinterpret_cast<vector_of<K, vec>*>(dst + head + v * vec) = w;
  }
  for (int j = head + vectors * vec + threadIdx.x; j < count; j += Threads)
    dst[j] = list[j];
}

template <int Threads, int Items, int Vec, class Count, bool Paired, class S>
__global__ void __launch_bounds__(Threads, select_min_blocks<S>) select_decoupled_lookback(
    S s, std::uint64_t n,
    tile_lookback<typename select_accumulator<S, Count>::type, Paired> lookback,
    std::uint64_t* counts_out, unsigned prefetch_tiles) {
  using K = typename S::staged;
  using acc = select_accumulator<S, Count>;
  using T = typename acc::type;
  using V = staged_value_t<S, Count>;
  using lookback_t = tile_lookback<T, Paired>;
  using lane_t = select_lane<Items, Vec, S>;
  using staging = select_warp_staging<Items, K>;
  using slot_t = std::conditional_t<(Threads * Items <= 65536), std::uint16_t, std::uint32_t>;
  constexpr int warps = Threads / 32;
  constexpr int warp_elements = 32 * Items;
  constexpr int tile_elements = Threads * Items;
  constexpr int counted = S::counted;
  constexpr int sections = S::sections;
  constexpr int exchange_slots = warp_exchange<Items, Vec, K>::slots;
  static_assert(staging::slots == exchange_slots);
  // Elements compact in their staging buffer, or their indices in a list.
  constexpr bool compacts = !S::writes_index;

  __shared__ alignas(16) unsigned char key_bytes[warps * sizeof(staging)];
  // A reduction's values (step 1), then its run values (step 4).
  constexpr int value_slots = S::reduces ? warps * exchange_slots : 1;
  __shared__ alignas(16) unsigned char value_bytes[value_slots * sizeof(V)];
  __shared__ typename block_scan<Threads, T>::storage scan_storage;
  __shared__ slot_t slots[compacts ? 1 : tile_elements];
  __shared__ partial<T> tile_prefix;

  staging* const key_storage = reinterpret_cast<staging*>(key_bytes);
  V* const value_storage = reinterpret_cast<V*>(value_bytes);
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

  // 0. Prefetch.
  if (prefetch_tiles > 0 && tile + prefetch_tiles < gridDim.x) {
    prefetch_tile<S, tile_elements>(s, n, tile + prefetch_tiles);
  }

  // 1. Load.
  const K* before = load_before(s, warp_begin, n, lane, key_storage[warp].before);
  lane_t mine{s,
              {key_storage[warp].buffer},
              lane,
              std::clamp(warp_valid - lane * Items, 0, Items),
              warp_begin + lane * Items};
  mine.keys.load(s.input + warp_begin, warp_valid, lane);
  const warp_exchange<Items, Vec, V> values{value_storage + warp * exchange_slots};
  if constexpr (acc::stages_values) values.load(s.values.data + warp_begin, warp_valid, lane);
  const int first = warp * warp_elements + lane * Items;  // tile-local index of item 0

  // 2. Classify, count, scan.
  mine.classify(before);
  const auto item_value = [&](int k) {
    if constexpr (acc::stages_values) {
      return values.blocked(lane, k);
    } else if constexpr (S::reduces) {
      return typename acc::item_value(1);
    } else {
      return no_item_value{};
    }
  };
  partial<T> thread_total{T{}, mine.valid > 0};
  if constexpr (S::reduces) {
#pragma unroll
    for (int k = 0; k < Items; ++k) {
      if (k < mine.valid) {
        const T t = acc::item(mine.class_at(k), item_value(k));
        thread_total.value = k == 0 ? t : op(thread_total.value, t);
      }
    }
  } else {
#pragma unroll
    for (int j = 0; j < counted; ++j)
      thread_total.value.c[j] = static_cast<Count>(mine.count(j));
  }
  const auto block = block_scan<Threads, T>{scan_storage}.exclusive_scan(thread_total, op);

  // 3. The tile's prefix; the last tile's totals.
  if (tile == 0) {
    if (threadIdx.x == 0) {
      tile_prefix = {T{}, false};
      lookback.publish(0, lookback_t::inclusive_prefix, block.block_total.value);
    }
  } else {
    if (threadIdx.x == 0) lookback.publish(tile, lookback_t::aggregate, block.block_total.value);
    if (warp == 0) {
      const T prefix =
          lookback.template exclusive_prefix<scan_lookback_words, scan_first_poll_delay_ns, 0>(tile,
                                                                                               op);
      if (lane == 0) {
        tile_prefix = {prefix, true};
        lookback.publish(tile, lookback_t::inclusive_prefix, op(prefix, block.block_total.value));
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
      if (s.emits) s.write_value(acc::count(total.value, 0) - 1, acc::result(total.value.value));
    }
  }
  if (!s.emits) return;

  // 4. Places in the tile's lists. (Every lane has read its staged keys
  // before the block scan's barrier: the staging buffers are free.)
  K* const compact = reinterpret_cast<K*>(key_bytes);
  const auto staged_at = [&](int e) -> const K& {
    return key_storage[e / warp_elements].buffer[padded_index(e % warp_elements)];
  };
  Count tile_count[counted], local[counted], tile_base[counted];
  Count counted_before_tile = 0;
#pragma unroll
  for (int j = 0; j < counted; ++j) {
    tile_count[j] = acc::count(block.block_total.value, j);
    local[j] = block.exclusive_prefix.valid ? acc::count(block.exclusive_prefix.value, j) : 0;
    tile_base[j] = tile_prefix.valid ? acc::count(tile_prefix.value, j) : 0;
    counted_before_tile += tile_base[j];
  }
  const Count first_head = local[0];
  int section_start[3] = {0, 0, 0};
#pragma unroll
  for (int j = 1; j < sections; ++j)
    section_start[j] = section_start[j - 1] + static_cast<int>(tile_count[j - 1]);
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const int c = mine.class_at(k);
    if (c >= 0) {
      // (Selects over the classes, not indexing by c: the arrays stay in
      // registers.)
      int place = 0, taken = 0;
#pragma unroll
      for (int j = 0; j < counted; ++j) {
        if (c == j) place = section_start[j] + static_cast<int>(local[j]);
        taken += static_cast<int>(local[j]);
        if (c == j) ++local[j];
      }
      if (c >= counted)
        place = section_start[counted < sections ? counted : 0] + (first + k - taken);
      if constexpr (compacts) {
        compact[place] = mine.x[k];
      } else {
        slots[place] = static_cast<slot_t>(first + k);
      }
    }
  }
  if constexpr (S::reduces) {
    // Each head ends the run before it, whose value `run` holds then (none
    // before the call's first element); the values go to the shared list
    // at the heads' ranks once every lane has read its staged values.
    using IV = typename acc::item_value;
    partial<T> run = combine(tile_prefix, block.exclusive_prefix, op);
    IV ended[Items];
    typename lane_t::mask_t ends = 0;
#pragma unroll
    for (int k = 0; k < Items; ++k) {
      if (k < mine.valid) {
        const int c = mine.class_at(k);
        if (c == 0 && run.valid) {
          ended[k] = run.value.value;
          ends |= lane_t::bit(k);
        }
        run = combine(run, partial<T>{acc::item(c, item_value(k)), true}, op);
      }
    }
    __syncthreads();
    Count rank = first_head;
#pragma unroll
    for (int k = 0; k < Items; ++k) {
      if (mine.class_at(k) == 0) {
        if (ends & lane_t::bit(k)) value_storage[rank] = ended[k];
        ++rank;
      }
    }
  }
  __syncthreads();

  // 5. Coalesced stores, in list order.
  int emitted = tile_valid;  // a partition places every element
  if constexpr (sections == counted) {
    emitted = section_start[sections - 1] + static_cast<int>(tile_count[sections - 1]);
  }
  const std::uint64_t selected = selected_total_of(s);
  constexpr bool plain = compacts && sections == 1 && requires(const S& x) {
    x.plain_output();
  };
  if constexpr (plain) {
    store_list<Threads>(s.plain_output() + tile_base[0], compact, emitted);
  }
  for (int j = threadIdx.x; j < (plain ? 0 : emitted); j += Threads) {
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
        c < counted ? base + r
                    : rest_position(s, tile_begin - counted_before_tile + r, n, selected);
    if constexpr (compacts) {
      s.write(c, dest, compact[j], 0);
    } else {
      const int e = slots[j];
      s.write(c, dest, staged_at(e), tile_begin + e);
    }
  }
  if constexpr (S::reduces) {
    // Head q of the tile ends run tile_base + q - 1.
    const int from = tile_prefix.valid ? 0 : 1;
    for (int q = from + threadIdx.x; q < static_cast<int>(tile_count[0]); q += Threads)
      s.write_value(tile_base[0] + q - 1, acc::result(value_storage[q]));
  }
}

// Adds each counted class's count of the tile to counts[class] (zero
// before the launch).
template <int Threads, int Items, int Vec, class S>
__global__ void __launch_bounds__(Threads)
    select_count(S s, std::uint64_t n, unsigned long long* counts) {
  using K = typename S::staged;
  using staging = select_warp_staging<Items, K>;
  constexpr int warps = Threads / 32;
  constexpr int warp_elements = 32 * Items;
  constexpr int tile_elements = Threads * Items;
  __shared__ alignas(16) unsigned char key_bytes[warps * sizeof(staging)];
  __shared__ unsigned block_counts[S::counted];

  staging* const key_storage = reinterpret_cast<staging*>(key_bytes);
  const std::uint64_t tile = blockIdx.x;
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const std::uint64_t warp_begin = tile * tile_elements + std::uint64_t(warp) * warp_elements;
  const int warp_valid =
      warp_begin >= n ? 0
                      : static_cast<int>(std::min<std::uint64_t>(warp_elements, n - warp_begin));
  if (threadIdx.x < S::counted) block_counts[threadIdx.x] = 0;

  const K* before = load_before(s, warp_begin, n, lane, key_storage[warp].before);
  select_lane<Items, Vec, S> mine{s,
                                  {key_storage[warp].buffer},
                                  lane,
                                  std::clamp(warp_valid - lane * Items, 0, Items),
                                  warp_begin + lane * Items};
  mine.keys.load(s.input + warp_begin, warp_valid, lane);
  mine.classify(before);
  __syncthreads();  // block_counts zeroed
#pragma unroll
  for (int j = 0; j < S::counted; ++j) {
    unsigned count = mine.count(j);
#pragma unroll
    for (int d = 16; d > 0; d /= 2)
      count += __shfl_xor_sync(0xffffffffu, count, d);
    if (lane == 0 && count > 0) atomicAdd(&block_counts[j], count);
  }
  __syncthreads();
  if (threadIdx.x < S::counted && block_counts[threadIdx.x] > 0) {
    atomicAdd(&counts[threadIdx.x], static_cast<unsigned long long>(block_counts[threadIdx.x]));
  }
}

}  // namespace gpuprim::cuda_impl
