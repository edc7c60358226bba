// Sums a vector on the CPU and, when a GPU is present, on the GPU, from a
// program compiled by g++ alone. Prints both and exits non-zero on mismatch.
#include <gpuprim/reduce.hpp>

#include <cstdio>
#include <numeric>
#include <vector>

namespace gp = gpuprim;

int main() {
  std::vector<int> values(1'000'003);
  std::iota(values.begin(), values.end(), -500'000);
  const long long expected = std::accumulate(values.begin(), values.end(), 0LL);

  const std::int64_t on_host = gp::transform_reduce(gp::host, values, std::int64_t{0}, gp::plus{},
                                                    [](int v) { return std::int64_t{v}; });
  std::printf("host: %lld\n", static_cast<long long>(on_host));
  if (on_host != expected) return 1;

  if (gp::cuda_device_count() == 0) {
    std::printf("cuda: no device, skipped\n");
    return 0;
  }
  const gp::device_vector<int> d = gp::to_device(values);
  const int on_gpu = gp::reduce(gp::cuda, d, 0);
  const auto smallest = gp::min_element(gp::cuda, d);
  std::printf("cuda: %d, min %d at %llu\n", on_gpu, smallest.value,
              static_cast<unsigned long long>(smallest.index));
  return on_gpu == static_cast<int>(expected) && smallest.index == 0 ? 0 : 1;
}
