// compare_npy OUT EXPECTED.npy RTOL ATOL: exit 0 when OUT holds EXPECTED's
// values, 1 (with one line saying where they differ) when not.
//  - OUT.npy: the same dtype and shape, and every value within
//    ATOL + RTOL * |expected| (NaN matches NaN, inf the same inf).
//  - OUT.png: decoded as 8-bit gray, its pixels exactly EXPECTED's (a 2-D
//    uint8 array of rows x columns).
#include <png.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gpuprim/io/npy.hpp"

namespace io = gpuprim::io;

namespace {

int differ(const std::string& what) {
  std::fprintf(stderr, "compare_npy: %s\n", what.c_str());
  return 1;
}

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string s = "(";
  for (std::uint64_t d : shape)
    s += std::to_string(d) + ",";
  return s + ")";
}

int compare_png(const std::string& out, const io::npy_array& expected) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, out.c_str())) {
    return differ(out + ": " + image.message);
  }
  image.format = PNG_FORMAT_GRAY;
  std::vector<std::uint8_t> pixels(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr)) {
    return differ(out + ": " + image.message);
  }
  const std::vector<std::uint64_t> shape = {image.height, image.width};
  if (expected.type != io::dtype::uint8 || expected.shape != shape) {
    return differ(out + " is " + shape_text(shape) + " pixels; expected a uint8 array " +
                  shape_text(expected.shape));
  }
  const auto want = expected.values<std::uint8_t>();
  for (std::size_t i = 0; i < pixels.size(); ++i) {
    if (pixels[i] != want[i]) {
      return differ(out + ": pixel " + std::to_string(i) + " is " + std::to_string(pixels[i]) +
                    ", expected " + std::to_string(want[i]));
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: compare_npy OUT EXPECTED.npy RTOL ATOL\n");
    return 2;
  }
  const std::string out = argv[1];
  const io::npy_array expected = io::read_npy(argv[2]);
  const double rtol = std::strtod(argv[3], nullptr);
  const double atol = std::strtod(argv[4], nullptr);
  if (out.size() > 4 && out.substr(out.size() - 4) == ".png") return compare_png(out, expected);

  const io::npy_array got = io::read_npy(out);
  if (got.type != expected.type || got.shape != expected.shape) {
    return differ(out + " is " + std::string(io::dtype_name(got.type)) + " " +
                  shape_text(got.shape) + ", expected " +
                  std::string(io::dtype_name(expected.type)) + " " + shape_text(expected.shape));
  }
  const std::vector<double> a = io::values_as<double>(got);
  const std::vector<double> b = io::values_as<double>(expected);
  for (std::size_t i = 0; i < a.size(); ++i) {
    const bool same = (std::isnan(a[i]) && std::isnan(b[i])) || a[i] == b[i] ||
                      std::fabs(a[i] - b[i]) <= atol + rtol * std::fabs(b[i]);
    if (!same) {
      return differ(out + ": element " + std::to_string(i) + " is " + std::to_string(a[i]) +
                    ", expected " + std::to_string(b[i]));
    }
  }
  return 0;
}
