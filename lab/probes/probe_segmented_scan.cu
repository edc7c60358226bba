// Probe of the inclusive segmented float sum with one-byte head flags
// (gp::inclusive_segmented_scan): times production (the segmented kernel,
// segmented_scan_lookback in cuda/device/device_segmented_scan.cuh, through
// the public API unless built standalone, and at its own and other tile
// shapes through launch_segmented_scan_tiles), the scan over (value, head)
// pairs that production used before (launch_scan, 256 x 40 rescan), CUB's
// InclusiveSumByKey (int32 keys: the segment's index) and the variants of
// segmented_scan_variants.cuh (the mechanisms production does not take:
// two barriers, no early prefix, other flag words and value staging) on the
// same buffers, and a device-to-device copy of the values. Each line:
// median of 20 isolated calls after 3 warm-ups (CUDA events) and per call
// of batches of 10 queued back to back, GB/s counting 9 bytes an element (a
// float read, a flag read, a float written, as the bench), % of the copy's
// GB/s (8 bytes an element), the ratio to CUB, registers a thread, and the
// checks against production's launch_segmented_scan:
//  - random floats in [-1, 1): largest difference relative to max(1,
//    |production|) (must be <= 1e-3, as the bench), and how many results
//    differ from production's in any bit (association may differ);
//  - integer-valued floats in [-8, 8] (every partial sum exact): results
//    must equal production's bit for bit.
// Segment shapes: segments of 1024 (the bench row), lengths 1-2048 drawn at
// random (the bench's other row), segments of 8, 2^28 elements unless
// given (probe_segmented_scan [LOG2N]); then 2^20 + 12345 elements, and
// double sums at half the count (production's 8-byte tile against the pair
// scan); --profile [LOG2N]: production and
// each other kernel once, segments of 1024, 2^24 unless given, for Nsight
// Compute.
//
// Built by CMake (gpuprim_lab_probe_segmented_scan) and run by
// scripts/device-check.sh --probe-segmented-scan (tune-segmented_scan.txt).
// Or standalone, without the library's build (production's kernel called
// directly, not the public API, so the tuner is not linked), from the
// repository root:
//   nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr --extended-lambda \
//     -DGPUPRIM_HAS_CUDA=1 -DSEGSCAN_STANDALONE -Iinclude -Ilab/probes \
//     lab/probes/probe_segmented_scan.cu src/core/timing.cpp src/core/timing_cuda.cpp \
//     src/core/runtime_cuda.cpp src/tune/tuner_common.cpp -lcuda -o tune_segmented_scan
#include <cuda_runtime.h>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gpuprim/cuda/device/device_segmented_scan.cuh"
#include "probe_timing.cuh"
#include "segmented_scan_variants.cuh"
#ifndef SEGSCAN_STANDALONE
#include "gpuprim/segmented.hpp"
#endif

namespace {

bool any_failed = false;    // a check failed: the probe exits with 1
bool profile_only = false;  // --profile: each kernel once, no timing

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_impl;

// ---- checks on the device (a 2^28 comparison on the host would cost more
// than every timing together).

struct check_counts {
  unsigned worst_bits;  // largest relative difference, a non-negative float's bits
  unsigned long long differing;
};

__global__ void compare_outputs(const float* got, const float* want, std::uint64_t n,
                                check_counts* counts) {
  unsigned worst = 0;
  unsigned long long differing = 0;
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    const float g = got[i], w = want[i];
    if (__float_as_uint(g) != __float_as_uint(w)) ++differing;
    float rel = fabsf(g - w) / fmaxf(1.0f, fabsf(w));
    if (!(rel <= 3.0e38f)) rel = 3.0e38f;  // NaN or infinity: the worst
    worst = max(worst, __float_as_uint(rel));
  }
  for (int d = 16; d > 0; d /= 2) {
    worst = max(worst, __shfl_down_sync(0xffffffffu, worst, d));
    differing += __shfl_down_sync(0xffffffffu, differing, d);
  }
  if (threadIdx.x % 32 == 0) {
    atomicMax(&counts->worst_bits, worst);
    atomicAdd(&counts->differing, differing);
  }
}

