# Turns the freestanding sources into C string constants (oxo_fs_<name>), so that oxo-export can
# write into each player the very files liboxo and it compile (zstd builds its single-file decoder
# from its real sources the same way, with a script).
# cmake -DOUT=FILE -DFILES="a.c;b.c" -P embed.cmake
file(WRITE ${OUT}.tmp "/* Made by lookup/freestanding/embed.cmake from lookup/freestanding: do not edit. */\n")
foreach(f ${FILES})
  get_filename_component(name ${f} NAME_WE)
  file(READ ${f} text)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  string(REPLACE "\n" "\\n\"\n    \"" text "${text}")
  file(APPEND ${OUT}.tmp "static const char oxo_fs_${name}[] =\n    \"${text}\";\n")
endforeach()
# Only a change rewrites the header, so that what includes it is not rebuilt for nothing.
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
