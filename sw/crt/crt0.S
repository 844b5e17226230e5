/* Default entry (ELF e_entry, used when gpu_load_kernel gets symbol NULL):
 * calls main(param_addr) with a0 unchanged, then ends the thread.  The
 * model starts each thread with sp = top of its local memory and
 * ra = FG_EXIT_ADDR, so kernels named by symbol need no startup code. */
    .section .text.start, "ax"
    .weak main
    .globl _start
_start:
    call main
    ecall
