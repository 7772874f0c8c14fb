#!/usr/bin/env bash
# replay_cli_test.sh [BUILD_DIR] - the laige-replay CLI contract
# (docs/replay.md): stdout grammar of log and diff mode, baseline grammar and
# bounds, exit codes 0/1/2, diagnostics on stderr only, progress for long
# logs. Fixtures are recorded by laige-replay-fixture from the built-in
# replay-selftest scenario. BUILD_DIR defaults to build/native-debug.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bin="$(cd "${1:-$root/build/native-debug}" 2>/dev/null && pwd)" || { echo "replay_cli_test: no build dir ${1:-}" >&2; exit 1; }
R="$bin/laige-replay"
F="$bin/laige-replay-fixture"
for exe in "$R" "$F"; do
  [ -x "$exe" ] || { echo "replay_cli_test: $exe not built" >&2; exit 1; }
done
tmp="$(mktemp -d /tmp/laige-replay-cli-XXXXXX)"
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

passed=0
failed=0
rc=0
ok() { passed=$((passed + 1)); }
bad() {
  failed=$((failed + 1))
  echo "FAIL: $1" >&2
  sed 's/^/  stderr: /' err | head -n 5 >&2
}
# run CMD...: runs with stdout -> out, stderr -> err, exit code -> rc.
run() { "$@" >out 2>err; rc=$?; }
want_rc() { if [ "$rc" = "$1" ]; then ok; else bad "$2 (exit $rc, want $1)"; fi; }
want_err() { if grep -q -- "$1" err; then ok; else bad "$2 (stderr lacks '$1')"; fi; }
want_out() { if grep -q -x -- "$1" out; then ok; else bad "$2 (stdout lacks line '$1')"; fi; }
want_empty_out() { if [ ! -s out ]; then ok; else bad "$1 (stdout not empty)"; fi; }

cat >cfg.json <<'EOF'
{"tickRateHz": 60, "entityCapacity": 256, "seed": 42, "scenario": "replay-selftest"}
EOF
echo '{"tickRateHz": 60, "entityCapacity": 256, "seed": 42}' >noscenario.json

"$F" --config cfg.json --ticks 20 --out a.lgrp --hashes a.txt --spawn-every 5 || exit 1
"$F" --config cfg.json --ticks 20 --out b.lgrp --perturb-tick 7 --spawn-every 5 || exit 1
"$F" --config cfg.json --ticks 12 --out short.lgrp --spawn-every 5 || exit 1
echo '{"seed": 43, "entityCapacity": 256, "scenario": "replay-selftest"}' >seed43.json
"$F" --config seed43.json --ticks 20 --out s43.lgrp --spawn-every 5 || exit 1

# --- usage ------------------------------------------------------------------
run "$R" --help; want_rc 0 "--help"; want_out "usage:" "--help prints usage on stdout"
run "$R" -h --bogus; want_rc 0 "-h wins over anything else"
run "$R"; want_rc 2 "no arguments"
run "$R" --bogus; want_rc 2 "unknown flag"
run "$R" --log a.lgrp; want_rc 2 "missing --config"
run "$R" --log a.lgrp --config cfg.json --log a.lgrp; want_rc 2 "--log twice"
run "$R" --log; want_rc 2 "--log without a value"
run "$R" --diff a.lgrp; want_rc 2 "--diff with one log"
run "$R" --diff a.lgrp b.lgrp --log a.lgrp --config cfg.json; want_rc 2 "--diff with --log"
run "$R" --diff a.lgrp b.lgrp --expect a.txt --config cfg.json; want_rc 2 "--diff with --expect"
run "$R" --log a.lgrp --config cfg.json --entries 3; want_rc 2 "--entries without --diff"
for n in -1 -0 65 100 x 1x "" " 3"; do
  run "$R" --diff a.lgrp b.lgrp --config cfg.json --entries "$n"; want_rc 2 "--entries '$n'"
  want_empty_out "--entries '$n'"
done

# --- log mode -----------------------------------------------------------------
run "$R" --log a.lgrp --config cfg.json; want_rc 0 "log mode"
if cmp -s out a.txt; then ok; else bad "the replayed stream equals the live run's"; fi
if [ "$(wc -l <out)" = 21 ]; then ok; else bad "20 frames give 21 hash lines"; fi
# (grep -E for the grammar: Debian's mawk has no {n} intervals.)
if ! grep -q -v -E '^(0|[1-9][0-9]*) [0-9a-f]{16}$' out && awk '$1 != NR - 1 { exit 1 }' out; then ok; else
  bad "hash line grammar"
