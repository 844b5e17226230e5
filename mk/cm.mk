# CM-CPU / CM-BAL stall monitor (CM paper Sec. 4-5): RTL block, C twin,
# lockstep tests, demo, waveform.  Its files, parameters and configurations
# (a small one, an odd one, the CM machine's size): rtl/cm/cm_bal_monitor.toml
# (mk/blocks.mk, generated).
TESTS      += test_cm_bal_monitor
SOAK_TESTS += test_cm_bal_monitor
PROGRAMS   += cm_demo
DEMO_STEPS += $(BUILD)/bin/cm_demo
WAVE_TESTS += test_cm_bal_monitor
