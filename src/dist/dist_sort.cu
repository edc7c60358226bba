// The GPU steps of the distributed sample sort (dist/gpu_sort.hpp): the
// regular sample of a sorted slice, the splitters and the slice's cuts at
// them (one kernel), and the merge of two sorted runs. Also the bench's
// random inputs, generated where they live.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "gpuprim/core/memory.hpp"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/dist/gpu_sort.hpp"

namespace gpuprim::detail {
namespace {

constexpr std::uint64_t no_position = ~std::uint64_t{0};

// 1. The regular sample: slot j < ceil(n / step) holds the key at j * step,
// tagged with its global position; the remaining slots hold a sentinel that
// sorts after every real sample (so every rank sends the same number of
// slots).
template <class K>
__global__ void pick_samples_kernel(const K* sorted, std::uint64_t n, std::uint64_t step,
                                    std::uint64_t offset, compared_bits<K> bits_of,
                                    sort_rank_key* out, std::uint64_t slots) {
  const std::uint64_t j = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (j >= slots) return;
  const std::uint64_t at = j * step;
  out[j] = at < n ? sort_rank_key{bits_of(sorted[at]), offset + at}
                  : sort_rank_key{~std::uint64_t{0}, no_position};
}

// The number of entries of the sorted list [list, list + count) below x.
__device__ std::uint64_t count_below(const sort_rank_key* list, std::uint64_t count,
                                     const sort_rank_key& x) {
  std::uint64_t lo = 0, hi = count;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (list[mid] < x) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// 2-3. One block. (a) Every real sample's rank among all ranks' samples
// (each rank's slots are sorted: one binary search per rank); the splitter
// r is the sample of rank floor(valid * r / ranks), r = 1 .. ranks - 1, as
// a sort of the samples would pick it (positions make every sample
// distinct, so ranks are distinct). (b) The slice's cut at each splitter:
// the first local j with (bits(key[j]), offset + j) >= the splitter, a
// 32-way search by one warp per splitter. bounds gets ranks + 1 entries.
template <class K>
__global__ void find_cuts_kernel(const sort_rank_key* samples, int ranks, std::uint64_t slots,
                                 std::uint64_t valid, const K* sorted, std::uint64_t n,
                                 std::uint64_t offset, compared_bits<K> bits_of,
                                 std::uint64_t* bounds) {
  extern __shared__ sort_rank_key splitters[];  // ranks - 1
  const std::uint64_t all = slots * ranks;
  for (std::uint64_t i = threadIdx.x; i < all; i += blockDim.x) {
    const sort_rank_key x = samples[i];
    if (x.position == no_position) continue;
    std::uint64_t rank = 0;
    for (int list = 0; list < ranks; ++list)
      rank += count_below(samples + list * slots, slots, x);
    for (int r = 1; r < ranks; ++r)
      if (valid * r / ranks == rank) splitters[r - 1] = x;
  }
  __syncthreads();
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  if (threadIdx.x == 0) {
    bounds[0] = 0;
    bounds[ranks] = n;
  }
  for (int r = 1 + warp; r < ranks; r += warps) {
    if (valid == 0) {
      if (lane == 0) bounds[r] = n;
      continue;
    }
    const sort_rank_key s = splitters[r - 1];
    // The answer lies in [lo, hi]; lane l probes lo + (hi - lo) * l / 32.
    std::uint64_t lo = 0, hi = n;
    while (lo < hi) {
      const std::uint64_t width = hi - lo;
      const std::uint64_t probe = lo + width * lane / 32;
      const bool below = sort_rank_key{bits_of(sorted[probe]), offset + probe} < s;
      const unsigned ballot = __ballot_sync(0xffffffffu, below);
      const int count = __popc(ballot);  // the probes below s come first
      if (count == 0) {
        hi = lo;
      } else {
        const std::uint64_t last_below = lo + width * (count - 1) / 32;
        const std::uint64_t first_not = count < 32 ? lo + width * count / 32 : hi;
        lo = last_below + 1;
        hi = first_not;
      }
    }
    if (lane == 0) bounds[r] = lo;
  }
}

constexpr int merge_threads = 256;
constexpr int merge_items = 8;
constexpr int merge_tile = merge_threads * merge_items;

// The merge path: how many of the first `diag` outputs come from a, where a
// run's key goes first when it is not above the other's (a before b on
// equal bits: the merge is stable).
template <class K, class LoadA, class LoadB>
__device__ std::uint64_t merge_path(LoadA a, std::uint64_t na, LoadB b, std::uint64_t nb,
                                    std::uint64_t diag, const compared_bits<K>& bits_of) {
  std::uint64_t lo = diag > nb ? diag - nb : 0, hi = diag < na ? diag : na;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (!(bits_of(b(diag - 1 - mid)) < bits_of(a(mid)))) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// 4a. The merge path at every tile's start (and at the end): one thread
// per tile, all searches at once, so the merge's blocks do not each wait
// on a chain of global loads.
template <class K>
__global__ void merge_partition_kernel(const K* a, std::uint64_t na, const K* b, std::uint64_t nb,
                                       std::uint64_t tiles, std::uint64_t* ends,
                                       compared_bits<K> bits_of) {
  const std::uint64_t t = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (t > tiles) return;
  const std::uint64_t diag = t * merge_tile < na + nb ? t * merge_tile : na + nb;
  ends[t] = merge_path<K>([a](std::uint64_t i) { return a[i]; }, na,
                          [b](std::uint64_t i) { return b[i]; }, nb, diag, bits_of);
}

// 4b. The merge of the sorted runs a and b into out, a tile of merge_tile
// outputs per block: the tile's two input ranges (the merge path at its
// ends, from 4a) are loaded into shared memory, each thread merges merge_items
// outputs from its own merge path in shared memory, and the tile is written
// back coalesced; values follow their keys by the source index.
template <class K, class W>
__global__ void __launch_bounds__(merge_threads)
    merge_kernel(const K* a, const W* va, std::uint64_t na, const K* b, const W* vb,
                 std::uint64_t nb, const std::uint64_t* ends, K* out, W* vout,
                 compared_bits<K> bits_of) {
  constexpr bool has_values = !std::is_same_v<W, host_impl::no_value>;
  __shared__ K keys[merge_tile];
  __shared__ K merged[merge_tile];
  __shared__ std::uint16_t from[has_values ? merge_tile : 1];
  const std::uint64_t total = na + nb;
  const std::uint64_t d0 = std::uint64_t{blockIdx.x} * merge_tile;
  const std::uint64_t d1 = d0 + merge_tile < total ? d0 + merge_tile : total;
  const std::uint64_t a0 = ends[blockIdx.x], a1 = ends[blockIdx.x + 1], b0 = d0 - a0, b1 = d1 - a1;
  const int la = static_cast<int>(a1 - a0), lb = static_cast<int>(b1 - b0), len = la + lb;
  for (int i = threadIdx.x; i < len; i += merge_threads)
    keys[i] = i < la ? a[a0 + i] : b[b0 + i - la];
  __syncthreads();
  const K* sa = keys;
  const K* sb = keys + la;
  const int diag = min(static_cast<int>(threadIdx.x) * merge_items, len);
  int i =
      static_cast<int>(merge_path<K>([sa](std::uint64_t x) { return sa[x]; }, la,
                                     [sb](std::uint64_t x) { return sb[x]; }, lb, diag, bits_of));
  int j = diag - i;
  K picked[merge_items];
  int source[merge_items];
#pragma unroll
  for (int k = 0; k < merge_items; ++k) {
    const bool take_a = i < la && (j >= lb || !(bits_of(sb[j]) < bits_of(sa[i])));
    picked[k] = take_a ? sa[i] : (j < lb ? sb[j] : K{});
    source[k] = take_a ? i : la + j;
    if (take_a) {
      ++i;
    } else {
      ++j;
    }
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < merge_items; ++k) {
    const int o = diag + k;
    if (o < len) {
      merged[o] = picked[k];
      if constexpr (has_values) from[o] = static_cast<std::uint16_t>(source[k]);
    }
  }
  __syncthreads();
  for (int o = threadIdx.x; o < len; o += merge_threads) {
    out[d0 + o] = merged[o];
    if constexpr (has_values) {
      const int s = from[o];
      vout[d0 + o] = s < la ? va[a0 + s] : vb[b0 + s - la];
    }
  }
}

__device__ std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

__global__ void fill_random_u32_kernel(std::uint32_t* out, std::uint64_t n, std::uint64_t seed,
                                       std::uint64_t first) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = static_cast<std::uint32_t>(mix64(seed * 0x2545f4914f6cdd1dull + first + i) >> 32);
}

__global__ void fill_random_unit_kernel(float* out, std::uint64_t n, std::uint64_t seed,
                                        std::uint64_t first) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
    const auto bits = static_cast<std::uint32_t>(mix64(seed * 0x2545f4914f6cdd1dull + first + i));
    out[i] = static_cast<float>(bits >> 8) * (1.0f / 16777216.0f);  // [0, 1), 24 bits
  }
}

unsigned grid_for(std::uint64_t n) {
  return static_cast<unsigned>(std::min<std::uint64_t>((n + 255) / 256, 8192));
}

}  // namespace