fi
run "$R" --log a.lgrp --config cfg.json --expect a.txt; want_rc 0 "--expect match"
sed 's/$/\r/' a.txt >crlf.txt
run "$R" --log a.lgrp --config cfg.json --expect crlf.txt; want_rc 0 "CRLF baseline"
head -c -1 a.txt >nofinal.txt
run "$R" --log a.lgrp --config cfg.json --expect nofinal.txt; want_rc 0 "baseline without final newline"
run "$R" --log a.lgrp --config noscenario.json --scenario replay-selftest; want_rc 0 "--scenario"

# Mismatches: exit 1, the stream still on stdout, the report on stderr.
awk 'NR == 5 { $2 = "0000000000000000" } { print }' a.txt >mismatch.txt
run "$R" --log a.lgrp --config cfg.json --expect mismatch.txt; want_rc 1 "hash mismatch"
want_err "hash mismatch at tick 4 (first divergence)" "mismatch report"
if cmp -s out a.txt; then ok; else bad "stdout keeps the hash lines on a mismatch"; fi
head -n 15 a.txt >shorter.txt
run "$R" --log a.lgrp --config cfg.json --expect shorter.txt; want_rc 1 "shorter baseline"
want_err "baseline stream length mismatch" "length report"; want_err "first extra tick 15" "first extra tick"
"$F" --config cfg.json --ticks 25 --out long.lgrp --hashes longer.txt --spawn-every 5 >/dev/null
run "$R" --log a.lgrp --config cfg.json --expect longer.txt; want_rc 1 "longer baseline"
want_err "first missing tick 21" "first missing tick"

# Malformed baselines are errors (2), not mismatches.
sed '3s/^2 /02 /' a.txt >lead0.txt
tr 'a-f' 'A-F' <a.txt >upper.txt
sed '3s/ /  /' a.txt >twospace.txt
{ head -n 3 a.txt; echo; tail -n +4 a.txt; } >blank.txt
{ cat a.txt; printf '21 %064d\n' 0; } >longline.txt
awk 'BEGIN { for (i = 0; i <= 65536; i++) printf "%d %016x\n", i, 0 }' >toomany.txt
head -c $((8 * 1024 * 1024 + 1)) /dev/zero | tr '\0' '0' >huge.txt
for f in lead0 upper twospace blank longline toomany huge; do
  run "$R" --log a.lgrp --config cfg.json --expect "$f.txt"; want_rc 2 "malformed baseline $f"
done
run "$R" --log a.lgrp --config cfg.json --expect missing.txt; want_rc 2 "missing baseline"

# --- config, scenario, log and identity errors --------------------------------
echo '{"tickRateHz": 60,}' >badjson.json
echo '{"tickRateHz": 10, "scenario": "replay-selftest"}' >badrate.json
{ printf '{"x": "'; head -c $((1024 * 1024)) /dev/zero | tr '\0' 'a'; printf '"}'; } >big.json
for c in badjson badrate big; do
  run "$R" --log a.lgrp --config "$c.json"; want_rc 2 "config $c"; want_empty_out "config $c"
done
run "$R" --log a.lgrp --config nope.json; want_rc 2 "missing config"
echo '{"seed": 42, "entityCapacity": 256, "scenario": "replay-selftest", "colour": "red"}' >unknown.json
run "$R" --log a.lgrp --config unknown.json; want_rc 0 "unknown config key is only a warning"
want_err "config/unknown_key" "unknown key warned"; want_err "key=colour" "unknown key named"
run "$R" --log a.lgrp --config noscenario.json; want_rc 2 "no scenario"
run "$R" --log a.lgrp --config cfg.json --scenario no-such; want_rc 2 "unknown scenario"
run "$R" --log missing.lgrp --config cfg.json; want_rc 2 "missing log"; want_err "io_error" "missing log is io_error"
run "$R" --log . --config cfg.json; want_rc 2 "a directory as the log"
: >empty.lgrp
run "$R" --log empty.lgrp --config cfg.json; want_rc 2 "empty log"; want_err "short_input" "empty log reason"
head -c 100 a.lgrp >cut.lgrp
run "$R" --log cut.lgrp --config cfg.json; want_rc 2 "truncated log"
cp a.lgrp flip.lgrp
printf '\x99' | dd of=flip.lgrp bs=1 seek=45 conv=notrunc 2>/dev/null
run "$R" --log flip.lgrp --config cfg.json; want_rc 2 "corrupt log"; want_err "malformed_input" "corrupt log code"
want_empty_out "corrupt log"
run "$R" --log a.lgrp --config seed43.json; want_rc 2 "identity mismatch"
want_err "replay/identity_mismatch" "identity warn"; want_err "log_seed=" "identity values"
echo '{"seed": 42, "entityCapacity": 256, "scenario": "replay-selftest", "determinism": {"enabled": false}}' >nodet.json
"$F" --config nodet.json --ticks 3 --out nodet.lgrp >/dev/null
run "$R" --log nodet.lgrp --config nodet.json; want_rc 2 "determinism disabled"
want_err "determinism_disabled" "determinism warn"

