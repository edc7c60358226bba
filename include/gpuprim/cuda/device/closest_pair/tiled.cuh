// The tiled brute force (the ladder's second rung, and gp::closest_pair's
// algorithm for small sets): squares of pairs, the points j staged in
// shared memory, several points i per thread in registers.
#pragma once

#include "gpuprim/cuda/device/closest_pair/quadratic.cuh"

namespace gpuprim {
namespace cuda_impl {

// Points per thread in the tiled kernel: 8 in float (1 shared load per 40
// arithmetic instructions in 2-D, about 40 registers), 4 in double (8 would
// spill under the 64 registers that 1024-thread blocks allow).
template <class C>
inline constexpr int tiled_points = sizeof(C) == 4 ? 8 : 4;
// Tile points per unrolled step of the hot loop: 8 in float (four 16-byte
// shared loads), 2 in double (more would spill).
template <class C>
inline constexpr int tiled_unroll = sizeof(C) == 4 ? 8 : 2;
// Items per square of the tiled kernel: 2, so an item is 512 K pairs.
inline constexpr std::uint64_t tiled_parts = 2;

// ---- 2b. tiled --------------------------------------------------------------------
//
// Rung 2, the tiled brute force. Shape:
//  1. Work items: squares of chunk x chunk pairs (chunk = blockDim.x x
//     points per thread), the triangle j > i numbered row by row (or the
//     off-diagonal squares first and the diagonal ones last: the
//     launch option diagonals_last), each square cut into parts of
//     item_width columns j (default tiled_parts = 2 parts,
//     detail::make_tiled_plan), the last squares (about one item per
//     resident block) optionally into narrower ones (tail_item_width), so
//     that the last wave ends sooner; one block per item by default, so the
//     hardware's block scheduler balances the triangle (one block per row
//     of points would leave the first rows' SMs busy long after the last
//     rows' ones were idle: 7% of the FP32 peak at 2^17).
//  2. A block holds the item's points i in registers, Points per thread
//     (tiled_points = 8 in float, or 16 as a launch option, at most 256
//     threads; 4 in double; thread t: i0 + t + r x blockDim.x, coalesced
//     loads), and stages its points j in shared memory a tile of
//     blockDim.x at a time, as one vector per point (float2 in 2-D), read
//     by every lane at once (a broadcast): one shared load feeds Points
//     distances. Each thread loads its point of the next tile into
//     registers before the current tile's distance loop, so the global
//     load's latency is hidden behind it.
//  3. The distance loop in the compute type (float for float input whose
//     coordinates are within +-2^60): dx, dy (dz), d2 = fma(dy, dy, dx*dx),
//     m = min(m, d2): 5 instructions a pair in 2-D (6 flops counted),
//     unrolled over 8 tile points (four 16-byte shared loads for 64
//     pairs); the diagonal squares go by rows (see the loop), nothing else
//     tests j > i.
//  4. The item's least d2 (block minimum) into its slot (atomic minimum of
//     the bits: non-negative floats order as their bits).
//  5. Pass 2: one block finds the least slot value L, the threshold
//     (pass2_threshold) and the list of slots at most that; then every
//     point i of those slots' items against the item's points j, in the
//     compute type first and, where that is within the threshold, exactly
//     (detail::squared_distance, (d2, i, j) order). For random points one
//     item qualifies (1024 x 512 pairs: 32 K threads of tiled_pass2_span
//     = 16 points j: short loops of global loads, one after another); for a
//     lattice, where every item holds a tie, pass 2 repeats the triangle.

template <class C>
using least_bits_t = std::conditional_t<std::is_same_v<C, float>, unsigned, unsigned long long>;

__device__ __forceinline__ unsigned least_bits(float v) {
  return __float_as_uint(v);
}
__device__ __forceinline__ unsigned long long least_bits(double v) {
  return static_cast<unsigned long long>(__double_as_longlong(v));
}

__device__ __forceinline__ float cmin(float a, float b) {
  return fminf(a, b);
}
__device__ __forceinline__ double cmin(double a, double b) {
  return fmin(a, b);
}

// A point of the shared tile as one vector load: (x, y) in 2-D, (x, y, z,
// pad) in 3-D.
template <class C, int Dim>
struct alignas(std::min<std::size_t>(16, (Dim == 2 ? 2 : 4) * sizeof(C))) tile_point {
  C v[Dim == 2 ? 2 : 4];
};

// The least of v over the block, in thread 0. Every thread calls it.
template <class C>
__device__ __forceinline__ C block_least(C v) {
  __shared__ C warp_least[32];
  for (int mask = 16; mask > 0; mask /= 2)
    v = cmin(v, __shfl_xor_sync(0xffffffffu, v, mask));
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) warp_least[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < int(blockDim.x + 31) / 32 ? warp_least[lane] : C(INFINITY);
    for (int mask = 16; mask > 0; mask /= 2)
      v = cmin(v, __shfl_xor_sync(0xffffffffu, v, mask));
  }
  return v;
}

// Pass 1 of the tiled rung (see 2b above). slot_least starts as huge bits.
// At most 1024 threads in float with 8 points per thread (64 registers),
// 256 with 16 (the 16 points and their minima need more than 64), 512 in
// double (128: the double points and their distances spill under 64).
template <class C, int Points>
inline constexpr int tiled_max_threads = sizeof(C) == 4 ? (Points > 8 ? 256 : 1024) : 512;

template <class T, class C, int Dim, int Points>
__global__ void __launch_bounds__(tiled_max_threads<C, Points>)
    closest_tiled_pass1(point_set<T> s, detail::tiled_plan w,
                        least_bits_t<C>* __restrict__ slot_least) {
  extern __shared__ __align__(16) unsigned char tile_bytes[];
  auto* tile = reinterpret_cast<tile_point<C, Dim>*>(tile_bytes);  // blockDim.x points
  const unsigned tile_size = blockDim.x;
  const std::size_t n = s.n;
  for (std::uint64_t k = blockIdx.x; k < w.items; k += gridDim.x) {
    const detail::tiled_item item = w.item(k);
    if (item.j_begin == item.j_end) continue;  // a part past n (the whole block skips it)
    const std::size_t i0 = item.i0, j_begin = item.j_begin, j_end = item.j_end;
    // The first tile's point is loaded with the points i; each later
    // tile's while the tile before it is computed (its global latency
    // hidden behind the distance loop).
    tile_point<C, Dim> next{};
    if (j_begin + threadIdx.x < j_end) {
#pragma unroll
      for (int d = 0; d < Dim; ++d)
        next.v[d] = load_coord<C>(s, d, j_begin + threadIdx.x);
    }
    C a[Points][Dim];
    C m[Points];
#pragma unroll
    for (int r = 0; r < Points; ++r) {
      const std::size_t i = i0 + threadIdx.x + std::size_t(r) * tile_size;
#pragma unroll
      for (int d = 0; d < Dim; ++d)
        a[r][d] = i < n ? load_coord<C>(s, d, i) : C(0);
      m[r] = C(INFINITY);
    }
    const bool diagonal = item.diagonal;
    for (std::size_t j0 = j_begin; j0 < j_end; j0 += tile_size) {
      __syncthreads();  // the tile's last readers are done
      tile[threadIdx.x] = next;
      __syncthreads();
      const std::size_t jn = j0 + tile_size + threadIdx.x;
      if (jn < j_end) {
#pragma unroll
        for (int d = 0; d < Dim; ++d)
          next.v[d] = load_coord<C>(s, d, jn);
      }
      const unsigned count = static_cast<unsigned>(smin(tile_size, j_end - j0));
      if (!diagonal && count == tile_size) {
        // The hot loop: every j of the tile is after every i of the item.
#pragma unroll(tiled_unroll <C>)
        for (unsigned t = 0; t < tile_size; ++t) {
          const tile_point<C, Dim> b = tile[t];
#pragma unroll
          for (int r = 0; r < Points; ++r)
            m[r] = cmin(m[r], compute_d2<C, Dim>(a[r], b.v));
        }
      } else if (!diagonal) {
        // The last column's partial tile: j < n by the count.
        for (unsigned t = 0; t < count; ++t) {
          const tile_point<C, Dim> b = tile[t];
#pragma unroll
          for (int r = 0; r < Points; ++r)
            m[r] = cmin(m[r], compute_d2<C, Dim>(a[r], b.v));
        }
      } else {
        // A diagonal square's tile `diag` (its points j are the rows r =
        // diag of the square's points i): rows r < diag lie wholly before
        // it, row diag meets it (j > i where t > threadIdx.x), rows after
        // it lie wholly after (skipped), so half the square is computed
        // and only 1 row in Points is masked. Rows i >= n are never
        // reached (they lie after every j < n). One shared load per pair
        // here: the diagonal is 1/rows of the work.
        const unsigned diag = static_cast<unsigned>((j0 - i0) / tile_size);
#pragma unroll
        for (int r = 0; r < Points; ++r) {
          if (unsigned(r) < diag) {
#pragma unroll 1
            for (unsigned t = 0; t < count; ++t)
              m[r] = cmin(m[r], compute_d2<C, Dim>(a[r], tile[t].v));
          } else if (unsigned(r) == diag) {
#pragma unroll 1
            for (unsigned t = threadIdx.x + 1; t < count; ++t)
              m[r] = cmin(m[r], compute_d2<C, Dim>(a[r], tile[t].v));
          }
        }
      }
    }
    C v = m[0];
#pragma unroll
    for (int r = 1; r < Points; ++r)
      v = cmin(v, m[r]);
    v = block_least(v);
    if (threadIdx.x == 0 && v < C(INFINITY))
      atomicMin(&slot_least[k >> w.slot_shift], least_bits(v));
  }
}

// Pass 2, step 1 (one block): the least slot value into *least, and the
// slots at most the threshold into list[0, *count).
template <class C>
__global__ void __launch_bounds__(1024)
    closest_tiled_select(const least_bits_t<C>* __restrict__ slot_least, std::uint64_t slots,
                         least_bits_t<C>* __restrict__ least, unsigned* __restrict__ list,
                         unsigned* __restrict__ count) {
  __shared__ unsigned listed;
  if (threadIdx.x == 0) listed = 0;
  least_bits_t<C> v = ~least_bits_t<C>{0};
  for (std::uint64_t q = threadIdx.x; q < slots; q += blockDim.x)
    v = slot_least[q] < v ? slot_least[q] : v;
  for (int mask = 16; mask > 0; mask /= 2) {
    const least_bits_t<C> o = __shfl_xor_sync(0xffffffffu, v, mask);
    v = o < v ? o : v;
  }
  __shared__ least_bits_t<C> warp_least[32];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) warp_least[warp] = v;
  __syncthreads();
  v = warp_least[0];
  for (int x = 1; x < int(blockDim.x + 31) / 32; ++x)
    v = warp_least[x] < v ? warp_least[x] : v;
  const C threshold = pass2_threshold<C>(v);
  for (std::uint64_t q = threadIdx.x; q < slots; q += blockDim.x) {
    const least_bits_t<C> bits = slot_least[q];
    const C value = std::is_same_v<C, float>
                        ? C(__uint_as_float(static_cast<unsigned>(bits)))
                        : C(__longlong_as_double(static_cast<long long>(bits)));
    if (value <= threshold) list[atomicAdd(&listed, 1u)] = static_cast<unsigned>(q);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    *least = v;
    *count = listed;
  }
}

