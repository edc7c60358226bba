// `gpuprim bench dist` under mpirun: the gp::mpi algorithms (reduce, scan,
// histogram, sort) on host ranks, on GPU ranks when a device is present
// (every rank on device rank % devices), and, in a run of one process,
// gp::multi_gpu over 1 .. all the devices (dist_bench_multi_gpu.cpp), each
// run twice: strong scaling (the same total n whatever the number of ranks)
// and weak scaling (the same n per rank). A run measures one rank count: run it under mpirun -np 1,
// 2, 4 ... to get the scaling rows. The time of each repetition is split into local work and
// communication, each the largest over the ranks, and the median over repetitions is printed. A
// barrier between the local work and the communication separates the time spent waiting for the
// slowest rank (load imbalance, or a loaded machine) from the messages' own time; the comm share is
// comm / (local + wait + comm). The sort's exchange time includes its waits (sort_report). A
// separate driver, not a row of the bench harness's family table: that harness times one process
// with CUDA events, these rows need MPI around every step (docs/families/dist.md).
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dist_bench.hpp"
#include "gpuprim/core/device_info.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/dist/gpu_sort.hpp"
#include "gpuprim/dist/histogram.hpp"
#include "gpuprim/dist/mpi_gpu.hpp"
#include "gpuprim/dist/reduce.hpp"
#include "gpuprim/dist/scan.hpp"
#include "gpuprim/dist/sort.hpp"

#if GPUPRIM_HAS_CUDA
#include <cuda_runtime_api.h>
#endif

