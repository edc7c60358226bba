// The convolution family's rows (DESIGN.md sections 6 and 7): gp::correlate
// and gp::correlate_separable on 8192^2 float images against NPP's
// nppiFilter_32f_C1R (general k x k) and nppiFilterRow + nppiFilterColumn
// (separable), an 8-bit RGB 4096^2 Gaussian 5x5 against
// nppiFilterGaussBorder_8u_C3R, the host's separable Gaussian, and the
// ladder of rungs on 8192^2 with a 9 x 9 filter (and its rungs from the
// register-blocked one on with 5 x 5 and 17 x 17).
//
// A filter reads and writes every pixel once at least, so GB/s counts
// pixels x (sizeof(T) read + sizeof(T) written); Gpixel/s is GB/s / 8 for
// float images and GB/s / 6 for 8-bit RGB. The filters are symmetric
// (outer products of symmetric 1-D taps), so NPP's reversed-coefficient
// convention computes the same thing. NPP has no border handling: every
// image lives inside a buffer with a 32-pixel margin of real data that NPP
// reads; gpuprim reads the same buffer's ROI with its reflect border. The
// check compares the two outputs away from the edges.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gpuprim/convolve.hpp"
#include "inputs.hpp"
#include "plan.hpp"

#if GPUPRIM_HAS_CUDA
#include "anchors_npp_convolve.hpp"
#include "lab/ladder/convolve_ladder.hpp"
#endif

namespace gpuprim::bench {
namespace {

constexpr std::uint64_t input_seed = 20261124;
constexpr std::size_t margin = 32;  // pixels of real data around each image (NPP reads them)

// Symmetric 1-D taps of side k, all positive, summing to 1.
std::vector<double> symmetric_taps(int k) {
  std::vector<double> t(static_cast<std::size_t>(k));
  double sum = 0;
  for (int i = 0; i < k; ++i) {
    const int d = std::abs(i - k / 2);
    t[static_cast<std::size_t>(i)] = 1.0 + 0.25 * static_cast<double>((d * 7) % 5);
    sum += t[static_cast<std::size_t>(i)];
  }
  for (double& v : t)
    v /= sum;
  return t;
}

row make_header(const std::string& variant, const char* backend, const char* type,
                std::size_t pixels, double bytes_per_pixel) {
  return make_row("convolve", variant, backend, type, pixels,
                  static_cast<double>(pixels) * bytes_per_pixel);
}

// ---- host -----------------------------------------------------------------

std::vector<row> measure_host_separable(row r, std::size_t side, int k) {
  const host_array<float> image = random_host_array<float>(side * side, input_seed);
  std::vector<float> out(side * side);
  const auto taps = filters::gaussian_1d(static_cast<double>(k / 2) / 4.0, k / 2);
  matrix_view<const float> in(image.data.get(), side, side);
  matrix_view<float> o(out.data(), side, side);
  r.measured = time_host([&](int) { correlate_separable(host, in, taps, taps, o); });
  // Check one row against the general host path on a band of the image.
  const std::size_t band = 64;
  std::vector<float> general(band * side);
  std::vector<float> sub(band * side);
  correlate(host, matrix_view<const float>(image.data.get(), band, side), filter::outer(taps, taps),
            matrix_view<float>(general.data(), band, side));
  correlate_separable(host, matrix_view<const float>(image.data.get(), band, side), taps, taps,
                      matrix_view<float>(sub.data(), band, side));
  double worst = 0;
  for (std::size_t i = 0; i < general.size(); ++i)
    worst = std::max(worst, std::fabs(static_cast<double>(general[i]) - sub[i]));
  r.check = worst < 1e-5 ? "ok" : "separable differs from general by " + std::to_string(worst);
  return {r};
}

std::vector<row> measure_host_general(row r, std::size_t side, int k) {
  const host_array<float> image = random_host_array<float>(side * side, input_seed);
  std::vector<float> out(side * side);
  const auto taps = symmetric_taps(k);
  const filter f = filter::outer(taps, taps);
  matrix_view<const float> in(image.data.get(), side, side);
  matrix_view<float> o(out.data(), side, side);
  r.measured = time_host([&](int) { correlate(host, in, f, o); });
  r.check = std::isfinite(out[side * side / 2]) ? "ok" : "not finite";
  return {r};
}

void plan_host_rows(const context& ctx, plan& p) {
  const std::size_t index = p.add_table(api_table(
      ctx, "convolve (host)", roofline::host_copy,
      {
          "gpuprim::correlate_separable / correlate (gp::host, all OpenMP threads) on float "
          "images, border reflect, timed with steady_clock.",
          "GB/s counts 8 bytes per pixel (one read, one write); Gpixel/s = GB/s / 8. The roofline "
          "is the host's copy bandwidth (read + write) measured in this run.",
          "check: the separable path against the general path with the outer-product filter.",
      }));
  const std::size_t side = ctx.small_host_rows() ? 2048 : 4096;
  for (int k : {9, 17}) {
    const row h =
        make_header("separable gaussian k=" + std::to_string(k), "host", "float", side * side, 8);
    p.cases.push_back(
        {index, h, [h, side, k] { return measure_host_separable(h, side, k); }, k == 9});
  }
  const row g = make_header("general 5x5", "host", "float", side * side, 8);
  p.cases.push_back({index, g, [g, side] { return measure_host_general(g, side, 5); }});
}

// ---- CUDA -----------------------------------------------------------------

#if GPUPRIM_HAS_CUDA

// A side x side image of T (channels interleaved) inside a buffer with a
// `margin`-pixel border of real data, and an output of the same layout.
template <class T>
struct padded_images {
  std::size_t side;
  std::size_t channels;
  std::size_t ld;  // elements per buffer row
  device_vector<T> in;
  device_vector<T> out;
  device_vector<T> tmp;  // NPP's separable intermediate

