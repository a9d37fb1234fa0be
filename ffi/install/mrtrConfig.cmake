# CMake package for the mrtr C library (installed by scripts/install).
#
#   find_package(mrtr 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE mrtr::mrtr)         # static, libmrtr.a
#   target_link_libraries(app PRIVATE mrtr::mrtr_shared)  # shared, libmrtr.so
#
# The static library needs nothing from the system beyond memcpy and friends,
# so neither target carries link dependencies.

get_filename_component(_mrtr_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

if(NOT TARGET mrtr::mrtr)
  add_library(mrtr::mrtr STATIC IMPORTED)
  set_target_properties(mrtr::mrtr PROPERTIES
    IMPORTED_LOCATION "${_mrtr_prefix}/lib/libmrtr.a"
    IMPORTED_LINK_INTERFACE_LANGUAGES "C"
    INTERFACE_INCLUDE_DIRECTORIES "${_mrtr_prefix}/include")
endif()

if(NOT TARGET mrtr::mrtr_shared AND EXISTS "${_mrtr_prefix}/lib/libmrtr.so")
  add_library(mrtr::mrtr_shared SHARED IMPORTED)
  set_target_properties(mrtr::mrtr_shared PROPERTIES
    IMPORTED_LOCATION "${_mrtr_prefix}/lib/libmrtr.so"
    # The library has no SONAME: link it by name, not by path.
    IMPORTED_NO_SONAME TRUE
    INTERFACE_INCLUDE_DIRECTORIES "${_mrtr_prefix}/include")
endif()

unset(_mrtr_prefix)
