// UART transmitter, 8N1, DIV clock cycles per bit (DIV = clock / baud).
// valid/ready: a byte is taken when valid_i && ready_o; ready_o is high
// while nothing is being sent.  tx_o is a flip-flop output (idle high).
module fg_uart_tx #(
  parameter int DIV = 434
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       valid_i,
  output logic       ready_o,
  input  logic [7:0] data_i,
  output logic       tx_o
);
  localparam int CW = $clog2(DIV + 1);

  logic          busy_q;
  logic [8:0]    sh_q;     // {stop, data[7:0]}, shifted out LSB first
  logic [3:0]    left_q;   // bits still to send after the current one
  logic [CW-1:0] cnt_q;    // cycles left of the current bit
  logic          tx_q;

  assign ready_o = !busy_q;
  assign tx_o    = tx_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      sh_q   <= '1;
      left_q <= '0;
      cnt_q  <= '0;
      tx_q   <= 1'b1;
    end else if (!busy_q) begin
      if (valid_i) begin  // start bit
        busy_q <= 1'b1;
        tx_q   <= 1'b0;
        sh_q   <= {1'b1, data_i};
        left_q <= 4'd9;
        cnt_q  <= CW'(DIV - 1);
      end
    end else if (cnt_q != '0) begin
      cnt_q <= cnt_q - 1'b1;
    end else if (left_q != '0) begin
      tx_q   <= sh_q[0];
      sh_q   <= {1'b1, sh_q[8:1]};
      left_q <= left_q - 1'b1;
      cnt_q  <= CW'(DIV - 1);
    end else begin  // the stop bit has lasted DIV cycles
      busy_q <= 1'b0;
    end
  end
endmodule
