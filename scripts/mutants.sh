#!/usr/bin/env bash
# make mutants (mk/replay.mk, docs/TRACES.md "Mutants"): each mutant is a
# one-line change of the RTL that the default tests must catch.  The RTL is
# copied to a scratch tree ($MUT_DIR, default build-mut/), the change applied
# there (never to the worktree), the block's test program rebuilt in the
# scratch tree's own build dir and run; the mutant counts as caught when the
# test fails.  Exits non-zero when a mutant survives (or does not apply).
#   MUT_ONLY="<name>..."  run only these mutants;  MUT_SEEDS=N  run each random test at N
#   fresh seeds (every one must catch it; default 1).
set -u
root=$(pwd)
mdir=${MUT_DIR:-build-mut}
seeds=${MUT_SEEDS:-1}
# name | file | sed expression | test program | environment (the test it runs)
# (test program formal:<proof>: the proof formal/<proof>.sby must fail on it,
# scripts/formal.py in the scratch tree; docs/FORMAL.md "Mutants of the proofs")
MUTANTS=(
  "preempt_regs_one_short|rtl/edge/edge_preempt.sv|s/regs_ge\[i\] = regs_q\[i\] >= req_regs_i;/regs_ge[i] = 32'(regs_q[i]) + 1 >= 32'(req_regs_i);/|test_edge_preempt|FG_TEST=test_random_lockstep"
  "cmbal_part2_up_ge|rtl/cm/cm_bal_decide.sv|s/p2_up   = MW'(m_cur_q) > m_upk_q;/p2_up   = MW'(m_cur_q) >= m_upk_q;/|test_cm_bal_monitor|FG_TEST=test_random_lockstep"
  "cmbal_part2_keep_ge|rtl/cm/cm_bal_decide.sv|s/p2_keep = \$signed(m_lok_q) > \$signed(DW'(m_cur_q));/p2_keep = \$signed(m_lok_q) >= \$signed(DW'(m_cur_q));/|test_cm_bal_monitor|FG_TEST=test_random_lockstep"
  "cmcpu_step_dn_at_fine|rtl/cm/cm_cpu_central.sv|s/step_dn = (l > FINEL)/step_dn = (l >= FINEL)/|test_cm_bal_monitor|FG_TEST=test_random_lockstep"
  "cmcpu_step_up_at_fine|rtl/cm/cm_cpu_central.sv|s/step_up = (l < FINEL)/step_up = (l <= FINEL)/|test_cm_bal_monitor|FG_TEST=test_random_lockstep"
  "cmcpu_th_plus_one|rtl/cm/cm_cpu_central.sv|s/TH_CNT = SW'(INTERVAL \* TH_Q4 \/ 4);/TH_CNT = SW'(INTERVAL * TH_Q4 \/ 4 + 1);/|test_cm_bal_monitor|FG_TEST=test_random_lockstep"
  "cmcpu_tl_plus_one|rtl/cm/cm_cpu_central.sv|s/TL_CNT = SW'(INTERVAL \* TL_Q4 \/ 4);/TL_CNT = SW'(INTERVAL * TL_Q4 \/ 4 + 1);/|test_cm_bal_monitor|FG_TEST=test_random_lockstep"
  "ekt_top_entry_never_free|rtl/edge/edge_ekt.sv|s/for (int i = ENTRIES - 1; i >= 0; i--) if (!valid_q\[i\]) free_id_c/for (int i = ENTRIES - 2; i >= 0; i--) if (!valid_q[i]) free_id_c/|test_edge_ekt|FG_TEST=test_random_lockstep"
  "doorbell_range_le|rtl/edge/edge_doorbell.sv|s/(32'(id) < ENTRIES)/(32'(id) <= ENTRIES)/|test_edge_doorbell|FG_TEST=test_*random*"
  "fe_stale_function|rtl/fe/fe_trigger_check.sv|s/check(trig_i, mask_i, bits_i)/stale_check(bits_i)/; s/check(trig_i, mask_i, snoop_bits_i)/stale_check(snoop_bits_i)/; s/^  logic held_sat;/  function automatic logic stale_check(input logic [WORDS-1:0] b);\n    stale_check = (trig_i == fe_pkg::FE_TRIG_FULL) ? ((b \& mask_i) == mask_i) : (trig_i == fe_pkg::FE_TRIG_EMPTY) ? ((b \& mask_i) == '0) : 1'b1;\n  endfunction\n  logic held_sat;/|replay|REPLAY_PROGS=test_fe_sched_queues"
  # mutants of the F/E rules that only the lockstep tests caught;
  # now the proofs of the papers' rules (formal/fe_sched_queues*.sby) must
  "fe_wait_full_any_word|rtl/fe/fe_trigger_check.sv|s/((b \& mask) == mask)/((b \& mask) != '0)/|formal:fe_sched_queues|"
  "fe_fill_empty_swapped|rtl/fe/fe_sched_queues.sv|s/(h_act\[disp_q\] == fe_pkg::FE_ACT_EMPTY)/(h_act[disp_q] == fe_pkg::FE_ACT_FILL)/|formal:fe_sched_queues|"
  "fe_push_overtakes_second|rtl/prim/fg_fifo.sv|s/count_q == CW'(1)))) head_q <= data_i;/count_q != '0))) head_q <= data_i;/|formal:fe_sched_queues_order|"
  # the CM-CPU limit's step at FINE: the old proof passed it (only a legal value was checked)
  "cmcpu_step_dn_at_fine_proof|rtl/cm/cm_cpu_central.sv|s/step_dn = (l > FINEL)/step_dn = (l >= FINEL)/|formal:cm_bal_monitor|"
  # the PEWT completes with the head's tag, not the exiting event's: conservation alone passed it
  "pewt_cpl_head_tag|rtl/edge/edge_pewt.sv|s/cpl_tag_q  <= exit_tag;/cpl_tag_q  <= hd_tag_o;/|formal:edge_pewt|"
)
mkdir -p "$mdir/tree"
# the scratch tree: the worktree's files (tracked and new), its own build dir
git ls-files -co --exclude-standard | grep -v '^build' | tar -cf - -T - | tar -xf - -C "$mdir/tree" ||
  { echo "mutants: cannot copy the worktree to $mdir/tree"; exit 2; }
