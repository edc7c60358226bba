// Tuning probe for the GPU histogram of bytes: times the production path
// (histogram_launch) against the per-lane byte counters, shared atomics with
// the binner's arithmetic or a byte -> bin table, and
// cub::DeviceHistogram::HistogramEven, for bytes into their 256 values
// (production: shared atomics, 768 threads sharing one sub-histogram, the
// byte as the bin) and into 64 even bins (production: the same with a fold
// of the 256 per-byte counts into the bins at each block's end; also timed
// without the fold), on random bytes and on runs of one value, in one
// process on the same buffers; and, for bytes into their 256 values,
// per-lane 16-bit counters with no atomics in the loop
// (lane_counters_256). Checks each variant's counts against CUB's. Not part
// of the build
// or the tests; built and run by scripts/device-check.sh --tune-histogram
// (tune-histogram.txt). Medians of 20 isolated calls after 3 warm-ups, CUDA
// events, counts zeroed inside the timed call (as the library does).
#include <cuda_runtime.h>
#include <cub/device/device_histogram.cuh>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "gpuprim/cuda/device/device_histogram.cuh"
#include "gpuprim/histogram.hpp"
#include "probe_timing.cuh"

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_impl;

namespace {

using even_bytes = gp::detail::even_binner<std::uint8_t>;

// The per-lane counter kernels' loop: count_word(w) for every 32-bit word
// of vectors[0, count) (16-byte vectors, grid-strided, Unroll loads in
// flight per lane) and fold() after every rounds_per_fold rounds. The loop
// is uniform across a warp (it tests the warp's first vector), so every
// lane reaches each fold.
template <int Threads, int Unroll, class CountWord, class Fold>
__device__ __forceinline__ void count_words_by_warp_rounds(const uint4* vectors,
                                                           std::uint64_t count, int rounds_per_fold,
                                                           CountWord& count_word, Fold& fold) {
  const unsigned lane = threadIdx.x % 32;
  const std::uint64_t stride = std::uint64_t(gridDim.x) * Threads;
  const std::uint64_t warp_first = std::uint64_t(blockIdx.x) * Threads + (threadIdx.x / 32) * 32;
  int rounds = 0;
  for (std::uint64_t base = warp_first; base < count; base += Unroll * stride) {
    uint4 r[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      const std::uint64_t v = base + lane + u * stride;
      r[u] = v < count ? vectors[v] : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      if (base + lane + u * stride < count) {
        count_word(r[u].x);
        count_word(r[u].y);
        count_word(r[u].z);
        count_word(r[u].w);
      }
    }
    if (++rounds == rounds_per_fold) {
      fold();
      rounds = 0;
    }
  }
}

// Variant for bytes into fewer bins (production before byte entries with
// a fold): every lane of a warp owns a private row of 8-bit counters, laid
// out so that lane l's counters all sit in shared-memory bank l (word =
// slot / 4 * 32 + l, byte slot % 4). An increment is a plain load-add-store
// with no atomics and no bank conflicts whatever the data. Before any
// counter can pass 255 the warp folds its rows into 32-bit register totals
// (each lane sums one row of 32 words, reading them in a rotated order that
// is again conflict-free). A 256-entry table maps bytes to bins; slot
// `bins` counts the left out. Data-independent, but a table read and a
// load-add-store a byte (two shared-memory accesses) where the byte entries
// take one atomic.
//
// histogram_lane_bytes: 8 warps, 4 loads of 16 bytes in flight per lane, and
// a fold of the 8-bit counters every 3 rounds (<= 192 increments per lane;
// the scalar head and tail add at most 2 more before the last fold).
inline constexpr int lane_bytes_threads = 256;
inline constexpr int lane_bytes_unroll = 4;
inline constexpr int lane_bytes_rounds_per_fold = 3;
inline constexpr int lane_bytes_max_slots = 257;  // 256 bins + "left out"

// Rows of 32 words (4 slots per word) a warp of histogram_lane_bytes keeps.
constexpr int lane_bytes_rows(int slots) {
  return (slots + 3) / 4;
}

// A table maps bytes to slots: the bin, or `bins` meaning "left out".
template <class Sample, class Counter, class Binner>
__global__ void __launch_bounds__(lane_bytes_threads)
    histogram_lane_bytes(const Sample* __restrict__ in, std::uint64_t n, Binner binner, int bins,
                         Counter* __restrict__ counts, std::uint64_t* __restrict__ left_out) {
  static_assert(sizeof(Sample) == 1);
  extern __shared__ unsigned lane_counters[];  // warps x rows x 32 words
  __shared__ unsigned short slot_of[256];
  __shared__ unsigned block_totals[lane_bytes_max_slots];
  const int slots = bins + 1;
  const int rows = lane_bytes_rows(slots);
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  unsigned* mine = lane_counters + warp * rows * 32;
  for (int i = threadIdx.x; i < (lane_bytes_threads / 32) * rows * 32; i += lane_bytes_threads)
    lane_counters[i] = 0;
  for (int i = threadIdx.x; i < lane_bytes_max_slots; i += lane_bytes_threads)
    block_totals[i] = 0;
  for (int v = threadIdx.x; v < 256; v += lane_bytes_threads) {
    const int b = binner(static_cast<Sample>(static_cast<std::uint8_t>(v)));
    slot_of[v] = static_cast<unsigned short>(b >= 0 ? b : bins);
  }
  __syncthreads();

  const auto count = [&](unsigned byte) {
    const unsigned slot = slot_of[byte];
    mine[(slot >> 2) * 32 + lane] += 1u << ((slot & 3) * 8);
  };
  const auto count_word = [&](unsigned word) {
#pragma unroll
    for (int k = 0; k < 4; ++k)
      count((word >> (8 * k)) & 0xFFu);
  };
  // Lane l owns the 32-bit totals of rows l, l + 32 and l + 64.
  unsigned totals[3][4] = {};
  const auto fold = [&] {
    __syncwarp();
#pragma unroll
    for (int j = 0; j < 3; ++j) {
      const int row = lane + 32 * j;
      if (row < rows) {
        unsigned even = 0, odd = 0;  // 16-bit fields: at most 32 x 255
        for (int k = 0; k < 32; ++k) {
          const int index = row * 32 + ((lane + k) & 31);  // bank (lane + k) % 32
          const unsigned word = mine[index];
          mine[index] = 0;
          even += word & 0x00FF00FFu;
          odd += (word >> 8) & 0x00FF00FFu;
        }
        totals[j][0] += even & 0xFFFFu;
        totals[j][1] += odd & 0xFFFFu;
        totals[j][2] += even >> 16;
        totals[j][3] += odd >> 16;
      }
    }
    __syncwarp();
  };

  const auto* bytes = reinterpret_cast<const std::uint8_t*>(in);
  const auto misalignment = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(in) % 16);
  std::uint64_t head = misalignment != 0 ? 16 - misalignment : 0;
  head = head < n ? head : n;
  const std::uint64_t vectors = (n - head) / 16;
  const uint4* body = reinterpret_cast<const uint4*>(bytes + head);
  count_words_by_warp_rounds<lane_bytes_threads, lane_bytes_unroll>(
      body, vectors, lane_bytes_rounds_per_fold, count_word, fold);
  const std::uint64_t thread = std::uint64_t(blockIdx.x) * lane_bytes_threads + threadIdx.x;
  const std::uint64_t tail = head + vectors * 16;
  if (thread < head) count(bytes[thread]);
  if (thread < n - tail) count(bytes[tail + thread]);
  fold();

#pragma unroll
  for (int j = 0; j < 3; ++j) {
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const int slot = (lane + 32 * j) * 4 + q;
      if (slot < slots && totals[j][q] != 0) atomicAdd(&block_totals[slot], totals[j][q]);
    }
  }
  __syncthreads();
  for (int s = threadIdx.x; s < slots; s += lane_bytes_threads) {
    const unsigned total = block_totals[s];
    if (total == 0) continue;
    if (s < bins) {
      gc::add_to_counter(counts + s, total);
    } else if (left_out != nullptr) {
      atomicAdd(reinterpret_cast<unsigned long long*>(left_out),
                static_cast<unsigned long long>(total));
    }
  }
}