namespace gpuprim::bench::dist {

split_time median(const std::vector<split_time>& runs) {
  auto median_of = [&](double split_time::*part) {
    std::vector<double> v;
    for (const split_time& r : runs)
      v.push_back(r.*part);
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  };
  return {median_of(&split_time::local), median_of(&split_time::comm),
          median_of(&split_time::wait)};
}

void print_rows(const std::vector<row>& rows) {
  std::printf(
      "| algorithm | ranks on | scaling | ranks | n | time ms | local ms | wait ms | comm ms | "
      "comm %% | GB/s | imbalance | check "
      "|\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const row& x : rows) {
    char imbalance[32] = "-";
    if (x.imbalance >= 0) std::snprintf(imbalance, sizeof imbalance, "%.2f %%", 100 * x.imbalance);
    std::printf(
        "| %s | %s | %s | %d | %llu | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f | %s | %s |\n",
        x.algorithm.c_str(), x.ranks_kind.c_str(), x.scaling.c_str(), x.ranks,
        static_cast<unsigned long long>(x.n), 1e3 * x.t.total(), 1e3 * x.t.local, 1e3 * x.t.wait,
        1e3 * x.t.comm, x.t.total() > 0 ? 100 * x.t.comm / x.t.total() : 0.0,
        x.t.total() > 0 ? x.bytes / x.t.total() / 1e9 : 0.0, imbalance, x.check.c_str());
  }
}

namespace {

// The largest over the ranks of each part.
split_time slowest(MPI_Comm comm, split_time t) {
  split_time out;
  MPI_Allreduce(&t.local, &out.local, 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(&t.comm, &out.comm, 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(&t.wait, &out.wait, 1, MPI_DOUBLE, MPI_MAX, comm);
  return out;
}

template <class F>
split_time measure(MPI_Comm comm, int reps, F&& once) {
  once();  // warm-up
  std::vector<split_time> runs;
  for (int i = 0; i < reps; ++i) {
    MPI_Barrier(comm);
    runs.push_back(slowest(comm, once()));
  }
  return median(runs);
}

double now() {
  return MPI_Wtime();
}

// Seconds this rank waited at a barrier for the others.
double wait_for_all(MPI_Comm comm) {
  const double t = now();
  MPI_Barrier(comm);
  return now() - t;
}

template <class Backend, class Floats, class Keys, class Counts>
std::vector<row> run_rows(MPI_Comm comm, Backend b, const std::string& kind,
                          const std::string& scaling, std::uint64_t n, const Floats& floats,
                          Floats& out, Counts& counts, const Keys& keys, int reps) {
  const int p = mpi_size(comm);
  std::vector<row> rows;
  const auto local = b.local;
  constexpr bool on_host = std::is_same_v<std::remove_const_t<decltype(local)>, host_backend>;
  auto add = [&](const char* name, split_time t, double bytes) {
    rows.push_back({name, kind, scaling, p, n, t, bytes});
  };
  std::fprintf(stderr, "bench dist: %s ranks, %s scaling, n = %llu\n", kind.c_str(),
               scaling.c_str(), static_cast<unsigned long long>(n));

  add("reduce float->double",
      measure(comm, reps,
              [&] {
                split_time t;
                const double t0 = now();
                const auto partial = detail::local_partial<double>(local, floats, plus{},
                                                                   detail::unary_fetch<identity>{});
                t.wait = wait_for_all(comm);
                const double t1 = now();
                volatile double s =
                    detail::combine_in_rank_order(comm, partial, plus{}).value_or(0.0);
                (void)s;
                t.local = t1 - t0 - t.wait;
                t.comm = now() - t1;
                return t;
              }),
      4.0 * n);

  add("inclusive_scan float",
      measure(comm, reps,
              [&] {
                split_time t;
                if constexpr (on_host) {
                  // Reduce, carry, scan from the carry (dist/scan.hpp).
                  const double t0 = now();
                  const auto total = detail::local_partial<float>(local, floats, plus{},
                                                                  detail::unary_fetch<identity>{});
                  t.wait = wait_for_all(comm);
                  const double t1 = now();
                  const auto carry = detail::carry_of(comm, total, plus{});
                  const double t2 = now();
                  detail::host_scan<false>(local, floats, out, carry, plus{},
                                           detail::unary_fetch<identity>{}, "inclusive_scan");
                  t.local = (t1 - t0 - t.wait) + (now() - t2);
                  t.comm = t2 - t1;
                } else {
                  // Scan, carry, apply the carry.
                  const double t0 = now();
                  inclusive_scan(local, floats, out, plus{});
                  std::optional<float> last;
                  if (out.size()) {
                    float x;
                    detail::copy_to_host(&x, out.data() + out.size() - 1, sizeof x, local.stream);
                    synchronize(local.stream);
                    last = x;
                  }
                  t.wait = wait_for_all(comm);
                  const double t1 = now();
                  const auto carry = detail::carry_of(comm, last, plus{});
                  const double t2 = now();
                  if (carry && out.size()) {
                    detail::cuda_apply_carry(out.data(), out.size(), *carry, plus{}, local.stream);
                  }
                  synchronize(local.stream);
                  t.local = (t1 - t0 - t.wait) + (now() - t2);
                  t.comm = t2 - t1;
                }
                return t;
              }),
      8.0 * n);

  add("histogram_even float 256 bins",
      measure(comm, reps,
              [&] {
                split_time t;
                const double t0 = now();
                const std::uint64_t left = histogram_even(local, floats, counts, 0.0f, 1.0f);
                t.wait = wait_for_all(comm);
                const double t1 = now();
                detail::allreduce_counts(b, counts);
                detail::allreduce_left_out(comm, left);
                t.local = t1 - t0 - t.wait;
                t.comm = now() - t1;
                return t;
              }),
      4.0 * n);

  sort_report last;
  Keys sorted;
  const split_time st = measure(comm, reps, [&] {
    last = sort(b, keys, sorted);
    return split_time{last.local_seconds, last.exchange_seconds};
  });
  // The last sort checked: every share sorted, in order across the ranks.
  std::vector<std::uint32_t> h;
  if constexpr (on_host) {
    h = sorted;
  } else {
    h = to_host(sorted);
  }
  std::uint8_t ok = std::is_sorted(h.begin(), h.end()) ? 1 : 0;
  struct ends {
    std::uint32_t first, last;
    std::uint8_t present;
  };
  const ends e{h.empty() ? 0u : h.front(), h.empty() ? 0u : h.back(),
               static_cast<std::uint8_t>(!h.empty())};
  std::optional<std::uint32_t> previous;
  for (const ends& x : detail::allgather(comm, e)) {
    if (!x.present) continue;
    if (previous && *previous > x.first) ok = 0;
    previous = x.last;
  }
  std::uint8_t all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_UINT8_T, MPI_MIN, comm);
  rows.push_back({"sort uint32", kind, scaling, p, n, st, 16.0 * n, last.imbalance,
                  all_ok && last.total == n ? "sorted" : "WRONG"});
  return rows;
}

template <class T>
std::vector<T> random_slice(std::uint64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> uniform(0, 1);
    std::generate(v.begin(), v.end(), [&] { return uniform(rng); });
  } else {
    std::generate(v.begin(), v.end(), [&] { return static_cast<T>(rng()); });
  }
  return v;
}

std::vector<row> rows_for(MPI_Comm comm, bool on_cuda, const std::string& scaling, std::uint64_t n,
                          int reps) {
  const int r = mpi_rank(comm);
  const auto [begin, end] = even_slice(n, r, mpi_size(comm));
  if (!on_cuda) {
    const std::vector<float> floats = random_slice<float>(end - begin, 1 + r);
    const std::vector<std::uint32_t> keys = random_slice<std::uint32_t>(end - begin, 100 + r);
    std::vector<float> out(floats.size());
    std::vector<std::uint64_t> counts(256);
    return run_rows(comm, mpi<host_backend>{comm, host}, "host", scaling, n, floats, out, counts,
                    keys, reps);
  }
  device_vector<float> d_floats(end - begin);
  device_vector<std::uint32_t> d_keys(end - begin);
  detail::cuda_fill_random(d_floats.data(), d_floats.size(), 1, begin, nullptr);
  detail::cuda_fill_random(d_keys.data(), d_keys.size(), 2, begin, nullptr);
  synchronize(nullptr);
  device_vector<float> d_out(d_floats.size());
  device_vector<std::uint64_t> d_counts(256);
  const std::string kind = std::string("cuda/") + path_name(gpu_path_of(comm));
  return run_rows(comm, mpi<cuda_backend>{comm, cuda}, kind, scaling, n,
                  static_cast<const device_vector<float>&>(d_floats), d_out, d_counts,
                  static_cast<const device_vector<std::uint32_t>&>(d_keys), reps);
}

}  // namespace

std::uint64_t parse_count(const std::string& text, const char* what) {
  auto bad = [&] {
    return std::invalid_argument(std::string(what) + ": '" + text +
                                 "' is not a count (N or 2^K, at least 1)");
  };
  auto digits = [](const std::string& t) {
    return !t.empty() && t.size() <= 19 &&
           std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  std::uint64_t n = 0;
  if (text.rfind("2^", 0) == 0) {
    const std::string k = text.substr(2);
    if (!digits(k) || std::stoull(k) > 40) throw bad();
    n = std::uint64_t{1} << std::stoull(k);
  } else {
    if (!digits(text)) throw bad();
    n = std::stoull(text);
  }
  if (n == 0) throw bad();
  return n;
}

int run(bool quick, const std::string& backend, const size_options& sizes) {
  // Strong: the same total whatever the rank count (default 2^26); weak:
  // the same n per rank or GPU (default 2^24); --quick: 2^22 and 2^20.
  const std::uint64_t total = sizes.total.empty()
                                  ? (quick ? std::uint64_t{1} << 22 : std::uint64_t{1} << 26)
                                  : parse_count(sizes.total, "--total");
  const std::uint64_t per_gpu = sizes.per_gpu.empty()
                                    ? (quick ? std::uint64_t{1} << 20 : std::uint64_t{1} << 24)
                                    : parse_count(sizes.per_gpu, "--per-gpu");
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) MPI_Init(nullptr, nullptr);
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int p = mpi_size(comm), r = mpi_rank(comm);
  const int devices = cuda_device_count();
  int code = 0;
  try {
#if GPUPRIM_HAS_CUDA
    // Each rank on device (its rank on its node) % devices, as the CLI's
    // GPU ranks: two ranks on a one-GPU node share it.
    if (devices > 0) cudaSetDevice(mpi_node_rank(comm) % devices);
#endif
    const std::uint64_t strong_n = total;
    const std::uint64_t weak_n = per_gpu * p;
    const int reps = quick ? 3 : 9;
    std::vector<row> rows;
    std::string gpu_path;
    for (bool on_cuda : {false, true}) {
      if (on_cuda && devices == 0) continue;
      if (!backend.empty() && backend != (on_cuda ? "cuda" : "host")) continue;
      if (on_cuda) gpu_path = path_name(gpu_path_of(comm));
      for (const auto& [scaling, n] : {std::pair<std::string, std::uint64_t>{"strong", strong_n},
                                       std::pair<std::string, std::uint64_t>{"weak", weak_n}}) {
        const auto part = rows_for(comm, on_cuda, scaling, n, reps);
        rows.insert(rows.end(), part.begin(), part.end());
      }
    }
    // gp::multi_gpu: one process driving 1 .. all the devices, so only
    // without other ranks (they would share the devices).
    std::string multi_gpu_note;
#if GPUPRIM_HAS_NCCL
    multi_gpu_report multi;
#endif
    if (backend.empty() || backend == "multi_gpu") {
#if GPUPRIM_HAS_NCCL
      if (devices == 0) {
        multi_gpu_note = "no CUDA device: no rows";
      } else if (p > 1) {
        multi_gpu_note = "not run under " + std::to_string(p) +
                         " ranks (one process drives the devices: run with mpirun -np 1)";
      } else {
        multi = multi_gpu_rows(devices, strong_n, per_gpu, quick ? 3 : 20);
        multi_gpu_note =
            "one process over 1, 2 and all " + std::to_string(devices) + " GPUs" +
            (devices == 1 ? " (one GPU here: the one-device, degenerate case only)" : "") +
            "; time = the library call's wall time, median of " + std::to_string(quick ? 3 : 20) +
            " runs";
      }
#else
      multi_gpu_note = "this gpuprim was built without NCCL: no rows";
#endif
    }
    if (r == 0) {
      std::printf(
          "gpuprim bench dist: %d MPI ranks, %d CUDA devices, OpenMP threads per rank "
          "%d; weak scaling %llu elements per rank or GPU, strong scaling %llu in all\n",
          p, devices, omp_get_max_threads(), static_cast<unsigned long long>(per_gpu),
          static_cast<unsigned long long>(total));
#if GPUPRIM_HAS_CUDA
      for (int d = 0; d < devices; ++d) {
        const device_info info = get_device_info(d);
        std::printf("device %d: %s (sm_%d%d)\n", d, info.name.c_str(),
                    info.compute_capability_major, info.compute_capability_minor);
      }
#endif
      if (!gpu_path.empty()) {
        std::printf("GPU ranks' path: %s (GPU data between ranks through %s)\n", gpu_path.c_str(),
                    gpu_path == "nccl"         ? "NCCL bootstrapped over MPI"
                    : gpu_path == "cuda-aware" ? "CUDA-aware MPI on device memory"
                                               : "pinned host buffers and MPI");
      }
      if (!multi_gpu_note.empty()) std::printf("multi_gpu rows: %s\n", multi_gpu_note.c_str());
      if (!rows.empty()) {
        std::printf(
            "\nMPI ranks (times: medians over %d runs of the slowest rank's local work, wait and "
            "communication):\n\n",
            reps);
        print_rows(rows);
      }
#if GPUPRIM_HAS_NCCL
      if (!multi.rows.empty()) {
        std::printf("\ngp::multi_gpu (one process):\n\n");
        print_multi_gpu(multi);
      }
#endif
    }
  } catch (const std::exception& e) {
    if (r == 0) std::fprintf(stderr, "gpuprim bench dist: %s\n", e.what());
    code = 1;
  }
  std::fflush(stdout);
  MPI_Finalize();
  return code;
}

}  // namespace gpuprim::bench::dist
