#include "report.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>
#include <vector>

namespace gpuprim::bench {

std::optional<double> row::ratio_to_vendor() const {
  if (!vendor_measured || !error.empty()) return std::nullopt;
  return vendor_measured->median_us / measured.median_us;
}

std::optional<double> row::vendor_gbs() const {
  if (!vendor_measured || !error.empty()) return std::nullopt;
  return (vendor_bytes > 0 ? vendor_bytes : bytes) / (vendor_measured->median_us * 1e3);
}

std::optional<double> row::queued_ratio_to_vendor() const {
  if (!vendor_measured || !error.empty() || measured.queued_us <= 0 ||
      vendor_measured->queued_us <= 0) {
    return std::nullopt;
  }
  return vendor_measured->queued_us / measured.queued_us;
}

namespace {

std::string format(const char* spec, double value) {
  char text[64];
  std::snprintf(text, sizeof text, spec, value);
  return text;
}

// 2^24 reads better than 16777216 in a table.
std::string format_count(std::size_t n) {
  if (n != 0 && (n & (n - 1)) == 0) {
    int log2 = 0;
    while ((std::size_t{1} << log2) != n)
      ++log2;
    return "2^" + std::to_string(log2);
  }
  return std::to_string(n);
}

std::string format_time_us(double us) {
  return format(us < 100 ? "%.2f" : "%.1f", us);
}

// The row's rate in the table's unit; 0 for a table without one.
double rate_of(const row& r, const table& t) {
  switch (t.rate) {
    case rate_unit::gbs:
      return r.gbs();
    case rate_unit::gflops:
      return r.gflops();
    case rate_unit::none:
      break;
  }
  return 0.0;
}

const char* rate_header(rate_unit unit) {
  return unit == rate_unit::gflops ? "GFLOP/s" : "GB/s";
}

// Three significant digits below 10, so that a slow row never reads as 0.
std::string format_rate(double value) {
  return format(value < 10 ? "%.3g" : "%.0f", value);
}

double percent_of(const row& r, const table& t) {
  return t.roofline_rate > 0 ? 100.0 * rate_of(r, t) / t.roofline_rate : 0.0;
}

std::string check_cell(const row& r) {
  if (!r.error.empty()) return "error: " + r.error;
  return r.check.empty() ? "-" : r.check;
}

// A Markdown table: the header row and its alignment row (right-aligned
// where `right`), then one line per row of cells.
struct markdown_table {
  std::ostringstream& out;