template <class K>
void cuda_pick_samples(const K* sorted, std::uint64_t n, std::uint64_t step, std::uint64_t offset,
                       compared_bits<K> bits_of, sort_rank_key* out, std::uint64_t slots,
                       stream_t stream) {
  if (slots == 0) return;
  const auto blocks = static_cast<unsigned>((slots + 255) / 256);
  pick_samples_kernel<<<blocks, 256, 0, reinterpret_cast<cudaStream_t>(stream)>>>(
      sorted, n, step, offset, bits_of, out, slots);
  check_launch("pick_samples_kernel", "gpuprim::sort (distributed samples)");
}

template <class K>
void cuda_find_cuts(const sort_rank_key* samples, int ranks, std::uint64_t slots,
                    std::uint64_t valid, const K* sorted, std::uint64_t n, std::uint64_t offset,
                    compared_bits<K> bits_of, std::uint64_t* bounds, stream_t stream) {
  const std::size_t shared = sizeof(sort_rank_key) * std::max(ranks - 1, 1);
  find_cuts_kernel<<<1, 1024, shared, reinterpret_cast<cudaStream_t>(stream)>>>(
      samples, ranks, slots, valid, sorted, n, offset, bits_of, bounds);
  check_launch("find_cuts_kernel", "gpuprim::sort (distributed splitters)");
}

