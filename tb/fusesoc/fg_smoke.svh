// Shared by the FuseSoC smoke benches (docs/FUSESOC.md), included inside
// each bench module: the clock, the error count and its check, the tick
// the benches step by, and a time limit.  Inputs change and outputs are
// read 1 ns after the falling edge, when everything the rising edge did has
// settled: the same in an event-driven simulator and in Verilator's timing
// mode; a transfer happens at the rising edge that sees valid and ready.
logic clk_i = 1'b0;
always #5 clk_i = ~clk_i;

int errors = 0;
task automatic check(input string what, input logic [63:0] got, input logic [63:0] want);
  if (got !== want) begin
    $display("FAIL: %s: 0x%0h (%0d), expected 0x%0h (%0d)", what, got, got, want, want);
    errors++;
  end
endtask

task automatic tick();
  @(negedge clk_i);
  #1;
endtask

initial begin
  #200000;
  $display("FAIL: timeout");
  $finish;
end
