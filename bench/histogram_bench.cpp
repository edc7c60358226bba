// Benchmark rows of the histogram family (filled in with the family).
#include "plan.hpp"

namespace gpuprim::bench {

void plan_histogram(const context&, plan&) {}
void plan_histogram_ladder(const context&, plan&) {}

}  // namespace gpuprim::bench
