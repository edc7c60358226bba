// Benchmark rows of the sorting networks and the sort ladder (filled in
// with the family).
#include "plan.hpp"

namespace gpuprim::bench {

void plan_sorting_network(const context&, plan&) {}
void plan_sort_ladder(const context&, plan&) {}

}  // namespace gpuprim::bench
