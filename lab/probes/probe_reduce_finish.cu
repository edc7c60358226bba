// Probe: what the finish of a small single-pass sum costs, 2^20 floats from
// memory. Not part of the default build, the tests or the harness.
//  1. minimal_sum: a minimal polled sum (each block publishes one status word,
//     the last block polls and folds) with %globaltimer stamps per block and
//     per polling thread: when data arrived, when the last total was
//     published and seen, when the fold ended.
//  2. mixed_sum: the minimal sum with the library's block reduction and its
//     fold switched in one at a time, and the library's kernel itself,
//     queued (GPU time per call): how much each piece adds.
// This is what showed the finish's time growing with the size of the code
// that runs after the data arrives (docs/families/reduce.md, "the finish of a small
// reduction"). On the GPU machine:
// cmake --build build/cuda --target gpuprim_lab_probe_reduce_finish
// (cuobjdump -sass on the binary gives each kernel's instruction count.)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "gpuprim/core/operators.hpp"
#include "gpuprim/cuda/device/device_reduce.cuh"
#include "probe_timing.cuh"

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_impl;

__device__ __forceinline__ unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ unsigned long long load_relaxed(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_relaxed(unsigned long long* p, unsigned long long v) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ float warp_sum(float x) {
  for (int o = 16; o > 0; o /= 2)
    x += __shfl_xor_sync(0xffffffffu, x, o);
  return x;
}

// Each warp's sum of its tiles: 4 float4 loads per lane in flight, one
// shuffle butterfly per load (every lane gets the total).
__device__ float warp_tiles_sum(const float4* in, unsigned tiles_per_warp) {
  const int lane = threadIdx.x % 32;
  const unsigned global_warp = blockIdx.x * 8 + threadIdx.x / 32;
  float acc = 0;
  for (unsigned t = 0; t < tiles_per_warp; ++t) {
    const float4* base = in + (std::size_t(global_warp) * tiles_per_warp + t) * 128 + lane;
    float4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u)
      v[u] = base[u * 32];
#pragma unroll
    for (int u = 0; u < 4; ++u)
      acc += warp_sum(v[u].x + v[u].y + v[u].z + v[u].w);
  }
  return acc;
}

// Thread 0 gets start plus the sum of every thread's `mine` (8 warps: a
// warp sum each, then thread 0 folds the 8 through totals); the others
// get start.
__device__ float fold_onto(float start, float mine, float* totals) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  mine = warp_sum(mine);
  __syncthreads();
  if (lane == 0) totals[warp] = mine;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 0; w < 8; ++w)
      start += totals[w];
  }
  return start;
}

// The minimal polled sum. Timed: %globaltimer stamps in times (per block:
// start, data done, published), polls (per thread of the last block: when
// its word was seen, how many polls) and end (folded, written).
// SleepBetweenPolls: a 32 ns __nanosleep before each repeated poll.
template <bool Timed, bool SleepBetweenPolls = false>
__global__ void __launch_bounds__(256)
    minimal_sum(const float4* in, unsigned tiles_per_warp, unsigned long long* words,
                unsigned epoch, float* out, unsigned long long* times = nullptr,
                unsigned long long* polls = nullptr, unsigned long long* end = nullptr) {
  __shared__ float warp_totals[8];
  const unsigned long long t0 = now();
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const float acc = warp_tiles_sum(in, tiles_per_warp);
  if (lane == 0) warp_totals[warp] = acc;
  __syncthreads();
  float block_total = 0;
  for (int w = 0; w < 8; ++w)
    block_total += warp_totals[w];
  const unsigned last = gridDim.x - 1;
  if (Timed && threadIdx.x == 0) {
    times[3 * blockIdx.x] = t0;
    times[3 * blockIdx.x + 1] = now();
  }
  if (blockIdx.x != last) {
    if (threadIdx.x == 0) {
      store_relaxed(&words[blockIdx.x],
                    (static_cast<unsigned long long>(epoch) << 32) | __float_as_uint(block_total));
      if (Timed) times[3 * blockIdx.x + 2] = now();
    }
    return;
  }
  __syncthreads();
  float mine = 0;
  unsigned long long count = 0;
  if (threadIdx.x < last) {
    unsigned long long w = load_relaxed(&words[threadIdx.x]);
    ++count;
    while ((w >> 32) != epoch) {
      if (SleepBetweenPolls) __nanosleep(32);
      w = load_relaxed(&words[threadIdx.x]);
      ++count;
    }
    mine = __uint_as_float(static_cast<unsigned>(w));
  }
  if (Timed) {
    polls[2 * threadIdx.x] = now();
    polls[2 * threadIdx.x + 1] = count;
  }
  const float total = fold_onto(block_total, mine, warp_totals);
  if (threadIdx.x == 0) {
    if (Timed) end[0] = now();
    *out = total;
    if (Timed) end[1] = now();
  }
}

