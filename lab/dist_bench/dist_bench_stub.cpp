// `gpuprim bench dist` in a build without MPI.
#include <stdexcept>

#include "dist_bench.hpp"

namespace gpuprim::bench::dist {

int run(bool, const std::string&, const size_options&) {
  throw std::invalid_argument("bench dist: this gpuprim was built without MPI");
}

}  // namespace gpuprim::bench::dist
