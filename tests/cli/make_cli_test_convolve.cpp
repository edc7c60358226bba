// Writes the inputs of the `gpuprim convolve` CLI tests into the directory
// given as the only argument, and the outputs they must produce: the
// expected files are the library's host backend (itself checked against
// the double-precision reference in tests/host/convolve_test.cpp) written
// the way the CLI writes them, so a test checks the command's plumbing:
// file formats, dtypes, channels, the filter spec, the border, the flip.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include "gpuprim/convolve.hpp"
#include "gpuprim/io/npy.hpp"
#include "support/generator.hpp"
#include "support/png_write.hpp"

namespace gp = gpuprim;

namespace {

std::filesystem::path dir;

bool write_png(const std::string& name, std::uint32_t width, std::uint32_t height,
               std::uint32_t format, const std::vector<std::uint8_t>& pixels) {
  return gpuprim::test::write_png(dir / name, width, height, format, pixels);
}

template <class T>
void write_npy(const std::string& name, const std::vector<T>& values,
               std::initializer_list<std::uint64_t> shape) {
  gp::io::write_npy(dir / name, std::span<const T>(values), shape);
}

template <class T>
std::vector<T> pattern(std::size_t n, double scale) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = static_cast<T>(std::sin(0.7 * static_cast<double>(i)) * scale +
                          (std::is_same_v<T, std::uint8_t> ? 128.0 : 0.0));
  return v;
}

// The host backend on a packed image, as the CLI calls it.
template <class T, class F>
std::vector<T> filtered(const std::vector<T>& in, std::size_t rows, std::size_t cols,
                        std::size_t channels, F&& call) {
  std::vector<T> out(in.size());
  call(gp::image_view<const T>(in.data(), rows, cols, channels),
       gp::image_view<T>(out.data(), rows, cols, channels));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const auto folder = gpuprim::test::output_folder(argc, argv);
  if (!folder) return 2;
  dir = *folder;

  // Images.
  const auto gray = pattern<std::uint8_t>(8 * 7, 120.0);
  const auto rgba = pattern<std::uint8_t>(5 * 4 * 4, 127.0);
  const auto f32 = pattern<float>(5 * 6, 1.0);
  const auto f64 = pattern<double>(9 * 4, 2.0);
  bool ok = write_png("gray.png", 7, 8, PNG_FORMAT_GRAY, gray) &&
            write_png("rgba.png", 4, 5, PNG_FORMAT_RGBA, rgba);
  write_npy("image_f32.npy", f32, {5, 6});
  write_npy("image_f64.npy", f64, {9, 4});
  write_npy("cube.npy", f32, {5, 3, 2});
  write_npy("image_i32.npy", std::vector<std::int32_t>(6, 1), {2, 3});
  std::ofstream(dir / "not_a_png.png") << "this is not a PNG file\n";

  // Filters.
  write_npy("identity.npy", std::vector<double>{1.0}, {1, 1});
  const std::vector<double> w2 = {1, -2, 0.5, 3, 0, -1};
  write_npy("filter_3x2.npy", w2, {3, 2});
  const std::vector<float> w1 = {0.25f, 0.5f, 0.25f, 1.0f};
  write_npy("filter_1d.npy", w1, {4});
  write_npy("filter_64.npy", std::vector<double>(64, 1.0), {64, 1});
  write_npy("filter_empty.npy", std::vector<double>{}, {0, 3});

  // Expected outputs.
  const auto box = gp::filters::box_1d(1);
  const auto rgba_box = filtered(rgba, 5, 4, 4, [&](auto in, auto out) {
    gp::convolve_separable(gp::host, in, box, box, out, gp::border::replicate);
  });
  ok = ok && write_png("rgba_box1_replicate.png", 4, 5, PNG_FORMAT_RGBA, rgba_box);
  // sobel-x is scipy.ndimage.sobel(axis=1), a correlation; a PNG holds |v|
  // rounded and saturated (convertScaleAbs).
  const std::vector<float> gray_f(gray.begin(), gray.end());
  const auto gray_sobel_f = filtered(gray_f, 8, 7, 1, [&](auto in, auto out) {
    gp::correlate(gp::host, in, gp::filters::sobel_x(), out);
  });
  std::vector<std::uint8_t> gray_sobel(gray_sobel_f.size());
  for (std::size_t i = 0; i < gray_sobel.size(); ++i)
    gray_sobel[i] =
        static_cast<std::uint8_t>(std::min(std::nearbyint(std::fabs(gray_sobel_f[i])), 255.0f));
  ok = ok && write_png("gray_sobel_x.png", 7, 8, PNG_FORMAT_GRAY, gray_sobel);
  write_npy("f32_laplacian.npy",
            filtered(f32, 5, 6, 1,
                     [&](auto in, auto out) {
                       gp::correlate(gp::host, in, gp::filters::laplacian(), out);
                     }),
            {5, 6});
  const auto g = gp::filters::gaussian_1d(1.0);
  write_npy("f64_gaussian1_mirror.npy",
            filtered(f64, 9, 4, 1,
                     [&](auto in, auto out) {
                       gp::convolve_separable(gp::host, in, g, g, out, gp::border::mirror);
                     }),
            {9, 4});
  write_npy("f32_filter_3x2_correlate_wrap.npy",
            filtered(f32, 5, 6, 1,
                     [&](auto in, auto out) {
                       gp::correlate(gp::host, in, gp::filter(3, 2, w2), out, gp::border::wrap);
                     }),
            {5, 6});
  const std::vector<double> w1d(w1.begin(), w1.end());
  write_npy("f64_filter_1d_zero.npy",
            filtered(f64, 9, 4, 1,
                     [&](auto in, auto out) {
                       gp::convolve_separable(gp::host, in, w1d, w1d, out, gp::border::zero);
                     }),
            {9, 4});
  return ok ? 0 : 1;
}
