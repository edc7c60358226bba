// `gpuprim bench dist`: the gp::multi_gpu rows (one process driving 1, 2,
// ... D GPUs through NCCL; built with NCCL only). The same algorithms and
// table as the MPI ranks' rows (dist_bench.cpp): reduce, inclusive scan,
// histogram and sample sort, strong and weak scaling, each run's time split
// into the devices' local work and what crosses devices:
//  - reduce: local = every device's partial (enqueued on all devices, one
//    wait); comm = their combination in device order on the host;
//  - inclusive scan: local = every device's scan and carry fix-up; comm =
//    the carries, in device order on the host;
//  - histogram: local = every device's histogram; comm = the ncclAllReduce
//    of the counts;
//  - sort: sort_report (local sorts and merges; samples, cuts and the
//    ncclSend / ncclRecv exchange).
// The library's calls enqueue both parts before one wait; here a wait
// between them separates the parts, so a row's total is a little above
// the library call's. There is no wait column: one process, and the local
// time runs until the slowest device is done.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "dist_bench.hpp"
#include "gpuprim/dist/multi_gpu.hpp"

namespace gpuprim::cli::dist_bench {
namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <class F>
split_time measure(int reps, F&& once) {
  once();  // warm-up
  std::vector<split_time> runs;
  for (int i = 0; i < reps; ++i)
    runs.push_back(once());
  return median(runs);
}

std::vector<row> rows_on(const multi_gpu& gpus, const std::string& scaling, std::uint64_t n,
                         int reps) {
  const int d = gpus.size();
  std::fprintf(stderr, "bench dist: multi_gpu over %d device%s, %s scaling, n = %llu\n", d,
               d == 1 ? "" : "s", scaling.c_str(), static_cast<unsigned long long>(n));
  std::mt19937_64 rng(7);
  multi_gpu_vector<float> x;
  multi_gpu_vector<std::uint32_t> keys;
  {
    std::vector<float> floats(n);
    for (auto& f : floats)
      f = std::uniform_real_distribution<float>(0, 1)(rng);
    x = multi_gpu_vector<float>::scatter(gpus, floats);
    std::vector<std::uint32_t> k(n);
    for (auto& v : k)
      v = static_cast<std::uint32_t>(rng());
    keys = multi_gpu_vector<std::uint32_t>::scatter(gpus, k);
  }
  std::vector<std::uint64_t> sizes;
  for (int i = 0; i < d; ++i)
    sizes.push_back(x.slice(i).size());
  multi_gpu_vector<float> y(gpus, sizes);
  std::vector<device_vector<std::uint64_t>> counts;
  for (int i = 0; i < d; ++i) {
    gpus.use(i);
    counts.emplace_back(256);
  }

  std::vector<row> rows;
  auto add = [&](const char* name, split_time t, double bytes) {
    rows.push_back({name, "multi_gpu", scaling, d, n, t, bytes});
  };

  add("reduce float->double",
      measure(reps,
              [&] {
                split_time t;
                const double t0 = now();
                const auto partials = detail::multi_gpu_partials<double>(
                    gpus, x, plus{}, detail::unary_fetch<identity>{});
                const double t1 = now();
                volatile double s = detail::combine_in_order(partials, plus{}).value_or(0.0);
                (void)s;
                t.local = t1 - t0;
                t.comm = now() - t1;
                return t;
              }),
      4.0 * n);

  add("inclusive_scan float",
      measure(reps,
              [&] {
                split_time t;
                const double t0 = now();
                const auto totals = detail::multi_gpu_scan_slices(gpus, x, y, plus{});
                const double t1 = now();
                const auto carries = detail::carries_in_order(totals, plus{});
                const double t2 = now();
                detail::multi_gpu_apply_carries(gpus, y, carries, plus{});
                t.local = (t1 - t0) + (now() - t2);
                t.comm = t2 - t1;
                return t;
              }),
      8.0 * n);

  add("histogram_even float 256 bins",
      measure(reps,
              [&] {
                split_time t;
                const double t0 = now();
                const auto left_outs =
                    detail::multi_gpu_local_histograms(gpus, x, counts, 0.0f, 1.0f);
                gpus.synchronize_all();
                const double t1 = now();
                detail::multi_gpu_sum_counts(gpus, counts);
                gpus.synchronize_all();
                t.local = t1 - t0;
                t.comm = now() - t1;
                return t;
              }),
      4.0 * n);

  sort_report last;
  multi_gpu_vector<std::uint32_t> sorted;
  const split_time st = measure(reps, [&] {
    last = gpuprim::sort(gpus, keys, sorted);
    return split_time{last.local_seconds, last.exchange_seconds};
  });
  // The last sort checked: all n keys, in order across the devices.
  const std::vector<std::uint32_t> h = sorted.gather();
  const bool ok = h.size() == n && std::is_sorted(h.begin(), h.end());
  rows.push_back({"sort uint32", "multi_gpu", scaling, d, n, st, 16.0 * n, last.imbalance,
                  ok ? "sorted" : "WRONG"});
  return rows;
}

}  // namespace

std::vector<row> multi_gpu_rows(int devices, std::uint64_t strong_n,
                                std::uint64_t weak_n_per_device, int reps) {
  std::vector<row> rows;
  for (int d = 1; d <= devices; ++d) {
    std::vector<int> ids(d);
    std::iota(ids.begin(), ids.end(), 0);
    const multi_gpu gpus(ids);
    for (const auto& [scaling, n] :
         {std::pair<std::string, std::uint64_t>{"strong", strong_n},
          std::pair<std::string, std::uint64_t>{"weak", weak_n_per_device * d}}) {
      const auto part = rows_on(gpus, scaling, n, reps);
      rows.insert(rows.end(), part.begin(), part.end());
    }
  }
  return rows;
}

}  // namespace gpuprim::cli::dist_bench
