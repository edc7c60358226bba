// `--distributed` in a gpuprim built without MPI.
#include "commands.hpp"
#include "options.hpp"

namespace gpuprim::cli {

template <class Options>
int run_distributed(const Options&) {
  throw usage_error(
      "--distributed: this gpuprim was built without MPI (install OpenMPI and reconfigure)");
}

template int run_distributed(const reduce_options&);
template int run_distributed(const scan_options&);
template int run_distributed(const sort_options&);
template int run_distributed(const histogram_options&);

}  // namespace gpuprim::cli
