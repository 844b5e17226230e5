#!/usr/bin/env bash
# The blocks' manifests (mk/manifest.mk, mk/README.md), run by make test as one
# test (TAP):
#  - every file generated from rtl/<area>/*.toml is current
#    (scripts/manifest.py --check: the .core files, mk/blocks.mk, the .sby
#    files' file lists, fpga/top.f's rtl/ lines);
#  - adding a block needs only its folder: a scratch copy of the build's files
#    (Makefile, mk/, scripts/, rtl/, formal/, fpga/top.f) gets one folder more,
#    rtl/dummy/ = tests/manifest/dummy/ (a manifest and a tiny module that
#    instantiates a primitive, nothing else); the generator then writes its
#    .core and its lines of mk/blocks.mk and touches nothing else, make knows
#    the block (BLOCKS, its top, its sources through the primitive's core, its
#    configurations), verilates its model from them, Verilator lints it, its
#    parameter check elaborates as scripts/check_rtl_style.sh runs it, and
#    FuseSoC lints the generated core.
set -u
cd "$(dirname "$0")/.."
n=0 fail=0
ok() { n=$((n + 1)); if [ "$1" = 1 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }
tmp=$(mktemp -d /tmp/fg-manifest.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

scripts/manifest.py --check >"$tmp/check.log" 2>&1; r=$?
sed 's/^/# /' "$tmp/check.log"
ok "$([ $r = 0 ] && echo 1)" "files generated from the manifests are current (make manifest)"

# the scratch tree: the build's own files only, no build directory
t=$tmp/tree
mkdir -p "$t/fpga"
cp -r Makefile mk scripts rtl formal "$t/"
cp fpga/top.f "$t/fpga/"
cp -r "$t" "$tmp/orig"
mkdir -p "$t/rtl/dummy" "$tmp/orig/rtl/dummy"
cp tests/manifest/dummy/fg_dummy.toml tests/manifest/dummy/fg_dummy.sv "$t/rtl/dummy/"
cp tests/manifest/dummy/fg_dummy.toml tests/manifest/dummy/fg_dummy.sv "$tmp/orig/rtl/dummy/"
scripts/manifest.py --root "$t" >"$tmp/gen.log" 2>&1; r=$?
sed 's/^/# /' "$tmp/gen.log"
changed=$(cd "$tmp" && diff -rq orig tree | sed -n 's/^Files orig\/\([^ ]*\) and .*/\1/p; s/^Only in tree\/\?\([^:]*\): \(.*\)/\1\/\2/p' | sed 's|^/||' | sort | tr '\n' ' ')
echo "# generated: $changed"
ok "$([ $r = 0 ] && [ "$changed" = "mk/blocks.mk rtl/dummy/fg_dummy.core " ] && echo 1)" \
  "the dummy's manifest alone: the generator writes its .core and mk/blocks.mk, nothing else"

mk() { make -s --no-print-directory -C "$t" BUILD=build "$@" 2>"$tmp/make.err"; }
blocks=$(mk print-BLOCKS)
srcs=$(mk print-fg_dummy_SRCS)
echo "# make: fg_dummy_TOP=$(mk print-fg_dummy_TOP) fg_dummy_SRCS=$srcs fg_dummy_CONFIGS=$(mk print-fg_dummy_CONFIGS)"
ok "$([[ " $blocks " == *" fg_dummy "* ]] && [ "$(mk print-fg_dummy_TOP)" = fg_dummy ] &&
      [ "$srcs" = "rtl/prim/fg_fifo.sv rtl/dummy/fg_dummy.sv" ] && [ "$(mk print-fg_dummy_CONFIGS)" = w3 ] &&
      [ "$(mk print-fg_dummy_w3_GPARAMS)" = WIDTH=3 ] && echo 1)" \
  "make: fg_dummy in BLOCKS, its top, its sources through the primitive's core, its configuration w3"

# its model, by the Makefile's own rule (the dependency on $(BUILD)/.deps,
# the tool install, is met: the tools are here)
mkdir -p "$t/build" && touch "$t/build/.deps"
make --no-print-directory -C "$t" BUILD=build build/vl/fg_dummy_w3/Vfg_dummy_w3__ALL.a >"$tmp/model.log" 2>&1; r=$?
[ $r = 0 ] || sed 's/^/# /' "$tmp/model.log" | tail -15
ok "$([ $r = 0 ] && grep -q -- '--top-module fg_dummy --prefix Vfg_dummy_w3 .* -GWIDTH=3 ' "$tmp/model.log" &&
      [ -s "$t/build/vl/fg_dummy_w3/Vfg_dummy_w3__ALL.a" ] && echo 1)" \
  "make verilates the dummy's configuration w3 (Vfg_dummy_w3) from the manifest's lists"

(cd "$t" && verilator --lint-only -Wall --assert -Irtl/include --top-module fg_dummy $srcs) >"$tmp/lint.log" 2>&1; r=$?
[ $r = 0 ] || sed 's/^/# /' "$tmp/lint.log" | head -10
ok "$([ $r = 0 ] && echo 1)" "verilator -Wall --lint-only: the dummy at its defaults, from make's list"

case=$(scripts/manifest.py --root "$t" --style-cases | grep '^fg_dummy|')
IFS='|' read -r top csrcs bad msg <<<"$case"
(cd "$t" && verilator --lint-only -Wall --assert -Irtl/include --top-module "$top" "-G$bad" $csrcs) >"$tmp/bad.log" 2>&1; r=$?
ok "$([ -n "$case" ] && [ $r != 0 ] && grep -q "$msg" "$tmp/bad.log" && echo 1)" \
  "the style check's case from the manifest: fg_dummy $bad stops elaboration with '$msg'"

python3 -c "import sys; from fusesoc.main import main; sys.argv[0] = 'fusesoc'; sys.exit(main())" \
  --cores-root "$t/rtl" run --build-root "$tmp/fusesoc" --target lint --tool verilator finegrain:dummy:dummy \
  >"$tmp/fusesoc.log" 2>&1; r=$?
[ $r = 0 ] || tail -15 "$tmp/fusesoc.log" | sed 's/^/# /'
ok "$([ $r = 0 ] && echo 1)" "fusesoc run --target=lint finegrain:dummy:dummy (the generated core)"
echo "1..$n"
exit $fail
