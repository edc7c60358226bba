// What a benchmark run produces (rows grouped in tables, plus the facts
// about the machine), and the Markdown and JSON writers for it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "timing.hpp"

namespace gpuprim::bench {

struct row {
  std::string implementation = "gpuprim";  // or a context row's, "std::accumulate"
  std::string algorithm;                   // "reduce"
  std::string variant;                     // "sum", or a ladder rung's name
  std::string backend;                     // "cuda" or "host"
  std::string type;                        // "float", "double", "int32"
  std::size_t n = 0;                       // what the table's `count` column says
  double bytes = 0;  // the fewest bytes the algorithm must move (0: not counted)
  double flops = 0;  // floating-point operations of one call (0: not counted)
  // The bytes the vendor's call moves when its inputs differ from gpuprim's
  // (e.g. int32 keys for one-byte head flags); 0: the same as `bytes`.
  double vendor_bytes = 0;
  timing measured;
  std::string vendor;  // the anchor's name; "" when there is none
  std::optional<timing> vendor_measured;
  std::string fixes;  // ladder rows: what the rung fixes over the one before
  std::string check;  // "ok" (or "ok; note"), or what was wrong with the result ("" = not checked)
  std::string error;  // set when the row could not be measured

  double gbs() const { return bytes / (measured.median_us * 1e3); }
  double gflops() const { return flops / (measured.median_us * 1e3); }
  // The vendor's GB/s, counting its own bytes (vendor_bytes, or bytes).
  std::optional<double> vendor_gbs() const;
  // CUB time / gpuprim time: above 1 means gpuprim is faster.
  std::optional<double> ratio_to_vendor() const;
  // The same for calls queued back to back (timing::queued_us).
  std::optional<double> queued_ratio_to_vendor() const;
};

// A row named by what ran (algorithm, variant), where (backend), on what
// (type), for how many elements (n), with the bytes its GB/s counts (0:
// not counted).
inline row make_row(std::string algorithm, std::string variant, std::string backend,
                    std::string type, std::size_t n, double bytes = 0) {
  row r;
  r.algorithm = std::move(algorithm);
  r.variant = std::move(variant);
  r.backend = std::move(backend);
  r.type = std::move(type);
  r.n = n;
  r.bytes = bytes;
  return r;
}

// What a row's type column calls T.
template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, float>) {
    return "float";
  } else if constexpr (std::is_same_v<T, double>) {
    return "double";
  } else if constexpr (std::is_same_v<T, std::int32_t>) {
    return "int32";
  } else if constexpr (std::is_same_v<T, std::uint32_t>) {
    return "uint32";
  } else {
    static_assert(std::is_same_v<T, std::uint64_t>, "no type column name for T");
    return "uint64";
  }
}

enum class table_kind { api, ladder };

// The rate a table's rows are compared by: bytes moved (memory-bound
// algorithms), floating-point operations (compute-bound ones), or none
// (the table shows times only).
enum class rate_unit { gbs, gflops, none };

struct table {
  std::string title;
  table_kind kind = table_kind::api;
  rate_unit rate = rate_unit::gbs;
  std::string count = "n";     // the header of the rows' n: "n", "nnz", "m"
  std::string roofline;        // what "% of" refers to, e.g. "copy bw"
  double roofline_rate = 0.0;  // in the table's rate unit (0: no roofline)
  std::vector<std::string> notes;
  std::vector<row> rows;
};

struct run_info {
  std::string date_utc;  // ISO 8601
  std::string device;    // "" when no GPU is used
  std::string compute_capability;
  int multiprocessors = 0;
  std::size_t l2_cache_bytes = 0;
  std::string nvidia_driver;  // kernel module version, "" if unknown
  std::string driver_cuda_version;
  std::string runtime_cuda_version;
  double copy_bandwidth_gbs = 0.0;  // 0: not measured
  std::string host_cpu;
  int host_threads = 0;
  double host_read_bandwidth_gbs = 0.0;  // 0: not measured
  bool quick = false;
  bool sequential = false;         // device sides timed one after the other, not interleaved
  std::vector<std::string> notes;  // e.g. why rows were skipped
};

std::string to_markdown(const run_info& info, const std::vector<table>& tables);
std::string to_json(const run_info& info, const std::vector<table>& tables);

}  // namespace gpuprim::bench
