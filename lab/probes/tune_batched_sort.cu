// Probe of the batched sort of arrays that fill a shared-memory tile (the
// arrays of 1024 float keys of the hardware-limits round): times production's
// kernel (sort_tiles_in_shared, the bitonic network with 3 of its 55 steps
// in shared memory and the rest in registers) against a variant with far
// fewer instructions per compare-exchange, and a device-to-device copy of
// the same bytes. Production is bound by instruction issue (SM 95 %): every
// step of its register network recomputes each key's index, checks it
// against the array's end and compares in both directions. The variant
// serves only full tiles (every array exactly TILE keys, 16-byte aligned),
// so it needs no guards:
//  - lane l of a warp holds 8 consecutive keys of the warp's chunk of 256
//    (blocked, not striped): the steps with partners less than 8 apart (27
//    of the 55) are register moves, no shuffle;
//  - a compare-exchange is one min or max, the direction a constant of the
//    step (for the lane) rather than a comparison per key;
//  - the steps above a chunk read the partner chunk from shared memory
//    (double-buffered, one barrier a step), and the keys come from and go
//    to global memory in 16-byte vectors, straight into registers.
// Checks: the variant's output equals production's bit for bit, and every
// array equals std::sort of its input (float keys in gp::sort's order: NaN
// last; random keys with -0.0, +-inf and NaNs mixed in).
// Built and run by scripts/device-check.sh --probe-batched-sort
// (tune-batched_sort.txt). Medians of 20 isolated calls after 3 warm-ups.
#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gpuprim/cuda/device/device_sorting_network.cuh"
#include "probe_timing.cuh"

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_detail;

