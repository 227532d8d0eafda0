# Fails when a file of floor FLOOR includes a tilexform header of a floor not
# in ALLOWED (its own and those below it); writes STAMP when every file passes.
# ALLOWED and FILES come comma-separated.
string(REPLACE "," ";" ALLOWED "${ALLOWED}")
string(REPLACE "," ";" FILES "${FILES}")
set(bad "")
foreach(f IN LISTS FILES)
  file(STRINGS "${f}" includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"tilexform/[A-Za-z_]+/")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"tilexform/([A-Za-z_]+)/.*" "\\1" floor
                         "${line}")
    list(FIND ALLOWED "${floor}" at)
    if(at EQUAL -1)
      string(STRIP "${line}" line)
      string(APPEND bad "\n  ${f}: ${line} (floor ${floor} is not below ${FLOOR})")
    endif()
  endforeach()
endforeach()
if(bad)
  string(REPLACE ";" ", " allowed "${ALLOWED}")
  message(FATAL_ERROR "layering: ${FLOOR} may include only ${allowed}:${bad}")
endif()
file(WRITE "${STAMP}" "")
