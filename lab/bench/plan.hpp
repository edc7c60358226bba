// A benchmark run is a plan: the tables to print and the cases that fill
// them. Each family adds its tables and cases; run.cpp executes the cases in
// order, printing progress, and a case that throws leaves an error row.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "report.hpp"

namespace gpuprim::bench {

struct context {
  bool quick = false;
  // The headline run (`gpuprim bench` with no family): only the cases each
  // family marks as its main rows, and host rows at smaller sizes.
  bool headline = false;

  // Host rows at their smaller sizes: in quick and headline runs.
  bool small_host_rows() const { return quick || headline; }
  bool host = false;  // run the host rows
  bool cuda = false;  // run the CUDA rows (a device is present)
  stream_t stream = nullptr;
  std::size_t l2_cache_bytes = 0;
  double copy_bandwidth_gbs = 0.0;
  double host_read_bandwidth_gbs = 0.0;
  double host_copy_bandwidth_gbs = 0.0;  // measured when a host scan row runs
};

struct bench_case {
  std::size_t table = 0;  // index into plan::tables
  row header;             // names the case; also the error row if it throws
  std::function<std::vector<row>()> measure;
  bool headline = false;  // one of its family's main rows (kept in the headline run)
};

// The sizes of the headline run's GPU rows: one call bound by launch
// latency, one far larger than L2.
inline bool headline_size(int log2_n) {
  return log2_n == 20 || log2_n == 28;
}

// Host rows' problem size: smaller in quick and headline runs.
inline std::size_t host_size(const context& ctx, int log2_full, int log2_small) {
  return std::size_t{1} << (ctx.small_host_rows() ? log2_small : log2_full);
}

struct plan {
  std::vector<table> tables;
  std::vector<bench_case> cases;

  std::size_t add_table(table t) {
    tables.push_back(std::move(t));
    return tables.size() - 1;
  }

  // Keeps the headline cases and the tables they fill.
  void keep_headline_cases();
  // Keeps the cases for which keep(case) is true, and the tables they fill.
  void keep_cases(const std::function<bool(const bench_case&)>& keep);
};

// The rows of one ladder table: one per rung, then the references (the
// production path, the vendor library). Enqueue is what a family's rows
// run; measure(row, enqueue) times one row (it captures the family's shared
// inputs).
template <class Enqueue, class Measure>
struct ladder_rows {
  plan& p;
  std::size_t table;
  row header;
  Measure measure;

  void add(const std::string& implementation, const std::string& variant, const std::string& fixes,
           Enqueue enqueue) {
    row r = header;
    r.implementation = implementation;
    r.variant = variant;
    r.fixes = fixes;
    p.cases.push_back({table, r, [measure = measure, r, enqueue = std::move(enqueue)] {
                         return std::vector<row>{measure(r, enqueue)};
                       }});
  }
  // One row per rung (name, fixes, run); bind(run) makes its Enqueue.
  template <class Rungs, class Bind>
  void add_rungs(const Rungs& rungs, Bind bind) {
    for (const auto& rung : rungs)
      add("gpuprim::ladder", rung.name, rung.fixes, bind(rung.run));
  }
};

template <class Enqueue, class Measure>
ladder_rows<Enqueue, Measure> make_ladder_rows(plan& p, std::size_t table, row header,
                                               Measure measure) {
  return {p, table, std::move(header), std::move(measure)};
}

// "reduce sum float 2^24 cuda", for the progress lines.
std::string describe(const row& header);

// The reduction family: API rows (host and CUDA) or, with `ladder`, the
// ladder tables (CUDA only).
void plan_reduce(const context& ctx, plan& p);
void plan_reduce_ladder(const context& ctx, plan& p);

// The scan family, likewise (bench/scan_bench.cpp).
void plan_scan(const context& ctx, plan& p);
void plan_scan_ladder(const context& ctx, plan& p);

// The segmented family: segmented_reduce against CUB (CUDA) and on the host.
void plan_segmented_reduce(const context& ctx, plan& p);

// The histogram family (bench/histogram_bench.cpp): API rows against
// cub::DeviceHistogram and on the host; the ladder of privatization rungs.
void plan_histogram(const context& ctx, plan& p);
void plan_histogram_ladder(const context& ctx, plan& p);

// Sorting: radix sort rows against cub::DeviceRadixSort and on the host
// (bench/sort_bench.cpp); sorting networks and batched small sorts
// (bench/sorting_network_bench.cpp); the sort ladder (bitonic in global
// memory -> shared-memory merges -> one-bit radix split -> full radix sort,
// in bench/sorting_network_bench.cpp).
void plan_sort(const context& ctx, plan& p);
void plan_sorting_network(const context& ctx, plan& p);
void plan_sort_ladder(const context& ctx, plan& p);

// The dense family: transposes against cuBLAS geam and the copy roofline
// (bench/transpose_bench.cpp), matrix multiplies against cuBLAS and
// OpenBLAS (bench/gemm_bench.cpp), and their ladders.
void plan_transpose(const context& ctx, plan& p);
void plan_transpose_ladder(const context& ctx, plan& p);
void plan_gemm(const context& ctx, plan& p);
void plan_gemm_ladder(const context& ctx, plan& p);
// The convolution family (bench/convolve_bench.cpp): general and separable
// filters against NPP (when found), 8-bit RGB, the host; the ladder.
void plan_convolve(const context& ctx, plan& p);
void plan_convolve_ladder(const context& ctx, plan& p);
// The sparse family (bench/spmv_bench.cpp): SpMV against cusparseSpMV and
// on the host, the ladder of SpMV kernels, and one CG iteration against a
// cuSPARSE + cuBLAS composition.
void plan_spmv(const context& ctx, plan& p);
void plan_spmv_ladder(const context& ctx, plan& p);
void plan_solve(const context& ctx, plan& p);
// Closest pair (bench/closest_pair_bench.cpp): gp::closest_pair on uniform,
// clustered and collinear points (GPU against the CPU backend), each
// algorithm by name, the ladder, and the launch sweep of the quadratic
// kernels (--sweep, CUDA only).
void plan_closest_pair(const context& ctx, plan& p);
void plan_closest_pair_ladder(const context& ctx, plan& p);
void plan_closest_pair_sweep(const context& ctx, plan& p);

}  // namespace gpuprim::bench
