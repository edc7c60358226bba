# One distributed CLI round trip: the command without --distributed (one
# process), then under mpirun with --distributed, both with --backend
# BACKEND (host unless given); the exit codes, stdout and the output files
# must be the same (files byte for byte, or with COMPARE=<tool> and
# TOLERANCE, floats within it).
#
#   cmake -DMPIEXEC=... -DNP=<ranks> -DMPIFLAGS="a;b" [-DOUTPUTS="o1;o2"]
#         [-DBACKEND=host|cuda] [-DDEVICE=required|absent]
#         [-DCOMPARE=<make_dist_cli_arrays> -DTOLERANCE=<relative>]
#         [-DEXIT=<code, default 0>] [-DSTDERR_CONTAINS=<text>]
#         -P run_dist_cli.cmake -- <gpuprim> <arguments...>
# The output paths in the arguments end in @SUFFIX@; the one-process run
# writes <path>.one, the distributed one <path>.dist. DEVICE: as in
# tests/cli/run_cli.cmake, "SKIP: ..." where the machine does not fit.
include(${CMAKE_CURRENT_LIST_DIR}/../cli/cli_script_steps.cmake)
gpuprim_command_after_separator(command)
list(GET command 0 gpuprim)
gpuprim_device_skip_reason(skip "${gpuprim}" "${DEVICE}")
if(skip)
  message("SKIP: ${skip}")
  return()
endif()
if(NOT DEFINED EXIT)
  set(EXIT 0)
endif()
if(NOT DEFINED BACKEND)
  set(BACKEND host)
endif()

string(REPLACE "@SUFFIX@" ".one" one "${command}")
string(REPLACE "@SUFFIX@" ".dist" dist "${command}")
foreach(o ${OUTPUTS})
  file(REMOVE "${o}.one" "${o}.dist")
endforeach()
execute_process(COMMAND ${one} --backend ${BACKEND} RESULT_VARIABLE one_exit OUTPUT_VARIABLE one_out
  ERROR_VARIABLE one_err)
execute_process(COMMAND ${MPIEXEC} ${MPIFLAGS} -np ${NP} ${dist} --backend ${BACKEND} --distributed
  RESULT_VARIABLE dist_exit OUTPUT_VARIABLE dist_out ERROR_VARIABLE dist_err)
if(NOT one_exit EQUAL EXIT)
  message(FATAL_ERROR "one process: exit ${one_exit}, want ${EXIT}\n${one_err}")
endif()
if(NOT dist_exit EQUAL EXIT)
  message(FATAL_ERROR "${NP} ranks: exit ${dist_exit}, want ${EXIT}\n${dist_out}\n${dist_err}")
endif()
if(NOT one_out STREQUAL dist_out)
  message(FATAL_ERROR "stdout differs:\none process:\n${one_out}\n${NP} ranks:\n${dist_out}")
endif()
if(DEFINED STDERR_CONTAINS)
  string(FIND "${dist_err}" "${STDERR_CONTAINS}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${NP} ranks: stderr lacks '${STDERR_CONTAINS}':\n${dist_err}")
  endif()
  # One line from rank 0 only (mpirun's own report of the exit code aside).
  string(REGEX MATCHALL "(^|\n)gpuprim [^\n]*" lines "${dist_err}")
  list(LENGTH lines count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "${NP} ranks: want one line on stderr, got:\n${dist_err}")
  endif()
endif()
foreach(o ${OUTPUTS})
  if(DEFINED COMPARE)
    execute_process(COMMAND ${COMPARE} compare "${o}.one" "${o}.dist" ${TOLERANCE}
      RESULT_VARIABLE same ERROR_VARIABLE why)
    if(NOT same EQUAL 0)
      message(FATAL_ERROR "${o}: ${NP} ranks differ from one process beyond ${TOLERANCE}: ${why}")
    endif()
  else()
    file(SHA256 "${o}.one" a)
    file(SHA256 "${o}.dist" b)
    if(NOT a STREQUAL b)
      message(FATAL_ERROR "${o}: the ${NP}-rank file differs from the one-process file")
    endif()
  endif()
endforeach()
