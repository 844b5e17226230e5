# Memory system (docs/MEM.md): interconnect, L2 slices,
# memory partitions with the F/E-bit DRAM scheduler queues (verilated
# configuration fe_sched_queues_sys, rtl/fe/fe_sched_queues.toml) and a GDDR5 FR-FCFS model.
SIM_SRCS += sim/mem/mem_config.c sim/mem/icnt_xbar.c sim/mem/icnt_mesh.c sim/mem/l2.c sim/mem/dram.c sim/mem/mem_data.c \
            sim/mem/partition.c sim/mem/mem.c
TESTS    += test_mem_dram test_mem test_mesh
# the mesh's throughput / latency against offered load (results/mesh_load.json,
# results/mesh_load.png by scripts/cm_figures.py); make demo runs it
PROGRAMS += mesh_load
