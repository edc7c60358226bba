// The benchmark harness behind `gpuprim-bench` and `gpuprim bench`.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gpuprim::bench {

struct options {
  std::string family = "all";  // a family_names() name or one of its aliases
  // How errors name the program: "gpuprim bench: ..." (gpuprim-bench, the
  // harness on its own, names itself).
  std::string program = "gpuprim bench";
  bool ladder = false;        // print the family's ladder table instead of the API rows
  std::string backend;        // "", "host" or "cuda": "" runs every available one
  std::string json_path;      // write all rows as JSON here ("" = don't)
  std::string markdown_path;  // write the Markdown tables here ("" = don't)
  bool quick = false;         // fewer sizes and repetitions (smoke runs)
  // With family "all" and no --ladder, the default is the headline run: each
  // family's main rows (GPU: 2^20 and 2^28) on the default backend. full
  // runs every row of every family on every available backend instead.
  bool full = false;
  // Time gpuprim's runs and the vendor's one side after the other instead
  // of interleaved (lab/bench/timing.hpp), as the harness did before.
  bool sequential = false;
  // closest_pair: the launch sweep of the quadratic kernels (threads x blocks, occupancy).
  bool sweep = false;
  // Keep only the cases whose description ("sort bitonic_sort uint32 2^20
  // cuda", as the progress lines print it) matches this ECMAScript regular
  // expression ("" = every case).
  std::string only;
};

// The families, comma-separated, and "all": "reduce, scan, ..., all".
std::string family_names();

// One name per family for `gpuprim bench` and `gpuprim tune`: the canonical
// spelling, hyphenated as the CLI's command names (closest-pair, segmented,
// sorting-network), of `name` or of one of its aliases (closest_pair,
// segmented_reduce, segmented-reduce, sorting_network). Any other name comes
// back unchanged.
std::string canonical_family(const std::string& name);

// Runs the benchmarks; progress goes to stderr, the tables to stdout.
// Returns a process exit code: 0 on success, 1 when a case failed (its row
// says why), 2 on bad options or when --backend cuda / --ladder finds no GPU.
int run(const options& opts);

// Device-to-device copy bandwidth of the current GPU in GB/s (bytes read +
// bytes written), measured now with CUDA events: the roofline of every
// memory-bound row. The buffer is max(4 x L2, 1 GiB). Throws gp::cuda_error
// without a device.
double measure_device_copy_bandwidth_gbs();

// This machine's memory read bandwidth in GB/s (all OpenMP threads
// streaming a buffer far larger than the caches), measured now; the
// buffer is 1 GiB unless given.
double measure_host_read_bandwidth_gbs();
double measure_host_read_bandwidth_gbs(std::size_t buffer_bytes);

// This machine's memory copy bandwidth in GB/s (bytes read + bytes written,
// like the device copy): all OpenMP threads copying their own part of a
// buffer far larger than the caches, measured now; 1 GiB each way unless
// given. The roofline of host rows that read and write every element (scan).
double measure_host_copy_bandwidth_gbs();
double measure_host_copy_bandwidth_gbs(std::size_t buffer_bytes);

}  // namespace gpuprim::bench
