// Probe of the distributed sample sort's merge step (dist/gpu_sort.hpp, step
// 5) on one GPU: times the production two-way merge (cuda_merge_runs) of two
// sorted runs of random uint32 keys, 2^27 each, and the tree of two-way
// merges that a GPU of four runs (the 4-GPU sort) does, against a
// device-to-device copy of the same bytes; prints the merge's read + write
// bandwidth as a share of the copy's. Then a variant of the merge kernel
// with fewer instructions per key (the production kernel is bound by its
// instructions and shared-memory accesses, not by memory): 32-bit indices
// inside the tile, the two runs' heads kept in registers, the keys compared
// as they are, ITEMS keys a thread; its output must equal production's. The
// runs are sorted random keys, as a GPU of the sort receives them. Built and
// run by scripts/device-check.sh --probe-merge (tune-dist_merge.txt), where
// Nsight Compute then profiles one merge_kernel launch. Medians of 20
// isolated calls after 3 warm-ups.
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
using no_value = gp::host_impl::no_value;

// How many of the first `diag` outputs of the merge of a and b come from a
// (a first on equal keys).
template <class Index, class LoadA, class LoadB>
__device__ Index merge_path_of(LoadA a, Index na, LoadB b, Index nb, Index diag) {
  Index lo = diag > nb ? diag - nb : 0, hi = diag < na ? diag : na;
  while (lo < hi) {
    const Index mid = lo + (hi - lo) / 2;
    if (!(b(diag - 1 - mid) < a(mid))) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

template <int Threads, int Items>
__global__ void variant_partition(const key* a, std::uint64_t na, const key* b, std::uint64_t nb,
                                  std::uint64_t tiles, std::uint64_t* ends) {
  const std::uint64_t t = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (t > tiles) return;
  const std::uint64_t tile = Threads * Items;
  const std::uint64_t diag = t * tile < na + nb ? t * tile : na + nb;
  ends[t] = merge_path_of<std::uint64_t>([a](std::uint64_t i) { return a[i]; }, na,
                                         [b](std::uint64_t i) { return b[i]; }, nb, diag);
}

// 1. The tile's two input ranges into shared memory, every load of a thread
// issued before the first store; 2. each thread's merge path in the tile
// (32-bit indices); 3. its Items outputs merged with both heads in
// registers (one shared load an output); 4. the merged tile, in the inputs'
// shared memory, written back coalesced.
template <int Threads, int Items>
__global__ void __launch_bounds__(Threads)
    variant_merge(const key* a, std::uint64_t na, const key* b, std::uint64_t nb,
                  const std::uint64_t* ends, key* out) {
  constexpr int tile = Threads * Items;
  __shared__ key keys[tile];
  const std::uint64_t total = na + nb;
  const std::uint64_t d0 = std::uint64_t{blockIdx.x} * tile;
  const std::uint64_t d1 = d0 + tile < total ? d0 + tile : total;
  const std::uint64_t a0 = ends[blockIdx.x], a1 = ends[blockIdx.x + 1], b0 = d0 - a0, b1 = d1 - a1;
  const int la = static_cast<int>(a1 - a0), lb = static_cast<int>(b1 - b0), len = la + lb;
  key staged[Items];
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const int i = static_cast<int>(threadIdx.x) + k * Threads;
    if (i < len) staged[k] = i < la ? a[a0 + i] : b[b0 + i - la];
  }
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const int i = static_cast<int>(threadIdx.x) + k * Threads;
    if (i < len) keys[i] = staged[k];
  }
  __syncthreads();
  const key* sa = keys;
  const key* sb = keys + la;
  const int diag = min(static_cast<int>(threadIdx.x) * Items, len);
  int i = merge_path_of<int>([sa](int x) { return sa[x]; }, la, [sb](int x) { return sb[x]; }, lb,
                             diag);
  int j = diag - i;
  key ka = i < la ? sa[i] : key{}, kb = j < lb ? sb[j] : key{};
  key picked[Items];
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const bool take_a = i < la && (j >= lb || !(kb < ka));
    picked[k] = take_a ? ka : kb;
    if (take_a) {
      ++i;
      ka = i < la ? sa[i] : ka;
    } else {
      ++j;
      kb = j < lb ? sb[j] : kb;
    }
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < Items; ++k)
    if (diag + k < len) keys[diag + k] = picked[k];
  __syncthreads();
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const int o = static_cast<int>(threadIdx.x) + k * Threads;
    if (o < len) out[d0 + o] = keys[o];
  }
}

template <int Threads, int Items>
void variant_merge_runs(const key* a, std::uint64_t na, const key* b, std::uint64_t nb, key* out,
                        std::uint64_t* ends) {
  const std::uint64_t tiles = (na + nb + Threads * Items - 1) / (Threads * Items);
  variant_partition<Threads, Items>
      <<<static_cast<unsigned>((tiles + 1 + 255) / 256), 256>>>(a, na, b, nb, tiles, ends);
  variant_merge<Threads, Items><<<static_cast<unsigned>(tiles), Threads>>>(a, na, b, nb, ends, out);
}

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

void report(const char* what, std::uint64_t total, float ms, float copy_ms, const char* check) {
  const double bytes = 2.0 * total * sizeof(key);  // every key read once and written once
  std::printf("  %-44s %8.3f ms  %6.0f GB/s  %5.1f %% of copy  %s\n", what, ms, bytes / (ms * 1e6),
              100.0 * copy_ms / ms, check);
}

}  // namespace

int main() {
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("probe_dist_merge: %s; uint32 keys\n", prop.name);
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
           is_sorted_on_host(out) ? "sorted" : "NOT SORTED");
    std::printf("  %-44s %8.3f ms\n", "copy of the same 2^28 keys", copy_ms);
    if (runs != 2) continue;
    // The variants on the same two runs, checked against production's output.
    const std::vector<key> want = gp::to_host(out);
    gp::device_vector<std::uint64_t> ends(total / 1024 + 2);
    auto variant = [&](const char* name, auto launch) {
      const float vms = median_ms([&] { launch(); });
      CHECK_CUDA(cudaDeviceSynchronize());
      const bool same = gp::to_host(tmp) == want;
      report(name, total, vms, copy_ms, same ? "same as production" : "DIFFERS FROM PRODUCTION");
    };
    const key* a = in.data();
    const key* b = in.data() + n;
    variant("variant, 256 threads x 8 keys",
            [&] { variant_merge_runs<256, 8>(a, n, b, n, tmp.data(), ends.data()); });
    variant("variant, 256 threads x 16 keys",
            [&] { variant_merge_runs<256, 16>(a, n, b, n, tmp.data(), ends.data()); });
    variant("variant, 128 threads x 16 keys",
            [&] { variant_merge_runs<128, 16>(a, n, b, n, tmp.data(), ends.data()); });
  }
  return 0;
}
