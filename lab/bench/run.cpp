// gpuprim::bench::run: checks the options, measures the rooflines, builds
// the plan of the chosen family and runs it, then writes the reports.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bench.hpp"
#include "gpuprim/core/runtime.hpp"
#include "plan.hpp"
#include "system_info.hpp"
#include "timing.hpp"

#if GPUPRIM_HAS_CUDA
#include <cuda_runtime_api.h>

#include "gpuprim/cuda/support/check.cuh"
#endif

namespace gpuprim::bench {
namespace {

#if GPUPRIM_HAS_CUDA
// A non-blocking CUDA stream owned for the length of a benchmark run.
struct stream_destroyer {
  void operator()(cudaStream_t stream) const { cudaStreamDestroy(stream); }
};
using device_stream = std::unique_ptr<std::remove_pointer_t<cudaStream_t>, stream_destroyer>;

device_stream make_device_stream() {
  cudaStream_t stream = nullptr;
  GPUPRIM_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "bench stream");
  return device_stream(stream);
}
#endif

constexpr std::size_t mib = std::size_t{1} << 20;

// How messages name the program (options::program).
std::string program = "gpuprim bench";

int bad_option(const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", program.c_str(), message.c_str());
  return 2;
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream file(path);
  file << text;
  file.close();
  if (!file) {
    std::fprintf(stderr, "%s: cannot write %s\n", program.c_str(), path.c_str());
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

// The families `gpuprim bench` knows, in the order "all" runs them: a name,
// its planners (several for a family whose rows come from several files),
// and whether its host rows need the host copy bandwidth as their roofline.
// Names are canonical (canonical_family). A new family adds one line here
// and declares its planners in plan.hpp.
struct family {
  const char* name;
  std::vector<planners> parts;
  bool host_copy_roofline = false;

  bool has_sweep() const {
    return std::any_of(parts.begin(), parts.end(), [](const planners& q) { return q.sweep; });
  }
};

const family families[] = {
    {"reduce", {reduce_planners()}},
    {"scan", {scan_planners()}, true},
    {"segmented", {segmented_reduce_planners()}},
    {"histogram", {histogram_planners()}},
    {"sort", {sort_planners(), sorting_network_planners()}},
    {"transpose", {transpose_planners()}},
    {"gemm", {gemm_planners()}},
    {"convolve", {convolve_planners()}, true},
    {"spmv", {spmv_planners()}},
    {"solve", {solve_planners()}},
    {"closest-pair", {closest_pair_planners()}},
    {"select", {select_planners()}},
    {"order", {order_planners()}},
};

// Plans one family's part of the run: its sweep, its ladder, or its rows on
// the backends the run uses.
void plan_family(const family& f, const options& opts, const context& ctx, plan& p) {
  const auto call = [&](planner planner) {
    if (planner) planner(ctx, p);
  };
  for (const planners& part : f.parts) {
    if (opts.sweep) {
      call(part.sweep);
    } else if (opts.ladder) {
      call(part.ladder);
    } else {
      if (ctx.cuda) call(part.cuda);
      if (ctx.host) call(part.host);
      call(part.both);
    }
  }
}

}  // namespace

std::string canonical_family(const std::string& name) {
  static const std::pair<const char*, const char*> aliases[] = {
      {"closest_pair", "closest-pair"},
      {"segmented_reduce", "segmented"},
      {"segmented-reduce", "segmented"},
      {"sorting_network", "sorting-network"}};
  for (const auto& [alias, canonical] : aliases) {
    if (name == alias) return canonical;
  }
  return name;
}

std::string family_names() {
  std::string names;
  for (const family& f : families)
    names += std::string(f.name) + ", ";
  return names + "all";
}

void plan::keep_headline_cases() {
  keep_cases([](const bench_case& c) { return c.headline; });
}

void plan::keep_cases(const std::function<bool(const bench_case&)>& keep) {
  std::vector<std::size_t> new_index(tables.size(), tables.size());
  std::vector<table> kept_tables;
  std::vector<bench_case> kept_cases;
  for (bench_case& c : cases) {
    if (!keep(c)) continue;
    if (new_index[c.table] == tables.size()) {
      new_index[c.table] = kept_tables.size();
      kept_tables.push_back(std::move(tables[c.table]));
    }
    c.table = new_index[c.table];
    kept_cases.push_back(std::move(c));
  }
  tables = std::move(kept_tables);
  cases = std::move(kept_cases);
}

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
  program = opts.program;
  const std::string family_name = canonical_family(opts.family);
  std::vector<const family*> chosen;
  for (const family& f : families) {
    if (family_name == "all" || family_name == f.name) chosen.push_back(&f);
  }
  if (chosen.empty()) {
    return bad_option("unknown family '" + opts.family + "' (known: " + family_names() + ")");
  }
  if (opts.sweep && (chosen.size() != 1 || !chosen[0]->has_sweep() || cuda_device_count() == 0)) {
    return bad_option("--sweep: only closest-pair has a launch sweep, and it needs a CUDA device");
  }
  if (!opts.backend.empty() && opts.backend != "host" && opts.backend != "cuda") {
    return bad_option("unknown backend '" + opts.backend + "' (host or cuda)");
  }
  std::optional<std::regex> only;
  if (!opts.only.empty()) {
    try {
      only.emplace(opts.only);
    } catch (const std::regex_error&) {
      return bad_option("--only: '" + opts.only + "' is not a regular expression");
    }
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
  ctx.headline = !opts.full && !opts.ladder && family_name == "all";
  ctx.cuda = has_device && opts.backend != "host";
  // The headline run uses the default backend alone (CUDA when there is a
  // device) unless --backend says otherwise.
  ctx.host =
      !opts.ladder && opts.backend != "cuda" && !(ctx.headline && opts.backend.empty() && ctx.cuda);

  run_info info;
  plan p;
  int failures = 0;
  try {
    info = describe_system(ctx.cuda);
    info.quick = opts.quick;
    info.sequential = opts.sequential;
#if GPUPRIM_HAS_CUDA
    device_timing_order() = opts.sequential ? timing_order::sequential : timing_order::interleaved;
#endif
    if (ctx.headline) {
      info.notes.push_back(
          "Headline run: each family's main rows (GPU: 2^20 and 2^28 elements) on the default "
          "backend; host rows at reduced sizes. `gpuprim bench --full` runs every row.");
    }
    if (!ctx.cuda && opts.backend.empty()) {
      info.notes.push_back(std::string("CUDA rows skipped: ") + no_device_reason + ".");
      std::fprintf(stderr, "%s: CUDA rows skipped: %s\n", program.c_str(), no_device_reason);
    }
#if GPUPRIM_HAS_CUDA
    device_stream stream;
    if (ctx.cuda) {
      stream = make_device_stream();
      ctx.stream = stream.get();
      ctx.l2_cache_bytes = info.l2_cache_bytes;
      std::fprintf(stderr, "[roofline] device-to-device copy bandwidth ...\n");
      info.copy_bandwidth_gbs = ctx.copy_bandwidth_gbs = measure_device_copy_bandwidth_gbs();
    }
#endif
    if (ctx.host) {
      std::fprintf(stderr, "[roofline] host memory read bandwidth ...\n");
      info.host_read_bandwidth_gbs = ctx.host_read_bandwidth_gbs =
          measure_host_read_bandwidth_gbs((opts.quick ? 256 : 1024) * mib);
      if (std::any_of(chosen.begin(), chosen.end(),
                      [](const family* f) { return f->host_copy_roofline; })) {
        std::fprintf(stderr, "[roofline] host memory copy bandwidth ...\n");
        ctx.host_copy_bandwidth_gbs =
            measure_host_copy_bandwidth_gbs((opts.quick ? 256 : 1024) * mib);
      }
    }
    for (const family* f : chosen)
      plan_family(*f, opts, ctx, p);
    if (ctx.headline) p.keep_headline_cases();
    if (only) {
      p.keep_cases(
          [&](const bench_case& c) { return std::regex_search(describe(c.header), *only); });
      if (p.cases.empty()) return bad_option("--only: no case matches '" + opts.only + "'");
    }
    failures = execute(p);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", program.c_str(), e.what());
    return 1;
  }

  const std::string markdown = to_markdown(info, p.tables);
  std::cout << markdown << std::flush;
  bool written = true;
  if (!opts.markdown_path.empty()) written &= write_file(opts.markdown_path, markdown);
  if (!opts.json_path.empty()) written &= write_file(opts.json_path, to_json(info, p.tables));
  if (failures) std::fprintf(stderr, "%s: %d case(s) failed\n", program.c_str(), failures);
  return failures || !written ? 1 : 0;
}

}  // namespace gpuprim::bench
