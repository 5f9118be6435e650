#!/usr/bin/env bash
# Makes the fuzz harnesses' seed corpora and dictionaries from the repository's own files (see
# fuzz/README.md); nothing generated here is committed.
#   scripts/fuzz-corpus.sh OUT_DIR WESTPHALIA
# OUT_DIR/<harness>/ gets the seeds, OUT_DIR/<harness>.dict the dictionary. WESTPHALIA is the
# command-line binary, used to write IR files (`compile --emit-ir=json`) and game logs
# (`play --log`). Seeds are the repository's files under their paths, or named by their
# content's hash, so running again gives the same corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/fuzz-corpus.sh OUT_DIR WESTPHALIA}
wp=${2:?usage: scripts/fuzz-corpus.sh OUT_DIR WESTPHALIA}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# seed HARNESS FILE: copies FILE into the harness's corpus under its hash.
seed() {
  local sum
  sum=$(sha1sum "$2" | cut -c1-40)
  cp "$2" "$out/$1/$sum"
}

for h in parse compile ir_json replay; do
  rm -rf "${out:?}/$h"
  mkdir -p "$out/$h"
done

# parse: every rule file. compile: every rule file alone (a single-file ruleset), and every
# ruleset folder as a bundle (fuzz/fuzz_compile.cpp): `//@ file PATH` before each of its files.
# (libFuzzer reads a corpus folder recursively: the files keep their repository paths.)
for h in parse compile; do
  find rulesets tests examples -name '*.wph' -type f -print0 | xargs -0 cp --parents -t "$out/$h"
done
n=0
while IFS= read -r manifest; do
  dir=$(dirname "$manifest")
  bundle="$tmp/bundle.$((n++))"
  : >"$bundle"
  while IFS= read -r f; do
    printf '//@ file %s\n' "${f#"$dir"/}" >>"$bundle"
    cat "$f" >>"$bundle"
    [ -z "$(tail -c1 "$f")" ] || echo >>"$bundle"
  done < <(find "$dir" -name '*.wph' -type f | LC_ALL=C sort)
  seed compile "$bundle"
done < <(find rulesets tests examples -name ruleset.wph -type f | LC_ALL=C sort)
# the command line's --upto and --option, on Contractor Cards
for b in "$tmp"/bundle.*; do
  if head -c 4096 "$b" | grep -q 'ruleset contractor_cards'; then
    { printf '//@ upto base\n'; cat "$b"; } >"$tmp/upto"
    { printf '//@ option end_timing=end_of_round\n//@ option no_such_option=1\n'; cat "$b"; } >"$tmp/options"
    seed compile "$tmp/upto"
    seed compile "$tmp/options"
  fi
done

# ir_json: the IR files under tests/ (most are broken on purpose), and the IR of each small
# test ruleset as `compile --emit-ir=json` writes it, with the indentation taken out (a line
# never breaks inside a JSON string, so this keeps the value). A bundled ruleset's IR is
# several hundred KiB: too long an input to mutate quickly.
compact() { sed 's/^ *//' "$1" | tr -d '\n'; }
while IFS= read -r f; do
  compact "$f" >"$tmp/ir.json"
  seed ir_json "$tmp/ir.json"
done < <(find tests -name '*.json' -type f | LC_ALL=C sort)
for r in tests/rulesets/*/*.wph; do
  if "$wp" compile "$r" --emit-ir=json -o "$tmp/full.json" >/dev/null 2>&1; then
    compact "$tmp/full.json" >"$tmp/ir.json"
    seed ir_json "$tmp/ir.json"
  fi
done

# replay: the logs under tests/, and a few games played now on the rulesets fuzz_replay knows
# (fuzz/fuzz_replay.cpp), with both agents and several seeds and player counts.
while IFS= read -r f; do seed replay "$f"; done < <(find tests -name '*.jsonl' -type f | LC_ALL=C sort)
play() {  # play RULESET PLAYERS SEED AGENT
  if "$wp" play "$1" --players "$2" --seed "$3" --agent "$4" --quiet --log "$tmp/game.jsonl" >/dev/null 2>&1 ||
    [ -s "$tmp/game.jsonl" ]; then
    seed replay "$tmp/game.jsonl"
  fi
  rm -f "$tmp/game.jsonl"
}
play rulesets/contractor-cards 2 1 random
play rulesets/contractor-cards 3 7 first
play rulesets/contractor-cards 4 11 random
for r in tests/rulesets/play-hex/game.wph tests/rulesets/engine-odds/odds.wph \
  tests/rulesets/engine-statements/game.wph tests/rulesets/engine-errors/overflow.wph; do
  play "$r" 2 1 random
  play "$r" 2 5 first
done

# Dictionaries: the grammar's keywords and tokens, the bundle's markers; the IR's and the
# log's field names.
dict() {  # dict WORD...: one quoted entry a line (the words hold no `"` or `\`)
  local w
  for w in "$@"; do printf '"%s"\n' "$w"; done
}
mapfile -t words < <(grep -ohE '"[a-z_][a-z_0-9]+"' dsl/src/grammar_def.hpp | tr -d '"' | LC_ALL=C sort -u)
{
  dict "${words[@]}"
  printf '"\\""\n"\\xC2\\xA7"\n'  # `"` and `§`
  dict '{' '}' '(' ')' '[' ']' ';' ':' ',' '.' '..' '->' '=>' '==' '!=' '<=' '>=' '+=' '-=' '//'
} >"$out/parse.dict"
{
  cat "$out/parse.dict"
  dict '//@ file ' '//@ option ' '//@ upto ' 'ruleset.wph' 'outline.wph'
} >"$out/compile.dict"
mapfile -t ir_words < <(grep -ohE '"[a-z_][a-z_0-9]+"' compiler/src/ir_json.cpp compiler/src/ir_validate.cpp |
  tr -d '"' | LC_ALL=C sort -u)
mapfile -t log_words < <(grep -ohE '"[a-z_][a-z_0-9]+"' engine/src/log.cpp | tr -d '"' | LC_ALL=C sort -u)
for h in ir_json replay; do
  if [ "$h" = ir_json ]; then list=("${ir_words[@]}"); else list=("${log_words[@]}"); fi
  {
    for w in "${list[@]}"; do printf '"\\"%s\\":"\n' "$w"; done
    dict '{' '}' '[' ']' ',' ':' 'null' 'true' 'false' '-1' '0' '1' '1e999' '18446744073709551616'
  } >"$out/$h.dict"
done
for h in parse compile ir_json replay; do
  echo "fuzz-corpus: $h: $(find "$out/$h" -type f | wc -l) seeds, $(du -sk "$out/$h" | cut -f1) KiB"
done