// Variant for bytes into their 256 values: per-lane 16-bit counters in
// shared memory, no atomics in the loop. The shared atomics production
// uses saturate the shared-memory atomic unit (L1 98 %); here a byte costs
// a plain load and store of the lane's own counter (word (b / 2) x 32 +
// lane: lane l always in bank l, so no conflicts), two counters a word.
// Lane l folds rows l, l + 32, l + 64, l + 96 of its warp when a counter
// could pass 65535, and at the end. Needs 16-byte aligned input, n a
// multiple of 16. Threads x 128 words x 4 bytes of shared memory.
template <int Threads, int Unroll>
__global__ void __launch_bounds__(Threads)
    lane_counters_256(const std::uint8_t* __restrict__ in, std::uint64_t n,
                      unsigned* __restrict__ counts) {
  extern __shared__ unsigned lane_words[];  // warps x 128 rows x 32 lanes
  __shared__ unsigned block_totals[256];
  constexpr int rows = 128;
  const unsigned lane = threadIdx.x % 32;
  unsigned* const mine = lane_words + (threadIdx.x / 32) * rows * 32 + lane;
  for (int i = threadIdx.x; i < (Threads / 32) * rows * 32; i += Threads)
    lane_words[i] = 0;
  for (int i = threadIdx.x; i < 256; i += Threads)
    block_totals[i] = 0;
  __syncthreads();

  // The byte b of a word adds 1 << 16 (b & 1) to word (b >> 1) of the lane.
  const auto count_word = [&](unsigned word) {
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const unsigned b = (word >> (8 * k)) & 0xFFu;
      mine[(b >> 1) * 32] += 1u << ((b & 1u) * 16);
    }
  };
  unsigned totals[4][2] = {};
  const auto fold = [&] {
    __syncwarp();
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int row = int(lane) + 32 * j;
      unsigned even = 0, odd = 0;
      for (int k = 0; k < 32; ++k) {
        // Word (row, (lane + k) % 32): bank (lane + k) % 32, no conflicts.
        unsigned* const word = mine - lane + row * 32 + ((lane + k) & 31);
        even += *word & 0xFFFFu;
        odd += *word >> 16;
        *word = 0;
      }
      totals[j][0] += even;
      totals[j][1] += odd;
    }
    __syncwarp();
  };
  // A lane adds at most 16 x Unroll to a counter a round.
  constexpr int rounds_per_fold = 65535 / (16 * Unroll);
  const uint4* const vectors = reinterpret_cast<const uint4*>(in);
  count_words_by_warp_rounds<Threads, Unroll>(vectors, n / 16, rounds_per_fold, count_word, fold);
  fold();
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const int row = int(lane) + 32 * j;
    if (totals[j][0] != 0) atomicAdd(&block_totals[2 * row], totals[j][0]);
    if (totals[j][1] != 0) atomicAdd(&block_totals[2 * row + 1], totals[j][1]);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += Threads)
    if (block_totals[i] != 0) atomicAdd(&counts[i], block_totals[i]);
}

