# fg_run: the generic kernel runner (docs/SIMT.md "Writing and
# running a kernel"): any kernel ELF, buffers and arguments from the command
# line.  Its example kernel is sw/kernels/saxpy.c (built by mk/simt.mk like
# every sw/kernels/*.c).  test_fg_run runs $(BUILD)/bin/fg_run itself, so it
# needs the program and the kernel built first (`make build` does both).
PROGRAMS += fg_run
# its command line, a unit of its own (the fuzzer links it too)
PROG_OBJS_fg_run := $(BUILD)/obj/sim/prog/fg_run_cli.o
TESTS    += test_fg_run
# fg_run reads the kernel's DWARF (elfutils libdw) to compare its argument
# struct with the --arg list (docs/SIMT.md "When a kernel misbehaves").
PROG_LDLIBS_fg_run := -ldw -lelf