  void header(const std::vector<std::pair<std::string, bool>>& columns) {
    std::vector<std::string> names, rules;
    for (const auto& [name, right] : columns) {
      names.push_back(name);
      rules.push_back(right ? "---:" : "---");
    }
    line(names);
    line(rules);
  }
  void line(const std::vector<std::string>& cells) {
    out << '|';
    for (const std::string& cell : cells)
      out << ' ' << cell << " |";
    out << '\n';
  }
};

void write_api_table(std::ostringstream& out, const table& t) {
  // A "vendor GB/s" column only where some vendor moves other bytes than gpuprim.
  const bool vendor_bytes_differ =
      std::any_of(t.rows.begin(), t.rows.end(), [](const row& r) { return r.vendor_bytes > 0; });
  const bool rate = t.rate != rate_unit::none;
  const bool percent = rate && t.roofline_rate > 0;
  std::vector<std::pair<std::string, bool>> columns = {
      {"implementation", false}, {"op", false},         {"type", false},
      {t.count, false},          {"median (us)", true}, {"min (us)", true}};
  if (rate) columns.push_back({rate_header(t.rate), true});
  if (percent) columns.push_back({"% of " + t.roofline, true});
  columns.push_back({"vendor", false});
  columns.push_back({"vendor (us)", true});
  if (vendor_bytes_differ) columns.push_back({"vendor GB/s", true});
  for (const char* name :
       {"vendor / gpuprim", "queued (us)", "vendor queued (us)", "vendor / gpuprim, queued"}) {
    columns.push_back({name, true});
  }
  columns.push_back({"check", false});
  markdown_table md{out};
  md.header(columns);
  const auto time_or_dash = [](double us) { return us > 0 ? format_time_us(us) : "-"; };
  const auto ratio_or_dash = [](std::optional<double> ratio) {
    return ratio ? format("%.2f", *ratio) : "-";
  };
  for (const row& r : t.rows) {
    const bool ok = r.error.empty();
    std::vector<std::string> cells = {r.implementation, r.variant, r.type, format_count(r.n)};
    cells.push_back(ok ? format_time_us(r.measured.median_us) : "-");
    cells.push_back(ok ? format_time_us(r.measured.min_us) : "-");
    if (rate) cells.push_back(ok ? format_rate(rate_of(r, t)) : "-");
    if (percent) cells.push_back(ok ? format("%.1f", percent_of(r, t)) : "-");
    cells.push_back(r.vendor.empty() ? "-" : r.vendor);
    cells.push_back(ok && r.vendor_measured ? format_time_us(r.vendor_measured->median_us) : "-");
    if (vendor_bytes_differ) {
      cells.push_back(r.vendor_gbs() ? format_rate(*r.vendor_gbs()) : "-");
    }
    cells.push_back(ratio_or_dash(r.ratio_to_vendor()));
    cells.push_back(ok ? time_or_dash(r.measured.queued_us) : "-");
    cells.push_back(ok && r.vendor_measured ? time_or_dash(r.vendor_measured->queued_us) : "-");
    cells.push_back(ratio_or_dash(r.queued_ratio_to_vendor()));
    cells.push_back(check_cell(r));
    md.line(cells);
  }
}

void write_ladder_table(std::ostringstream& out, const table& t) {
  const bool rate = t.rate != rate_unit::none;
  const bool percent = rate && t.roofline_rate > 0;
  std::vector<std::pair<std::string, bool>> columns = {
      {"rung", false}, {"fixes", false}, {"time (us)", true}};
  if (rate) columns.push_back({rate_header(t.rate), true});
  columns.push_back({"x prev", true});
  columns.push_back({"x first", true});
  if (percent) columns.push_back({"% of " + t.roofline, true});
  markdown_table md{out};
  md.header(columns);
  const row* first = nullptr;
  const row* previous = nullptr;
  for (const row& r : t.rows) {
    std::string name = r.variant;
    if (!r.error.empty()) {
      std::vector<std::string> cells = {name, r.fixes, "error: " + r.error};
      cells.resize(columns.size());
      md.line(cells);
      continue;
    }
    // A passing check is "ok", possibly followed by "; " and a note.
    const bool passed = r.check.empty() || r.check == "ok" || r.check.starts_with("ok;");
    if (!passed) {
      name += " (**wrong result**: " + r.check + ")";
    } else if (r.check.size() > 2) {
      name += " (" + r.check.substr(4) + ")";
    }
    const double us = r.measured.median_us;
    std::vector<std::string> cells = {name, r.fixes, format_time_us(us)};
    if (rate) cells.push_back(format_rate(rate_of(r, t)));
    cells.push_back(previous ? format("%.2f", previous->measured.median_us / us) : "-");
    cells.push_back(first ? format("%.2f", first->measured.median_us / us) : "-");
    if (percent) cells.push_back(format("%.1f", percent_of(r, t)));
    md.line(cells);
    if (!first) first = &r;
    previous = &r;
  }
}

}  // namespace

std::string to_markdown(const run_info& info, const std::vector<table>& tables) {
  std::ostringstream out;
  out << "# gpuprim-bench\n\n";
  if (!info.device.empty()) {
    out << "GPU: " << info.device << " (sm_" << info.compute_capability << ", "
        << info.multiprocessors << " SMs, " << (info.l2_cache_bytes >> 20) << " MiB L2); driver "
        << (info.nvidia_driver.empty() ? "?" : info.nvidia_driver) << " (CUDA "
        << info.driver_cuda_version << "); runtime CUDA " << info.runtime_cuda_version
        << "; device-to-device copy " << format("%.0f", info.copy_bandwidth_gbs)
        << " GB/s (read + write)\n\n";
  } else {
    out << "GPU: none used\n\n";
  }
  out << "Host: " << info.host_cpu << ", " << info.host_threads << " OpenMP threads";
  if (info.host_read_bandwidth_gbs > 0) {
    out << "; memory read " << format("%.1f", info.host_read_bandwidth_gbs) << " GB/s";
  }
  out << "\n\nDate: " << info.date_utc << (info.quick ? " (quick run: smaller sizes)" : "")
      << "; every time is the median of " << timed_runs << " runs after " << warmup_runs
      << " warm-up runs; on the GPU, "
      << (info.sequential ? "all of gpuprim's runs, then all of the vendor's (--sequential).\n"
                          : "gpuprim's runs and the vendor's alternate, one isolated run (or one "
                            "queued batch) of each in turn.\n");
  for (const std::string& note : info.notes)
    out << "\n- " << note;
  if (!info.notes.empty()) out << '\n';

  for (const table& t : tables) {
    out << "\n## " << t.title << "\n\n";
    if (t.kind == table_kind::ladder) {
      out << "- Rungs oldest first; x prev and x first are speed-ups over the rung above and the "
             "first rung.\n";
    }
    for (const std::string& note : t.notes)
      out << "- " << note << '\n';
    if (!t.notes.empty() || t.kind == table_kind::ladder) out << '\n';
    if (t.kind == table_kind::ladder) {
      write_ladder_table(out, t);
    } else {
      write_api_table(out, t);
    }
  }
  return out.str();
}

std::string to_json(const run_info& info, const std::vector<table>& tables) {
  using nlohmann::json;
  json run = {
      {"date_utc", info.date_utc},
      {"device", info.device},
      {"compute_capability", info.compute_capability},
      {"multiprocessors", info.multiprocessors},
      {"l2_cache_bytes", info.l2_cache_bytes},
      {"nvidia_driver", info.nvidia_driver},
      {"driver_cuda_version", info.driver_cuda_version},
      {"runtime_cuda_version", info.runtime_cuda_version},
      {"copy_bandwidth_gbs", info.copy_bandwidth_gbs},
      {"host_cpu", info.host_cpu},
      {"host_threads", info.host_threads},
      {"host_read_bandwidth_gbs", info.host_read_bandwidth_gbs},
      {"quick", info.quick},
      {"timing_order", info.sequential ? "sequential" : "interleaved"},
      {"timed_runs", timed_runs},
      {"warmup_runs", warmup_runs},
      {"notes", info.notes},
  };
  json rows = json::array();
  for (const table& t : tables) {
    for (const row& r : t.rows) {
      const bool ok = r.error.empty();
      const auto ratio = r.ratio_to_vendor();
      rows.push_back({
          {"table", t.title},
          {"implementation", r.implementation},
          {"algorithm", r.algorithm},
          {"variant", r.variant},
          {"fixes", r.fixes},
          {"backend", r.backend},
          {"type", r.type},
          {"n", r.n},
          {"count", t.count},
          {"bytes", r.bytes},
          {"flops", r.flops},
          {"runs", r.measured.runs},
          {"median_us", ok ? json(r.measured.median_us) : json()},
          {"min_us", ok ? json(r.measured.min_us) : json()},
          {"gbs", ok && r.bytes > 0 ? json(r.gbs()) : json()},
          {"gflops", ok && r.flops > 0 ? json(r.gflops()) : json()},
          {"rate_unit", t.rate == rate_unit::none ? json() : json(rate_header(t.rate))},
          {"roofline", t.roofline},
          {"roofline_rate", t.roofline_rate > 0 ? json(t.roofline_rate) : json()},
          {"pct_of_roofline", ok && t.roofline_rate > 0 ? json(percent_of(r, t)) : json()},
          {"vendor", r.vendor.empty() ? json() : json(r.vendor)},
          {"vendor_us", r.vendor_measured ? json(r.vendor_measured->median_us) : json()},
          {"vendor_bytes", r.vendor_bytes > 0 ? r.vendor_bytes : r.bytes},
          {"vendor_gbs", r.vendor_gbs() ? json(*r.vendor_gbs()) : json()},
          {"ratio_to_vendor", ratio ? json(*ratio) : json()},
          {"queued_us", ok && r.measured.queued_us > 0 ? json(r.measured.queued_us) : json()},
          {"vendor_queued_us", r.vendor_measured && r.vendor_measured->queued_us > 0
                                   ? json(r.vendor_measured->queued_us)
                                   : json()},
          {"queued_ratio_to_vendor",
           r.queued_ratio_to_vendor() ? json(*r.queued_ratio_to_vendor()) : json()},
          {"check", r.check},
          {"error", r.error},
      });
    }
  }
  return json{{"run", run}, {"rows", rows}}.dump(2) + "\n";
}

}  // namespace gpuprim::bench