  padded_images(std::size_t s, std::size_t c, bool with_tmp)
      : side(s), channels(c), ld((s + 2 * margin) * c) {
    const std::size_t elements = (s + 2 * margin) * ld;
    host_array<T> values{std::unique_ptr<T[]>(new T[elements]), elements};
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < elements; ++i) {
      if constexpr (std::is_same_v<T, std::uint8_t>) {
        values.data[i] = static_cast<T>(mix_bits(input_seed ^ i) >> 56);
      } else {
        values.data[i] = random_value<T>(input_seed, i);
      }
    }
    in = to_device(std::span<const T>(values.data.get(), elements));
    out = device_vector<T>(elements);
    if (with_tmp) tmp = device_vector<T>(elements);
  }
  std::size_t roi_offset() const {
    return margin * ld + margin * channels;
  }
  const T* in_roi() const {
    return in.data() + roi_offset();
  }
  T* out_roi() {
    return out.data() + roi_offset();
  }
  T* tmp_roi() {
    return tmp.data() + roi_offset();
  }
  int step() const {
    return static_cast<int>(ld * sizeof(T));
  }
  device_image_view<const T> in_view() const {
    return device_image_view<const T>(in_roi(), 1, side, side, channels, ld, side * ld);
  }
  device_image_view<T> out_view() {
    return device_image_view<T>(out_roi(), 1, side, side, channels, ld, side * ld);
  }
  // The ROI of `out` on the host, packed.
  std::vector<T> roi_to_host() const {
    const std::vector<T> all = to_host(out);
    std::vector<T> roi(side * side * channels);
    for (std::size_t r = 0; r < side; ++r)
      std::copy_n(all.begin() + static_cast<std::ptrdiff_t>(roi_offset() + r * ld), side * channels,
                  roi.begin() + static_cast<std::ptrdiff_t>(r * side * channels));
    return roi;
  }
};

// Largest difference between two packed images, `skip` pixels from the edges.
template <class T>
double interior_difference(const std::vector<T>& a, const std::vector<T>& b, std::size_t side,
                           std::size_t channels, std::size_t skip) {
  double worst = 0;
  for (std::size_t r = skip; r + skip < side; ++r) {
    for (std::size_t x = skip * channels; x + skip * channels < side * channels; ++x) {
      const std::size_t i = r * side * channels + x;
      const double d = std::fabs(static_cast<double>(a[i]) - static_cast<double>(b[i]));
      if (!(d <= worst)) worst = d;  // NaN too
    }
  }
  return worst;
}

std::string compare(double worst, double tolerance, const char* vendor) {
  if (worst <= tolerance) return "ok";
  char text[120];
  std::snprintf(text, sizeof text, "differs from %s by %.3g inside", vendor, worst);
  return text;
}

struct float_case {
  bool separable;
  int k;
  bool in_quick_runs;
};
constexpr float_case float_cases[] = {
    {false, 3, true}, {false, 5, true}, {false, 9, false}, {false, 17, true},
    {true, 3, false}, {true, 9, true},  {true, 17, true},
};

std::vector<row> measure_cuda_float(const context& ctx, row r, float_case c, std::size_t side) {
  padded_images<float> img(side, 1, c.separable);
  const stream_t stream = ctx.stream;
  const auto taps = symmetric_taps(c.k);
  const filter f = filter::outer(taps, taps);
  auto ours = [&](int) {
    if (c.separable) {
      correlate_separable(cuda.on(stream), img.in_view(), taps, taps, img.out_view());
    } else {
      correlate(cuda.on(stream), img.in_view(), f, img.out_view());
    }
  };
  const npp_convolve npp(stream);
  if (!npp_available()) {
    r.vendor = "NPP not available";
    r.measured = time_device(stream, ours);
    r.check = "not compared";
    return {r};
  }
  std::vector<float> weights(c.separable ? taps.size() : f.weights().size());
  if (c.separable) {
    std::copy(taps.begin(), taps.end(), weights.begin());
  } else {
    std::copy(f.weights().begin(), f.weights().end(), weights.begin());
  }
  const device_vector<float> d_weights = to_device(weights);
  device_vector<float> npp_out(img.out.size());
  auto vendor = [&](int) {
    float* dst = npp_out.data() + img.roi_offset();
    if (c.separable) {
      npp.separable(img.in_roi(), img.step(), img.tmp_roi(), img.step(), dst, img.step(), int(side),
                    int(side), d_weights.data(), c.k);
    } else {
      npp.general(img.in_roi(), img.step(), dst, img.step(), int(side), int(side), d_weights.data(),
                  c.k);
    }
  };
  r.vendor = c.separable ? npp_convolve::separable_name() : npp_convolve::general_name();
  time_device_pair(r, stream, ours, vendor);
  img.out.fill_bytes(0x7F);
  ours(0);
  vendor(0);
  synchronize(stream);
  const std::vector<float> mine = img.roi_to_host();
  std::swap(img.out, npp_out);
  const std::vector<float> theirs = img.roi_to_host();
  std::swap(img.out, npp_out);
  r.check = compare(interior_difference(mine, theirs, side, 1, static_cast<std::size_t>(c.k)), 1e-5,
                    "NPP");
  return {r};
}

std::vector<row> measure_cuda_rgb_gauss(const context& ctx, row r, std::size_t side) {
  padded_images<std::uint8_t> img(side, 3, false);
  const stream_t stream = ctx.stream;
  const auto taps = filters::gaussian_1d(1.0, 2);
  auto ours = [&](int) {
    correlate_separable(cuda.on(stream), img.in_view(), taps, taps, img.out_view(),
                        border::replicate);
  };
  const npp_convolve npp(stream);
  // Check against the host backend on the same ROI.
  auto check_against_host = [&] {
    const std::vector<std::uint8_t> all = to_host(img.in);
    std::vector<std::uint8_t> expected(side * side * 3);
    correlate_separable(host,
                        image_view<const std::uint8_t>(all.data() + img.roi_offset(), 1, side, side,
                                                       3, img.ld, side * img.ld),
                        taps, taps, image_view<std::uint8_t>(expected.data(), side, side, 3),
                        border::replicate);
    img.out.fill_bytes(0);
    ours(0);
    synchronize(stream);
    return compare(interior_difference(img.roi_to_host(), expected, side, 3, 0), 1.0,
                   "the host backend");
  };
  if (!npp_available()) {
    r.vendor = "NPP not available";
    r.measured = time_device(stream, ours);
  } else {
    device_vector<std::uint8_t> npp_out(img.out.size());
    auto vendor = [&](int) {
      npp.gauss5_rgb8(img.in_roi(), img.step(), npp_out.data() + img.roi_offset(), img.step(),
                      int(side), int(side));
    };
    r.vendor = npp_convolve::gauss_name();
    time_device_pair(r, stream, ours, vendor);
  }
  r.check = check_against_host();
  return {r};
}

void plan_cuda_rows(const context& ctx, plan& p) {
  const std::size_t index = p.add_table(api_table(
      ctx, "convolve (cuda)", roofline::device_copy,
      {
          "gpuprim::correlate / correlate_separable(gp::cuda.on(stream), ...) with border reflect "
          "(replicate for RGB) against NPP (the _Ctx functions on the same stream) in the same "
          "run: nppiFilter_32f_C1R, nppiFilterRow + nppiFilterColumn_32f_C1R (two passes, an "
          "intermediate image), nppiFilterGaussBorder_8u_C3R with its own 5x5 weights (gpuprim: "
          "separable Gaussian sigma 1, radius 2).",
          "CUDA events around each call, the two sides interleaved; GB/s counts one read and one "
          "write per pixel: Gpixel/s = GB/s / 8 (float), GB/s / 6 (8-bit RGB). % of the "
          "device-to-device copy bandwidth of this run. Images of 8192^2 floats (268 MB) and "
          "4096^2 RGB are far larger than L2.",
          faster_note("check: gpuprim against NPP away from the edges (float), against gpuprim's "
                      "host backend within 1 (RGB)."),
      }));
  const std::size_t side = ctx.quick ? 4096 : 8192;
  for (const float_case& c : kept_cases(ctx, float_cases)) {
    const std::string k = std::to_string(c.k);
    const row h = make_header(c.separable ? "separable k=" + k : "general " + k + "x" + k, "cuda",
                              "float", side * side, 8);
    p.cases.push_back({index, h, [ctx, h, c, side] { return measure_cuda_float(ctx, h, c, side); },
                       (!c.separable && c.k == 5) || (c.separable && c.k == 17)});
  }
  const std::size_t rgb_side = ctx.quick ? 2048 : 4096;
  const row h = make_header("gaussian 5x5 RGB", "cuda", "uint8", rgb_side * rgb_side, 6);
  p.cases.push_back(
      {index, h, [ctx, h, rgb_side] { return measure_cuda_rgb_gauss(ctx, h, rgb_side); }});
}

// The ladder: 8192^2 float, 9 x 9 (outer product of 9 symmetric taps),
// border replicate; every row checked against the fused separable rung.
using convolve_enqueuer =
    std::function<void(device_matrix_view<const float> in, device_matrix_view<float> out)>;

struct ladder_inputs {
  std::unique_ptr<padded_images<float>> images;
  std::vector<float> reference;