struct check_result {
  float worst;
  unsigned long long differing;
};

check_result compare(const float* got, const float* want, std::uint64_t n, check_counts* counts) {
  CHECK_CUDA(cudaMemset(counts, 0, sizeof(check_counts)));
  compare_outputs<<<1024, 256>>>(got, want, n, counts);
  CHECK_CUDA(cudaGetLastError());
  check_counts host{};
  CHECK_CUDA(cudaMemcpy(&host, counts, sizeof host, cudaMemcpyDeviceToHost));
  float worst;
  std::memcpy(&worst, &host.worst_bits, sizeof worst);
  return {worst, host.differing};
}

// ---- the data

struct segment_shape {
  const char* name;
  std::size_t length;  // 0: lengths 1-2048 at random
};

struct buffers {
  std::size_t n = 0;
  float* values = nullptr;    // random in [-1, 1)
  float* integers = nullptr;  // integer-valued, in [-8, 8]
  std::uint8_t* flags = nullptr;
  std::int32_t* keys = nullptr;
  float* out = nullptr;
  float* reference = nullptr;          // production on `values`
  float* integer_reference = nullptr;  // production on `integers`
  check_counts* counts = nullptr;

  explicit buffers(std::size_t count) : n(count) {
    CHECK_CUDA(cudaMalloc(&values, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&integers, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&flags, n));
    CHECK_CUDA(cudaMalloc(&keys, n * sizeof(std::int32_t)));
    CHECK_CUDA(cudaMalloc(&out, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&reference, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&integer_reference, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&counts, sizeof(check_counts)));
    std::mt19937_64 g(n);
    std::vector<float> host(n), host_integers(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t r = g();
      host[i] = float(double(r >> 11) * 0x1p-53 * 2.0 - 1.0);
      host_integers[i] = float(int(r % 17) - 8);
    }
    CHECK_CUDA(cudaMemcpy(values, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(
        cudaMemcpy(integers, host_integers.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  }
  ~buffers() {
    free_device(values, integers, flags, keys, out, reference, integer_reference, counts);
  }
  buffers(const buffers&) = delete;
  buffers& operator=(const buffers&) = delete;

  void set_segments(const segment_shape& shape) {
    std::vector<std::uint8_t> host_flags(n, 0);
    std::vector<std::int32_t> host_keys(n);
    std::mt19937_64 g(n + 7);
    for (std::size_t head = 0; head < n; head += shape.length != 0 ? shape.length : 1 + g() % 2048)
      host_flags[head] = 1;
    std::int32_t key = -1;
    for (std::size_t i = 0; i < n; ++i) {
      if (i == 0 || host_flags[i] != 0) ++key;
      host_keys[i] = key;
    }
    CHECK_CUDA(cudaMemcpy(flags, host_flags.data(), n, cudaMemcpyHostToDevice));
    CHECK_CUDA(
        cudaMemcpy(keys, host_keys.data(), n * sizeof(std::int32_t), cudaMemcpyHostToDevice));
  }
};

// Production's kernel, as the public API launches it (launch_segmented_scan:
// its tile, flags as vectors, the L2 prefetch at its default distance).
void production(const float* in, const std::uint8_t* flags, float* out, std::size_t n,
                cudaStream_t stream) {
  gc::launch_segmented_scan<false>(in, flags, out, n, 0.0f, gp::plus{}, stream, -1);
}

// The scan over (value, head) pairs that production used before: the
// single-pass scan's kernel (launch_scan's defaults: 256 x 40 tiles, rescan
// staging, two barriers, every tile waiting for its look-back).
void pair_scan(const float* in, const std::uint8_t* flags, float* out, std::size_t n,
               cudaStream_t stream) {
  gc::launch_scan<false>(in, out, n, gp::flagged<float>{}, gp::segmented<gp::plus>{},
                         gp::detail::head_flag_fetch<float, std::uint8_t>{flags}, stream);
}

struct timings {
  float copy_ms;
  float cub_ms;
};

void print_line(const char* label, int registers, float ms, float queued_ms, std::size_t n,
                const timings& t, const char* checks) {
  const double gbs = 9.0 * n / (ms * 1e6);
  const double copy_gbs = 8.0 * n / (t.copy_ms * 1e6);
  char regs[16] = "-";  // not known for the library's kernels here
  if (registers > 0) std::snprintf(regs, sizeof regs, "%d", registers);
  std::printf(
      "  %-72s %3s regs %8.1f us, queued %8.1f us  %5.0f GB/s  %5.1f%% of copy  %.3fx CUB"
      "%s\n",
      label, regs, ms * 1e3, queued_ms * 1e3, gbs, 100.0 * gbs / copy_gbs, t.cub_ms / ms, checks);
}

// The checks of one scan (`scan(in, out)`) against production's results.
template <class Scan>
std::string check_against_production(const Scan& scan, buffers& b) {
  scan(b.values, b.out);
  CHECK_CUDA(cudaDeviceSynchronize());
  const check_result random = compare(b.out, b.reference, b.n, b.counts);
  scan(b.integers, b.out);
  CHECK_CUDA(cudaDeviceSynchronize());
  const check_result exact = compare(b.out, b.integer_reference, b.n, b.counts);
  const bool ok = random.worst <= 1e-3f && exact.differing == 0;
  any_failed = any_failed || !ok;
  char text[200];
  std::snprintf(text, sizeof text, "  rel diff %.1e, %llu bits differ; integers: %llu differ  %s",
                double(random.worst), random.differing, exact.differing, ok ? "ok" : "FAILED");
  return text;
}

// Times `scan(in, out)` on b's values and prints its line, with its checks
// against production (--profile: runs it once).
template <class Scan>
void time_line(const Scan& scan, const char* label, int registers, buffers& b, const timings& t) {
  if (profile_only) {
    scan(b.values, b.out);
    CHECK_CUDA(cudaDeviceSynchronize());
    return;
  }
  const float ms = median_ms([&] { scan(b.values, b.out); });
  const float queued_ms = median_queued_ms([&] { scan(b.values, b.out); });
  CHECK_CUDA(cudaGetLastError());
  const std::string checks = check_against_production(scan, b);
  print_line(label, registers, ms, queued_ms, b.n, t, checks.c_str());
}

template <class S>
void run_variant(const char* attack, buffers& b, const timings& t, int prefetch_tiles = -1) {
  const auto scan = [&](const float* in, float* out) {
    segscan::launch_segmented_sum<S>(in, b.flags, out, b.n, nullptr, prefetch_tiles);
  };
  char label[160];
  std::snprintf(
      label, sizeof label, "%dx%d flags %2dB %s%s%s %db/SM pf %d%s (%s)", S::threads, S::items,
      S::flag_bytes, S::one_barrier ? "1bar" : "2bar", S::shortcut ? " short" : "",
      S::values == segscan::staging::direct     ? " direct"
      : S::values == segscan::staging::swizzled ? " swizzled"
                                                : "",
      S::min_blocks, prefetch_tiles >= 0 ? prefetch_tiles : segscan::default_prefetch_tiles<S>,
      S::first_delay_ns == gc::scan_first_poll_delay_ns ? "" : " sleep0", attack);
  time_line(scan, label, segscan::registers_of<S>(), b, t);
}

// Registers a thread of production's kernel on a tile (float sums, vector path).
template <int Threads, int Items, int MinBlocks>
int production_registers() {
  cudaFuncAttributes a{};
  CHECK_CUDA(
      cudaFuncGetAttributes(&a, gc::segmented_scan_lookback<Threads, Items, 4, MinBlocks, false,
                                                            float, std::uint8_t, gp::plus>));
  return a.numRegs;
}

// Production's kernel on another tile (flag words: 16 bytes where Items is
// a multiple of 16, else 8).
template <int Threads, int Items, int MinBlocks>
void run_production_shape(const char* attack, buffers& b, const timings& t) {
  const auto scan = [&](const float* in, float* out) {
    gc::launch_segmented_scan_tiles<false, Threads, Items, MinBlocks>(in, b.flags, out, b.n, 0.0f,
                                                                      gp::plus{}, nullptr, -1);
  };
  char label[160];
  std::snprintf(label, sizeof label, "production kernel %dx%d %db/SM (%s)", Threads, Items,
                MinBlocks, attack);
  time_line(scan, label, production_registers<Threads, Items, MinBlocks>(), b, t);
}

template <int Threads, int Items, int FlagBytes, int MinBlocks, bool OneBarrier, bool Shortcut,
          segscan::staging Staging = segscan::staging::padded,
          int FirstDelayNs = gc::scan_first_poll_delay_ns>
using v = segscan::shape<Threads, Items, FlagBytes, MinBlocks, OneBarrier, Shortcut, Staging,
                         FirstDelayNs>;

// (Called from a plain function, one instantiation a line: nvcc's front
// end has crashed on such kernels instantiated inside variadic folds.)
void run_variants(buffers& b, const timings& t) {
  // Production's kernel at other tiles: the fixed cost a tile shared by
  // more items, more resident warps, 512 threads.
  run_production_shape<256, 16, 4>("16 items", b, t);
  run_production_shape<256, 32, 4>("32 items", b, t);
  run_production_shape<256, 32, 3>("32 items, 3 blocks", b, t);
  run_production_shape<256, 40, 3>("40 items, the pair scan's tile", b, t);
  run_production_shape<512, 16, 2>("512 threads", b, t);
  run_production_shape<256, 16, 6>("6 blocks/SM", b, t);
  // What production's mechanisms are worth, on the variants' kernel at
  // 256 x 16. Instructions alone: flags as one mask, the thread's scan on
  // it, one float a shuffle step, each flag word width; no early prefix,
  // two barriers (every warp waits for the look-back).
  run_variant<v<256, 16, 16, 4, false, false>>("mask scan, 16-byte flag words", b, t);
  run_variant<v<256, 16, 8, 4, false, false>>("mask scan, 8-byte flag words", b, t);
  run_variant<v<256, 16, 4, 4, false, false>>("mask scan, 4-byte flag words", b, t);
  // The L2 prefetch distance: production's 64 tiles (fewer bytes ahead at
  // this tile than its own) and none.
  run_variant<v<256, 16, 16, 4, false, false>>("prefetch 64 tiles ahead", b, t, 64);
  run_variant<v<256, 16, 16, 4, false, false>>("no prefetch", b, t, 0);
  // Barriers: only the warps before the first head wait for the prefix.
  run_variant<v<256, 16, 16, 4, true, false>>("named barrier for the look-back", b, t);
  // Look-back latency: a tile with a head publishes its prefix at once
  // (production's 256 x 16 line has both).
  run_variant<v<256, 16, 16, 4, false, true>>("prefix at once, two barriers", b, t);
  // Look-back latency of the warps that wait: no sleep before the first poll.
  run_variant<v<256, 16, 16, 4, true, true, segscan::staging::padded, 0>>("no first sleep", b, t);
  // Shared-memory instructions: 16-byte swizzled staging, or none (values
  // straight to and from registers).
  constexpr auto swizzled = segscan::staging::swizzled;
  constexpr auto direct = segscan::staging::direct;
  run_variant<v<256, 16, 16, 4, true, true, swizzled>>("16-byte swizzled staging", b, t);
  run_variant<v<256, 32, 16, 4, true, true, swizzled>>("swizzled, 32 items (spills 8 B)", b, t);
  run_variant<v<256, 32, 16, 3, true, true, swizzled>>("swizzled, 32 items, 3 blocks", b, t);
  run_variant<v<256, 24, 8, 4, true, true, swizzled>>("swizzled, 24 items", b, t);
  run_variant<v<256, 16, 16, 4, true, true, direct>>("values direct, no staging", b, t);
  run_variant<v<256, 32, 16, 4, true, true, direct>>("values direct, 32 items", b, t);
}

void compare_shape(buffers& b, const segment_shape& shape) {
  b.set_segments(shape);
  const std::size_t n = b.n;
  production(b.values, b.flags, b.reference, n, nullptr);
  production(b.integers, b.flags, b.integer_reference, n, nullptr);
  CHECK_CUDA(cudaDeviceSynchronize());
  if (profile_only) {
    pair_scan(b.values, b.flags, b.out, n, nullptr);
    CHECK_CUDA(cudaDeviceSynchronize());
    run_variants(b, timings{});
    return;
  }

  timings t{};
  t.copy_ms = median_ms([&] {
    CHECK_CUDA(cudaMemcpyAsync(b.out, b.values, n * sizeof(float), cudaMemcpyDeviceToDevice));
  });
  const cub_call cub_scan([&](void* temp, std::size_t& temp_bytes) {
    return cub::DeviceScan::InclusiveSumByKey(temp, temp_bytes, b.keys, b.values, b.out, n);
  });
  t.cub_ms = median_ms(cub_scan);
  const float cub_queued_ms = median_queued_ms(cub_scan);
  std::printf(
      "segmented float sum, %s, n = %zu (2^%.2f): copy %.1f us (%.0f GB/s read + written)\n",
      shape.name, n, std::log2(double(n)), t.copy_ms * 1e3, 8.0 * n / (t.copy_ms * 1e6));
  {
    // CUB against production (production's own check, as the bench's).
    cub_scan();
    CHECK_CUDA(cudaDeviceSynchronize());
    const check_result r = compare(b.out, b.reference, n, b.counts);
    const cub_call cub_integers([&](void* temp, std::size_t& temp_bytes) {
      return cub::DeviceScan::InclusiveSumByKey(temp, temp_bytes, b.keys, b.integers, b.out, n);
    });
    cub_integers();
    CHECK_CUDA(cudaDeviceSynchronize());
    const check_result exact = compare(b.out, b.integer_reference, n, b.counts);
    const bool ok = r.worst <= 1e-3f && exact.differing == 0;
    any_failed = any_failed || !ok;
    char checks[160];
    std::snprintf(checks, sizeof checks, "  rel diff %.1e vs production; integers: %llu differ  %s",
                  double(r.worst), exact.differing, ok ? "ok" : "FAILED");
    print_line("CUB InclusiveSumByKey (int32 keys)", 0, t.cub_ms, cub_queued_ms, n, t, checks);
  }
  time_line(
      [&](const float* in, float* out) { production(in, b.flags, out, n, nullptr); },
      "production (launch_segmented_scan, 256x24 4b/SM)",
      production_registers<gc::segmented_scan_tile<4>::threads, gc::segmented_scan_tile<4>::items,
                           gc::segmented_scan_tile<4>::min_blocks>(),
      b, t);
  time_line([&](const float* in, float* out) { pair_scan(in, b.flags, out, n, nullptr); },
            "pair scan (launch_scan, 256x40 rescan; production before)", 0, b, t);
#ifndef SEGSCAN_STANDALONE
  time_line(
      [&](const float* in, float* out) {
        gp::inclusive_segmented_scan(gp::cuda.on(nullptr), gp::device_span<const float>(in, n),
                                     gp::device_span<const std::uint8_t>(b.flags, n),
                                     gp::device_span<float>(out, n));
      },
      "production (public API)", 0, b, t);
#endif
  run_variants(b, t);
}

// 8-byte values (double sums, segments of 1024, as many bytes as the float
// rows: n / 2 elements): production's 256 x 8 tile, not measured when it
// was chosen, against the pair scan it replaced (512 x 4 pairs in
// registers) and a copy. Integer-valued doubles: both must agree bit for
// bit.
__global__ void count_differences(const double* a, const double* b, std::uint64_t n,
                                  unsigned long long* count) {
  unsigned long long c = 0;
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x)
    c += __double_as_longlong(a[i]) != __double_as_longlong(b[i]);
  if (c) atomicAdd(count, c);
}

void compare_doubles(std::size_t n) {
  double *values, *out, *reference;
  std::uint8_t* flags;
  unsigned long long* count;
  CHECK_CUDA(cudaMalloc(&values, n * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&out, n * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&reference, n * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&flags, n));
  CHECK_CUDA(cudaMalloc(&count, sizeof *count));
  std::vector<double> host(n);
  std::vector<std::uint8_t> host_flags(n);
  std::mt19937_64 g(n);
  for (std::size_t i = 0; i < n; ++i) {
    host[i] = double(int(g() % 17) - 8);
    host_flags[i] = i % 1024 == 0;
  }
  CHECK_CUDA(cudaMemcpy(values, host.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(flags, host_flags.data(), n, cudaMemcpyHostToDevice));
  const auto pair = [&](double* o) {
    gc::launch_scan<false>(values, o, n, gp::flagged<double>{}, gp::segmented<gp::plus>{},
                           gp::detail::head_flag_fetch<double, std::uint8_t>{flags}, nullptr);
  };
  const auto mine = [&](double* o) {
    gc::launch_segmented_scan<false>(values, flags, o, n, 0.0, gp::plus{}, nullptr, -1);
  };
  pair(reference);
  mine(out);
  CHECK_CUDA(cudaMemset(count, 0, sizeof *count));
  count_differences<<<1024, 256>>>(out, reference, n, count);
  unsigned long long differing = 0;
  CHECK_CUDA(cudaMemcpy(&differing, count, sizeof differing, cudaMemcpyDeviceToHost));
  const bool ok = differing == 0;
  any_failed = any_failed || !ok;
  const float copy_ms = median_ms([&] {
    CHECK_CUDA(cudaMemcpyAsync(out, values, n * sizeof(double), cudaMemcpyDeviceToDevice));
  });
  const double copy_gbs = 16.0 * n / (copy_ms * 1e6);
  std::printf("segmented double sum, segments of 1024, n = %zu: copy %.1f us (%.0f GB/s)\n", n,
              copy_ms * 1e3, copy_gbs);
  const auto line = [&](const char* label, const auto& scan) {
    const float ms = median_ms([&] { scan(out); });
    const float queued_ms = median_queued_ms([&] { scan(out); });
    const double gbs = 17.0 * n / (ms * 1e6);
    std::printf("  %-72s %8.1f us, queued %8.1f us  %5.0f GB/s  %5.1f%% of copy\n", label, ms * 1e3,
                queued_ms * 1e3, gbs, 100.0 * gbs / copy_gbs);
  };
  line("pair scan (launch_scan, 512x4 pairs in registers; production before)", pair);
  line("production (launch_segmented_scan, 256x8 4b/SM)", mine);
  std::printf("  integer-valued: %llu results differ  %s\n", differing, ok ? "ok" : "FAILED");
  free_device(values, out, reference, flags, count);
}

}  // namespace

int main(int argc, char** argv) {
  // --profile [LOG2N]: production's kernel on each input, then each
  // variant once, segments of 1024, 2^24 unless given (for Nsight Compute).
  profile_only = argc > 1 && std::strcmp(argv[1], "--profile") == 0;
  const char* size = argc > (profile_only ? 2 : 1) ? argv[profile_only ? 2 : 1] : nullptr;
  const int log2n = size ? std::atoi(size) : (profile_only ? 24 : 28);
  if (log2n < 10 || log2n > 30) {
    std::printf("probe_segmented_scan: LOG2N must be 10 to 30\n");
    return 2;
  }
  buffers b(std::size_t{1} << log2n);
  if (profile_only) {
    compare_shape(b, segment_shape{"segments of 1024", 1024});
    std::printf("profiled production and each variant once, n = 2^%d, segments of 1024\n", log2n);
    return 0;
  }
  for (const segment_shape& shape :
       {segment_shape{"segments of 1024", 1024}, segment_shape{"segments of 1-2048", 0},
        segment_shape{"segments of 8", 8}})
    compare_shape(b, shape);
  // An odd length: partial last tiles and warps, flags past the last full word.
  buffers odd((std::size_t{1} << 20) + 12345);
  compare_shape(odd, segment_shape{"segments of 1-2048 (odd n)", 0});
  compare_doubles(std::size_t{1} << (log2n - 1));
  if (any_failed) std::printf("probe_segmented_scan: a variant FAILED its checks\n");
  return any_failed ? 1 : 0;
}
