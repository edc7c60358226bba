// Probe of the distributed sample sort's merge step (dist/gpu_sort.hpp, step
// 5) on one GPU: times the production two-way merge (cuda_merge_runs) of two
// sorted runs of random uint32 keys, 2^27 each, and the tree of two-way
// merges that a GPU of four runs (the 4-GPU sort) does, against a
// device-to-device copy of the same bytes; prints the merge's read + write
// bandwidth as a share of the copy's. The runs are sorted random keys, as a
// GPU of the sort receives them. Built and run by scripts/device-check.sh
// --probe-merge (probe-merge.txt), where Nsight Compute then profiles one
// merge_kernel launch. Medians of 20 isolated calls after 3 warm-ups.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "gpuprim/core/memory.hpp"
#include "gpuprim/dist/gpu_sort.hpp"
#include "gpuprim/sort.hpp"
#include "probe_timing.cuh"

namespace gp = gpuprim;
namespace gd = gpuprim::detail;

namespace {

using key = std::uint32_t;
using no_value = gp::host_detail::no_value;

// `count` sorted runs of `n` random keys each, one after another.
gp::device_vector<key> sorted_runs(std::uint64_t n, int count) {
  gp::device_vector<key> runs(n * count);
  for (int r = 0; r < count; ++r) {
    gd::cuda_fill_random(runs.data() + r * n, n, 7, r * n, nullptr);
    gp::sort(gp::cuda, gp::device_span<key>(runs.data() + r * n, n));
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  return runs;
}

bool is_sorted_on_host(const gp::device_vector<key>& v) {
  const std::vector<key> h = gp::to_host(v);
  for (std::size_t i = 1; i < h.size(); ++i)
    if (h[i - 1] > h[i]) return false;
  return true;
}

void report(const char* what, std::uint64_t total, float ms, float copy_ms, bool sorted) {
  const double bytes = 2.0 * total * sizeof(key);  // every key read once and written once
  std::printf("  %-44s %8.3f ms  %6.0f GB/s  %5.1f %% of copy  %s\n", what, ms, bytes / (ms * 1e6),
              100.0 * copy_ms / ms, sorted ? "sorted" : "NOT SORTED");
}

}  // namespace

int main() {
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("tune_dist_merge: %s; uint32 keys\n", prop.name);
  const gd::compared_bits<key> bits_of{false, 0, 32};

  for (const int runs : {2, 4}) {
    const std::uint64_t total = std::uint64_t{1} << 28, n = total / runs;
    const gp::device_vector<key> in = sorted_runs(n, runs);
    gp::device_vector<key> out(total), tmp(total);
    const float copy_ms = median_ms([&] {
      CHECK_CUDA(cudaMemcpyAsync(out.data(), in.data(), total * sizeof(key),
                                 cudaMemcpyDeviceToDevice, nullptr));
    });
    std::vector<gd::sorted_run<key, no_value>> list;
    for (int r = 0; r < runs; ++r)
      list.push_back({in.data() + r * n, nullptr, n});
    const float ms = median_ms([&] {
      gd::merge_run_tree<key, no_value>(list, out.data(), nullptr, tmp.data(), nullptr, bits_of,
                                        nullptr);
    });
    CHECK_CUDA(cudaDeviceSynchronize());
    char what[96];
    std::snprintf(what, sizeof what, "%d runs of 2^%d (%d two-way pass%s)", runs,
                  runs == 2 ? 27 : 26, runs == 2 ? 1 : 2, runs == 2 ? "" : "es");
    report(what, total * (runs == 2 ? 1 : 2), ms, copy_ms * (runs == 2 ? 1 : 2),
           is_sorted_on_host(out));
    std::printf("  %-44s %8.3f ms\n", "copy of the same 2^28 keys", copy_ms);
  }
  return 0;
}
