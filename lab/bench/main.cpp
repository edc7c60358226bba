// gpuprim-bench: the benchmark harness on its own (also `gpuprim bench`).
#include <CLI/CLI.hpp>

#include "bench.hpp"

int main(int argc, char** argv) {
  gpuprim::bench::options opts;
  opts.program = "gpuprim-bench";
  CLI::App app{"Benchmarks of gpuprim against the copy-bandwidth roofline and the vendor library",
               "gpuprim-bench"};
  app.add_option("family", opts.family,
                 "Algorithm family: " + gpuprim::bench::family_names() +
                     " (default: all; closest_pair and segmented_reduce also name closest-pair "
                     "and segmented)")
      ->type_name("FAMILY");
  app.add_flag("--ladder", opts.ladder, "Print the family's ladder of kernel variants (GPU)");
  app.add_option("--backend", opts.backend, "host or cuda (default: every one available)")
      ->check(CLI::IsMember({"host", "cuda"}));
  app.add_option("--json", opts.json_path, "Also write every row as JSON to FILE")
      ->option_text("FILE");
  app.add_option("--markdown", opts.markdown_path, "Also write the Markdown tables to FILE")
      ->option_text("FILE");
  app.add_flag("--quick", opts.quick, "Smaller sizes (the run count stays >= 20)");
  app.add_flag("--full", opts.full,
               "Every row of every family on every backend (default without a family: the "
               "headline rows, GPU sizes 2^20 and 2^28, on the default backend)");
  app.add_flag("--sequential", opts.sequential,
               "Time all of gpuprim's runs, then all of the vendor's (default: interleaved)");
  app.add_option("--only", opts.only,
                 "Only the cases whose description (as the progress lines print it) matches this "
                 "regular expression")
      ->option_text("REGEX");
  app.add_flag("--sweep", opts.sweep,
               "closest-pair: sweep threads per block x blocks per grid of the quadratic kernels");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;  // --help exits 0; bad arguments 2
  }
  return gpuprim::bench::run(opts);
}
