# The page's learner, learn.wasm (train/web/learn.c): oxo-train's own sources (formats, the game
# core, the player, the trainer, the reading of its command line) compiled by clang for wasm32-wasi
# against Debian's wasi-libc, with zstd and msgpack-c built from the sources Debian 12 builds its
# packages from (its archive's .orig tarballs, checked by their SHA-256; the headers msgpack-c's
# build generates are taken from Debian's libmsgpack-dev, of the same version). Included by the
# top-level CMakeLists.txt where the web page is built; needs `web` (the page's folder in the build).
# The page learns only where this is built: without wasi-libc (apt-get install wasi-libc) or the
# sources, the page still plays, and says it cannot learn.

set(OXO_WASI_LIBC /usr/lib/wasm32-wasi/libc.a)
set(OXO_WASI_INCLUDE /usr/include/wasm32-wasi)
set(OXO_WEB_DEPS_URL http://deb.debian.org/debian/pool/main CACHE STRING
    "where the zstd and msgpack-c sources of the page's learner are downloaded from")
set(learn_deps ${PROJECT_BINARY_DIR}/web-deps)
set(OXO_WEB_LEARN OFF)
if(EXISTS ${OXO_WASI_LIBC} AND EXISTS ${OXO_WASI_INCLUDE}/stdio.h AND EXISTS /usr/include/msgpack/sysdep.h)
  set(OXO_WEB_LEARN ON)
  # name, path in the archive, SHA-256, the folder it unpacks to
  set(zstd_src libz/libzstd/libzstd_1.5.4+dfsg2.orig.tar.xz
      8cf4bbb65e77ec348d052c8d6230eba66d435bddf64c8b5be2fcb16880c19953 zstd-1.5.4)
  set(msgpack_src m/msgpack-c/msgpack-c_4.0.0.orig.tar.gz
      420fe35e7572f2a168d17e660ef981a589c9cbe77faa25eb34a520e1fcc032c8 msgpack-c-4.0.0)
  foreach(dep zstd msgpack)
    list(GET ${dep}_src 0 path)
    list(GET ${dep}_src 1 sha)
    list(GET ${dep}_src 2 dir)
    get_filename_component(name ${path} NAME)
    if(NOT EXISTS ${learn_deps}/${dir})
      file(DOWNLOAD ${OXO_WEB_DEPS_URL}/${path} ${learn_deps}/${name} EXPECTED_HASH SHA256=${sha}
           STATUS st TLS_VERIFY ON)
      list(GET st 0 code)
      if(code EQUAL 0)
        file(ARCHIVE_EXTRACT INPUT ${learn_deps}/${name} DESTINATION ${learn_deps})
      else()
        message(STATUS "the page's learner is not built: ${OXO_WEB_DEPS_URL}/${path}: ${st}")
        set(OXO_WEB_LEARN OFF)
      endif()
    endif()
  endforeach()
endif()