  padded_images<float>& prepare(std::size_t side) {
    if (!images) images = std::make_unique<padded_images<float>>(side, 1, false);
    return *images;
  }
};

row measure_ladder_row(const context& ctx, ladder_inputs& inputs, row r, std::size_t side,
                       const convolve_enqueuer& enqueue) {
  padded_images<float>& img = inputs.prepare(side);
  const device_matrix_view<const float> in(img.in_roi(), side, side, img.ld);
  const device_matrix_view<float> out(img.out_roi(), side, side, img.ld);
  r.measured = time_device(ctx.stream, [&](int) { enqueue(in, out); });
  img.out.fill_bytes(0x7F);
  enqueue(in, out);
  synchronize(ctx.stream);
  const std::vector<float> got = img.roi_to_host();
  if (inputs.reference.empty()) {
    inputs.reference = got;  // the first rung: the others are compared with it
    r.check = "ok";
  } else {
    // (NPP reads the margin's real pixels where the rungs replicate the edge.)
    r.check =
        compare(interior_difference(got, inputs.reference, side, 1, 16), 1e-5, "the first rung");
  }
  return r;
}

// A ladder table at k x k on a side^2 image (side 8192, 4096 with --quick),
// border replicate, the filter the outer product of k symmetric taps: the
// rungs from `first_rung` on, the library's general kernel for reference,
// then the rows `add_references(rows, taps)` adds. `which` follows
// "convolve ladder" in the title.
template <class AddReferences>
void plan_ladder_table(const context& ctx, plan& p, int k, std::size_t first_rung,
                       const std::string& which, std::vector<std::string> notes,
                       AddReferences add_references) {
  const std::size_t side = ctx.quick ? 4096 : 8192;
  const std::string kk = std::to_string(k) + "x" + std::to_string(k);
  table t = ladder_table(ctx, "convolve ladder" + which + ": " + std::to_string(side) +
                                  "^2 float, " + kk + ", border replicate (cuda)");
  t.notes = std::move(notes);
  const auto inputs = std::make_shared<ladder_inputs>();
  const stream_t stream = ctx.stream;
  const auto taps64 = symmetric_taps(k);
  const auto taps = std::make_shared<std::vector<float>>(taps64.begin(), taps64.end());
  auto rows = make_ladder_rows<convolve_enqueuer>(
      p, p.add_table(std::move(t)), make_header("", "cuda", "float", side * side, 8),
      [ctx, inputs, side](const row& r, const convolve_enqueuer& enqueue) {
        return measure_ladder_row(ctx, *inputs, r, side, enqueue);
      });
  rows.add_rungs(
      ladder::convolve_rungs().subspan(first_rung), [stream, taps](auto run) -> convolve_enqueuer {
        return [run, stream, taps](device_matrix_view<const float> in,
                                   device_matrix_view<float> out) { run(in, out, *taps, stream); };
      });
  const auto general_filter = std::make_shared<filter>(filter::outer(taps64, taps64));
  rows.add(
      "gpuprim", "correlate (general kernel)", "(reference) the library's general path",
      [general_filter, stream](device_matrix_view<const float> in, device_matrix_view<float> out) {
        correlate(cuda.on(stream), in, *general_filter, out, border::replicate);
      });
  add_references(rows, taps64);
}

// The whole ladder at 9 x 9, with NPP's general filter for reference.
void plan_ladder(const context& ctx, plan& p) {
  constexpr int k = 9;
  const stream_t stream = ctx.stream;
  const std::vector<std::string> notes = {
      "The filter is the outer product of 9 symmetric taps, so the separable rungs compute the "
      "same image. Rungs 5 and 6 run the library's separable kernel (5: a row pass and a column "
      "pass through a temporary image; 6: fused). For reference: the library's general kernel "
      "(gp::correlate: tile + halo, 7 x 4 register-blocked outputs per thread, 16-byte loads) and "
      "NPP's nppiFilter_32f_C1R (9x9).",
      "CUDA events around each call; GB/s counts 8 bytes per pixel (Gpixel/s = GB/s / 8); check: "
      "every row against the first rung, 16 pixels away from the edges.",
  };
  plan_ladder_table(ctx, p, k, 0, "", notes, [stream](auto& rows, const std::vector<double>& taps) {
    if (!npp_available()) return;
    const auto d_filter = std::make_shared<std::unique_ptr<device_vector<float>>>();
    std::vector<float> w(taps.size() * taps.size());
    for (std::size_t i = 0; i < taps.size(); ++i)
      for (std::size_t j = 0; j < taps.size(); ++j)
        w[i * taps.size() + j] = float(taps[i]) * float(taps[j]);
    const auto weights = std::make_shared<std::vector<float>>(std::move(w));
    rows.add("npp", npp_convolve::general_name(), "(reference) the vendor library",
             [d_filter, weights, stream](device_matrix_view<const float> in,
                                         device_matrix_view<float> out) {
               if (!*d_filter)
                 *d_filter = std::make_unique<device_vector<float>>(to_device(*weights));
               const int step = static_cast<int>(in.ld() * sizeof(float));
               npp_convolve(stream).general(in.data(), step, out.data(), step, int(in.rows()),
                                            int(in.cols()), (*d_filter)->data(), k);
             });
  });
}

// The newer rungs (the register-blocked one on; the first three take
// milliseconds at 17 x 17) at the filter sizes of the headline rows, 5 x 5
// and 17 x 17, beside the library's general and separable paths with the
// same border.
void plan_ladder_newest(const context& ctx, plan& p, int k) {
  constexpr std::size_t first_rung = 3;
  const stream_t stream = ctx.stream;
  const std::vector<std::string> notes = {
      "The filter is the outer product of " + std::to_string(k) +
          " symmetric taps: the general rungs do k^2 FMAs per pixel, the separable ones 2k. For "
          "reference: the library's general kernel (gp::correlate) and its fused separable kernel "
          "(gp::correlate_separable), both border replicate.",
      "CUDA events around each call; GB/s counts 8 bytes per pixel (Gpixel/s = GB/s / 8); check: "
      "every row against the first, 16 pixels away from the edges.",
  };
  plan_ladder_table(
      ctx, p, k, first_rung, ", rungs 4 on", notes,
      [stream](auto& rows, const std::vector<double>& taps64) {
        rows.add(
            "gpuprim", "correlate_separable (fused kernel)",
            "(reference) the library's separable path",
            [taps64, stream](device_matrix_view<const float> in, device_matrix_view<float> out) {
              correlate_separable(cuda.on(stream), in, taps64, taps64, out, border::replicate);
            });
      });
}

// --ladder: the 9 x 9 ladder, then the newer rungs at 5 x 5 and 17 x 17.
void plan_ladders(const context& ctx, plan& p) {
  plan_ladder(ctx, p);
  plan_ladder_newest(ctx, p, 5);
  plan_ladder_newest(ctx, p, 17);
}

#endif  // GPUPRIM_HAS_CUDA

}  // namespace

planners convolve_planners() {
  return GPUPRIM_BENCH_PLANNERS(plan_cuda_rows, plan_host_rows, plan_ladders);
}

}  // namespace gpuprim::bench