inline constexpr unsigned tiled_pass2_span = 16;  // points j per pass-2 thread

// Pass 2, step 2: thread u takes point i = i0 + (u mod chunk) of a listed
// item against tiled_pass2_span of its points j (a warp: 32
// consecutive i against the same j, so the j loads are broadcasts).
template <class T, class C, int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_tiled_pass2(point_set<T> s, detail::tiled_plan w, const unsigned* __restrict__ list,
                        const unsigned* __restrict__ count,
                        const least_bits_t<C>* __restrict__ least,
                        pair_candidate* __restrict__ block_out) {
  const C threshold = pass2_threshold<C>(*least);
  const std::uint64_t per_slot = std::uint64_t{1} << w.slot_shift;
  const std::uint64_t splits = (w.chunk / w.parts + tiled_pass2_span - 1) / tiled_pass2_span;
  const std::uint64_t total = std::uint64_t(*count) * per_slot * splits * w.chunk;
  pair_candidate best;
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t u = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; u < total;
       u += stride) {
    const std::uint64_t r = u % w.chunk;
    std::uint64_t rest = u / w.chunk;
    const std::uint64_t split = rest % splits;
    rest /= splits;
    const std::uint64_t k = std::uint64_t(list[rest / per_slot]) * per_slot + rest % per_slot;
    if (k >= w.items) continue;
    const detail::tiled_item item = w.item(k);
    const std::size_t i = item.i0 + r;
    if (i >= s.n) continue;
    std::size_t j = item.j_begin + split * tiled_pass2_span;
    const std::size_t j_end = smin(j + tiled_pass2_span, item.j_end);
    j = j > i + 1 ? j : i + 1;
    recheck_exactly<T, C, Dim>(s, i, j, j_end, threshold, best);
  }
  best = block_best(best);
  if (threadIdx.x == 0) block_out[blockIdx.x] = best;
}