cd "$mdir/tree" || exit 2
# a run stopped with a mutant applied: the copy restored the file with its
# old time, older than the mutant's model; touch it so that the model is rebuilt
[ -f ../applied ] && touch "$(cat ../applied)" && rm ../applied
fail=0; n=0; caught=0
for m in "${MUTANTS[@]}"; do
  IFS='|' read -r name file expr prog envs <<<"$m"
  [ -n "${MUT_ONLY:-}" ] && [[ " $MUT_ONLY " != *" $name "* ]] && continue
  n=$((n + 1))
  cp "$root/$file" "$file"
  sed -i "$expr" "$file"
  echo "$file" >../applied
  if cmp -s "$root/$file" "$file"; then echo "FAIL $name: the mutation does not apply to $file"; fail=1; continue; fi
  s=$(date +%s)
  ok=1; detail=""
  for ((i = 0; i < seeds; i++)); do
    seed=$(( ($(date +%s%N) / 1000 + i * 7919) % 4294967296 ))
    if [ "$prog" = replay ]; then
      cmd=(make --no-print-directory replay $envs REPLAY_SEED=$seed)
    elif [[ $prog == formal:* ]]; then
      # a proof has no seed: run once
      [ $i -gt 0 ] && break
      cmd=(scripts/formal.py --out "../$name.formal.json" "${prog#formal:}")
    else
      nice make --no-print-directory -j2 "build/tests/$prog" >"../$name.build.log" 2>&1 ||
        { ok=0; detail=" the mutant does not build (../$name.build.log)"; break; }
      cmd=(env $envs FG_SEED=$seed "build/tests/$prog")
    fi
    # caught: the test ran and failed (a lockstep divergence, an assertion,
    # a failed check; for the replay, a model's replay failed), not a build error
    if nice "${cmd[@]}" >"../$name.$i.log" 2>&1; then
      ok=0; detail+=" survived FG_SEED=$seed"
    elif [ "$prog" = replay ] && ! grep -q '^  FAIL [a-z_]*: ' "../$name.$i.log"; then
      ok=0; detail+=" the replay did not run (../$name.$i.log)"
    elif [[ $prog == formal:* ]]; then
      # caught: the proof ran and failed (not a tool failure or a timeout)
      grep -q "^  FAIL ${prog#formal:} " "../$name.$i.log" && ! grep -q 'tool_failure\|timeout' "../$name.$i.log" ||
        { ok=0; detail+=" the proof did not fail on an assertion (../$name.$i.log)"; }
    elif [ "$prog" != replay ] && ! grep -q 'FAILED\|not ok' "../$name.$i.log"; then
      ok=0; detail+=" the test did not run (../$name.$i.log)"
    fi
  done
  how="at $seeds of $seeds seeds"; [[ $prog == formal:* ]] && how="by ${prog#formal:}"
  if [ $ok = 1 ]; then caught=$((caught + 1)); echo "ok   $name: caught $how ($(( $(date +%s) - s )) s)"
  else echo "FAIL $name:$detail"; fail=1; fi
  cp "$root/$file" "$file"
  rm -f ../applied
done
echo "mutants: $caught of $n caught"
exit $fail
