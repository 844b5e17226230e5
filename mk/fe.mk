# F/E-bit DRAM scheduler queues (F/E paper Sec. 4.1-4.5, 6.3): RTL block,
# C twin, lockstep tests, demo, waveform.  Its files, parameters and
# configurations (the tests' small one, the memory system's, an odd one):
# rtl/fe/fe_sched_queues.toml (mk/blocks.mk, generated).
TESTS     += test_fe_sched_queues
SOAK_TESTS += test_fe_sched_queues
PROGRAMS  += fe_demo
DEMO_STEPS += $(BUILD)/bin/fe_demo
WAVE_TESTS += test_fe_sched_queues
