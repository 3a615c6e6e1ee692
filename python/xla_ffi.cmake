# ecgemm_find_xla_ffi(<python> <include_var> <why_not_var>)
#
# The folder holding XLA's FFI headers (xla/ffi/api/ffi.h) for ecgemm.jax's handler:
# ECGEMM_XLA_FFI_INCLUDE_DIR where set, else jax.ffi.include_dir() of the jaxlib that
# <python> imports. Sets <include_var> to it, or to "" with <why_not_var> saying why.
# Runs in script mode too (tests/test_jax.py calls it through cmake -P).
function(ecgemm_find_xla_ffi python include_var why_var)
  set(${include_var} "" PARENT_SCOPE)
  if(ECGEMM_XLA_FFI_INCLUDE_DIR)
    set(dir "${ECGEMM_XLA_FFI_INCLUDE_DIR}")
    set(origin "ECGEMM_XLA_FFI_INCLUDE_DIR")
  else()
    execute_process(
      COMMAND "${python}" -c "import jax.ffi; print(jax.ffi.include_dir())"
      OUTPUT_VARIABLE dir ERROR_VARIABLE error RESULT_VARIABLE status
      OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_STRIP_TRAILING_WHITESPACE)
    if(NOT status EQUAL 0)
      # The exception's last line, e.g. "ModuleNotFoundError: No module named 'jax'".
      string(REGEX REPLACE ".*\n" "" error "${error}")
      set(${why_var} "jax is not importable by ${python} (${error})" PARENT_SCOPE)
      return()
    endif()
    set(origin "jax.ffi.include_dir()")
  endif()
  if(NOT EXISTS "${dir}/xla/ffi/api/ffi.h")
    set(${why_var} "${origin} = ${dir} holds no xla/ffi/api/ffi.h" PARENT_SCOPE)
    return()
  endif()
  set(${include_var} "${dir}" PARENT_SCOPE)
endfunction()