// The minimal sum with the library's pieces switched in one at a time:
// the block total (thread 0 folding warp totals, fold_warp_totals) and the
// finishing block's fold (fold_block_totals over tile_lookback words).
template <bool LibBlockTotal, bool LibFold>
__global__ void __launch_bounds__(256) mixed_sum(const float4* in, unsigned tiles_per_warp,
                                                 gc::tile_lookback<float> published, float* out) {
  __shared__ float warp_totals[8];
  __shared__ float fold_totals[8];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const float acc = warp_tiles_sum(in, tiles_per_warp);
  float block_total = 0;
  if constexpr (LibBlockTotal) {
    block_total = gc::fold_warp_totals<256>(warp_totals, acc, 8, gp::plus{});
  } else {
    if (lane == 0) warp_totals[warp] = acc;
    __syncthreads();
    for (int w = 0; w < 8; ++w)
      block_total += warp_totals[w];
  }
  const unsigned last = gridDim.x - 1;
  if (blockIdx.x != last) {
    if (threadIdx.x == 0) published.publish(blockIdx.x, published.aggregate, block_total);
    return;
  }
  __syncthreads();
  if constexpr (LibFold) {
    const float others = gc::fold_block_totals<256>(
        fold_totals, last, gp::plus{}, [&](unsigned b) { return published.peek(b); },
        [&](unsigned b, unsigned long long word) { return published.read(b, word).value; });
    if (threadIdx.x == 0) *out = others + block_total;
  } else {
    float mine = 0;
    if (threadIdx.x < last) mine = published.read(threadIdx.x).value;
    const float total = fold_onto(block_total, mine, fold_totals);
    if (threadIdx.x == 0) *out = total;
  }
}