if(OXO_WEB_LEARN)
  set(zsrc ${learn_deps}/zstd-1.5.4/lib)
  # msgpack-c's headers as Debian installed them, alone in a folder: /usr/include holds glibc's too.
  file(MAKE_DIRECTORY ${learn_deps}/include)
  file(CREATE_LINK /usr/include/msgpack ${learn_deps}/include/msgpack SYMBOLIC)
  file(CREATE_LINK /usr/include/msgpack.h ${learn_deps}/include/msgpack.h SYMBOLIC)
  execute_process(COMMAND ${OXO_CLANG} -print-resource-dir OUTPUT_VARIABLE clang_res
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  # Only wasi-libc's headers and clang's own: the host's /usr/include must not leak in. zstd's API
  # hidden, so that the module exports only learn.c's functions and the rest can be dropped.
  set(wasi_flags --target=wasm32-wasi -O2 -std=c11 -ffp-contract=off -nostdinc
      -isystem ${clang_res}/include -isystem ${OXO_WASI_INCLUDE} -D_DEFAULT_SOURCE
      -D_POSIX_C_SOURCE=200809L -D_WASI_EMULATED_MMAN -DZSTDLIB_VISIBLE= -DZSTDERRORLIB_VISIBLE=
      -fvisibility=hidden -ffunction-sections -fdata-sections -I${zsrc} -I${learn_deps}/include)
  # oxo's sources: warnings are errors as everywhere, but for the variables only OpenMP's pragmas
  # use (train/web/omp.h stands in for OpenMP: the pragmas are ignored) and the pragmas themselves.
  set(oxo_flags -Wall -Wextra -Werror -Wmissing-prototypes -Wno-unknown-pragmas -Wno-unused-variable
      -I${PROJECT_SOURCE_DIR}/train/web -I${PROJECT_SOURCE_DIR}/formats -I${PROJECT_SOURCE_DIR}/lookup
      -I${PROJECT_SOURCE_DIR}/lookup/games -I${PROJECT_SOURCE_DIR}/lookup/agents
      -I${PROJECT_SOURCE_DIR}/lookup/freestanding -I${PROJECT_SOURCE_DIR}/train)
  file(GLOB zstd_c ${zsrc}/common/*.c ${zsrc}/compress/*.c ${zsrc}/decompress/*.c)
  file(GLOB msgpack_c ${learn_deps}/msgpack-c-4.0.0/src/*.c)
  # What oxo-train is made of, less its process (main.c, run.c, sweep.c: files, signals, threads)
  # and formats' saving to disk (atomic.c): the page's bytes go to a download.
  set(oxo_c ${OXO_READ_SOURCES} formats/container_write.c formats/table_write.c
      formats/model_write.c ${OXO_CORE_SOURCES} ${OXO_PLAYER_SOURCES} ${OXO_AGENT_SOURCES}
      lookup/cli.c lookup/export_json.c train/train.c train/merge.c ${OXO_LEARNER_SOURCES}
      train/grade.c train/judge.c train/rating.c train/settings.c train/args.c train/configure.c
      train/report.c train/web/learn.c)
  file(MAKE_DIRECTORY ${learn_deps}/obj)
  set(objs)
  foreach(src IN LISTS zstd_c msgpack_c oxo_c)
    get_filename_component(abs ${src} ABSOLUTE BASE_DIR ${PROJECT_SOURCE_DIR})
    file(RELATIVE_PATH rel ${PROJECT_BINARY_DIR} ${abs})
    string(REGEX REPLACE "[/.]" "_" id ${rel})
    set(flags ${wasi_flags})
    if(src IN_LIST zstd_c)
      list(APPEND flags -DZSTD_DISABLE_ASM)
    elseif(NOT src IN_LIST msgpack_c)
      list(APPEND flags ${oxo_flags})
    endif()
    set(obj ${learn_deps}/obj/${id}.o)
    add_custom_command(OUTPUT ${obj}
      COMMAND ${OXO_CLANG} ${flags} -MD -MF ${obj}.d -c ${abs} -o ${obj}
      DEPFILE ${obj}.d DEPENDS ${abs} VERBATIM)
    list(APPEND objs ${obj})
  endforeach()
  # The stack first and of 4 MiB, as a program's would be: wasm-ld's default is 64 KiB placed
  # above the data, so that a deeper stack (the JSON export keeps 6,000 positions on it) silently
  # overwrote the library's constants (printf's hex digits: model hashes came out with spaces);
  # below the data an overflow traps instead.
  add_custom_command(OUTPUT ${web}/learn.wasm
    COMMAND ${OXO_CLANG} --target=wasm32-wasi -mexec-model=reactor -Wl,--gc-sections
      -Wl,--export-dynamic -Wl,--stack-first -Wl,-z,stack-size=4194304 ${objs}
      -lwasi-emulated-mman -o ${web}/learn.wasm
    DEPENDS ${objs} VERBATIM)
  list(APPEND web_outputs ${web}/learn.wasm)
endif()
