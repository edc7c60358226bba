// Probe for the selection family: times each selection at 2^28 four-byte
// items (or the size given as the first argument) against its CUB
// counterpart in one process on the same buffers, beside the device-to-device
// copy, and the selection ladder's rungs. Prints two Markdown tables.
//
// Rows: gpuprim (the asynchronous forms, count left on the GPU, as CUB
// leaves it) and CUB each the median of 20 isolated calls after 3 warm-ups
// (CUDA events); GB/s of the bytes the algorithm must move (n read, k
// written, per array); % of the copy's GB/s (read + write) measured here;
// CUB / gpuprim (above 1: faster than CUB); whether both gave the same
// count and outputs.
//
// Inputs: floats uniform in [0, 1) (copy_if and partition select x > 0.5:
// half), flags 0/1 at random (half set), int32 keys in runs of 1 to 7 (mean
// 4) with float values (unique, run_length_encode, reduce_by_key).
#include <cuda_runtime.h>

#include <cub/device/device_partition.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/std/functional>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "gpuprim/cuda/select.cuh"
#include "lab/ladder/select_ladder.hpp"
#include "probe_timing.cuh"

namespace gp = gpuprim;

namespace {

struct above_half {
  __host__ __device__ bool operator()(float x) const { return x > 0.5f; }
};

template <class T>
std::uint64_t count_at(const T* p) {
  T k;
  CHECK_CUDA(cudaMemcpy(&k, p, sizeof(T), cudaMemcpyDeviceToHost));
  return static_cast<std::uint64_t>(k);
}

double copy_gbs = 0;

void print_row(const char* name, double bytes, float ours_ms, float cub_ms, bool same) {
  const double gbs = bytes / (ours_ms * 1e-3) / 1e9;
  std::printf("| %s | %.1f | %.1f | %.0f | %.0f%% | %.2fx | %s |\n", name, ours_ms * 1e3,
              cub_ms * 1e3, gbs, 100.0 * gbs / copy_gbs, cub_ms / ours_ms, same ? "yes" : "NO");
}

template <class T>
bool same_prefix(const T* a, const T* b, std::size_t k) {
  return host_copy(a, k) == host_copy(b, k);
}

// Float sums grouped differently round differently: within 1e-5 relative.
bool close_prefix(const float* a, const float* b, std::size_t k) {
  const auto x = host_copy(a, k), y = host_copy(b, k);
  for (std::size_t i = 0; i < k; ++i)
    if (!(std::abs(x[i] - y[i]) <= 1e-5f * std::abs(y[i]))) return false;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (std::size_t{1} << 28);
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, n = %zu\n\n", prop.name, n);

  std::mt19937_64 rng(20261201);
  std::vector<float> x(n), values(n);
  std::vector<std::uint8_t> flags(n);
  std::vector<std::int32_t> keys(n);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = u(rng);
    values[i] = u(rng);
    flags[i] = static_cast<std::uint8_t>(rng() & 1);
  }
  {
    std::int32_t key = 0;
    for (std::size_t i = 0; i < n;) {
      const std::size_t run = 1 + rng() % 7;
      for (std::size_t r = 0; r < run && i < n; ++r)
        keys[i++] = key;
      key += 1 + static_cast<std::int32_t>(rng() % 3);
    }
  }
  float* d_x = device_copy(x);
  float* d_values = device_copy(values);
  std::uint8_t* d_flags = device_copy(flags);
  std::int32_t* d_keys = device_copy(keys);
  float* out_a = device_array<float>(n);
  float* out_b = device_array<float>(n);
  std::int32_t* keys_a = device_array<std::int32_t>(n);
  std::int32_t* keys_b = device_array<std::int32_t>(n);
  std::int32_t* counts_a = device_array<std::int32_t>(n);
  std::int32_t* counts_b = device_array<std::int32_t>(n);
  std::uint64_t* ours_count = device_array<std::uint64_t>(2);
  int* cub_count = device_array<int>(2);
  const int items = static_cast<int>(n);

  const float copy_ms = median_ms([&] {
    CHECK_CUDA(cudaMemcpyAsync(out_a, d_x, n * sizeof(float), cudaMemcpyDeviceToDevice));
  });
  copy_gbs = 2.0 * n * sizeof(float) / (copy_ms * 1e-3) / 1e9;
  std::printf("device-to-device copy of %zu floats: %.1f us, %.0f GB/s (read + write)\n\n", n,
              copy_ms * 1e3, copy_gbs);