void report_counts(const char* name, float ms, float cub_ms, std::size_t n,
                   const std::vector<unsigned>& got, const std::vector<unsigned>& cub_counts) {
  std::printf("  %-36s %8.1f us  %6.0f GB/s  %.2fx CUB  %s\n", name, ms * 1e3, n / (ms * 1e6),
              cub_ms / ms, got == cub_counts ? "same counts as CUB" : "COUNTS DIFFER FROM CUB");
}

void report(const char* name, float ms, float cub_ms, std::size_t n, const unsigned* counts,
            const std::vector<unsigned>& cub_counts) {
  std::vector<unsigned> got(cub_counts.size());
  CHECK_CUDA(cudaMemcpy(got.data(), counts, got.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  report_counts(name, ms, cub_ms, n, got, cub_counts);
}

// Bytes into `bins` even bins over [0, 256).
void compare(const std::vector<std::uint8_t>& host, int bins, const char* what) {
  const std::size_t n = host.size();
  const even_bytes binner(0, 256, bins);
  std::uint8_t* in;
  unsigned* counts;
  CHECK_CUDA(cudaMalloc(&in, n));
  CHECK_CUDA(cudaMalloc(&counts, bins * sizeof(unsigned)));
  CHECK_CUDA(cudaMemcpy(in, host.data(), n, cudaMemcpyHostToDevice));

  const cub_call cub_histogram([&](void* temp, std::size_t& temp_bytes) {
    return cub::DeviceHistogram::HistogramEven(temp, temp_bytes, in, counts, bins + 1, 0, 256,
                                               static_cast<long long>(n));
  });
  const float cub_ms = median_ms(cub_histogram);
  std::vector<unsigned> cub_counts(bins);
  CHECK_CUDA(
      cudaMemcpy(cub_counts.data(), counts, bins * sizeof(unsigned), cudaMemcpyDeviceToHost));
  std::printf("bytes into %d bins, %s, n = 2^%d: CUB %.1f us (%.0f GB/s)\n", bins, what,
              int(std::log2(double(n))), cub_ms * 1e3, n / (cub_ms * 1e6));

  const float production_ms = median_ms(
      [&] { gp::detail::cuda_histogram_into(in, n, counts, bins, binner, nullptr, nullptr); });
  report("production (histogram_launch)", production_ms, cub_ms, n, counts, cub_counts);
  // What production's fold costs: the same kernel and byte entries into
  // the 256 byte values with no fold (the per-byte counts are folded here,
  // 256 / bins bytes a bin, to check them).
  if (bins != 256 && 256 % bins == 0) {
    unsigned* per_byte;
    CHECK_CUDA(cudaMalloc(&per_byte, 256 * sizeof(unsigned)));
    const float ms = median_ms([&] {
      gc::histogram_zero<<<1, 256>>>(per_byte, 256, nullptr);
      gc::launch_shared_atomics<gc::byte_binning::binner, gc::byte_histogram_threads,
                                gc::histogram_unroll, gc::byte_histogram_copies>(
          in, n, per_byte, 256, gc::byte_value_bin{}, nullptr, nullptr);
    });
    std::vector<unsigned> bytes(256), folded(bins, 0);
    CHECK_CUDA(cudaMemcpy(bytes.data(), per_byte, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int v = 0; v < 256; ++v)
      folded[v / (256 / bins)] += bytes[v];
    report_counts("  ... 256 byte values, no fold", ms, cub_ms, n, folded, cub_counts);
    free_device(per_byte);
  }

  // The per-lane byte counters.
  {
    const auto kernel = &histogram_lane_bytes<std::uint8_t, unsigned, even_bytes>;
    const std::size_t shared =
        std::size_t(lane_bytes_threads / 32) * lane_bytes_rows(bins + 1) * 32 * sizeof(unsigned);
    gc::histogram_allow_shared(reinterpret_cast<const void*>(kernel), shared);
    const unsigned grid =
        gc::histogram_grid(gc::histogram_resident_blocks(reinterpret_cast<const void*>(kernel),
                                                         lane_bytes_threads, shared),
                           n, std::uint64_t(lane_bytes_threads) * 16 * lane_bytes_unroll);
    const float ms = median_ms([&] {
      gc::histogram_zero<<<1, 256>>>(counts, bins, nullptr);
      kernel<<<grid, lane_bytes_threads, shared>>>(in, n, binner, bins, counts, nullptr);
    });
    report("per-lane byte counters", ms, cub_ms, n, counts, cub_counts);
  }
  // Shared atomics (one sub-histogram per warp: launch_shared_atomics), the
  // bin from the even binner's arithmetic per sample or from a byte -> bin
  // table in shared memory, and one sub-histogram per block.
  const auto time_launch = [&](const char* name, auto launch) {
    const float ms = median_ms([&] {
      gc::histogram_zero<<<1, 256>>>(counts, bins, nullptr);
      launch();
    });
    report(name, ms, cub_ms, n, counts, cub_counts);
  };
  time_launch("shared atomics, even binner", [&] {
    gc::launch_shared_atomics<gc::byte_binning::binner>(in, n, counts, bins, binner, nullptr,
                                                        nullptr);
  });
  time_launch("shared atomics, byte table", [&] {
    gc::launch_shared_atomics<gc::byte_binning::table>(in, n, counts, bins, binner, nullptr,
                                                       nullptr);
  });
  {
    constexpr int threads = gc::histogram_threads;
    const auto kernel =
        &gc::histogram_shared_atomics<threads, gc::histogram_unroll, std::uint8_t, unsigned,
                                      even_bytes, gc::byte_binning::table>;
    const std::size_t shared = std::size_t(bins) * sizeof(unsigned);
    const unsigned grid = gc::histogram_grid(
        gc::histogram_resident_blocks(reinterpret_cast<const void*>(kernel), threads, shared), n,
        std::uint64_t(threads) * 16 * gc::histogram_unroll);
    time_launch("  ... byte table, one copy per block", [&] {
      kernel<<<grid, threads, shared>>>(in, n, binner, bins, 1, counts, nullptr);
    });
  }
  // Bytes into their own values (the production bin): other block shapes,
  // with one sub-histogram per warp unless said. More loads in flight per thread or
  // more threads per block mean fewer blocks, so less fixed work per
  // sample (zeroing and merging the sub-histograms, the global adds); at
  // 2^24 the production grid reads one round of 4 vectors per thread.
  if (bins == 256) {
    // Copies: at most that many sub-histograms per block (0: one per warp).
    const auto shape = [&]<int Threads, int Unroll, int Copies = 0>(const char* name) {
      time_launch(name, [&] {
        gc::launch_shared_atomics<gc::byte_binning::binner, Threads, Unroll,
                                  (Copies > 0 ? Copies : Threads / 32)>(
            in, n, counts, 256, gc::byte_value_bin{}, nullptr, nullptr);
      });
    };
    shape.template operator()<256, 4>("byte as bin, 256 threads x 4 loads");
    shape.template operator()<256, 8>("byte as bin, 256 threads x 8 loads");
    shape.template operator()<512, 4>("byte as bin, 512 threads x 4 loads");
    // CUB's sm_90 shape for bytes: 768 threads x 12 samples, one histogram
    // per block, few blocks each reading several tiles.
    shape.template operator()<768, 4, 1>("byte as bin, 768 threads, one copy");
    shape.template operator()<768, 4, 2>("byte as bin, 768 threads, 2 copies");
    shape.template operator()<768, 8, 1>("byte as bin, 768 x 8 loads, one copy");
    shape.template operator()<1024, 4, 1>("byte as bin, 1024 threads, one copy");
    shape.template operator()<1024, 4, 2>("byte as bin, 1024 threads, 2 copies");
    // The per-lane 16-bit counters (lane_counters_256), block shapes and
    // loads in flight.
    const auto lanes = [&]<int Threads, int Unroll>(const char* name) {
      const auto kernel = &lane_counters_256<Threads, Unroll>;
      const std::size_t shared = std::size_t(Threads) * 128 * sizeof(unsigned);
      gc::histogram_allow_shared(reinterpret_cast<const void*>(kernel), shared);
      const unsigned grid = gc::histogram_grid(
          gc::histogram_resident_blocks(reinterpret_cast<const void*>(kernel), Threads, shared), n,
          std::uint64_t(Threads) * 16 * Unroll);
      time_launch(name, [&] { kernel<<<grid, Threads, shared>>>(in, n, counts); });
    };
    lanes.template operator()<64, 8>("per-lane 16-bit counters, 64 x 8 loads");
    lanes.template operator()<128, 4>("per-lane 16-bit counters, 128 x 4 loads");
    lanes.template operator()<128, 8>("per-lane 16-bit counters, 128 x 8 loads");
    lanes.template operator()<256, 8>("per-lane 16-bit counters, 256 x 8 loads");
  }
  free_device(in, counts);
}

}  // namespace

int main() {
  for (std::size_t n : {std::size_t{1} << 22, std::size_t{1} << 24, std::size_t{1} << 28}) {
    std::mt19937_64 g(n);
    std::vector<std::uint8_t> bytes(n);
    for (auto& b : bytes)
      b = static_cast<std::uint8_t>(g());
    for (int bins : {256, 64})
      compare(bytes, bins, "random");
    // Runs of 4096 equal bytes: every lane of a warp on one bin.
    for (std::size_t i = 0; i < n; ++i)
      bytes[i] = static_cast<std::uint8_t>((i / 4096) * 37);
    for (int bins : {256, 64})
      compare(bytes, bins, "runs of 4096");
  }
}
