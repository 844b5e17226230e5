# SIMT GPU model (sim/simt/) and its RISC-V kernels (sw/).
SIM_SRCS += sim/simt/gpu.c sim/simt/simt_core.c sim/simt/simt_lsu.c sim/simt/rv32_decode.c sim/simt/rv32_exec.c \
            sim/simt/elf_load.c sim/simt/simt_edge_core.c sim/simt/gpu_diag.c \
            sim/simt/simt_core_base.c sim/simt/gpu_image.c
TESTS    += test_simt test_rv32_exec test_simt_mem
TB_SRCS  += tb/gpu_tb.c

# Kernels: sw/kernels/<name>.c -> $(BUILD)/sw/<name>.elf (one kernel per file):
# the project's, every one must build.
RV_CC      ?= riscv64-unknown-elf-gcc
RV_CFLAGS  := -march=rv32imaf_zicsr -mabi=ilp32f -mcmodel=medany -O2 -g -ffreestanding -nostdlib \
              -fno-pic -fno-math-errno -ffp-contract=off -Wall -Wextra -Werror -Isw/include
RV_LDFLAGS := -T sw/crt/kernel.ld -Wl,--emit-relocs,--no-relax,--no-warn-rwx-segments -nostartfiles
RV_CRT     := sw/crt/crt0.S sw/crt/fg_libc.c
SIMT_KERNELS := $(patsubst sw/kernels/%.c,$(BUILD)/sw/%.elf,$(wildcard sw/kernels/*.c))
$(BUILD)/sw/%.elf: sw/kernels/%.c $(RV_CRT) sw/crt/kernel.ld $(wildcard sw/include/*.h sw/kernels/*.h)
	@mkdir -p $(dir $@)
	$(RV_CC) $(RV_CFLAGS) $(RV_LDFLAGS) -o $@ $(RV_CRT) $<
EXTRA_BUILD += $(SIMT_KERNELS)
# Your own kernels: $(USER_KDIR)/<name>.c -> $(BUILD)/sw/user/<name>.elf.  One
# that does not compile or link is reported with its errors and left out;
# the rest of the build goes on (docs/SIMT.md "Writing and running a kernel").
USER_KDIR    ?= sw/user
USER_KERNELS := $(patsubst $(USER_KDIR)/%.c,$(BUILD)/sw/user/%.elf,$(wildcard $(USER_KDIR)/*.c))
$(BUILD)/sw/user/%.elf: $(USER_KDIR)/%.c $(RV_CRT) sw/crt/kernel.ld $(wildcard sw/include/*.h $(USER_KDIR)/*.h)
	@mkdir -p $(dir $@)
	@$(RV_CC) $(RV_CFLAGS) -I$(USER_KDIR) $(RV_LDFLAGS) -o $@ $(RV_CRT) $< || \
	  { rm -f $@; echo "$<: this kernel did not build (its errors above); the rest of the build goes on" >&2; }
.PHONY: user-kernels
user-kernels: $(USER_KERNELS)
EXTRA_BUILD += $(USER_KERNELS)
EXTRA_TEST_CMDS += scripts/check_user_kernels.sh
# scripts/isa_usage.py: which instructions a kernel ELF holds, by extension
EXTRA_TEST_CMDS += tests/sw/test_isa_usage.py

# ELF loader relocation: kernel sw/kernels/t_reloc.c
TESTS    += test_elf_load

# F extension to the letter: exception flags and rounding modes on
# the host's fenv; GCC must keep that file's FP operations as written.
SIM_SRCS += sim/simt/rv32_fp.c
$(BUILD)/obj/sim/simt/rv32_fp.o: CFLAGS += -frounding-math -fsignaling-nans -ffp-contract=off
TESTS    += test_rv32_fp
$(BUILD)/tests/test_rv32_fp: LDLIBS += -lmpfr -lgmp
