// gpuprim::bench::run: checks the options, measures the rooflines, builds
// the plan of the chosen family and runs it, then writes the reports.
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <optional>

#include "bench.hpp"
#include "gpuprim/core/runtime.hpp"
#include "plan.hpp"
#include "system_info.hpp"

namespace gpuprim::bench {
namespace {

constexpr std::size_t mib = std::size_t{1} << 20;

int bad_option(const std::string& message) {
  std::fprintf(stderr, "gpuprim-bench: %s\n", message.c_str());
  return 2;
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream file(path);
  file << text;
  file.close();
  if (!file) {
    std::fprintf(stderr, "gpuprim-bench: cannot write %s\n", path.c_str());
    return false;
  }
  std::fprintf(stderr, "wrote %s\n", path.c_str());
  return true;
}

// Runs every case; a case that throws becomes an error row. Returns the
// number of failed cases.
int execute(plan& p) {
  int failures = 0;
  const std::size_t total = p.cases.size();
  for (std::size_t i = 0; i < total; ++i) {
    const bench_case& c = p.cases[i];
    std::fprintf(stderr, "[%zu/%zu] %s ...\n", i + 1, total, describe(c.header).c_str());
    try {
      for (row& r : c.measure())
        p.tables[c.table].rows.push_back(std::move(r));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "  failed: %s\n", e.what());
      row failed = c.header;
      failed.error = e.what();
      p.tables[c.table].rows.push_back(std::move(failed));
      ++failures;
    }
  }
  return failures;
}

}  // namespace

std::string describe(const row& header) {
  std::string n = std::to_string(header.n);
  if (header.n != 0 && (header.n & (header.n - 1)) == 0) {
    int log2 = 0;
    while ((std::size_t{1} << log2) != header.n)
      ++log2;
    n = "2^" + std::to_string(log2);
  }
  return header.algorithm + " " + header.variant + " " + header.type + " " + n + " " +
         header.backend;
}

int run(const options& opts) {
  const bool run_reduce = opts.family == "all" || opts.family == "reduce";
  const bool run_segmented = opts.family == "all" || opts.family == "segmented_reduce";
  const bool run_scan = opts.family == "all" || opts.family == "scan";
  const bool run_histogram = opts.family == "all" || opts.family == "histogram";
  const bool run_sort = opts.family == "all" || opts.family == "sort";
  const bool run_closest_pair = opts.family == "all" || opts.family == "closest_pair";
  if (!run_reduce && !run_segmented && !run_scan && !run_histogram && !run_sort &&
      !run_closest_pair) {
    return bad_option("unknown family '" + opts.family +
                      "' (known: reduce, scan, segmented_reduce, histogram, sort, closest_pair, "
                      "all)");
  }
  if (opts.sweep && (opts.family != "closest_pair" || cuda_device_count() == 0)) {
    return bad_option(
        "--sweep: only `closest_pair` has a launch sweep, and it needs a CUDA device");
  }
  if (!opts.backend.empty() && opts.backend != "host" && opts.backend != "cuda") {
    return bad_option("unknown backend '" + opts.backend + "' (host or cuda)");
  }
  const bool has_device = cuda_device_count() > 0;
  const char* no_device_reason =
      GPUPRIM_HAS_CUDA ? "no CUDA device found" : "this build of gpuprim has no CUDA backend";
  if (opts.backend == "cuda" && !has_device) {
    return bad_option(std::string("--backend cuda: ") + no_device_reason);
  }
  if (opts.ladder && opts.backend == "host") {
    return bad_option("--ladder: the ladder's kernels run on the GPU; use --backend cuda");
  }
  if (opts.ladder && !has_device) {
    return bad_option(std::string("--ladder needs a CUDA device: ") + no_device_reason);
  }

  context ctx;
  ctx.quick = opts.quick;
  ctx.cuda = has_device && opts.backend != "host";
  ctx.host = !opts.ladder && opts.backend != "cuda";

  run_info info;
  plan p;
  int failures = 0;
  try {
    info = describe_system(ctx.cuda);
    info.quick = opts.quick;
    info.sequential = opts.sequential;
#if GPUPRIM_HAS_CUDA
    set_device_timing_order(opts.sequential ? timing_order::sequential : timing_order::interleaved);
#endif
    if (!ctx.cuda && opts.backend.empty()) {
      info.notes.push_back(std::string("CUDA rows skipped: ") + no_device_reason + ".");
      std::fprintf(stderr, "gpuprim-bench: CUDA rows skipped: %s\n", no_device_reason);
    }
#if GPUPRIM_HAS_CUDA
    std::optional<device_stream> stream;
    if (ctx.cuda) {
      stream.emplace();
      ctx.stream = stream->get();
      ctx.l2_cache_bytes = info.l2_cache_bytes;
      std::fprintf(stderr, "[roofline] device-to-device copy bandwidth ...\n");
      info.copy_bandwidth_gbs = ctx.copy_bandwidth_gbs = measure_device_copy_bandwidth_gbs();
    }
#endif
    if (ctx.host) {
      std::fprintf(stderr, "[roofline] host memory read bandwidth ...\n");
      info.host_read_bandwidth_gbs = ctx.host_read_bandwidth_gbs =
          measure_host_read_bandwidth_gbs((opts.quick ? 256 : 1024) * mib);
      if (run_scan) {
        std::fprintf(stderr, "[roofline] host memory copy bandwidth ...\n");
        ctx.host_copy_bandwidth_gbs =
            measure_host_copy_bandwidth_gbs((opts.quick ? 256 : 1024) * mib);
      }
    }
    if (opts.ladder) {
      if (run_reduce) plan_reduce_ladder(ctx, p);  // (segmented_reduce has no ladder yet)
      if (run_scan) plan_scan_ladder(ctx, p);
      if (run_histogram) plan_histogram_ladder(ctx, p);
      if (run_sort) plan_sort_ladder(ctx, p);
      if (run_closest_pair) plan_closest_pair_ladder(ctx, p);
    } else if (opts.sweep) {
      plan_closest_pair_sweep(ctx, p);
    } else {
      if (run_reduce) plan_reduce(ctx, p);
      if (run_scan) plan_scan(ctx, p);
      if (run_segmented) plan_segmented_reduce(ctx, p);
      if (run_histogram) plan_histogram(ctx, p);
      if (run_sort) {
        plan_sort(ctx, p);
        plan_sorting_network(ctx, p);
      }
      if (run_closest_pair) plan_closest_pair(ctx, p);
    }
    failures = execute(p);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpuprim-bench: %s\n", e.what());
    return 1;
  }

  const std::string markdown = to_markdown(info, p.tables);
  std::cout << markdown << std::flush;
  bool written = true;
  if (!opts.markdown_path.empty()) written &= write_file(opts.markdown_path, markdown);
  if (!opts.json_path.empty()) written &= write_file(opts.json_path, to_json(info, p.tables));
  if (failures) std::fprintf(stderr, "gpuprim-bench: %d case(s) failed\n", failures);
  return failures || !written ? 1 : 0;
}

}  // namespace gpuprim::bench
