// `--distributed` in a gpuprim built without MPI.
#include "commands.hpp"

namespace gpuprim::cli {

int run_distributed(const distributed_request&) {
  throw usage_error(
      "--distributed: this gpuprim was built without MPI (install OpenMPI and reconfigure)");
}

}  // namespace gpuprim::cli