// The pass-1 kernel of `points` points per thread: tiled_points<C>, or 16
// in float.
template <class T, class C, int Dim>
const void* tiled_pass1_kernel(int points) {
  if constexpr (std::is_same_v<C, float>) {
    if (points > tiled_points<C>)
      return reinterpret_cast<const void*>(closest_tiled_pass1<T, C, Dim, 16>);
  }
  return reinterpret_cast<const void*>(closest_tiled_pass1<T, C, Dim, tiled_points<C>>);
}

// Pass 1's shared tile: one point per thread.
template <class C, int Dim>
std::size_t tiled_shared_bytes(int threads) {
  return std::size_t(threads) * sizeof(tile_point<C, Dim>);
}

// The tiled rung's options of `shape` (closest_pair_launch), checked as
// for float arithmetic whatever the data, so that whether a shape is
// refused does not depend on the coordinates.
inline void check_tiled_options(closest_pair_launch shape) {
  const int threads = checked_quadratic_threads(quadratic_kernel::tiled, shape);
  const int points = shape.points_per_thread;
  if (points != 0 && points != 8 && points != 16) {
    throw std::invalid_argument("gpuprim::closest_pair: " + std::to_string(points) +
                                " points per thread; 8 or 16 is needed");
  }
  if (points == 16 && threads > tiled_max_threads<float, 16>) {
    throw std::invalid_argument("gpuprim::closest_pair: 16 points per thread allow at most " +
                                std::to_string(tiled_max_threads<float, 16>) +
                                " threads per block, not " + std::to_string(threads));
  }
  const int chunk = threads * (points > 0 ? points : tiled_points<float>);
  if (shape.item_width != 0) {
    if (shape.threads <= 0) {
      throw std::invalid_argument(
          "gpuprim::closest_pair: an item width needs the threads per block too");
    }
    if (shape.item_width < 0 || shape.item_width % threads != 0 || chunk % shape.item_width != 0) {
      throw std::invalid_argument(
          "gpuprim::closest_pair: item width " + std::to_string(shape.item_width) +
          "; a multiple of " + std::to_string(threads) + " threads that divides " +
          std::to_string(chunk) + " (threads x points per thread) is needed");
    }
  }
  if (shape.tail_item_width != 0) {
    const int width =
        shape.item_width > 0 ? shape.item_width : chunk / static_cast<int>(tiled_parts);
    if (shape.threads <= 0) {
      throw std::invalid_argument(
          "gpuprim::closest_pair: a tail item width needs the threads per block too");
    }
    if (shape.tail_item_width < 0 || shape.tail_item_width % threads != 0 ||
        width % shape.tail_item_width != 0) {
      throw std::invalid_argument(
          "gpuprim::closest_pair: tail item width " + std::to_string(shape.tail_item_width) +
          "; a multiple of " + std::to_string(threads) + " threads that divides the item width " +
          std::to_string(width) + " is needed");
    }
  }
}

