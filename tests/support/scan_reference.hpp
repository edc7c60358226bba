// Sequential references for the scan family.
#pragma once

#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

namespace gpuprim::test {

// Inclusive scan with `op`, accumulated in Acc (double for float references).
template <class Acc, class T, class Op>
std::vector<Acc> reference_inclusive_scan(std::span<const T> x, Op op) {
  std::vector<Acc> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    out[i] =
        i == 0 ? static_cast<Acc>(x[0]) : static_cast<Acc>(op(out[i - 1], static_cast<Acc>(x[i])));
  }
  return out;
}

template <class Acc, class T, class Op>
std::vector<Acc> reference_exclusive_scan(std::span<const T> x, Acc init, Op op) {
  std::vector<Acc> out(x.size());
  Acc acc = init;
  for (std::size_t i = 0; i < x.size(); ++i) {
    out[i] = acc;
    acc = static_cast<Acc>(op(acc, static_cast<Acc>(x[i])));
  }
  return out;
}

// Largest |prefix| magnitude bound used to scale float tolerances: for
// values in [-1, 1), the error of a prefix of length i is at most about
// i * eps * max|x|.
template <class T, class Ref>
void expect_scan_near(std::span<const T> got, const std::vector<Ref>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      const double tol = 4.0 * static_cast<double>(i + 2) * std::numeric_limits<T>::epsilon();
      ASSERT_NEAR(static_cast<double>(got[i]), static_cast<double>(want[i]), tol)
          << what << " at " << i << " of " << got.size();
    } else {
      ASSERT_EQ(got[i], static_cast<T>(want[i])) << what << " at " << i << " of " << got.size();
    }
  }
}

}  // namespace gpuprim::test
