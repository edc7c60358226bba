// gpuprim: parallel primitives on the CPU and the GPU, from the command line.
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <new>
#include <stdexcept>
#include <string>
#include <variant>

#include "commands.hpp"
#include "gpuprim/core/error.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/io/memory_limit.hpp"
#include "gpuprim/io/npy.hpp"
#include "options.hpp"
#include "progress.hpp"

namespace gpuprim::cli {

backend resolve(backend_request requested) {
  const bool have_device = cuda_device_count() > 0;
  if (requested == backend_request::automatic) {
    return have_device ? backend{cuda} : backend{host};
  }
  if (requested == backend_request::cuda && !have_device) {
    throw usage_error(GPUPRIM_HAS_CUDA
                          ? "--backend cuda: no CUDA device is available"
                          : "--backend cuda: no CUDA device is available (this gpuprim was built "
                            "without the CUDA backend)");
  }
  return requested == backend_request::cuda ? backend{cuda} : backend{host};
}

std::string resolve_backend(const std::string& requested) {
  const backend_request r = requested.empty()     ? backend_request::automatic
                            : requested == "cuda" ? backend_request::cuda
                                                  : backend_request::host;
  return std::holds_alternative<cuda_backend>(resolve(r)) ? "cuda" : "host";
}

CLI::Option* add_backend_option(CLI::App* command, backend_request& requested) {
  return add_choice(command, "--backend", requested,
                    {{"host", backend_request::host}, {"cuda", backend_request::cuda}},
                    "host or cuda (default: cuda when a GPU is present)");
}

// The size of the last allocation that failed (out_of_memory.cpp).
std::size_t failed_allocation_bytes() noexcept;

namespace {

// One line on stderr: "gpuprim <command>: <message>".
int report(int code, const std::string& where, std::string message) {
  for (char& c : message) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  std::fprintf(stderr, "%s: %s\n", where.c_str(), message.c_str());
  return code;
}

int run_guarded(const command& run, const std::string& where) {
  try {
    // Long work reports on stderr once a second (progress.hpp); the
    // reporter stops before an error's line is printed.
    const progress_reporter progress(where);
    return run();
  } catch (const usage_error& e) {
    return report(exit_bad_input, where, e.what());
  } catch (const io::format_error& e) {
    return report(exit_bad_input, where, e.what());
  } catch (const std::invalid_argument& e) {
    return report(exit_bad_input, where, e.what());
  } catch (const std::bad_alloc&) {
    // Sizes read from files are checked before they are allocated; this is
    // a plausible size that the machine cannot give.
    const std::size_t bytes = failed_allocation_bytes();
    return report(exit_bad_input, where,
                  "out of memory: the command needs " +
                      (bytes ? io::gib_text(bytes) + " at once" : std::string("more memory")) +
                      ", more than this machine can give");
  } catch (const std::length_error&) {
    return report(exit_bad_input, where,
                  "out of memory: the command needs an array larger than this machine can give");
  } catch (const cuda_error& e) {
    return report(exit_failure, where, std::string("CUDA error: ") + e.what());
  } catch (const std::exception& e) {
    return report(exit_failure, where, e.what());
  }
}

}  // namespace
}  // namespace gpuprim::cli

// OpenMP threads that wait should sleep, not spin: on a machine whose other
// cores are busy a spinning thread takes the core its partner needs (a
// 2-thread solve ran 3.3x slower with one core taken). The OpenMP runtime
// reads OMP_WAIT_POLICY once, as it loads (before main), so when the user
// did not choose, set it and start this program again; if that fails, run on.
void sleep_while_waiting(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY")) return;
  if (setenv("OMP_WAIT_POLICY", "passive", 1) != 0) return;
  execv("/proc/self/exe", argv);
}

int main(int argc, char** argv) {
  sleep_while_waiting(argv);
  namespace cli = gpuprim::cli;
  CLI::App app{"gpuprim: parallel primitives (reduce, scan, sort, ...) on the CPU and the GPU",
               "gpuprim"};
  app.set_version_flag("--version", "gpuprim " GPUPRIM_VERSION);
  app.require_subcommand(1);

  std::map<std::string, cli::command> commands;
  commands["info"] = cli::add_info_command(app);
  commands["bench"] = cli::add_bench_command(app);
  commands["reduce"] = cli::add_reduce_command(app);
  commands["scan"] = cli::add_scan_command(app);
  commands["histogram"] = cli::add_histogram_command(app);
  commands["sort"] = cli::add_sort_command(app);
  commands["transpose"] = cli::add_transpose_command(app);
  commands["matmul"] = cli::add_matmul_command(app);
  commands["convolve"] = cli::add_convolve_command(app);
  commands["spmv"] = cli::add_spmv_command(app);
  commands["solve"] = cli::add_solve_command(app);
  commands["generate"] = cli::add_generate_command(app);
  commands["closest-pair"] = cli::add_closest_pair_command(app);
  commands["tune"] = cli::add_tune_command(app);
  commands["unique"] = cli::add_unique_command(app);
  commands["topk"] = cli::add_topk_command(app);
  commands["searchsorted"] = cli::add_searchsorted_command(app);

  // CLI11 would only say "A subcommand is required" for a misspelt one.
  if (argc > 1 && argv[1][0] != '-' && !commands.contains(argv[1])) {
    std::string names;
    for (const auto& [name, run] : commands)
      names += (names.empty() ? "" : ", ") + name;
    return cli::report(cli::exit_bad_input, "gpuprim",
                       std::string("unknown command '") + argv[1] + "' (commands: " + names +
                           "; run with --help for usage)");
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
      return app.exit(e);  // --help, --version
    }
    // Named after the subcommand when there is one: "gpuprim scan: ...".
    const std::string where =
        argc > 1 && commands.contains(argv[1]) ? std::string("gpuprim ") + argv[1] : "gpuprim";
    const std::string help = where == "gpuprim" ? "gpuprim --help" : where + " --help";
    return cli::report(cli::exit_bad_input, where,
                       std::string(e.what()) + " (run `" + help + "` for usage)");
  }
  const std::string name = app.get_subcommands().front()->get_name();
  return cli::run_guarded(commands.at(name), "gpuprim " + name);
}