// The tiled rung's work items: threads, points per thread, parts per
// square (and per square of the last wave).
struct tiled_shape {
  int threads = 0;
  int points = 0;
  std::uint64_t parts = 0;
  std::uint64_t tail_parts = 0;
  bool diagonals_last = false;
  std::uint64_t chunk() const { return std::uint64_t(threads) * std::uint64_t(points); }
};

template <class C>
tiled_shape resolve_tiled_shape(std::uint64_t n, closest_pair_launch shape) {
  check_tiled_options(shape);
  // The production shape for float, when the call names none (the sweep
  // at 2^17, bench/results/h100-2026-11-25-7-closest_pair-sweep.md): 64
  // threads x 16 points, items 512 points wide, the diagonal halves last
  // and the last wave's items 128 wide, 7% faster than 128 threads x 8
  // points; the narrow last wave is what pays (without it, no gain).
  const bool default_shape = shape.threads <= 0 && shape.points_per_thread <= 0 &&
                             shape.item_width <= 0 && shape.tail_item_width <= 0 &&
                             !shape.diagonals_last;
  if constexpr (std::is_same_v<C, float>) {
    if (default_shape) {
      shape.threads = 64;
      shape.points_per_thread = 16;
      shape.item_width = 512;
      shape.diagonals_last = true;
      shape.tail_item_width = 128;
    }
  }
  tiled_shape t;
  t.diagonals_last = shape.diagonals_last;
  t.threads = checked_quadratic_threads(quadratic_kernel::tiled, shape);
  if constexpr (std::is_same_v<C, float>) {
    t.points = shape.points_per_thread > 0 ? shape.points_per_thread : tiled_points<C>;
    t.parts = shape.item_width > 0 ? t.chunk() / std::uint64_t(shape.item_width) : tiled_parts;
    t.tail_parts =
        shape.tail_item_width > 0 ? t.chunk() / std::uint64_t(shape.tail_item_width) : t.parts;
  } else {
    // A shape wider than the double kernel allows (only the ladder's float
    // rung asks for shapes; its points beyond +-2^60 run in double) is
    // narrowed to it, with the default items.
    t.threads = std::min(t.threads, tiled_max_threads<C, tiled_points<C>>);
    t.points = tiled_points<C>;
    t.parts = tiled_parts;
    t.tail_parts = tiled_parts;
  }
  // Small sets with the default threads: narrower blocks (smaller squares)
  // until there are 4 items per SM, so that n = 8192 (gp::closest_pair's
  // tiled range) fills the GPU (72 items at 128 threads, 1056 at 32).
  const std::uint64_t wanted_items = 4 * std::uint64_t(current_multiprocessor_count());
  while ((shape.threads <= 0 || default_shape) && t.threads > 32 &&
         detail::make_tiled_plan(n, t.chunk(), t.parts).items < wanted_items)
    t.threads /= 2;
  return t;
}

