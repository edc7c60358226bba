// The subcommands of `gpuprim`, each in its own file. A subcommand registers
// its options on the application and returns the function that runs it
// once the command line has been parsed.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>

namespace CLI {
class App;
}

namespace gpuprim::cli {

inline constexpr int exit_success = 0;
inline constexpr int exit_failure = 1;        // a run-time failure (CUDA error, out of memory)
inline constexpr int exit_bad_input = 2;      // bad arguments or bad input
inline constexpr int exit_not_converged = 3;  // `gpuprim solve`: the iteration did not converge

// Bad arguments or input found after parsing; main prints it and exits 2.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using command = std::function<int()>;

command add_info_command(CLI::App& app);
command add_bench_command(CLI::App& app);
command add_reduce_command(CLI::App& app);
command add_scan_command(CLI::App& app);
command add_histogram_command(CLI::App& app);
command add_sort_command(CLI::App& app);
command add_transpose_command(CLI::App& app);
command add_matmul_command(CLI::App& app);
command add_convolve_command(CLI::App& app);
command add_spmv_command(CLI::App& app);
command add_solve_command(CLI::App& app);
command add_generate_command(CLI::App& app);
command add_closest_pair_command(CLI::App& app);
command add_tune_command(CLI::App& app);
command add_unique_command(CLI::App& app);
command add_topk_command(CLI::App& app);
command add_searchsorted_command(CLI::App& app);


// The backend to use: `requested` ("host" or "cuda"), or when empty, cuda if
// a device is present and host otherwise. Throws usage_error for "cuda"
// without a device.
std::string resolve_backend(const std::string& requested);

}  // namespace gpuprim::cli
