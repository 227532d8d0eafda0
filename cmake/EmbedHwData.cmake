# Writes ArchData.inc: every data/hw/*.json as a string literal, so the binary
# carries the one source of truth without reading files at run time.
# products.json is no arch: the product-name table --arch reads (kProducts).
file(GLOB files "${DATA_DIR}/*.json")
list(FILTER files EXCLUDE REGEX "/products\\.json$")
list(SORT files)
set(out "static const Entry kEntries[] = {\n")
foreach(f IN LISTS files)
  get_filename_component(arch "${f}" NAME_WE)
  file(READ "${f}" content)
  string(APPEND out "  {\"${arch}\", R\"tilexform_hw(${content})tilexform_hw\"},\n")
endforeach()
string(APPEND out "};\n")
file(READ "${DATA_DIR}/products.json" products)
string(APPEND out "static const char kProducts[] = R\"tilexform_hw(${products})tilexform_hw\";\n")
file(WRITE "${OUTPUT}.tmp" "${out}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.tmp" "${OUTPUT}")