// Rung 2 (section 2b): squares of pairs, their least values per slot, the
// listed slots again in pass 2.
template <class T, class C, int Dim>
pair_candidate tiled(const point_set<T>& s, closest_pair_launch shape, stream_t stream) {
  const tiled_shape ts = resolve_tiled_shape<C>(s.n, shape);
  const int threads = ts.threads;
  const std::size_t shared_bytes = tiled_shared_bytes<C, Dim>(threads);
  // Narrower last items: about one per block that the grid holds at once.
  std::uint64_t tail_items = 0;
  if (ts.tail_parts > ts.parts) {
    int per_sm = 0;
    GPUPRIM_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_sm, tiled_pass1_kernel<T, C, Dim>(ts.points), threads, shared_bytes),
        "closest_pair");
    tail_items = shape.blocks > 0
                     ? std::uint64_t(shape.blocks)
                     : std::uint64_t(per_sm) * std::uint64_t(current_multiprocessor_count());
  }
  const detail::tiled_plan w = detail::make_tiled_plan(s.n, ts.chunk(), ts.parts, ts.diagonals_last,
                                                       ts.tail_parts, tail_items);
  const unsigned blocks =
      shape.blocks > 0
          ? static_cast<unsigned>(shape.blocks)
          : static_cast<unsigned>(std::min<std::uint64_t>(w.items, std::uint64_t{1} << 30));
  using bits_t = least_bits_t<C>;
  const scratch_buffer slot_least(w.slots * sizeof(bits_t), stream);
  detail::fill_bytes(slot_least.get(), 0x7F, w.slots * sizeof(bits_t), stream);  // huge values
  const launch_shape pass1{blocks, static_cast<unsigned>(threads),
                           static_cast<unsigned>(shared_bytes), stream};
  if (ts.points == tiled_points<C>) {
    launch("closest_tiled_pass1", "closest_pair", closest_tiled_pass1<T, C, Dim, tiled_points<C>>,
           pass1, s, w, slot_least.get<bits_t>());
  } else if constexpr (std::is_same_v<C, float>) {
    launch("closest_tiled_pass1_16", "closest_pair", closest_tiled_pass1<T, C, Dim, 16>, pass1, s,
           w, slot_least.get<bits_t>());
  }
  const scratch_buffer least(sizeof(bits_t), stream);
  const scratch_buffer list(w.slots * sizeof(unsigned), stream);
  const scratch_buffer count(sizeof(unsigned), stream);
  launch("closest_tiled_select", "closest_pair", closest_tiled_select<C>, {1, 1024, 0, stream},
         static_cast<const bits_t*>(slot_least.get<bits_t>()), w.slots, least.get<bits_t>(),
         list.get<unsigned>(), count.get<unsigned>());
  // Enough threads for one listed slot (chunk x its columns / span units)
  // at once; more listed squares stride.
  const unsigned pass2_blocks = closest_grid_blocks(
      w.chunk * ceil_div(w.chunk / w.parts, tiled_pass2_span) << w.slot_shift, closest_threads);
  const scratch_buffer block_out(pass2_blocks * sizeof(pair_candidate), stream);
  launch("closest_tiled_pass2", "closest_pair", closest_tiled_pass2<T, C, Dim>,
         {pass2_blocks, closest_threads, 0, stream}, s, w,
         static_cast<const unsigned*>(list.get<unsigned>()),
         static_cast<const unsigned*>(count.get<unsigned>()),
         static_cast<const bits_t*>(least.get<bits_t>()), block_out.get<pair_candidate>());
  return finish_candidates(block_out.get<pair_candidate>(), pass2_blocks, stream);
}

}  // namespace cuda_impl
}  // namespace gpuprim
