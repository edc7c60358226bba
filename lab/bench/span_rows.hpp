// The API rows and ladders of the span -> span families (reduce, scan):
// one list of cases (an operation, an element type, a size) per family, the
// same header, size and headline rules for both.
#pragma once

#include <cstddef>
#include <cstdint>

#include "plan.hpp"

namespace gpuprim::bench {

// The element types of the span rows.
enum class scalar { f32, f64, i32 };

// Calls f.template operator()<T>() with the C++ type `s` names.
template <class F>
void with_type(scalar s, F&& f) {
  switch (s) {
    case scalar::f32:
      return f.template operator()<float>();
    case scalar::f64:
      return f.template operator()<double>();
    case scalar::i32:
      return f.template operator()<std::int32_t>();
  }
}

// One CUDA row of a span family: operation `kind` on 2^log2_n elements of
// `type`.
template <class Kind>
struct span_case {
  Kind kind;
  scalar type;
  int log2_n;
  bool in_quick_runs;
};

// The rows of `cases` this run keeps, into table `index`: each row's header
// is header.template operator()<T>(n) with its variant named by
// variant(kind), and measure.template operator()<T>(header, kind) times it.
// Float rows of operation `headline` at a headline size are the family's
// headline rows.
template <class Kind, std::size_t N, class Header, class Variant, class Measure>
void add_span_rows(const context& ctx, plan& p, std::size_t index,
                   const span_case<Kind> (&cases)[N], Kind headline, Header header_of,
                   Variant variant, Measure measure) {
  for (const span_case<Kind>& c : kept_cases(ctx, cases)) {
    with_type(c.type, [&]<class T>() {
      row header = header_of.template operator()<T>(std::size_t{1} << c.log2_n);
      header.variant = variant(c.kind);
      p.cases.push_back({index, header,
                         [measure, header, kind = c.kind] {
                           return measure.template operator()<T>(header, kind);
                         },
                         c.kind == headline && c.type == scalar::f32 && headline_size(c.log2_n)});
    });
  }
}

// A span family's ladder tables: plan.template operator()<T>(log2_n) for
// float, and for int32 outside quick runs, at 2^26 elements (2^24 in quick
// runs).
template <class Plan>
void plan_span_ladders(const context& ctx, Plan plan) {
  const int log2_n = ctx.quick ? 24 : 26;
  plan.template operator()<float>(log2_n);
  if (!ctx.quick) plan.template operator()<std::int32_t>(log2_n);
}

}  // namespace gpuprim::bench
