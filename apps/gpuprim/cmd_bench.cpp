// `gpuprim bench`: the benchmark harness (lab/bench/) and the distributed
// benchmark (lab/dist_bench/), progress on stderr and tables on stdout.
#include <CLI/CLI.hpp>

#include <memory>
#include <string>

#include "commands.hpp"
#include "lab/bench/bench.hpp"
#include "lab/dist_bench/dist_bench.hpp"

namespace gpuprim::cli {

command add_bench_command(CLI::App& app) {
  auto opts = std::make_shared<bench::options>();
  auto dist_sizes = std::make_shared<bench::dist::size_options>();
  CLI::App* sub = app.add_subcommand(
      "bench",
      "Benchmark a family (or all) against the copy-bandwidth roofline and vendor anchors");
  sub->add_option("family", opts->family,
                  "Algorithm family to run: " + bench::family_names() +
                      ", or dist (under mpirun: the gp::mpi algorithms, local work and "
                      "communication, and with one process gp::multi_gpu over 1 .. all the "
                      "GPUs; a driver of its own) (default: the headline rows of every family). "
                      "Names are spelt as the commands (closest-pair); closest_pair and "
                      "segmented_reduce are taken too, as in `gpuprim tune`")
      ->type_name("FAMILY");
  sub->add_flag("--ladder", opts->ladder,
                "Show the family's optimization ladder (every kernel variant, oldest first)");
  sub->add_option("--json", opts->json_path, "Also write every row as JSON to FILE")
      ->type_name("FILE");
  sub->add_option("--markdown", opts->markdown_path, "Also write the Markdown tables to FILE")
      ->type_name("FILE");
  sub->add_option("--backend", opts->backend,
                  "Run only this backend (default: every available one); dist also takes "
                  "multi_gpu")
      ->check(CLI::IsMember({"host", "cuda", "multi_gpu"}));
  sub->add_flag("--quick", opts->quick, "Fewer sizes and repetitions (a smoke run)");
  sub->add_flag("--full", opts->full,
                "Every row of every family on every backend (default without a family: the "
                "headline rows, GPU sizes 2^20 and 2^28, on the default backend)");
  sub->add_flag("--sequential", opts->sequential,
                "Time all of gpuprim's runs, then all of the vendor's (default: interleaved)");
  sub->add_option("--only", opts->only,
                  "Only the cases whose description (as the progress lines print it) matches this "
                  "regular expression")
      ->option_text("REGEX");
  sub->add_flag("--sweep", opts->sweep,
                "closest-pair: sweep threads per block x blocks per grid of the quadratic kernels, "
                "with their occupancy");
  // The sizes of `bench dist`: a count N or 2^K, and its defaults.
  const auto add_dist_size = [sub](const char* name, std::string& size, const std::string& what,
                                   const char* fallback, const char* quick) {
    sub->add_option(
           name, size,
           "dist: " + what + " (N or 2^K; default " + fallback + ", --quick " + quick + ")")
        ->option_text("N");
  };
  add_dist_size("--per-gpu", dist_sizes->per_gpu,
                "elements per GPU or rank of the weak-scaling rows", "2^24", "2^20");
  add_dist_size("--total", dist_sizes->total, "elements in all of the strong-scaling rows", "2^26",
                "2^22");
  return [opts, dist_sizes] {
    if (opts->family == "dist") {
      if (!opts->only.empty()) throw usage_error("--only is not taken by `gpuprim bench dist`");
      return bench::dist::run(opts->quick, opts->backend, *dist_sizes);
    }
    if (!dist_sizes->per_gpu.empty() || !dist_sizes->total.empty()) {
      throw usage_error("--per-gpu and --total are for `gpuprim bench dist` only");
    }
    if (opts->backend == "multi_gpu") {
      throw usage_error("--backend multi_gpu is for `gpuprim bench dist` only");
    }
    if (!opts->backend.empty()) opts->backend = resolve_backend(opts->backend);
    return bench::run(*opts);
  };
}

}  // namespace gpuprim::cli
