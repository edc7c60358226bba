// A benchmark run is a plan: the tables to print and the cases that fill
// them. Each family adds its tables and cases; run.cpp executes the cases in
// order, printing progress, and a case that throws leaves an error row.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "anchors.hpp"
#include "gpuprim/core/device_span.hpp"
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

// The bandwidths of this run a table's rows are compared with.
enum class roofline { device_copy, host_read, host_copy };

// A table of API rows titled `title`, against `r` as measured in this run,
// with its notes.
inline table api_table(const context& ctx, std::string title, roofline r,
                       std::vector<std::string> notes = {}) {
  table t;
  t.title = std::move(title);
  t.notes = std::move(notes);
  switch (r) {
    case roofline::device_copy:
      t.roofline = "copy bw";
      t.roofline_rate = ctx.copy_bandwidth_gbs;
      break;
    case roofline::host_read:
      t.roofline = "host read bw";
      t.roofline_rate = ctx.host_read_bandwidth_gbs;
      break;
    case roofline::host_copy:
      t.roofline = "host copy bw";
      t.roofline_rate = ctx.host_copy_bandwidth_gbs;
      break;
  }
  return t;
}

// Sentences that the tables' notes share, word for word.
// "CUDA events around each call; GB/s counts <bytes>; % of the
// device-to-device copy bandwidth of this run."
inline std::string device_events_note(const std::string& bytes) {
  return "CUDA events around each call; GB/s counts " + bytes +
         "; % of the device-to-device copy bandwidth of this run.";
}
// "vendor / gpuprim above 1 means gpuprim is faster; <check>"
inline std::string faster_note(const std::string& check) {
  return "vendor / gpuprim above 1 means gpuprim is faster; " + check;
}
// The cases of a family's list that this run keeps: every one, or in quick
// runs only those marked in_quick_runs.
template <class Case, std::size_t N>
std::vector<Case> kept_cases(const context& ctx, const Case (&cases)[N]) {
  std::vector<Case> kept;
  for (const Case& c : cases)
    if (!ctx.quick || c.in_quick_runs) kept.push_back(c);
  return kept;
}

// A ladder table titled `title`, against the device copy bandwidth (the
// report explains the ladder's columns above its own notes).
inline table ladder_table(const context& ctx, std::string title) {
  table t = api_table(ctx, std::move(title), roofline::device_copy);
  t.kind = table_kind::ladder;
  return t;
}

// Enqueues one call of a span -> span ladder row (reduce, scan) on the
// stream the row was made for.
template <class T>
using span_enqueuer = std::function<void(device_span<const T> in, device_span<T> out)>;

#if GPUPRIM_HAS_CUDA
// Times gpuprim's calls (ours) and the vendor's side by side (interleaved
// unless --sequential) into r.measured and r.vendor_measured.
inline void time_device_pair(row& r, stream_t stream, const std::function<void(int run)>& ours,
                             const std::function<void(int run)>& vendor) {
  const paired_timing t = time_device_pair(stream, ours, vendor);
  r.measured = t.ours;
  r.vendor_measured = t.vendor;
}

// A ladder table whose rungs map one span to another (reduce, scan): one
// row per rung, then the production path (production(kind, in, out,
// stream)) and CUB's `kind` (cub_span_anchor over header.n elements), for
// reference, as a note above the table's own says. CUB's anchor is made on
// its row's first call, a warm-up, so that its allocation is not timed.
// measure(row, enqueue) times and checks one row.
template <class T, class Kind, class Rungs, class Measure>
void add_span_ladder(plan& p, table t, row header, stream_t stream, const Rungs& rungs,
                     Measure measure, const std::string& production_name,
                     void (*production)(Kind, device_span<const T>, device_span<T>, stream_t),
                     Kind kind) {
  t.notes.insert(t.notes.begin(),
                 "The last two rows are the production path and CUB, for reference.");
  const std::size_t n = header.n;
  auto rows = make_ladder_rows<span_enqueuer<T>>(p, p.add_table(std::move(t)), std::move(header),
                                                 std::move(measure));
  rows.add_rungs(rungs, [stream](auto run) -> span_enqueuer<T> {
    return [run, stream](device_span<const T> in, device_span<T> out) { run(in, out, stream); };
  });
  rows.add("gpuprim", production_name, "(reference) the production path",
           [production, kind, stream](device_span<const T> in, device_span<T> out) {
             production(kind, in, out, stream);
           });
  const auto vendor = std::make_shared<std::unique_ptr<cub_span_anchor<T, Kind>>>();
  rows.add("cub", cub_span_anchor<T, Kind>::name(kind), "(reference) the vendor library",
           [vendor, kind, n, stream](device_span<const T> in, device_span<T> out) {
             if (!*vendor) *vendor = std::make_unique<cub_span_anchor<T, Kind>>(kind, n, stream);
             (*vendor)->enqueue(in.data(), out.data());
           });
}
#endif

