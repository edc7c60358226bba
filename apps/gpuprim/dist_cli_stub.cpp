// `--distributed` in a gpuprim built without MPI.
#include "commands.hpp"

namespace gpuprim::cli {

int run_distributed(const distributed_request&) {
  throw usage_error(
      "--distributed: this gpuprim was built without MPI (install OpenMPI and reconfigure)");
}

int run_dist_bench(bool, const std::string&, const dist_bench_sizes&) {
  throw usage_error("bench dist: this gpuprim was built without MPI");
}

}  // namespace gpuprim::cli
