// The tuner's pieces shared by the CUDA and the CPU-only builds.
#include "gpuprim/tune/tuner.hpp"

namespace gpuprim::tuning {

double tune_result::gain() const {
  if (rows.empty() || rows[winner].time.median_us <= 0.0) return 1.0;
  return rows[0].time.median_us / rows[winner].time.median_us;
}

namespace {
thread_local bool report_wanted = false;
thread_local kernel_report last_report{};
thread_local bool last_is_primary = false;
}  // namespace

namespace detail {

bool kernel_report_wanted() {
  return report_wanted;
}

void report_kernel(const kernel_report& report, bool primary) {
  // Of the kernels one call launches, the one with the most registers per
  // block is the one worth showing, unless the launch path marked the
  // kernel its parameter shapes (primary): then only primary ones count.
  if (last_is_primary && !primary) return;
  const bool larger = last_report.threads == 0 || report.registers * report.threads >
                                                      last_report.registers * last_report.threads;
  if ((primary && !last_is_primary) || larger) {
    last_report = report;
    last_is_primary = primary;
  }
}

// The tuner's side: ask for the next launch's report, and take it.
void want_kernel_report() {
  report_wanted = true;
  last_report = {};
  last_is_primary = false;
}
kernel_report take_kernel_report() {
  report_wanted = false;
  return last_report;
}

}  // namespace detail
}  // namespace gpuprim::tuning