  std::printf("| algorithm | gpuprim us | CUB us | gpuprim GB/s | %% of copy | x CUB | same |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
  const gp::device_span<const float> in(d_x, n);
  const gp::device_span<const float> vals(d_values, n);
  const gp::device_span<const std::int32_t> ks(d_keys, n);
  const gp::device_span<std::uint64_t> count(ours_count, 2);
  const auto b = gp::cuda;

  {  // copy_flagged
    const float ours = median_ms([&] {
      gp::copy_flagged(b, in, gp::device_span<const std::uint8_t>(d_flags, n),
                       gp::device_span<float>(out_a, n), count);
    });
    cub_call cub([&](void* t, std::size_t& bytes) {
      return cub::DeviceSelect::Flagged(t, bytes, d_x, d_flags, out_b, cub_count, items);
    });
    const float theirs = median_ms([&] { cub(); });
    const std::uint64_t k = count_at(ours_count);
    print_row("copy_flagged (DeviceSelect::Flagged)", n * 5.0 + k * 4.0, ours, theirs,
              k == count_at(cub_count) && same_prefix(out_a, out_b, k));
  }
  {  // copy_if
    const float ours = median_ms(
        [&] { gp::copy_if(b, in, gp::device_span<float>(out_a, n), above_half{}, count); });
    cub_call cub([&](void* t, std::size_t& bytes) {
      return cub::DeviceSelect::If(t, bytes, d_x, out_b, cub_count, items, above_half{});
    });
    const float theirs = median_ms([&] { cub(); });
    const std::uint64_t k = count_at(ours_count);
    print_row("copy_if, half (DeviceSelect::If)", n * 4.0 + k * 4.0, ours, theirs,
              k == count_at(cub_count) && same_prefix(out_a, out_b, k));
  }
  {  // partition, CUB's layout and the stable one
    cub_call cub([&](void* t, std::size_t& bytes) {
      return cub::DevicePartition::If(t, bytes, d_x, out_b, cub_count, items, above_half{});
    });
    const float theirs = median_ms([&] { cub(); });
    const float ours = median_ms([&] {
      gp::partition(b, in, gp::device_span<float>(out_a, n), above_half{},
                    gp::partition_layout::rest_reversed, count);
    });
    const bool same = count_at(ours_count) == count_at(cub_count) && same_prefix(out_a, out_b, n);
    print_row("partition, rest reversed (DevicePartition::If)", n * 8.0, ours, theirs, same);
    const float stable = median_ms([&] {
      gp::partition(b, in, gp::device_span<float>(out_a, n), above_half{},
                    gp::partition_layout::stable, count);
    });
    print_row("partition, stable (against DevicePartition::If)", n * 8.0, stable, theirs,
              count_at(ours_count) == count_at(cub_count));
  }
  {  // unique
    const float ours =
        median_ms([&] { gp::unique(b, ks, gp::device_span<std::int32_t>(keys_a, n), count); });
    cub_call cub([&](void* t, std::size_t& bytes) {
      return cub::DeviceSelect::Unique(t, bytes, d_keys, keys_b, cub_count, items);
    });
    const float theirs = median_ms([&] { cub(); });
    const std::uint64_t k = count_at(ours_count);
    print_row("unique, runs of 4 (DeviceSelect::Unique)", n * 4.0 + k * 4.0, ours, theirs,
              k == count_at(cub_count) && same_prefix(keys_a, keys_b, k));
  }
  {  // run_length_encode, 32-bit counts on both sides
    const float ours = median_ms([&] {
      gp::run_length_encode(b, ks, gp::device_span<std::int32_t>(keys_a, n),
                            gp::device_span<std::int32_t>(counts_a, n), count);
    });
    cub_call cub([&](void* t, std::size_t& bytes) {
      return cub::DeviceRunLengthEncode::Encode(t, bytes, d_keys, keys_b, counts_b, cub_count,
                                                items);
    });
    const float theirs = median_ms([&] { cub(); });
    const std::uint64_t k = count_at(ours_count);
    print_row("run_length_encode (DeviceRunLengthEncode::Encode)", n * 4.0 + k * 8.0, ours, theirs,
              k == count_at(cub_count) && same_prefix(keys_a, keys_b, k) &&
                  same_prefix(counts_a, counts_b, k));
  }
  {  // reduce_by_key, float sums by int32 key
    const float ours = median_ms([&] {
      gp::reduce_by_key(b, ks, vals, gp::device_span<std::int32_t>(keys_a, n),
                        gp::device_span<float>(out_a, n), count, gp::plus{});
    });
    cub_call cub([&](void* t, std::size_t& bytes) {
      return cub::DeviceReduce::ReduceByKey(t, bytes, d_keys, keys_b, d_values, out_b, cub_count,
                                            cuda::std::plus<>{}, items);
    });
    const float theirs = median_ms([&] { cub(); });
    const std::uint64_t k = count_at(ours_count);
    print_row("reduce_by_key, float sums (DeviceReduce::ReduceByKey)", n * 8.0 + k * 8.0, ours,
              theirs,
              k == count_at(cub_count) && same_prefix(keys_a, keys_b, k) &&
                  close_prefix(out_a, out_b, k));
  }

  std::printf("\nladder: copy_if of the floats > 0.5 (half), n = %zu\n\n", n);
  std::printf("| rung | fixes | us | GB/s | x prev | x first | %% of copy | count |\n");
  std::printf("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  float first = 0, previous = 0;
  for (const auto& rung : gp::ladder::select_rungs()) {
    std::size_t k = 0;
    const float ms =
        median_ms([&] { k = rung.run(in, gp::device_span<float>(out_a, n), 0.5f, nullptr); });
    if (first == 0) first = previous = ms;
    const double gbs = (n * 4.0 + k * 4.0) / (ms * 1e-3) / 1e9;
    std::printf("| %s | %s | %.1f | %.0f | %.2fx | %.2fx | %.0f%% | %zu |\n", rung.name, rung.fixes,
                ms * 1e3, gbs, previous / ms, first / ms, 100.0 * gbs / copy_gbs, k);
    previous = ms;
  }
  free_device(d_x, d_values, d_flags, d_keys, out_a, out_b, keys_a, keys_b, counts_a, counts_b,
              ours_count, cub_count);
  return 0;
}