# --- diff mode ------------------------------------------------------------------
run "$R" --diff a.lgrp a.lgrp --config cfg.json; want_rc 0 "identical diff"
printf '%s\n' "replay_diff result=identical" frames_a=20 frames_b=20 first_divergent_tick=0 \
  length_divergence=false full_state_divergent=false differing_items=0 reported_items=0 >identical.want
if cmp -s out identical.want; then ok; else bad "identical diff report"; fi
run "$R" --diff a.lgrp b.lgrp --config cfg.json; want_rc 1 "divergent diff"
want_out "replay_diff result=divergent" "divergent result"; want_out "first_divergent_tick=7" "divergent tick"
want_out "full_state_divergent=true" "full state flag"
items=$(grep -c '^item ' out)
if grep -q -x "reported_items=$items" out; then ok; else bad "reported_items counts the item lines"; fi
if grep '^item ' out | grep -q -v -E '^item slot=[0-9]+ component=[0-9]+ presence=(both|a_only|b_only) a=([0-9a-f]*|-) b=([0-9a-f]*|-)$'; then
  bad "item line grammar"
else ok; fi
if [ "$(sed -n 1p out | cut -d' ' -f1)" = replay_diff ] && [ "$(sed -n 2p out)" = frames_a=20 ]; then ok; else bad "diff line order"; fi
# The desync report at the divergent tick (docs/desync.md#the-report): the
# perturbed input payload is first read by the scenario's input system.
want_out "desync first_system=SelftestApplyInput position=0 checkpoints=compared" "desync report names the first system"
if [ "$(grep -c '^desync_item ' out)" = "$items" ]; then ok; else bad "one desync_item per reported item"; fi
if grep '^desync_item ' out | grep -q -v -E '^desync_item slot=[0-9]+ component=[0-9]+ field=([A-Za-z_][A-Za-z0-9_]*|-)$'; then
  bad "desync_item line grammar"
else ok; fi
run "$R" --diff a.lgrp b.lgrp --config cfg.json --entries 0; want_rc 1 "--entries 0"
want_out "reported_items=0" "count only"; if grep -q '^item ' out; then bad "--entries 0 prints no item"; else ok; fi
run "$R" --diff a.lgrp b.lgrp --config cfg.json --entries 64; want_rc 1 "--entries 64"
run "$R" --diff a.lgrp short.lgrp --config cfg.json; want_rc 1 "length divergence"
want_out "replay_diff result=length_divergence" "length result"; want_out "first_divergent_tick=13" "min + 1"
want_out "length_divergence=true" "length flag"; want_out "differing_items=0" "no items"
run "$R" --diff a.lgrp s43.lgrp --config cfg.json; want_rc 1 "logs with other seeds diff (seed from each header)"
want_out "first_divergent_tick=1" "selftest mixes its draws: tick 1"
run "$R" --diff a.lgrp missing.lgrp --config cfg.json; want_rc 2 "diff with a missing log"
run "$R" --diff a.lgrp flip.lgrp --config cfg.json; want_rc 2 "diff with a corrupt log"

# --- end to end with a registry scenario ----------------------------------------
# A recording of the `input` scenario (its own generated command stream) must
# replay to exactly the stream laige-detcheck prints for that scenario.
echo '{"tickRateHz": 60, "entityCapacity": 512, "churnPerFrameBudget": 256, "seed": "0x1a9e7", "scenario": "input"}' >input.json
if "$F" --config input.json --ticks 600 --out input.lgrp 2>/dev/null; then ok; else bad "record the input scenario"; fi
run "$R" --log input.lgrp --config input.json; want_rc 0 "replay the input scenario"
if [ -x "$bin/laige-detcheck" ]; then
  "$bin/laige-detcheck" --scenario=input --ticks=600 >detcheck.txt 2>/dev/null
  if cmp -s out detcheck.txt; then ok; else bad "replayed input stream equals laige-detcheck's"; fi
  run "$R" --log input.lgrp --config input.json --expect detcheck.txt; want_rc 0 "--expect the detcheck stream"
fi

# --- progress for long logs ---------------------------------------------------------
"$F" --config cfg.json --ticks 10050 --out big.lgrp >/dev/null
run "$R" --log big.lgrp --config cfg.json; want_rc 0 "long log"
if [ "$(grep -c 'ticks (' err)" -ge 10 ]; then ok; else bad "progress every 10% on stderr"; fi
want_err "10050/10050 ticks (100%)" "final progress line"
if ! grep -q -v -E '^[0-9]+ [0-9a-f]{16}$' out && [ "$(wc -l <out)" = 10051 ]; then ok; else
  bad "stdout stays hash lines only"
fi
run "$R" --log a.lgrp --config cfg.json
if grep -q 'ticks (' err; then bad "no progress for a short log on a non-terminal"; else ok; fi

echo "replay_cli_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
