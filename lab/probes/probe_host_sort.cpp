// Host keys-only sort against itself with the vectorised quicksort off
// (the radix sort), one thread, CPU time of the process (the smallest of
// 7; wall time on a shared 2-core machine moves 2x between runs): 10^7
// keys, standard normal floats, integers with every bit random. NumPy's
// side of the comparison: host_sort_numpy.py beside this file, on the same
// keys (the same generator is not needed: both are random keys of one
// distribution). Built on request:
//   cmake --build build/cpu --target gpuprim_lab_probe_host_sort
//   build/cpu/lab/probes/gpuprim_lab_probe_host_sort [n]
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "gpuprim/host/simd_sort.hpp"
#include "gpuprim/sort.hpp"

namespace gp = gpuprim;

namespace {

double cpu_ms() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

template <class K>
std::vector<K> keys_of(std::size_t n) {
  std::mt19937_64 rng(42);
  std::vector<K> keys(n);
  std::normal_distribution<double> normal;
  for (auto& k : keys) {
    if constexpr (std::is_floating_point_v<K>) {
      k = static_cast<K>(normal(rng));
    } else {
      const std::uint64_t r = rng();
      std::memcpy(&k, &r, sizeof k);
    }
  }
  return keys;
}

// The smallest CPU time of 7 out-of-place sorts into a touched output.
template <class K>
double best_ms(const std::vector<K>& in, std::vector<K>& out) {
  double best = 1e30;
  for (int r = 0; r < 7; ++r) {
    std::fill(out.begin(), out.end(), K(0));
    const double t = cpu_ms();
    gp::sort(gp::host.threads(1), in, out);
    best = std::min(best, cpu_ms() - t);
  }
  if (!std::is_sorted(out.begin(), out.end())) std::printf("NOT SORTED\n");
  return best;
}

template <class K>
void row(const char* name, std::size_t n) {
  const std::vector<K> in = keys_of<K>(n);
  std::vector<K> out(n);
  const double simd = best_ms(in, out);
  gp::host_impl::allow_simd_sort(false);
  const double radix = best_ms(in, out);
  gp::host_impl::allow_simd_sort(true);
  std::printf("| %s | %.1f | %.1f |\n", name, simd, radix);
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10000000;
  std::printf("n=%zu, vectorised sort %s\n", n,
              gp::host_impl::simd_sort_available() ? "available" : "NOT available");
  std::printf("| keys | gp::sort, one thread (ms CPU) | radix sort, one thread (ms CPU) |\n");
  std::printf("| --- | ---: | ---: |\n");
  row<float>("float32", n);
  row<std::int32_t>("int32", n);
  row<std::uint32_t>("uint32", n);
  row<double>("float64", n);
  row<std::int64_t>("int64", n);
  row<std::uint64_t>("uint64", n);
}
