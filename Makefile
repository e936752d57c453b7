# A thin front to CMake. `make help` lists the targets.
# make demo / make test first install what a fresh Debian 12 machine lacks (through apt-get, with
# sudo when not root), then configure once in build/ and build there.

BUILD      ?= build
ASAN_BUILD ?= build-asan
CLANG_BUILD ?= build-clang
RELEASE_BUILD ?= build-release
FUZZ_BUILD ?= build-fuzz
TSAN_BUILD ?= build-tsan
FUZZ_SECONDS ?= 60
PREFIX     ?= /usr/local
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
# A test that hangs fails after this many seconds instead of holding CI until its end; the
# slowest test takes under 3 minutes under the sanitizers.
TEST_TIMEOUT ?= 900
# What the programs need to build and run: make build, demo, install, data, book (OpenBLAS for
# azero's matrix products; cmocka because build/ builds the tests too; a small library).
BUILD_PACKAGES := pkg-config libzstd-dev libmsgpack-dev libcmocka-dev libopenblas-dev
# What the tests need besides: jq and python3 read the programs' JSON (python3-pytest tests the
# Python module), clang and lld build the web page (and check warnings, TSan), wasi-libc and
# clang's wasm32 runtime its learner (whose zstd and msgpack-c come from Debian's source archive,
# train/web/learn.cmake), Chromium and Node.js with npm run the browser test, the ARM compiler
# checks the freestanding export, Open MPI the books under mpirun. bench and fuzz too.
TEST_PACKAGES  := $(BUILD_PACKAGES) jq clang lld wasi-libc libclang-rt-14-dev-wasm32 chromium gcc-arm-none-eabi libopenmpi-dev openmpi-bin python3-pytest
# Commands that may come from elsewhere than Debian (e.g. Node.js from NodeSource, which bundles
# npm): installed from Debian only when the command is missing.
TEST_TOOLS     := python3:python3 node:nodejs npm:npm
CMAKE_ARGS ?=
MAKEFLAGS  += --no-print-directory

.PHONY: all build install deps deps-build demo test test-normal test-asan check-clang check-format format check-release bench data book clean help fuzz tsan study study-quick

all: build ## build the programs and the tests in build/

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -e 's/:.*## /\t/' | expand -t 14

# apt PACKAGES TOOLS: installs the Debian packages of PACKAGES and the commands of TOOLS
# (command:package) that are missing, through apt-get (with sudo when not root).
define apt
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	for t in $(2); do command -v $${t%%:*} >/dev/null 2>&1 || missing="$$missing $${t#*:}"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; \
	  elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; \
	  else echo "error: missing Debian packages:$$missing; install them as root: apt-get install$$missing" >&2; exit 1; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null \
	    || { echo "error: could not install:$$missing (apt-get install$$missing)" >&2; exit 1; }; \
	  [ ! -f $(BUILD)/CMakeCache.txt ] || [ "$(3)" != reconfigure ] || rm -f $(BUILD)/CMakeCache.txt; \
	fi
endef

deps-build: ## install the Debian packages the programs need to build and run, if any is missing
	$(call apt,$(BUILD_PACKAGES),)

# A build/ configured before the test tools came (by make demo) is configured again, so that it
# finds Open MPI and clang's WebAssembly target; the npm packages are installed again when the
# lock names another version than the one installed.
deps: ## install what the tests need as well (Debian packages, and playwright-core from npm for the browser test)
	$(call apt,$(TEST_PACKAGES),$(TEST_TOOLS),reconfigure)
	@want=$$(jq -r '.packages["node_modules/playwright-core"].version' tests/web/package-lock.json); \
	have=$$(jq -r .version tests/web/node_modules/playwright-core/package.json 2>/dev/null); \
	if [ "$$want" != "$$have" ]; then \
	  echo "installing npm packages: playwright-core $$want (tests/web/package-lock.json, for the browser test)"; \
	  npm ci --prefix tests/web --no-audit --no-fund --loglevel=error >/dev/null \
	    || { echo "error: npm ci in tests/web failed (the browser test needs playwright-core)" >&2; exit 1; }; \
	fi

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_ARGS)

# -O1, as AddressSanitizer's documentation advises for speed (an access the optimiser removes takes
# its check with it; every access the program makes is still checked): the tests 2.4x faster than
# at -O0 (335 s against 140 s here; e2e_arena's Connect-4 solver games 328 s against 97 s).
$(ASAN_BUILD)/CMakeCache.txt:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -g" -DOXO_SANITIZE=ON $(CMAKE_ARGS)

build: $(BUILD)/CMakeCache.txt ## configure once (build/CMakeCache.txt is the stamp) and build
	cmake --build $(BUILD) -j $(JOBS)

install: deps-build build ## install programs, liboxo, oxo.h, oxo.pc, the CMake package, man pages, data under PREFIX (default /usr/local)
	cmake --install $(BUILD) --prefix $(PREFIX)

demo: deps-build build ## install, build, generate the table, train two models, play
	@sh tests/demo.sh $(BUILD)

test: deps ## install, build, run every test (clang and gcc -O3 warnings checks, normal build, ASan+UBSan build)
	$(MAKE) check-clang
	$(MAKE) check-release
	$(MAKE) test-normal
	$(MAKE) tsan
	$(MAKE) test-asan

test-normal: build ## run every test in the normal build
	cd $(BUILD) && ctest --output-on-failure --timeout $(TEST_TIMEOUT) -j $(JOBS)

test-asan: $(ASAN_BUILD)/CMakeCache.txt ## run every test under AddressSanitizer + UBSan
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ctest --output-on-failure --timeout $(TEST_TIMEOUT) -j $(JOBS)