template <class K, class W>
void cuda_merge_runs(const K* a, const W* va, std::uint64_t na, const K* b, const W* vb,
                     std::uint64_t nb, K* out, W* vout, compared_bits<K> bits_of, stream_t stream) {
  const std::uint64_t total = na + nb;
  if (total == 0) return;
  const std::uint64_t tiles = (total + merge_tile - 1) / merge_tile;
  if (tiles > 0x7fffffffull) throw std::invalid_argument("gpuprim::sort: a merge over 2^42 keys");
  const auto s = reinterpret_cast<cudaStream_t>(stream);
  const scratch_buffer ends((tiles + 1) * sizeof(std::uint64_t), stream);
  merge_partition_kernel<K><<<static_cast<unsigned>((tiles + 1 + 255) / 256), 256, 0, s>>>(
      a, na, b, nb, tiles, ends.get<std::uint64_t>(), bits_of);
  check_launch("merge_partition_kernel", "gpuprim::sort (distributed merge)");
  merge_kernel<K, W><<<static_cast<unsigned>(tiles), merge_threads, 0, s>>>(
      a, va, na, b, vb, nb, ends.get<std::uint64_t>(), out, vout, bits_of);
  check_launch("merge_kernel", "gpuprim::sort (distributed merge)");
}

void cuda_fill_random(std::uint32_t* out, std::uint64_t n, std::uint64_t seed, std::uint64_t first,
                      stream_t stream) {
  if (n == 0) return;
  fill_random_u32_kernel<<<grid_for(n), 256, 0, reinterpret_cast<cudaStream_t>(stream)>>>(
      out, n, seed, first);
  check_launch("fill_random_u32_kernel", "gpuprim bench dist");
}

void cuda_fill_random(float* out, std::uint64_t n, std::uint64_t seed, std::uint64_t first,
                      stream_t stream) {
  if (n == 0) return;
  fill_random_unit_kernel<<<grid_for(n), 256, 0, reinterpret_cast<cudaStream_t>(stream)>>>(
      out, n, seed, first);
  check_launch("fill_random_unit_kernel", "gpuprim bench dist");
}

GPUPRIM_DIST_SORT_INSTANTIATIONS

}  // namespace gpuprim::detail
