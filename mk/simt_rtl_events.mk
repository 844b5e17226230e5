# The EDGE event kernels on the RTL SIMT core in retire lockstep
# (tests/test_simt_rtl_events.c): the core's models and test bench of
# mk/simt_rtl.mk, plus the project's library and models (a C-model gpu_t and
# the ev_work kinds set up the events and check them), linked as the other
# tests are.  The reference's decoder and executor come from libfg.a.
SIMT_RTL_EV_OBJS := $(addprefix $(BUILD)/obj/tb/simt/,simt_tbmem.o simt_ref.o simt_lockstep.o simt_elf.o simt_rtl_shim.o)
SIMT_RTL_EV_ELFS := $(addprefix $(BUILD)/sw/,ipv4_fwd.elf ipv6_fwd.elf memc_get.elf ipsec_3des.elf bg_bfs.elf)
$(BUILD)/obj/tests/test_simt_rtl_events.o: CFLAGS += -Itb/simt
# LINK_LIBS is defined after mk/*.mk are read: expanded at rule-matching time (mk/fuzz.mk)
$(BUILD)/tests/test_simt_rtl_events: $(BUILD)/obj/tests/test_simt_rtl_events.o $(SIMT_RTL_EV_OBJS) $(SIMT_RTL_LIBS) \
                                     $$(LINK_LIBS) | $(SIMT_RTL_EV_ELFS)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $(TEST_LDFLAGS) -o $@ $(filter $(BUILD)/obj/tests/% $(SIMT_RTL_EV_OBJS),$^) $(SIMT_RTL_LIBS) $(LINK_CMD) $(LDLIBS)
TESTS += test_simt_rtl_events