check-clang: ## build with clang -Werror when clang is installed (warnings only, no tests)
	@if command -v clang >/dev/null 2>&1 && printf 'int main(void){return 0;}\n' | clang -fopenmp -x c -o /dev/null - >/dev/null 2>&1; then \
	  cmake -S . -B $(CLANG_BUILD) -DCMAKE_C_COMPILER=clang -DOXO_BUILD_TESTS=ON -DOXO_WEB=OFF >/dev/null && \
	  cmake --build $(CLANG_BUILD) -j $(JOBS) -- --no-print-directory >/dev/null && echo "clang build: no warnings"; \
	else echo "check-clang: clang with OpenMP not installed, skipped (apt-get install clang libomp-dev)"; fi

format: ## lay every C file out by .clang-format (100 columns)
	git ls-files '*.c' '*.h' | grep -v '^tests/fixtures/' | xargs clang-format -i

check-format: ## list the C files that clang-format would change (nothing printed: all laid out)
	@git ls-files '*.c' '*.h' | grep -v '^tests/fixtures/' | while read -r f; do \
	  clang-format "$$f" | cmp -s - "$$f" || echo "$$f"; done

check-release: ## build with gcc -O3 (CMAKE_BUILD_TYPE=Release) -Werror: its deeper inlining warns where -O2 does not (warnings only, no tests)
	@cmake -S . -B $(RELEASE_BUILD) -DCMAKE_BUILD_TYPE=Release -DOXO_BUILD_TESTS=ON -DOXO_WEB=OFF >/dev/null && \
	cmake --build $(RELEASE_BUILD) -j $(JOBS) -- --no-print-directory >/dev/null && echo "gcc -O3 build: no warnings"

bench: deps build ## print the speed figures (generator, lookups, searches, training)
	@sh tests/bench.sh $(BUILD)

# The study reads the programs' JSON with jq.
study: deps-build build ## the Connect-4 7x6 study: each learned family 5 seeds x 15 min, every agent graded, the round robin, the table (hours; run again to go on)
	$(call apt,jq,)
	@sh train/study.sh $(BUILD)

study-quick: deps-build build ## the same study in a few minutes (1 seed, 60 s a training, small searches)
	$(call apt,jq,)
	@sh train/study.sh --quick $(BUILD)

data: deps-build build ## regenerate data/tictactoe.oxt and the default models
	@sh data/make.sh $(BUILD)

# The 7x6 book takes hours here (a cluster: minutes under mpirun), so `make data` leaves it out;
# it checkpoints every 5 minutes and on Ctrl-C, and `make book` again takes it up where it stopped.
BOOK_GAME  ?= connect4
BOOK_DEPTH ?= 8
BOOK_OUT   ?= data/$(subst :,-,$(subst $(comma),-,$(BOOK_GAME)))$(if $(findstring :,$(BOOK_GAME)),,-7-6)-book.oxt
comma := ,
book: deps-build build ## the Connect-4 7x6 opening book to BOOK_DEPTH (8) stones into data/: hours; Ctrl-C keeps the work, run again to go on
	@if [ -f $(BOOK_OUT) ] && [ ! -f $(BOOK_OUT).ckpt ]; then echo "$(BOOK_OUT) is built (remove it to build it again)"; \
	else $(BUILD)/oxo-gen --game $(BOOK_GAME) --book $(BOOK_DEPTH) --tt-mb 32 --resume -o $(BOOK_OUT); fi

tsan: ## ThreadSanitizer + Archer over the trainer's threads, and a planted race it must report (clang, libomp-dev)
	@archer=$$(dirname "$$(readlink -f "$$(command -v clang)")" 2>/dev/null)/../lib/libarcher.so; \
	if command -v clang >/dev/null 2>&1 && [ -f "$$archer" ]; then \
	  cmake -S . -B $(TSAN_BUILD) -DCMAKE_C_COMPILER=clang -DOXO_TSAN=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null && \
	  cmake --build $(TSAN_BUILD) -j $(JOBS) --target tsan_train tsan_gen tsan_race -- --no-print-directory >/dev/null && \
	  cd $(TSAN_BUILD) && ctest --output-on-failure --timeout $(TEST_TIMEOUT) -R tsan; \
	else echo "tsan: clang or LLVM's libarcher.so not installed, skipped (apt-get install clang libomp-dev)"; fi

fuzz: deps ## run each libFuzzer target FUZZ_SECONDS (default 60; clang); crashes kept in tests/fuzz/crashers/
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_C_COMPILER=clang -DOXO_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_table fuzz_model fuzz_body fuzz_board fuzz_file -- --no-print-directory >/dev/null
	@for t in table model body board file; do \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$t tests/fuzz/crashers/$$t; \
	  printf 'fuzz_%s: ' $$t; \
	  $(FUZZ_BUILD)/tests/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    -artifact_prefix=tests/fuzz/crashers/$$t/ $(FUZZ_BUILD)/corpus/$$t tests/fuzz/corpus/$$t \
	    >$(FUZZ_BUILD)/fuzz_$$t.log 2>&1; rc=$$?; \
	  runs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $(FUZZ_BUILD)/fuzz_$$t.log); \
	  rss=$$(sed -n 's/^stat::peak_rss_mb: *//p' $(FUZZ_BUILD)/fuzz_$$t.log); \
	  echo "$$runs executions, peak $$rss MB, exit $$rc"; \
	  [ $$rc = 0 ] || { tail -30 $(FUZZ_BUILD)/fuzz_$$t.log; exit 1; }; \
	done

clean: ## remove the build folders
	rm -rf $(BUILD) $(ASAN_BUILD) $(CLANG_BUILD) $(RELEASE_BUILD) $(FUZZ_BUILD) $(TSAN_BUILD)
