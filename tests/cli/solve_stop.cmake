# `gpuprim solve` stopping and saying why, its SciPy option names, and
# `generate` refusing empty matrices; included by tests/cli/CMakeLists.txt
# (gpuprim_cli_test, gpuprim_cli_no_output). Inputs from make_cli_test_solve.
add_executable(make_cli_test_solve make_cli_test_solve.cpp)
target_link_libraries(make_cli_test_solve PRIVATE gpuprim)
set(stop ${CMAKE_CURRENT_BINARY_DIR}/solve_stop)
add_test(NAME cli.make_solve_stop COMMAND make_cli_test_solve ${stop})
set_tests_properties(cli.make_solve_stop PROPERTIES FIXTURES_SETUP gpuprim_cli_solve_stop LABELS cli)

set(solve_stop_tests)
macro(solve_stop_test name)
  gpuprim_cli_test(${name} ${ARGN})
  list(APPEND solve_stop_tests cli.${name})
endmacro()
# A test that must leave `file` unwritten (the generator removed it first).
macro(solve_stop_absent name file)
  add_test(NAME cli.${name}_no_output
    COMMAND ${CMAKE_COMMAND} -DFILE=${file} -P ${CMAKE_CURRENT_SOURCE_DIR}/check_absent.cmake)
  set_tests_properties(cli.${name}_no_output PROPERTIES DEPENDS cli.${name} LABELS cli)
  list(APPEND solve_stop_tests cli.${name}_no_output)
endmacro()

# Divergence: Richardson with omega 1 on the 2-D Poisson matrix (eigenvalues
# up to 8) stops at the first residual 1e8 times its start; no x written.
solve_stop_test(solve_diverged EXIT 3
  STDERR_CONTAINS "gpuprim solve: diverged at iteration 14: the residual"
  ARGS solve ${stop}/poisson10.mtx ${stop}/ones100.npy -o ${stop}/never_div.npy
       --method richardson --backend host)
solve_stop_absent(solve_diverged ${stop}/never_div.npy)
solve_stop_test(cuda_solve_diverged EXIT 3 DEVICE required
  STDERR_CONTAINS "gpuprim solve: diverged at iteration"
  ARGS solve ${stop}/poisson10.mtx ${stop}/ones100.npy -o ${stop}/never_div_cuda.npy
       --method richardson --backend cuda)
solve_stop_absent(cuda_solve_diverged ${stop}/never_div_cuda.npy)

# Stagnation: one entry, the other rows empty; Richardson (no division by
# the diagonal) stops after 500 iterations without improvement, and x (all
# finite) is written.
solve_stop_test(solve_stagnated EXIT 3
  STDERR_CONTAINS "gpuprim solve: stagnated at iteration 500: the residual 0.999833 has not fallen by 0.1% in 500 iterations"
  OUTPUT ${stop}/x_stag.npy EXPECTED ${stop}/one_entry_x500.npy
  ARGS solve ${stop}/one_entry.mtx ${stop}/ones3000.npy -o ${stop}/x_stag.npy
       --method richardson --backend host)
solve_stop_test(cuda_solve_stagnated EXIT 3 DEVICE required
  STDERR_CONTAINS "gpuprim solve: stagnated at iteration 500"
  OUTPUT ${stop}/x_stag_cuda.npy EXPECTED ${stop}/one_entry_x500.npy
  ARGS solve ${stop}/one_entry.mtx ${stop}/ones3000.npy -o ${stop}/x_stag_cuda.npy
       --method richardson --backend cuda)

# A zero diagonal entry under the Jacobi preconditioner: exit 2 naming the
# file and the first such row, no x.
solve_stop_test(solve_zero_diagonal_precond EXIT 2
  STDERR_CONTAINS "zero_diag3.mtx: the diagonal entry of row 3 is zero"
  ARGS solve ${stop}/zero_diag3.mtx ${stop}/ones5.npy -o ${stop}/never_zd.npy
       --method richardson --precond jacobi --backend host)
solve_stop_absent(solve_zero_diagonal_precond ${stop}/never_zd.npy)

# CG on a nonsymmetric matrix that it does not solve: the hint.
solve_stop_test(solve_cg_nonsymmetric_hint EXIT 3
  STDERR_CONTAINS "not converged after 2 iterations, residual 0.37495; the matrix is not symmetric: CG needs a symmetric positive definite matrix; try --method bicgstab"
  ARGS solve ${stop}/nonsym3.mtx ${stop}/b3.npy -o ${stop}/x_ns.npy --maxiter 2 --backend host)
solve_stop_test(solve_bicgstab_nonsymmetric EXIT 0 STDOUT_CONTAINS "iterations "
  ARGS solve ${stop}/nonsym3.mtx ${stop}/b3.npy -o ${stop}/x_nsb.npy --method bicgstab
       --backend host)

