// `gpuprim bench dist`: the gp::multi_gpu rows (one process driving 1, 2
// and all the GPUs through NCCL; built with NCCL only), weak scaling (the
// same n per GPU) and strong scaling (the same n in all), and the
// communication roofline measured in the same run.
//  - reduce, inclusive scan, histogram: the library call's wall time (it
//    enqueues every device's work before one wait), median over the runs;
//  - sort: the library call, split by its sort_report into the local sort,
//    the splitters and cuts, the all-to-all and the merge; the all-to-all's
//    GB/s out of each GPU (the most bytes one GPU sent to the others over
//    the all-to-all's time) beside the NCCL all-to-all's;
//  - roofline: a grouped ncclSend / ncclRecv all-to-all in which every GPU
//    sends (p - 1) / p of its slice of u32 keys (the bytes the sort's
//    exchange moves with random keys), and an ncclAllReduce of the slice
//    (bus bandwidth 2 (p - 1) / p x bytes / time, NCCL's convention).
// Efficiency: weak t1 / tp, strong t1 / (p tp), t1 the one-GPU row.
// Inputs are generated on the devices from (seed, global index), so every
// device count sorts the same keys.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "dist_bench.hpp"
#include "gpuprim/dist/multi_gpu.hpp"

namespace gpuprim::bench::dist {
namespace {

double median_of(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

template <class F>
double time_median(int reps, F&& once) {
  once();  // warm-up (workspace allocations, NCCL connections)
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    const double t0 = detail::seconds_now();
    once();
    t.push_back(detail::seconds_now() - t0);
  }
  return median_of(t);
}

template <class T>
multi_gpu_vector<T> random_on(const multi_gpu& gpus, std::uint64_t n, std::uint64_t seed) {
  const int d = gpus.size();
  std::vector<std::uint64_t> sizes(d);
  for (int i = 0; i < d; ++i)
    sizes[i] = n * (i + 1) / d - n * i / d;
  multi_gpu_vector<T> v(gpus, sizes);
  std::uint64_t at = 0;
  for (int i = 0; i < d; ++i) {
    gpus.use(i);
    detail::cuda_fill_random(v.slice(i).data(), sizes[i], seed, at, gpus.stream(i));
    at += sizes[i];
  }
  gpus.synchronize_all();
  return v;
}

// Sorted across the devices: every slice sorted, and each slice's first
// key not below the previous slice's last; all n keys there.
bool sorted_across(const multi_gpu& gpus, const multi_gpu_vector<std::uint32_t>& v,
                   std::uint64_t n) {
  if (v.size() != n) return false;
  bool ok = true;
  std::uint32_t previous = 0;
  bool any = false;
  for (int i = 0; i < gpus.size(); ++i) {
    gpus.use(i);
    const std::vector<std::uint32_t> h = to_host(v.slice(i));
    if (h.empty()) continue;
    ok = ok && std::is_sorted(h.begin(), h.end()) && (!any || previous <= h.front());
    previous = h.back();
    any = true;
  }
  return ok;
}

void rows_on(const multi_gpu& gpus, const std::string& scaling, std::uint64_t n, int reps,
             multi_gpu_report& out) {
  const int d = gpus.size();
  std::fprintf(stderr, "bench dist: multi_gpu over %d GPU%s, %s scaling, n = %llu\n", d,
               d == 1 ? "" : "s", scaling.c_str(), static_cast<unsigned long long>(n));
  auto add = [&](const char* name, double seconds, double bytes, std::string check) {
    out.rows.push_back({name, scaling, d, n, seconds, bytes, std::move(check)});
  };
  {
    const auto x = random_on<float>(gpus, n, 1);
    // Each check reads what the timed runs left (so it follows them).
    double sum = 0;
    const double t_reduce = time_median(reps, [&] { sum = reduce(gpus, x, 0.0); });
    add("reduce float->double", t_reduce, 4.0 * n,
        sum > 0.45 * n && sum < 0.55 * n ? "mean ~0.5" : "WRONG");
    {
      multi_gpu_vector<float> y(gpus, [&] {
        std::vector<std::uint64_t> s;
        for (int i = 0; i < d; ++i)
          s.push_back(x.slice(i).size());
        return s;
      }());
      const double t_scan = time_median(reps, [&] { inclusive_scan(gpus, x, y); });
      gpus.use(d - 1);
      float last = 0;
      detail::copy_to_host(&last, y.slice(d - 1).data() + y.slice(d - 1).size() - 1, sizeof last,
                           nullptr);
      synchronize(nullptr);
      add("inclusive_scan float", t_scan, 8.0 * n,
          std::abs(last - sum) < 1e-3 * sum ? "last = sum" : "WRONG");
    }
    std::vector<device_vector<std::uint64_t>> counts;
    for (int i = 0; i < d; ++i) {
      gpus.use(i);
      counts.emplace_back(256);
    }
    std::uint64_t left = 1;
    const double t_histogram =
        time_median(reps, [&] { left = histogram_even(gpus, x, counts, 0.0f, 1.0f); });
    gpus.use(0);
    const std::vector<std::uint64_t> c = to_host(counts[0]);
    const std::uint64_t counted = std::accumulate(c.begin(), c.end(), std::uint64_t{0});
    add("histogram_even float 256 bins", t_histogram, 4.0 * n,
        left == 0 && counted == n ? "all n counted" : "WRONG");
  }
  const auto keys = random_on<std::uint32_t>(gpus, n, 2);
  multi_gpu_vector<std::uint32_t> sorted;
  std::vector<sort_report> reports;
  const double t = time_median(reps, [&] { reports.push_back(sort(gpus, keys, sorted)); });
  reports.erase(reports.begin());  // the warm-up
  const bool sort_ok = sorted_across(gpus, sorted, n);
  auto step = [&](double sort_report::*part) {
    std::vector<double> v;
    for (const auto& r : reports)
      v.push_back(r.*part);
    return median_of(v);
  };
  sort_split s;
  s.scaling = scaling;
  s.gpus = d;
  s.n = n;
  s.total = t;
  s.sort = step(&sort_report::sort_seconds);
  s.splitters = step(&sort_report::splitter_seconds);
  s.alltoall = step(&sort_report::alltoall_seconds);
  s.merge = step(&sort_report::merge_seconds);
  s.sent_bytes = static_cast<double>(reports.back().sent_bytes);
  s.imbalance = reports.back().imbalance;
  out.sorts.push_back(s);
  add("sort uint32", t, 16.0 * n, sort_ok ? "sorted" : "WRONG");
}

// The roofline: all-to-all and all-reduce of `per_gpu` u32 per GPU.
void roofline_on(const multi_gpu& gpus, const std::string& scaling, std::uint64_t per_gpu, int reps,
                 multi_gpu_report& out) {
  const int d = gpus.size();
  if (d < 2) return;
  const std::uint64_t bytes = per_gpu * 4;
  std::vector<const void*> sends(d);
  std::vector<void*> recvs(d);
  std::vector<std::vector<std::uint64_t>> counts(d, std::vector<std::uint64_t>(d)),
      offsets(d, std::vector<std::uint64_t>(d));
  for (int i = 0; i < d; ++i) {
    gpus.use(i);
    sends[i] = gpus.workspace(i, detail::ws_roofline_send, bytes);
    recvs[i] = gpus.workspace(i, detail::ws_roofline_recv, bytes);
    detail::fill_bytes(recvs[i], 1, bytes, gpus.stream(i));
    detail::copy_device_to_device(const_cast<void*>(sends[i]), recvs[i], bytes, gpus.stream(i));
    for (int e = 0; e < d; ++e) {
      offsets[i][e] = per_gpu * e / d;
      counts[i][e] = per_gpu * (e + 1) / d - per_gpu * e / d;
    }
  }
  // Device i receives piece i of every other device at that device's offset.
  std::vector<std::vector<std::uint64_t>> recv_counts(d, std::vector<std::uint64_t>(d)),
      recv_offsets(d, std::vector<std::uint64_t>(d));
  for (int i = 0; i < d; ++i) {
    for (int e = 0; e < d; ++e) {
      recv_counts[i][e] = counts[e][i];
      recv_offsets[i][e] = offsets[i][e];
    }
  }
  std::uint64_t sent = 0;
  for (int e = 1; e < d; ++e)
    sent += counts[0][e];
  roofline r;
  r.scaling = scaling;
  r.gpus = d;
  r.bytes_per_gpu = static_cast<double>(bytes);
  r.alltoall_sent = 4.0 * sent;
  r.alltoall = time_median(reps, [&] {
    gpus.alltoallv(sends, counts, offsets, recvs, recv_counts, recv_offsets, 4);
    gpus.synchronize_all();
  });
  r.allreduce = time_median(reps, [&] {
    gpus.allreduce_sum(recvs, per_gpu, 4);
    gpus.synchronize_all();
  });
  out.rooflines.push_back(r);
}

}  // namespace

multi_gpu_report multi_gpu_rows(int devices, std::uint64_t strong_n,
                                std::uint64_t weak_n_per_device, int reps) {
  multi_gpu_report out;
  std::vector<int> counts{1};
  if (devices >= 2) counts.push_back(2);
  if (devices > 2) counts.push_back(devices);
  for (int d : counts) {
    std::vector<int> ids(d);
    std::iota(ids.begin(), ids.end(), 0);
    const multi_gpu gpus(ids);
    rows_on(gpus, "weak", weak_n_per_device * d, reps, out);
    roofline_on(gpus, "weak", weak_n_per_device, reps, out);
    rows_on(gpus, "strong", strong_n, reps, out);
    roofline_on(gpus, "strong", strong_n / d, reps, out);
  }
  return out;
}

void print_multi_gpu(const multi_gpu_report& report) {
  auto one_gpu = [&](const std::string& algorithm, const std::string& scaling) -> double {
    for (const auto& r : report.rows)
      if (r.algorithm == algorithm && r.scaling == scaling && r.gpus == 1) return r.seconds;
    return 0;
  };
  std::printf(
      "| algorithm | scaling | GPUs | n | n per GPU | time ms | GB/s | efficiency | check |\n"
      "|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& r : report.rows) {
    const double t1 = one_gpu(r.algorithm, r.scaling);
    const double eff = r.scaling == "weak" ? t1 / r.seconds : t1 / (r.gpus * r.seconds);
    std::printf("| %s | %s | %d | %llu | %llu | %.3f | %.1f | %.1f %% | %s |\n",
                r.algorithm.c_str(), r.scaling.c_str(), r.gpus,
                static_cast<unsigned long long>(r.n), static_cast<unsigned long long>(r.n / r.gpus),
                1e3 * r.seconds, r.bytes / r.seconds / 1e9, 100 * eff, r.check.c_str());
  }
  auto nccl_alltoall = [&](const std::string& scaling, int gpus) -> double {
    for (const auto& r : report.rooflines)
      if (r.scaling == scaling && r.gpus == gpus) return r.alltoall_sent / r.alltoall;
    return 0;
  };
  std::printf(
      "\nsort uint32, its steps (medians; all-to-all GB/s: the most bytes one GPU sent to the "
      "others / the all-to-all's time):\n\n"
      "| scaling | GPUs | n | time ms | local sort ms | splitters ms | all-to-all ms | merge ms | "
      "all-to-all GB/s out of each GPU | % of NCCL all-to-all | imbalance |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& s : report.sorts) {
    const double gbs = s.alltoall > 0 ? s.sent_bytes / s.alltoall / 1e9 : 0;
    const double nccl = nccl_alltoall(s.scaling, s.gpus) / 1e9;
    char share[32] = "-";
    if (nccl > 0 && s.gpus > 1) std::snprintf(share, sizeof share, "%.1f %%", 100 * gbs / nccl);
    std::printf("| %s | %d | %llu | %.3f | %.3f | %.3f | %.3f | %.3f | %.1f | %s | %.2f %% |\n",
                s.scaling.c_str(), s.gpus, static_cast<unsigned long long>(s.n), 1e3 * s.total,
                1e3 * s.sort, 1e3 * s.splitters, 1e3 * s.alltoall, 1e3 * s.merge, gbs, share,
                100 * s.imbalance);
  }
  std::printf(
      "\ncommunication roofline (NCCL, same run): all-to-all of u32 slices (each GPU sends "
      "(p - 1) / p of its slice), all-reduce of the slice:\n\n"
      "| scaling | GPUs | bytes per GPU | all-to-all ms | GB/s out of each GPU | all-reduce ms | "
      "all-reduce bus GB/s |\n|---|---|---|---|---|---|---|\n");
  for (const auto& r : report.rooflines) {
    std::printf("| %s | %d | %.0f | %.3f | %.1f | %.3f | %.1f |\n", r.scaling.c_str(), r.gpus,
                r.bytes_per_gpu, 1e3 * r.alltoall, r.alltoall_sent / r.alltoall / 1e9,
                1e3 * r.allreduce,
                2.0 * (r.gpus - 1) / r.gpus * r.bytes_per_gpu / r.allreduce / 1e9);
  }
}

}  // namespace gpuprim::bench::dist
