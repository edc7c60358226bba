// Probe for the order family (merge sort, merge, top-k, searchsorted) on
// the GPU, 2^28 float32 unless said (the first argument scales: log2 n):
//  - merge_sort of a 16-byte struct {float score; int id; int64 pad} by
//    score vs cub::DeviceMergeSort::SortKeys with the same comparator (both
//    timed with the copy of the unsorted input in front, as both sort in
//    place here); checked on the device: sorted by score, ids ascending
//    within a score (stable), ids summing to the permutation's sum.
//  - merge of two sorted 2^27 runs vs the copy bandwidth; checked equal to
//    the stable merge sort of the two runs back to back.
//  - topk, k in {16, 1024, 65536}: the ladder's rungs, full sort
//    (cuda_topk_by_sort) and radix select (the production path, gp::topk),
//    checked equal to each other. CUDA 13.0's CUB has no DeviceTopK: no
//    vendor row.
//  - topk_rows 2^14 x 4096, k = 64 (today's path: full sorts), checked
//    against the host on 8 rows.
//  - searchsorted (lower_bound) of 2^24 queries into 2^28 sorted keys,
//    checked against std::lower_bound on 4096 queries.
// Medians of 20 calls after 3 warm-ups (CUDA events). Prints one Markdown
// table.
#include <cuda_runtime.h>

#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "gpuprim/core/device_span.hpp"
#include "gpuprim/core/matrix_view.hpp"
#include "gpuprim/cuda/merge.cuh"
#include "gpuprim/cuda/search.cuh"
#include "gpuprim/cuda/topk.cuh"
#include "probe_timing.cuh"

namespace gp = gpuprim;

namespace {

struct record {
  float score;
  std::int32_t id;
  std::int64_t pad;
};

struct by_score {
  __host__ __device__ bool operator()(const record& a, const record& b) const {
    return a.score < b.score;
  }
};

__device__ std::uint32_t mix(std::uint64_t i, std::uint32_t seed) {
  std::uint64_t z = i * 0x9E3779B97F4A7C15ull + seed;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return static_cast<std::uint32_t>(z >> 32);
}

// Uniform floats in [0, 1) with 24 random bits.
__global__ void fill_uniform(float* x, std::uint64_t n, std::uint32_t seed) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride)
    x[i] = static_cast<float>(mix(i, seed) >> 8) * (1.0f / 16777216.0f);
}

// Scores with ties (2^20 distinct), ids in input order.
__global__ void fill_records(record* x, std::uint64_t n) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride)
    x[i] = record{static_cast<float>(mix(i, 7) >> 12), static_cast<std::int32_t>(i),
                  static_cast<std::int64_t>(i)};
}

// Counts adjacent pairs out of order (by score, then id when `stable`) and
// sums the ids.
__global__ void check_records(const record* x, std::uint64_t n, bool stable,
                              unsigned long long* bad, unsigned long long* id_sum) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  unsigned long long b = 0, s = 0;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
    s += static_cast<unsigned long long>(x[i].id);
    if (i + 1 < n) {
      const record p = x[i], q = x[i + 1];
      b += q.score < p.score || (stable && q.score == p.score && q.id < p.id);
    }
  }
  atomicAdd(bad, b);
  atomicAdd(id_sum, s);
}

template <class T>
__global__ void count_different(const T* a, const T* b, std::uint64_t n, unsigned long long* bad) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  unsigned long long c = 0;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride)
    c += !(a[i] == b[i]);
  atomicAdd(bad, c);
}


unsigned long long* counters = nullptr;  // two device counters

template <class T>
bool same_on_device(const T* a, const T* b, std::uint64_t n) {
  CHECK_CUDA(cudaMemset(counters, 0, 2 * sizeof(unsigned long long)));
  count_different<<<1024, 256>>>(a, b, n, counters);
  return host_copy(counters, 1)[0] == 0;
}

double copy_gbs = 0;