int main() {
  const std::size_t n = std::size_t{1} << 20;
  const unsigned blocks = 256, tiles_per_warp = unsigned(n / (256 * 8) / 512);  // 1 tile
  const std::size_t copies = (std::size_t{160} << 20) / (n * 4) + 1;
  float *in, *out;
  CHECK_CUDA(cudaMalloc(&in, copies * n * 4));
  CHECK_CUDA(cudaMalloc(&out, 4));
  std::vector<float> ones(copies * n, 1.0f);
  CHECK_CUDA(cudaMemcpy(in, ones.data(), copies * n * 4, cudaMemcpyHostToDevice));
  unsigned long long *words, *times, *polls, *end;
  CHECK_CUDA(cudaMalloc(&words, blocks * 8));
  CHECK_CUDA(cudaMemset(words, 0, blocks * 8));
  CHECK_CUDA(cudaMalloc(&times, blocks * 3 * 8));
  CHECK_CUDA(cudaMalloc(&polls, 256 * 2 * 8));
  CHECK_CUDA(cudaMalloc(&end, 2 * 8));
  unsigned epoch = 0;
  std::size_t call = 0;
  std::printf("tiles per warp %u\n", tiles_per_warp);
  const auto check = [&](const char* what) {
    float got = 0;
    CHECK_CUDA(cudaMemcpy(&got, out, 4, cudaMemcpyDeviceToHost));
    if (got != float(n)) std::printf("WRONG %s: %f\n", what, got);
  };
  const auto library = [&] {
    gc::launch_reduce_single_pass<4>(in + (call++ % copies) * n, n, out, 0.0f, gp::plus{},
                                     gp::detail::unary_fetch<gp::identity>{}, nullptr,
                                     gc::reduce_config{});
  };
  const auto plain = [&] {
    minimal_sum<false><<<blocks, 256>>>(reinterpret_cast<const float4*>(in + (call++ % copies) * n),
                                        tiles_per_warp, words, ++epoch, out);
  };
  unsigned long long* status_words;
  CHECK_CUDA(cudaMalloc(&status_words, blocks * 8));
  CHECK_CUDA(cudaMemset(status_words, 0, blocks * 8));
  unsigned status_epoch = 0;
  const auto mixed = [&](auto kernel) {
    return [&, kernel] {
      const gc::tile_lookback<float> published{status_words, nullptr, ++status_epoch};
      kernel<<<blocks, 256>>>(reinterpret_cast<const float4*>(in + (call++ % copies) * n),
                              tiles_per_warp, published, out);
    };
  };
  for (int round = 0; round < 3; ++round) {
    const auto m00 = mixed(mixed_sum<false, false>);
    const auto m10 = mixed(mixed_sum<true, false>);
    const auto m01 = mixed(mixed_sum<false, true>);
    const auto m11 = mixed(mixed_sum<true, true>);
    const float q00 = median_queued_ms(m00);
    check("m00");
    const float q10 = median_queued_ms(m10);
    check("m10");
    const float q01 = median_queued_ms(m01);
    check("m01");
    const float q11 = median_queued_ms(m11);
    check("m11");
    std::printf(
        "round %d queued: plain+status words %.2f, +library block total %.2f, +library "
        "fold %.2f, both %.2f us\n",
        round, q00 * 1e3, q10 * 1e3, q01 * 1e3, q11 * 1e3);
  }
  for (int round = 0; round < 3; ++round) {
    const float lib_iso = median_ms(library), lib_q = median_queued_ms(library);
    check("library");
    const float plain_iso = median_ms(plain), plain_q = median_queued_ms(plain);
    check("plain");
    std::printf(
        "round %d: library %.2f us isolated, %.2f queued; plain %.2f isolated, %.2f queued\n",
        round, lib_iso * 1e3, lib_q * 1e3, plain_iso * 1e3, plain_q * 1e3);
  }
  for (int variant = 0; variant < 2; ++variant) {
    for (int rep = 0; rep < 8; ++rep) {
      const float4* src = reinterpret_cast<const float4*>(in + (call++ % copies) * n);
      ++epoch;
      if (variant == 0)
        minimal_sum<true, false>
            <<<blocks, 256>>>(src, tiles_per_warp, words, epoch, out, times, polls, end);
      else
        minimal_sum<true, true>
            <<<blocks, 256>>>(src, tiles_per_warp, words, epoch, out, times, polls, end);
      CHECK_CUDA(cudaDeviceSynchronize());
      std::vector<unsigned long long> t(blocks * 3), p(512), fin(2);
      float got;
      CHECK_CUDA(cudaMemcpy(t.data(), times, t.size() * 8, cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(p.data(), polls, p.size() * 8, cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(fin.data(), end, 16, cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(&got, out, 4, cudaMemcpyDeviceToHost));
      unsigned long long t0 = ~0ull, max_start = 0, max_data = 0, max_pub = 0, min_data = ~0ull;
      unsigned last_pub_block = 0;
      for (unsigned b = 0; b < blocks; ++b) {
        t0 = std::min(t0, t[3 * b]);
        max_start = std::max(max_start, t[3 * b]);
        max_data = std::max(max_data, t[3 * b + 1]);
        min_data = std::min(min_data, t[3 * b + 1]);
        if (b + 1 < blocks && t[3 * b + 2] > max_pub) {
          max_pub = t[3 * b + 2];
          last_pub_block = b;
        }
      }
      unsigned long long max_seen = 0, polls_max = 0, polls_sum = 0;
      for (unsigned i = 0; i + 1 < blocks; ++i) {
        max_seen = std::max(max_seen, p[2 * i]);
        polls_max = std::max(polls_max, p[2 * i + 1]);
        polls_sum += p[2 * i + 1];
      }
      auto rel = [&](unsigned long long x) { return long(x - t0); };
      std::printf(
          "variant %d: sum %.0f | last start %ld, data %ld-%ld, last block data %ld (start %ld), "
          "last publish %ld (block %u), seen by poller %ld (polls of that word %llu), all seen "
          "%ld, "
          "polls max %llu mean %.1f, folded %ld, written %ld ns\n",
          variant, got, rel(max_start), rel(min_data), rel(max_data), rel(t[3 * (blocks - 1) + 1]),
          rel(t[3 * (blocks - 1)]), rel(max_pub), last_pub_block, rel(p[2 * last_pub_block]),
          p[2 * last_pub_block + 1], rel(max_seen), polls_max, double(polls_sum) / (blocks - 1),
          rel(fin[0]), rel(fin[1]));
    }
  }
}