namespace {

using codec = gc::sort_codec<float, gp::sort_less>;
using key = codec::key;  // std::uint32_t

constexpr int items = 8;                 // keys a lane
constexpr unsigned chunk = 32u * items;  // keys a warp

// One compare-exchange step inside a warp's chunk: element e = 8 lane + r
// meets e ^ Mask; the lower index (bit Top of e clear) keeps the smaller key.
template <unsigned Mask, unsigned Top>
__device__ __forceinline__ void chunk_step(key (&v)[items], unsigned lane) {
  if constexpr (Mask < items) {
    // Both ends in this lane: a min and a max a pair.
#pragma unroll
    for (int r = 0; r < items; ++r) {
      if ((unsigned(r) & Top) == 0) {
        const int p = r ^ int(Mask);
        const key lo = min(v[r], v[p]);
        const key hi = max(v[r], v[p]);
        v[r] = lo;
        v[p] = hi;
      }
    }
  } else {
    // The partner is register r ^ (Mask & 7) of lane lane ^ (Mask / 8);
    // whether this lane holds the lower ends depends on the lane alone.
    constexpr int register_mask = int(Mask % items);
    constexpr int lane_mask = int(Mask / items);
    const bool lower = ((lane * items) & Top) == 0;
    key other[items];
#pragma unroll
    for (int r = 0; r < items; ++r)
      other[r] = __shfl_xor_sync(0xffffffffu, v[r ^ register_mask], lane_mask);
#pragma unroll
    for (int r = 0; r < items; ++r)
      v[r] = lower ? min(v[r], other[r]) : max(v[r], other[r]);
  }
}

// The steps J, J / 2, ..., 1 of a merge inside the chunk.
template <unsigned J>
__device__ __forceinline__ void chunk_merge(key (&v)[items], unsigned lane) {
  if constexpr (J >= 1) {
    chunk_step<J, J>(v, lane);
    chunk_merge<J / 2>(v, lane);
  }
}

// Stages K, 2K, ..., chunk of the network inside the chunk.
template <unsigned K>
__device__ __forceinline__ void chunk_sort(key (&v)[items], unsigned lane) {
  if constexpr (K <= chunk) {
    chunk_step<K - 1, K / 2>(v, lane);
    chunk_merge<K / 4>(v, lane);
    chunk_sort<2 * K>(v, lane);
  }
}

__device__ __forceinline__ void store_chunk(key* buffer, unsigned warp, unsigned lane,
                                            const key (&v)[items]) {
  uint4* out = reinterpret_cast<uint4*>(buffer + warp * chunk + lane * items);
  out[0] = make_uint4(v[0], v[1], v[2], v[3]);
  out[1] = make_uint4(v[4], v[5], v[6], v[7]);
}

// `other` = the 8 keys of lane `lane` in chunk `warp` (reversed: the
// mirror image's order).
template <bool Reversed>
__device__ __forceinline__ void load_chunk(const key* buffer, unsigned warp, unsigned lane,
                                           key (&other)[items]) {
  const uint4* in = reinterpret_cast<const uint4*>(buffer + warp * chunk + lane * items);
  const uint4 a = in[0], b = in[1];
  const key k[items] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
#pragma unroll
  for (int r = 0; r < items; ++r)
    other[r] = k[Reversed ? items - 1 - r : r];
}

// One step whose partners sit in another chunk: (warp, lane, r) meets
// (warp ^ chunk_mask, lane, r), or its mirror image (31 - lane, 7 - r).
template <bool Mirror>
__device__ __forceinline__ void across_chunks(key (&v)[items], key* buffer, unsigned warp,
                                              unsigned lane, unsigned chunk_mask, bool lower) {
  store_chunk(buffer, warp, lane, v);
  __syncthreads();
  key other[items];
  load_chunk<Mirror>(buffer, warp ^ chunk_mask, Mirror ? 31 - lane : lane, other);
#pragma unroll
  for (int r = 0; r < items; ++r)
    v[r] = lower ? min(v[r], other[r]) : max(v[r], other[r]);
}

// Stages 2 chunk, ..., Tile: the wide steps through shared memory, the
// steps inside a chunk in registers.
template <unsigned Tile, unsigned K>
__device__ __forceinline__ void tile_stages(key (&v)[items], key (*buffers)[Tile], unsigned warp,
                                            unsigned lane, int& buffer) {
  if constexpr (K <= Tile) {
    const unsigned first = warp * chunk;
    across_chunks<true>(v, buffers[buffer], warp, lane, K / chunk - 1, (first & (K / 2)) == 0);
    buffer ^= 1;
    // The steps K / 4, ..., chunk: a chunk a fixed distance away.
#pragma unroll
    for (unsigned j = K / 4; j >= chunk; j /= 2) {
      across_chunks<false>(v, buffers[buffer], warp, lane, j / chunk, (first & j) == 0);
      buffer ^= 1;
    }
    chunk_merge<chunk / 2>(v, lane);
    tile_stages<Tile, 2 * K>(v, buffers, warp, lane, buffer);
  }
}

// One block an array of Tile keys (Tile / 256 warps).
template <unsigned Tile>
__global__ void __launch_bounds__(Tile / items) sort_full_tiles(float* data) {
  static_assert(Tile >= chunk && std::has_single_bit(Tile));
  __shared__ __align__(16) key buffers[2][Tile];
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  float* const keys = data + std::uint64_t(blockIdx.x) * Tile + warp * chunk + lane * items;
  key v[items];
  {
    const float4 a = reinterpret_cast<const float4*>(keys)[0];
    const float4 b = reinterpret_cast<const float4*>(keys)[1];
    const float in[items] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
#pragma unroll
    for (int r = 0; r < items; ++r)
      v[r] = codec::encode(in[r]);
  }
  chunk_sort<2>(v, lane);
  int buffer = 0;
  tile_stages<Tile, 2 * chunk>(v, buffers, warp, lane, buffer);
  float out[items];
#pragma unroll
  for (int r = 0; r < items; ++r)
    out[r] = codec::decode(v[r]);
  reinterpret_cast<float4*>(keys)[0] = make_float4(out[0], out[1], out[2], out[3]);
  reinterpret_cast<float4*>(keys)[1] = make_float4(out[4], out[5], out[6], out[7]);
}

// gp::sort's order of floats: numbers ascending (-0.0 and 0.0 by their
// bits, as the radix codec orders them), then NaNs by their bits.
bool sort_order(float a, float b) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(a), y = std::bit_cast<std::uint32_t>(b);
  const std::uint32_t kx = (x & 0x80000000u) ? ~x : (x | 0x80000000u);
  const std::uint32_t ky = (y & 0x80000000u) ? ~y : (y | 0x80000000u);
  const std::uint32_t shift = 0x007FFFFFu;  // the flipped pattern of -inf
  return std::uint32_t(kx - shift) < std::uint32_t(ky - shift);
}

std::vector<float> random_keys(std::size_t n, bool special) {
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> uniform(-1000.0f, 1000.0f);
  std::vector<float> keys(n);
  for (float& k : keys)
    k = uniform(rng);
  if (special) {
    const float specials[] = {-0.0f,
                              0.0f,
                              std::numeric_limits<float>::infinity(),
                              -std::numeric_limits<float>::infinity(),
                              std::numeric_limits<float>::quiet_NaN(),
                              -std::numeric_limits<float>::quiet_NaN(),
                              1.0f,
                              1.0f};
    std::uniform_int_distribution<std::size_t> where(0, n - 1);
    for (std::size_t i = 0; i < n / 16; ++i)
      keys[where(rng)] = specials[i % 8];
  }
  return keys;
}

