# Runs the shared oracle-check tool against the built binary; skipped (the
# test's SKIP_REGULAR_EXPRESSION) when the tool is not beside the checkout.
if(NOT EXISTS "${CHECK}")
  message(STATUS "oracle-check not found at ${CHECK}: skipped")
  return()
endif()
execute_process(COMMAND python3 "${CHECK}" "${TOOL}" --sample "${SAMPLE}" RESULT_VARIABLE rc
                OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
string(REGEX MATCH "[0-9]+/[0-9]+ records agree" summary "${out}")
message(STATUS "${summary}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "oracle-check failed:\n${out}\n${err}")
endif()
