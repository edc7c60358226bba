// gp::tune in a build without CUDA: there is nothing to tune.
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/tune/tuner.hpp"

namespace gpuprim {
namespace tuning {
bool tuning_available() {
  return false;
}
}  // namespace tuning

tuning::tune_result tune(std::string_view, std::string_view, std::uint64_t,
                         const tuning::tune_options&) {
  detail::no_cuda_backend("tune");
}

}  // namespace gpuprim