# SciPy's names and their aliases.
solve_stop_test(solve_maxiter EXIT 3 STDERR_CONTAINS "not converged after 2 iterations"
  ARGS solve ${stop}/poisson10.mtx ${stop}/ones100.npy -o ${stop}/x_mi.npy --maxiter 2
       --backend host)
solve_stop_test(solve_max_iter_alias EXIT 3 STDERR_CONTAINS "not converged after 2 iterations"
  ARGS solve ${stop}/poisson10.mtx ${stop}/ones100.npy -o ${stop}/x_mia.npy --max-iter 2
       --backend host)
solve_stop_test(solve_rtol_zero_atol EXIT 0 STDOUT "iterations 0 residual 1"
  ARGS solve ${stop}/poisson10.mtx ${stop}/ones100.npy -o ${stop}/x_at.npy --rtol 0 --atol 10
       --backend host)
solve_stop_test(solve_tol_alias EXIT 0 STDOUT "iterations 0 residual 1"
  ARGS solve ${stop}/poisson10.mtx ${stop}/ones100.npy -o ${stop}/x_ta.npy --tol 1 --backend host)
solve_stop_test(solve_negative_rtol EXIT 2 STDERR_CONTAINS "--rtol -1"
  ARGS solve ${stop}/poisson10.mtx ${stop}/ones100.npy -o ${stop}/x_nr.npy --rtol -1 --backend host)
solve_stop_test(solve_help_scipy_names EXIT 0 STDOUT_CONTAINS "--maxiter" ARGS solve --help)
solve_stop_test(solve_help_x0 EXIT 0 STDOUT_CONTAINS "--x0" ARGS solve --help)

# --x0: the exact solution needs no iteration; checked as b is.
solve_stop_test(solve_x0_exact EXIT 0 STDOUT "iterations 0 residual 0"
  OUTPUT ${stop}/x_x0.npy EXPECTED ${stop}/ones3.npy
  ARGS solve ${stop}/spd3.mtx ${stop}/b_exact3.npy -o ${stop}/x_x0.npy --x0 ${stop}/ones3.npy
       --backend host)
solve_stop_test(cuda_solve_x0_exact EXIT 0 DEVICE required STDOUT "iterations 0 residual 0"
  ARGS solve ${stop}/spd3.mtx ${stop}/b_exact3.npy -o ${stop}/x_x0c.npy --x0 ${stop}/ones3.npy
       --backend cuda)
solve_stop_test(solve_x0_wrong_length EXIT 2
  STDERR_CONTAINS "ones2.npy: x0 has 2 elements but"
  ARGS solve ${stop}/spd3.mtx ${stop}/b_exact3.npy -o ${stop}/never_x0.npy --x0 ${stop}/ones2.npy
       --backend host)
solve_stop_absent(solve_x0_wrong_length ${stop}/never_x0.npy)
solve_stop_test(solve_x0_not_finite EXIT 2 STDERR_CONTAINS "nan3.npy: x0[1] is nan"
  ARGS solve ${stop}/spd3.mtx ${stop}/b_exact3.npy -o ${stop}/never_x0nan.npy
       --x0 ${stop}/nan3.npy --backend host)
solve_stop_absent(solve_x0_not_finite ${stop}/never_x0nan.npy)

# generate: every kind refuses an empty matrix.
solve_stop_test(generate_poisson_zero EXIT 2
  STDERR_CONTAINS "gpuprim generate: poisson2d 0: the size must be >= 1"
  ARGS generate poisson2d 0 -o ${stop}/g0.mtx)
solve_stop_absent(generate_poisson_zero ${stop}/g0.mtx)
solve_stop_test(generate_poisson_negative EXIT 2 STDERR_CONTAINS "poisson2d -3: the size must be >= 1"
  ARGS generate poisson2d -3 -o ${stop}/gneg.mtx)
solve_stop_absent(generate_poisson_negative ${stop}/gneg.mtx)
solve_stop_test(generate_random_spd_zero EXIT 2 STDERR_CONTAINS "random-spd 0: the size must be >= 1"
  ARGS generate random-spd 0 -o ${stop}/gspd0.mtx)
solve_stop_absent(generate_random_spd_zero ${stop}/gspd0.mtx)
solve_stop_test(generate_rmat_negative EXIT 2 STDERR_CONTAINS "rmat -1: the scale must be >= 0"
  ARGS generate rmat -1 -o ${stop}/grmat.mtx)
solve_stop_absent(generate_rmat_negative ${stop}/grmat.mtx)

# closest-pair's brute force says what it costs.
solve_stop_test(closest_pair_help_brute_cost EXIT 0 STDOUT_CONTAINS "O(n^2)"
  ARGS closest-pair --help)

foreach(t IN LISTS solve_stop_tests)
  set_tests_properties(${t} PROPERTIES
    FIXTURES_REQUIRED "gpuprim_cli_arrays;gpuprim_cli_solve_stop")
endforeach()
