// What a device algorithm's launch path needs from the tuner, and nothing
// more (kept light: every instantiation file of a tuned family includes
// it): the choice for a call, the test hook that reports it, and the
// occupancy report the tuner asks for while it measures.
#pragma once

#include <cstdint>
#include <optional>

#include "gpuprim/tune/config.hpp"

namespace gpuprim::tuning {

// The tuned config for (algorithm, type, n) on the current device: a
// config forced by the tuner on this thread, else the cache's entry of the
// nearest tuned size bucket for that algorithm and type, else nullptr (use
// the default). The cache (tune/cache.hpp) is read on the first call for
// each device.
const config* lookup(algorithm a, element_type type, std::uint64_t n);

// Test hook: which config the last call of algorithm `a` on this thread
// used, and where it came from.
enum class choice_source { default_config, cache, forced };
struct used_config {
  config choice;
  choice_source source = choice_source::default_config;
};
void record_use(algorithm a, const config& c, choice_source source);
std::optional<used_config> last_use(algorithm a);

// What a launch path calls: lookup(), else the space's default, recorded
// for last_use().
used_config choose(algorithm a, element_type type, std::uint64_t n);

// What the occupancy API says of the kernel a candidate launched (the
// largest kernel when a call launches several).
struct kernel_report {
  int registers = 0;          // per thread
  int shared_bytes = 0;       // static + dynamic, per block
  int threads = 0;            // per block
  int max_blocks_per_sm = 0;  // cudaOccupancyMaxActiveBlocksPerMultiprocessor
  int blocks_per_sm = 0;      // what the launch used (<= max for a persistent grid)
  double occupancy = 0.0;     // resident warps / the SM's maximum, at max_blocks_per_sm
};

namespace detail {
// The tuner's override for the calls this thread makes (nullptr: none).
void force(algorithm a, const config* c);
// For the launch paths: does the tuner want the occupancy of the launches
// on this thread, and handing it over.
bool kernel_report_wanted();
// Of a call's kernels the tuner shows the one with the most registers per
// block, or, once a launch path marks one `primary` (the kernel its tuned
// parameter shapes, e.g. the closest pair's cell check rather than the
// radix sort it calls), the largest of the primary ones.
void report_kernel(const kernel_report& report, bool primary = false);
}  // namespace detail

}  // namespace gpuprim::tuning
