// Benchmark rows of the radix sort (filled in with the family).
#include "plan.hpp"

namespace gpuprim::bench {

void plan_sort(const context&, plan&) {}

}  // namespace gpuprim::bench
