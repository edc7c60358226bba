# `gpuprim bench dist`'s sizes (--per-gpu, --total): N or 2^K, refused with
# exit 2 and one line otherwise, and refused for the other families. (The
# runs themselves are dist tests: they need mpirun.)
gpuprim_cli_test(bench_dist_per_gpu_not_a_count EXIT 2
  STDERR_CONTAINS "--per-gpu: '2^x' is not a count" ARGS bench dist --per-gpu 2^x)
gpuprim_cli_test(bench_dist_total_zero EXIT 2 STDERR_CONTAINS "--total: '0' is not a count"
  ARGS bench dist --total 0)
gpuprim_cli_test(bench_dist_total_over_2_40 EXIT 2 STDERR_CONTAINS "--total: '2^41' is not a count"
  ARGS bench dist --total 2^41)
gpuprim_cli_test(bench_sizes_only_for_dist EXIT 2
  STDERR_CONTAINS "--per-gpu and --total are for `gpuprim bench dist` only"
  ARGS bench reduce --backend host --per-gpu 1024)