template <unsigned Tile>
void compare(unsigned arrays, bool special) {
  const std::size_t n = std::size_t(arrays) * Tile;
  const std::vector<float> input = random_keys(n, special);
  float *in, *production, *variant, *library;
  CHECK_CUDA(cudaMalloc(&in, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&library, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&production, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&variant, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(in, input.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  const std::size_t bytes = n * sizeof(float);

  // Each timed call sorts a fresh copy: the copy is timed alone and taken off.
  const auto copy = [&](float* to) {
    CHECK_CUDA(cudaMemcpyAsync(to, in, bytes, cudaMemcpyDeviceToDevice, nullptr));
  };
  const float copy_ms = median_ms([&] { copy(production); });
  const unsigned threads = std::clamp(Tile / unsigned(items), 32u, gc::network_threads);
  const auto run_production = [&] {
    gc::sort_tiles_in_shared<items, codec, float, gc::uniform_arrays>
        <<<arrays, threads, Tile * sizeof(key)>>>(production, gc::uniform_arrays{Tile}, 1, Tile,
                                                  false, codec{gp::sort_less{}});
    CHECK_CUDA(cudaGetLastError());
  };
  // The library's dispatch (gp::sort_batched's kernels): the full-tile
  // kernel where it applies.
  const auto run_library = [&] {
    gc::sort_arrays(library, gc::uniform_arrays{Tile}, arrays, Tile, true, codec{gp::sort_less{}},
                    nullptr);
  };
  const auto run_variant = [&] {
    sort_full_tiles<Tile><<<arrays, Tile / items>>>(variant);
    CHECK_CUDA(cudaGetLastError());
  };
  const float production_ms = median_ms([&] {
                                copy(production);
                                run_production();
                              }) -
                              copy_ms;
  const float variant_ms = median_ms([&] {
                             copy(variant);
                             run_variant();
                           }) -
                           copy_ms;
  const float library_ms = median_ms([&] {
                             copy(library);
                             run_library();
                           }) -
                           copy_ms;

  copy(production);
  run_production();
  copy(variant);
  run_variant();
  copy(library);
  run_library();
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> got_production(n), got_variant(n), got_library(n);
  CHECK_CUDA(cudaMemcpy(got_production.data(), production, bytes, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(got_variant.data(), variant, bytes, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(got_library.data(), library, bytes, cudaMemcpyDeviceToHost));
  const bool same = std::memcmp(got_production.data(), got_variant.data(), bytes) == 0;
  const bool library_same = std::memcmp(got_production.data(), got_library.data(), bytes) == 0;
  std::size_t wrong_arrays = 0;
  std::vector<float> expected(Tile);
  for (unsigned a = 0; a < arrays; ++a) {
    std::copy_n(input.begin() + std::size_t(a) * Tile, Tile, expected.begin());
    std::sort(expected.begin(), expected.end(), sort_order);
    if (std::memcmp(expected.data(), got_variant.data() + std::size_t(a) * Tile,
                    Tile * sizeof(float)) != 0)
      ++wrong_arrays;
  }
  // Read + write of every key, over the copy's read + write of the same bytes.
  const double gbs_copy = 2.0 * bytes / (copy_ms * 1e6);
  std::printf("2^%d arrays of %u floats%s: copy %.1f us (%.0f GB/s)\n", int(std::log2(arrays)),
              Tile, special ? " (with -0, +-inf, NaN)" : "", copy_ms * 1e3, gbs_copy);
  std::printf("  %-44s %9.1f us  %5.1f%% of copy\n", "production (sort_tiles_in_shared)",
              production_ms * 1e3, 100.0 * copy_ms / production_ms);
  std::printf("  %-44s %9.1f us  %5.1f%% of copy  %.2fx production  %s; %s\n",
              "variant (blocked lanes, min/max, no guards)", variant_ms * 1e3,
              100.0 * copy_ms / variant_ms, production_ms / variant_ms,
              same ? "same as production" : "DIFFERS FROM PRODUCTION",
              wrong_arrays == 0 ? "every array sorted"
                                : (std::to_string(wrong_arrays) + " ARRAYS WRONG").c_str());
  std::printf("  %-44s %9.1f us  %5.1f%% of copy  %.2fx production  %s\n",
              "library (gc::sort_arrays of full arrays)", library_ms * 1e3,
              100.0 * copy_ms / library_ms, production_ms / library_ms,
              library_same ? "same as production" : "DIFFERS FROM PRODUCTION");
  free_device(in, production, variant, library);
}

}  // namespace

int main() {
  compare<1024>(1u << 14, true);
  compare<1024>(1u << 14, false);
  compare<1024>(1u << 17, false);
  compare<512>(1u << 15, true);
  compare<2048>(1u << 13, true);
  compare<256>(1u << 16, true);
  return 0;
}