// "reduce sum float 2^24 cuda", for the progress lines.
std::string describe(const row& header);

// A family's planners: each adds tables and cases to the plan. The harness
// (run.cpp) calls `cuda` when CUDA rows run, `host` when host rows run,
// `both` always (a planner that puts both backends in one table and looks
// at ctx itself), `ladder` with --ladder and `sweep` with --sweep (both
// CUDA only). Null where the family has none; a planner of CUDA code is
// null in a build without CUDA (GPUPRIM_BENCH_CUDA).
using planner = void (*)(const context& ctx, plan& p);
struct planners {
  planner cuda = nullptr;
  planner host = nullptr;
  planner both = nullptr;
  planner ladder = nullptr;
  planner sweep = nullptr;
};

// The planner given in a build with CUDA, nullptr without.
#if GPUPRIM_HAS_CUDA
#define GPUPRIM_BENCH_CUDA(...) __VA_ARGS__
#else
#define GPUPRIM_BENCH_CUDA(...) nullptr
#endif

// The planners of a family with CUDA rows, host rows and a ladder (the
// last argument, which may be a lambda).
#define GPUPRIM_BENCH_PLANNERS(cuda_rows, host_rows, ...)     \
  planners {                                                  \
    .cuda = GPUPRIM_BENCH_CUDA(cuda_rows), .host = host_rows, \
    .ladder = GPUPRIM_BENCH_CUDA(__VA_ARGS__)                 \
  }

// Each family's planners, in lab/bench/<family>_bench.cpp:
// - reduce: sums and other operators against CUB, and on the host; the
//   ladder of sum kernels.
// - scan: scans and segmented scans against CUB, and on the host; the ladder.
// - segmented_reduce: segmented_reduce against CUB, and on the host.
// - histogram: against cub::DeviceHistogram, and on the host; the ladder of
//   privatization rungs.
// - sort: radix sort against cub::DeviceRadixSort, and on the host.
// - sorting_network: sorting networks and batched small sorts; the sort
//   ladder (bitonic in global memory -> shared-memory merges -> one-bit radix
//   split -> full radix sort).
// - transpose: against cuBLAS geam and the copy roofline; its ladder.
// - gemm: against cuBLAS and OpenBLAS; the fp32 and tensor-core ladders.
// - convolve: general and separable filters against NPP (when found), 8-bit
//   RGB, the host; the ladder.
// - spmv: against cusparseSpMV, and on the host; the ladder of SpMV kernels.
// - solve: one CG iteration against a cuSPARSE + cuBLAS composition.
// - closest_pair: gp::closest_pair on uniform, clustered and collinear
//   points (GPU against the CPU backend), each algorithm by name; the
//   ladder; the launch sweep of the quadratic kernels.
planners reduce_planners();
planners scan_planners();
planners segmented_reduce_planners();
planners histogram_planners();
planners sort_planners();
planners sorting_network_planners();
planners transpose_planners();
planners gemm_planners();
planners convolve_planners();
planners spmv_planners();
planners solve_planners();
planners closest_pair_planners();
// - select: the selections against CUB (DeviceSelect, DevicePartition,
//   DeviceRunLengthEncode, DeviceReduce::ReduceByKey), and on the host; the
//   compaction ladder (lab/bench/select_bench.cpp).
planners select_planners();
// - order: merge sort of a 16-byte record against cub::DeviceMergeSort,
//   merge, top-k (one array and short rows), searchsorted; the top-k ladder
//   (lab/bench/order_bench.cpp).
planners order_planners();

}  // namespace gpuprim::bench