void print_row(const char* name, double bytes, float ours_ms, float other_ms, const char* other,
               bool ok) {
  const double gbs = bytes / (ours_ms * 1e-3) / 1e9;
  if (other_ms > 0) {
    std::printf("| %s | %.3f | %s %.3f | %.2fx | %.0f | %.0f%% | %s |\n", name, ours_ms, other,
                other_ms, other_ms / ours_ms, gbs, 100.0 * gbs / copy_gbs, ok ? "yes" : "NO");
  } else {
    std::printf("| %s | %.3f | %s | | %.0f | %.0f%% | %s |\n", name, ours_ms, other, gbs,
                100.0 * gbs / copy_gbs, ok ? "yes" : "NO");
  }
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const int log2_n = argc > 1 ? std::atoi(argv[1]) : 28;
  const std::uint64_t n = std::uint64_t{1} << log2_n;
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, n = 2^%d\n\n", prop.name, log2_n);
  counters = device_array<unsigned long long>(2);
  int failures = 0;

  float* x = device_array<float>(n);
  float* y = device_array<float>(n);
  fill_uniform<<<4096, 256>>>(x, n, 1);
  const float copy_ms = median_ms(
      [&] { CHECK_CUDA(cudaMemcpyAsync(y, x, n * sizeof(float), cudaMemcpyDeviceToDevice)); });
  copy_gbs = 2.0 * n * sizeof(float) / (copy_ms * 1e-3) / 1e9;
  std::printf("copy of 2^%d floats: %.3f ms, %.0f GB/s (read + write)\n\n", log2_n, copy_ms,
              copy_gbs);
  std::printf("| row | gpuprim ms | against ms | ratio | GB/s | %% copy | checked |\n");
  std::printf("|---|---|---|---|---|---|---|\n");

  // topk: the ladder's rungs.
  for (const std::uint64_t k : {std::uint64_t{16}, std::uint64_t{1024}, std::uint64_t{65536}}) {
    float* v = device_array<float>(k);
    std::int64_t* i = device_array<std::int64_t>(k);
    float* vs = device_array<float>(k);
    std::int64_t* is = device_array<std::int64_t>(k);
    const float select_ms = median_ms([&] {
      gp::topk(gp::cuda, gp::device_span<const float>(x, n), k, gp::device_span<float>(v, k),
               gp::device_span<std::int64_t>(i, k));
    });
    const float sort_ms = median_ms([&] {
      gp::detail::cuda_topk_by_sort(static_cast<const float*>(x), 1, n, n, k, true, vs, k, is, k,
                                    nullptr);
    });
    const bool ok = host_copy(i, k) == host_copy(is, k) && same_on_device(v, vs, k);
    failures += !ok;
    char name[64];
    std::snprintf(name, sizeof name, "topk k=%llu (radix select)", (unsigned long long)k);
    print_row(name, double(n) * sizeof(float), select_ms, sort_ms, "full sort", ok);
    for (std::int64_t* p : {i, is})
      CHECK_CUDA(cudaFree(p));
    for (float* p : {v, vs})
      CHECK_CUDA(cudaFree(p));
  }

  // topk_rows, 2^14 x 4096, k = 64.
  {
    const std::uint64_t rows = std::uint64_t{1} << (log2_n - 14), cols = 4096, k = 64;
    float* v = device_array<float>(rows * k);
    std::int64_t* i = device_array<std::int64_t>(rows * k);
    const float ms = median_ms([&] {
      gp::topk_rows(gp::cuda, gp::device_matrix_view<const float>(x, rows, cols), k,
                    gp::device_matrix_view<float>(v, rows, k),
                    gp::device_matrix_view<std::int64_t>(i, rows, k));
    });
    const auto gi = host_copy(i, 8 * k);
    const auto hx = host_copy(x, 8 * cols);
    bool ok = true;
    for (std::uint64_t r = 0; r < 8; ++r) {
      std::vector<std::int64_t> idx(cols);
      std::iota(idx.begin(), idx.end(), std::int64_t{0});
      const float* row = hx.data() + r * cols;
      std::stable_sort(idx.begin(), idx.end(),
                       [&](std::int64_t a, std::int64_t b) { return row[a] > row[b]; });
      for (std::uint64_t j = 0; j < k; ++j)
        ok = ok && gi[r * k + j] == idx[j];
    }
    failures += !ok;
    char name[64];
    std::snprintf(name, sizeof name, "topk_rows %llu x 4096 k=64 (full sorts)",
                  (unsigned long long)rows);
    print_row(name, double(rows) * cols * sizeof(float), ms, 0, "-", ok);
    CHECK_CUDA(cudaFree(v));
    CHECK_CUDA(cudaFree(i));
  }

  // searchsorted: 2^(log2_n - 4) queries into n sorted keys.
  {
    const std::uint64_t m = n >> 4;
    float* sorted = device_array<float>(n);
    {
      std::size_t bytes = 0;
      CHECK_CUDA(cub::DeviceRadixSort::SortKeys(nullptr, bytes, x, sorted, n));
      void* temp = device_array<char>(bytes);
      CHECK_CUDA(cub::DeviceRadixSort::SortKeys(temp, bytes, x, sorted, n));
      CHECK_CUDA(cudaFree(temp));
    }
    float* q = device_array<float>(m);
    fill_uniform<<<4096, 256>>>(q, m, 2);
    std::int64_t* out = device_array<std::int64_t>(m);
    const float ms = median_ms([&] {
      gp::lower_bound(gp::cuda, gp::device_span<const float>(sorted, n),
                      gp::device_span<const float>(q, m), gp::device_span<std::int64_t>(out, m));
    });
    const auto hs = host_copy(sorted, n);
    const auto hq = host_copy(q, 4096);
    const auto ho = host_copy(out, 4096);
    bool ok = true;
    for (std::size_t j = 0; j < 4096; ++j)
      ok = ok && ho[j] == std::lower_bound(hs.begin(), hs.end(), hq[j]) - hs.begin();
    failures += !ok;
    print_row("searchsorted 2^24 queries into 2^28", double(m) * (sizeof(float) + 8), ms, 0, "-",
              ok);
    CHECK_CUDA(cudaFree(q));
    CHECK_CUDA(cudaFree(out));

    // merge of two sorted halves (the sorted keys' even and odd halves:
    // x sorted in two runs).
    const std::uint64_t half = n / 2;
    float* ab = device_array<float>(n);
    {
      std::size_t bytes = 0;
      CHECK_CUDA(cub::DeviceRadixSort::SortKeys(nullptr, bytes, x, ab, half));
      void* temp = device_array<char>(bytes);
      CHECK_CUDA(cub::DeviceRadixSort::SortKeys(temp, bytes, x, ab, half));
      CHECK_CUDA(cub::DeviceRadixSort::SortKeys(temp, bytes, x + half, ab + half, half));
      CHECK_CUDA(cudaFree(temp));
    }
    const float merge_ms = median_ms([&] {
      gp::merge(gp::cuda, gp::device_span<const float>(ab, half),
                gp::device_span<const float>(ab + half, half), gp::device_span<float>(y, n));
    });
    // Reference: the stable sort of the two runs back to back.
    CHECK_CUDA(cudaMemcpy(sorted, ab, n * sizeof(float), cudaMemcpyDeviceToDevice));
    gp::merge_sort(gp::cuda, gp::device_span<float>(sorted, n));
    const bool merged = same_on_device(y, sorted, n);
    failures += !merged;
    print_row("merge 2^27 + 2^27", 2.0 * n * sizeof(float), merge_ms, copy_ms, "copy", merged);
    CHECK_CUDA(cudaFree(ab));
    CHECK_CUDA(cudaFree(sorted));
  }
  CHECK_CUDA(cudaFree(x));
  CHECK_CUDA(cudaFree(y));

  // merge_sort of 16-byte records by score vs cub::DeviceMergeSort::SortKeys.
  {
    record* in = device_array<record>(n);
    record* ours = device_array<record>(n);
    record* theirs = device_array<record>(n);
    fill_records<<<4096, 256>>>(in, n);
    const float ours_ms = median_ms([&] {
      CHECK_CUDA(cudaMemcpyAsync(ours, in, n * sizeof(record), cudaMemcpyDeviceToDevice));
      gp::merge_sort(gp::cuda, gp::device_span<record>(ours, n), by_score{});
    });
    std::size_t bytes = 0;
    CHECK_CUDA(cub::DeviceMergeSort::SortKeys(nullptr, bytes, theirs, static_cast<std::int64_t>(n),
                                              by_score{}));
    void* temp = device_array<char>(bytes);
    const float cub_ms = median_ms([&] {
      CHECK_CUDA(cudaMemcpyAsync(theirs, in, n * sizeof(record), cudaMemcpyDeviceToDevice));
      CHECK_CUDA(cub::DeviceMergeSort::SortKeys(temp, bytes, theirs, static_cast<std::int64_t>(n),
                                                by_score{}));
    });
    const unsigned long long want_sum = (unsigned long long)n * (n - 1) / 2;
    bool ok = true;
    for (const bool stable : {true, false}) {
      CHECK_CUDA(cudaMemset(counters, 0, 2 * sizeof(unsigned long long)));
      check_records<<<1024, 256>>>(stable ? ours : theirs, n, stable, counters, counters + 1);
      const auto c = host_copy(counters, 2);
      ok = ok && c[0] == 0 && c[1] == want_sum;
    }
    failures += !ok;
    print_row("merge_sort 16-byte records by score (+ copy)", 2.0 * n * sizeof(record), ours_ms,
              cub_ms, "CUB SortKeys", ok);
    CHECK_CUDA(cudaFree(temp));
    for (record* p : {in, ours, theirs})
      CHECK_CUDA(cudaFree(p));
  }
  std::printf(
      "\nratio: the other / gpuprim (above 1: gpuprim faster). CUDA 13.0's CUB has no "
      "DeviceTopK: the top-k rows compare the ladder's rungs. GB/s: bytes read once "
      "(topk, topk_rows), queries + indices (searchsorted), read + write (merge, "
      "merge_sort, and the copy).\n");
  std::printf("%s\n", failures == 0 ? "all rows checked" : "SOME ROWS FAILED THEIR CHECK");
  return failures == 0 ? 0 : 1;
}
