# Debian's MLIRTargets.cmake wires every static MLIR library to the LLVM shared
# library (its LLVM_LINK_LLVM_DYLIB build).  Loading libLLVM.so costs 15-30 ms of
# process start-up, which dominates a tool that answers in milliseconds, so we
# replace that dependency by LLVM's static component libraries.
function(tilexform_use_static_llvm)
  llvm_map_components_to_libnames(_static_llvm
    support demangle binaryformat targetparser core bitreader bitwriter
    bitstreamreader remarks frontendopenmp frontendoffloading object
    mc mcparser textapi irreader asmparser transformutils analysis
    profiledata symbolize debuginfodwarf debuginfopdb debuginfomsf
    debuginfobtf debuginfocodeview frontendhlsl ipo)
  if(NOT TARGET zstd::libzstd_shared)
    find_library(_zstd zstd REQUIRED)
    add_library(zstd::libzstd_shared INTERFACE IMPORTED)
    set_target_properties(zstd::libzstd_shared PROPERTIES INTERFACE_LINK_LIBRARIES "${_zstd}")
  endif()
  get_directory_property(_imported IMPORTED_TARGETS)
  foreach(_t IN LISTS _imported)
    if(NOT _t MATCHES "^MLIR")
      continue()
    endif()
    get_target_property(_type ${_t} TYPE)
    if(NOT _type STREQUAL "STATIC_LIBRARY")
      continue()
    endif()
    get_target_property(_libs ${_t} INTERFACE_LINK_LIBRARIES)
    if(NOT _libs)
      continue()
    endif()
    list(FIND _libs LLVM _pos)
    if(_pos GREATER -1)
      list(REMOVE_ITEM _libs LLVM)
      list(APPEND _libs ${_static_llvm})
      set_target_properties(${_t} PROPERTIES INTERFACE_LINK_LIBRARIES "${_libs}")
    endif()
  endforeach()
endfunction()

# For a fully static executable: LLVMSupport's interface names the shared zlib
# and zstd (static archives are wanted) and Z3's shared library (nothing we
# link calls LLVM's Z3 solver, and Debian ships no static Z3).
function(tilexform_use_static_support_libs)
  find_library(_zlib_a NAMES libz.a REQUIRED)
  find_library(_zstd_a NAMES libzstd.a REQUIRED)
  get_target_property(_libs LLVMSupport INTERFACE_LINK_LIBRARIES)
  set(_static)
  foreach(_lib IN LISTS _libs)
    if(_lib STREQUAL "ZLIB::ZLIB")
      list(APPEND _static ${_zlib_a})
    elseif(_lib MATCHES "^zstd::")
      list(APPEND _static ${_zstd_a})
    elseif(NOT _lib MATCHES "libz3\\.so")
      list(APPEND _static ${_lib})
    endif()
  endforeach()
  set_target_properties(LLVMSupport PROPERTIES INTERFACE_LINK_LIBRARIES "${_static}")
endfunction()
