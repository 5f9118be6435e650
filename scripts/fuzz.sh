#!/usr/bin/env bash
# Fuzzes Westphalia's input readers with libFuzzer (see fuzz/README.md).
#   bash scripts/fuzz.sh [SECONDS] [HARNESS...]
# Installs what is missing (Debian packages, as scripts/setup.sh does), builds the harnesses
# with Clang into build-fuzz/ (ASan, UBSan), makes the seed corpora from the repository's own
# rule files, IR files and game logs (scripts/fuzz-corpus.sh), then runs each harness for
# SECONDS (default 60). HARNESS is parse, compile, ir_json or replay (default: all four).
# Exit 1 when a harness finds a crash, hang, leak or sanitizer report; the input that caused it
# is left in out/fuzz/<harness>/ (the last run's findings only) and the command that reproduces
# it is printed.
# WP_FUZZ_JOBS sets the build's parallel jobs (default: the number of cores).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "usage: scripts/fuzz.sh [SECONDS] [parse|compile|ir_json|replay ...]" >&2; exit 2; }
shift || true
harnesses=("$@")
((${#harnesses[@]})) || harnesses=(parse compile ir_json replay)
for h in "${harnesses[@]}"; do
  case "$h" in
    parse | compile | ir_json | replay) ;;
    *) echo "fuzz: no harness \`$h\`; the harnesses are parse, compile, ir_json, replay" >&2; exit 2 ;;
  esac
done

# What the fuzz build and the seed corpora need: Clang with its runtime libraries (libFuzzer,
# the sanitizers), llvm-symbolizer for readable stacks, and what `westphalia` is built from
# (it writes the seed IR files and game logs).
packages=(
  build-essential cmake ninja-build g++ clang libclang-rt-14-dev llvm-14 ccache
  libboost1.74-dev nlohmann-json3-dev libcli11-dev libz3-dev z3 libhpdf-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "fuzz: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

jobs=${WP_FUZZ_JOBS:-$(nproc)}
start=$SECONDS
# The harnesses and the three libraries they use (dsl, compiler, engine), nothing else.
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DWP_FUZZ=ON -DWP_WERROR=ON -DBUILD_TESTING=OFF ${WP_CMAKE_ARGS:-} >/dev/null
cmake --build build-fuzz -j "$jobs"
# `westphalia` for the seeds: the ordinary build's, built if need be (only that target).
if [ ! -f build/CMakeCache.txt ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DWP_WERROR=ON ${WP_CMAKE_ARGS:-} >/dev/null
fi
cmake --build build -j "$jobs" --target westphalia
echo "fuzz: built in $((SECONDS - start)) s"

bash scripts/fuzz-corpus.sh build-fuzz/seeds build/app/westphalia

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=()
for h in "${harnesses[@]}"; do
  corpus=build-fuzz/corpus/$h       # what the fuzzer adds; kept between runs
  artifacts=out/fuzz/$h
  regressions=fuzz/regressions/$h  # inputs that once failed, run first
  mkdir -p "$corpus" "$artifacts" "$regressions"
  rm -f "$artifacts"/crash-* "$artifacts"/timeout-* "$artifacts"/leak-* "$artifacts"/oom-* "$artifacts"/slow-unit-*
  log=$artifacts/fuzz.log
  echo "fuzz: $h for $seconds s (log: $log)"
  # fuzz_compile writes each input's files under $TMPDIR; libFuzzer ends with _Exit, which
  # skips the harness's clean-up, so the folder lives in build-fuzz/ and is emptied here.
  rm -rf build-fuzz/tmp && mkdir -p build-fuzz/tmp
  # -timeout: one input taking longer is a hang. -rss_limit_mb: memory past this is a finding.
  # WP_FUZZ_SEED fixes libFuzzer's random seed (CI sets it, so a run explores the same inputs
  # first each time); unset, each run is seeded afresh and may find what others did not.
  if TMPDIR=$PWD/build-fuzz/tmp build-fuzz/fuzz/fuzz_"$h" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2560 \
    -seed="${WP_FUZZ_SEED:-0}" \
    -print_final_stats=1 -dict=build-fuzz/seeds/"$h".dict -artifact_prefix="$artifacts/" \
    "$corpus" build-fuzz/seeds/"$h" "$regressions" >"$log" 2>&1; then
    grep -E '^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::peak_rss_mb)' "$log" | sed "s/^/fuzz: $h: /" || true
  else
    failed+=("$h")
    echo "fuzz: $h FAILED; the end of its log:" >&2
    tail -n 60 "$log" >&2
    for a in "$artifacts"/crash-* "$artifacts"/timeout-* "$artifacts"/leak-* "$artifacts"/oom-* "$artifacts"/slow-unit-*; do
      [ -e "$a" ] || continue
      echo "fuzz: $h: the input: $a" >&2
      echo "fuzz: $h: reproduce: build-fuzz/fuzz/fuzz_$h $a" >&2
    done
  fi
done
if ((${#failed[@]})); then
  echo "fuzz: findings in: ${failed[*]} (inputs in out/fuzz/)" >&2
  exit 1
fi
echo "fuzz: no findings (${harnesses[*]}, $seconds s each)"
