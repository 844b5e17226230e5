// The RTL SIMT core in Icarus, 4-state (scripts/check_simt_icarus.sh): a run
// tests/test_simt_rtl.c recorded from the verilated core (FG_SIMT_TRACE_DIR;
// the files' formats: tb/simt/simt_lockstep.h) played again, writing the same
// event trace and final memory words for a byte comparison.
//
//   +mem=F         the memory before cycle 0 ($readmemh; every other word 0)
//   +launch=F      the configuration line (checked against the parameters)
//                  and the launches, offered in order, each held until
//                  launch_ready_o takes it, the next one in the cycle after
//   +out=F         the event trace written (R / D / F lines, then E: every
//                  launch ended with the core idle)
//   +memout=F      the words to dump at the end (their values are ignored)
//   +memout_out=F  those words' final values written here
//   +max_cycles=N  the cycle limit (default 1000000): an ERROR line at it
//
// The memory is the recording's plain one: a read's data the cycle after
// the request, mem_req_ready_i always 1.  Inputs the contract lets the core
// ignore are X (the launch fields without launch_valid_i, the read data
// without mem_rsp_valid_i), so a core that uses one shows X.  An X or Z on a
// control output, on a request's fields, or in a value written to the files
// ends the run with an ERROR line, or shows as x / z in the file: the check
// script fails on either.
`timescale 1ns / 1ps
module simt_core_tb #(
  parameter int NW          = 8,
  parameter int NL          = 8,
  parameter int GTO         = 1,
  parameter int STACK_BYTES = 1024,
  parameter int CORE_ID     = 0,
  parameter int MEM_WORDS   = 1 << 21,  // 8 MiB: the test's LOCAL_BASE keeps every run below
  parameter int MAX_LAUNCH  = 256
);
  localparam int SW = (NW > 1) ? $clog2(NW) : 1;
  localparam int P  = 32 / NL;
  localparam int PW = (P > 1) ? $clog2(P) : 1;

  logic               clk = 1'b0, rst_ni = 1'b0;
  logic [31:0]        local_base;
  logic               launch_valid, launch_ready;
  logic [SW-1:0]      launch_slot;
  logic [31:0]        launch_pc, launch_param, launch_live, launch_wib, launch_shmem;
  logic [95:0]        launch_ctaid, launch_ntid, launch_nctaid;
  logic               done_valid, fault_valid;
  logic [SW-1:0]      done_slot, fault_slot;
  logic [2:0]         fault_code;
  logic [31:0]        fault_pc;
  logic               mem_req_valid, mem_req_ready, mem_req_we, mem_rsp_valid;
  logic [31:0]        mem_req_addr, mem_req_wdata, mem_rsp_rdata;
  logic [3:0]         mem_req_be;
  logic               rvfi_valid, busy;
  logic [SW-1:0]      rvfi_slot;
  logic [31:0]        rvfi_order, rvfi_pc, rvfi_mask;
  logic [4:0]         rvfi_rd;
  logic [PW-1:0]      rvfi_pass;
  logic [NL*32-1:0]   rvfi_data;

  simt_core #(.NW(NW), .NL(NL), .GTO(GTO), .STACK_BYTES(STACK_BYTES), .CORE_ID(CORE_ID)) dut (
    .clk_i(clk), .rst_ni(rst_ni), .local_base_i(local_base),
    .launch_valid_i(launch_valid), .launch_ready_o(launch_ready), .launch_slot_o(launch_slot),
    .launch_pc_i(launch_pc), .launch_param_i(launch_param), .launch_live_i(launch_live), .launch_wib_i(launch_wib),
    .launch_ctaid_i(launch_ctaid), .launch_ntid_i(launch_ntid), .launch_nctaid_i(launch_nctaid),
    .launch_shmem_i(launch_shmem),
    // no EDGE controller: no command, no event
    .cmd_i(3'd0), .cmd_slot_i('0), .cmd_arg_i(4'd0), .ev_pc_i(32'd0), .ev_param_i(32'd0), .ev_threads_i(6'd0),
    .save_base_i(32'd0), .save_mask_i(32'd0), .w_live_o(), .w_exit_o(), .w_bar_o(), .w_ld_o(), .w_event_o(),
    .w_parked_o(), .v_slot_i('0), .v_pipe_o(), .v_sb_o(), .v_ibuf_o(), .v_imiss_o(), .v_ldok_o(),
    .end_event_o(),
    .done_valid_o(done_valid), .done_slot_o(done_slot),
    .fault_valid_o(fault_valid), .fault_slot_o(fault_slot), .fault_code_o(fault_code), .fault_pc_o(fault_pc),
    .mem_req_valid_o(mem_req_valid), .mem_req_ready_i(mem_req_ready), .mem_req_we_o(mem_req_we),
    .mem_req_addr_o(mem_req_addr), .mem_req_be_o(mem_req_be), .mem_req_wdata_o(mem_req_wdata),
    .mem_rsp_valid_i(mem_rsp_valid), .mem_rsp_rdata_i(mem_rsp_rdata),
    .rvfi_valid_o(rvfi_valid), .rvfi_slot_o(rvfi_slot), .rvfi_order_o(rvfi_order), .rvfi_pc_o(rvfi_pc),
    .rvfi_mask_o(rvfi_mask), .rvfi_rd_o(rvfi_rd), .rvfi_pass_o(rvfi_pass), .rvfi_data_o(rvfi_data),
    .busy_o(busy));

  // two-state (zero where $readmemh writes nothing, as the recording's): the
  // requests are checked for X before a write takes their data
  bit [31:0]   mem [MEM_WORDS];
  // per launch: pc, param, live, wib, ctaid x y z, ntid x y z, nctaid x y z, shmem
  logic [31:0] lf [MAX_LAUNCH][14];
  integer      nlaunch, next, ended, cycle, max_cycles, fo;
  logic        done = 1'b0;
  logic        rsp_pend;
  logic [31:0] rsp_data;

  // any bit X or Z ($isunknown of a concatenation misreports in Icarus 11)
  function automatic logic unknown(input logic [127:0] v);
    unknown = (^v) === 1'bx;
  endfunction

  task automatic stop(input string why);
    string at;
    if (cycle < 0) at = "before cycle 0";
    else at = $sformatf("cycle %0d", cycle);
    if (fo != 0) begin
      $fwrite(fo, "ERROR %s: %s\n", at, why);
      $fclose(fo);
    end
    $display("simt_core_tb: ERROR %s: %s", at, why);
    done = 1'b1;
    $finish;
  endtask

  // the launch file: its configuration line against this bench's parameters, then the launches
  task automatic read_launches(input string path);
    integer fd, n, nw, nl, gto, sb, cid;
    logic [8*32-1:0] name;
    logic [31:0] f [14];
    fd = $fopen(path, "r");
    if (fd == 0) stop({"cannot read ", path});
    n = $fscanf(fd, "config %s nw %d nl %d gto %d stack_bytes %d core_id %d local_base %h\n", name, nw, nl, gto, sb,
                cid, local_base);
    if (n != 7) stop({"no configuration line in ", path});
    if (nw != NW || nl != NL || gto != GTO || sb != STACK_BYTES || cid != CORE_ID)
      stop($sformatf("recorded with nw %0d nl %0d gto %0d stack_bytes %0d core_id %0d, bench has %0d %0d %0d %0d %0d",
                     nw, nl, gto, sb, cid, NW, NL, GTO, STACK_BYTES, CORE_ID));
    nlaunch = 0;
    while (!$feof(fd)) begin
      n = $fscanf(fd, "L %h %h %h %h %h %h %h %h %h %h %h %h %h %h\n", f[0], f[1], f[2], f[3], f[4], f[5], f[6],
                  f[7], f[8], f[9], f[10], f[11], f[12], f[13]);
      if (n != 14) stop({"a launch line of ", path, " without its 14 fields"});
      if (nlaunch == MAX_LAUNCH) stop("more launches than MAX_LAUNCH");
      for (int i = 0; i < 14; i++) lf[nlaunch][i] = f[i];
      nlaunch++;
    end
    $fclose(fd);
  endtask

  task automatic dump_memory(input string list, input string path);
    integer fi, fm, n;
    logic [31:0] a, v;
    fi = $fopen(list, "r");
    fm = $fopen(path, "w");
    if (fi == 0 || fm == 0) stop({"cannot read ", list, " or write ", path});
    while (!$feof(fi)) begin
      n = $fscanf(fi, "@%h %h\n", a, v);
      if (n != 2) stop({"a line of ", list, " is not @address value"});
      $fwrite(fm, "@%h %h\n", a, a < MEM_WORDS ? mem[a] : 32'hxxxx_xxxx);
    end
    $fclose(fi);
    $fclose(fm);
  endtask

  task automatic beat;
    integer n;
    $fwrite(fo, "R %0d %0d %0d %h %h %0d %0d", cycle, rvfi_slot, rvfi_order, rvfi_pc, rvfi_mask, rvfi_rd, rvfi_pass);
    n = 0;
    for (int i = 0; i < NL; i++)
      if (rvfi_rd != 5'd0 && rvfi_mask[32'(rvfi_pass) * NL + i]) begin
        $fwrite(fo, " %h", rvfi_data[i*32 +: 32]);
        n++;
      end
    if (n == 0) $fwrite(fo, " -");
    $fwrite(fo, "\n");
  endtask

  // a run stopped from outside (vvp -n: SIGINT is $finish) says where it was
  final if (!done) $display("simt_core_tb: stopped in cycle %0d", cycle);

  initial begin
    string mem_path, launch_path, out_path, memout_path, memout_out_path;
    logic do_launch, do_req, req_we, fin;
    logic [31:0] word, req_addr, req_wdata;
    logic [3:0] req_be;
    if (!$value$plusargs("mem=%s", mem_path) || !$value$plusargs("launch=%s", launch_path) ||
        !$value$plusargs("out=%s", out_path) || !$value$plusargs("memout=%s", memout_path) ||
        !$value$plusargs("memout_out=%s", memout_out_path)) begin
      $display("simt_core_tb: ERROR: needs +mem= +launch= +out= +memout= +memout_out=");
      $finish;
    end
    if (!$value$plusargs("max_cycles=%d", max_cycles)) max_cycles = 1000000;
    cycle = -1;
    fo = $fopen(out_path, "w");
    if (fo == 0) begin
      $display("simt_core_tb: ERROR: cannot write %s", out_path);
      $finish;
    end
    read_launches(launch_path);
    $readmemh(mem_path, mem, 0, MEM_WORDS - 1);

    // reset: two rising edges with rst_ni low and the inputs idle
    launch_valid = 1'b0;
    {launch_pc, launch_param, launch_live, launch_wib, launch_shmem} = '0;
    {launch_ctaid, launch_ntid, launch_nctaid} = '0;
    mem_req_ready = 1'b0;
    mem_rsp_valid = 1'b0;
    mem_rsp_rdata = '0;
    repeat (2) begin
      #5 clk = 1'b1;
      #5 clk = 1'b0;
    end
    rst_ni = 1'b1;
    next = 0;
    ended = 0;
    rsp_pend = 1'b0;

    // a cycle: its inputs, the outputs settled (#4), the rising edge (#5),
    // then what the edge took: the launch, the request
    cycle = 0;
    fin = 1'b0;
    while (!fin) begin
      launch_valid = next < nlaunch;
      if (launch_valid) begin
        {launch_pc, launch_param, launch_live, launch_wib} = {lf[next][0], lf[next][1], lf[next][2], lf[next][3]};
        launch_ctaid  = {lf[next][6], lf[next][5], lf[next][4]};
        launch_ntid   = {lf[next][9], lf[next][8], lf[next][7]};
        launch_nctaid = {lf[next][12], lf[next][11], lf[next][10]};
        launch_shmem  = lf[next][13];
      end else begin
        {launch_pc, launch_param, launch_live, launch_wib, launch_shmem} = 'x;
        {launch_ctaid, launch_ntid, launch_nctaid} = 'x;
      end
      mem_req_ready = 1'b1;
      mem_rsp_valid = rsp_pend;
      mem_rsp_rdata = rsp_pend ? rsp_data : 'x;
      #4;
      if (unknown({launch_ready, done_valid, fault_valid, mem_req_valid, rvfi_valid, busy}))
        stop($sformatf("X on a control output: launch_ready %b done_valid %b fault_valid %b mem_req_valid %b %s",
                       launch_ready, done_valid, fault_valid, mem_req_valid,
                       $sformatf("rvfi_valid %b busy %b", rvfi_valid, busy)));
      if (launch_ready && unknown(launch_slot)) stop("launch_slot_o is X while launch_ready_o");
      if (mem_req_valid &&
          (unknown({mem_req_we, mem_req_addr}) || (mem_req_we && unknown({mem_req_be, mem_req_wdata}))))
        stop($sformatf("X in a memory request: we %b addr %h be %b wdata %h", mem_req_we, mem_req_addr, mem_req_be,
                       mem_req_wdata));
      if (mem_req_valid && mem_req_addr[31:2] >= MEM_WORDS)
        stop($sformatf("memory request at %h beyond the bench's %0d words", mem_req_addr, MEM_WORDS));
      if (rvfi_valid) beat();
      if (done_valid) begin
        $fwrite(fo, "D %0d %0d\n", cycle, done_slot);
        ended++;
      end
      if (fault_valid) begin
        $fwrite(fo, "F %0d %0d %0d %h\n", cycle, fault_slot, fault_code, fault_pc);
        ended++;
      end
      if (ended >= nlaunch && next >= nlaunch && !busy) begin
        if (mem_req_valid) stop("a memory request with the core idle");
        $fwrite(fo, "E %0d\n", cycle);
        fin = 1'b1;
      end else if (cycle >= max_cycles) begin
        stop($sformatf("%0d of %0d launches ended by the cycle limit", ended, nlaunch));
      end
      do_launch = launch_valid && launch_ready;
      {do_req, req_we, req_addr, req_be, req_wdata} = {mem_req_valid, mem_req_we, mem_req_addr, mem_req_be,
                                                       mem_req_wdata};
      #1 clk = 1'b1;
      #1;
      if (do_launch) next++;
      rsp_pend = do_req && !req_we;
      if (do_req && req_we) begin
        word = mem[req_addr[31:2]];
        for (int b = 0; b < 4; b++) if (req_be[b]) word[b*8 +: 8] = req_wdata[b*8 +: 8];
        mem[req_addr[31:2]] = word;
      end else if (do_req) begin
        rsp_data = mem[req_addr[31:2]];
      end
      #4 clk = 1'b0;
      if (cycle % 512 == 511) $fflush(fo);  // a run stopped by a time limit shows how far it got
      cycle++;
    end
    $fclose(fo);
    fo = 0;
    dump_memory(memout_path, memout_out_path);
    done = 1'b1;
    $finish;
  end
endmodule
