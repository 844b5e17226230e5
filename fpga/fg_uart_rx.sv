// UART receiver, 8N1, DIV clock cycles per bit (DIV = clock / baud, >= 4).
// The line is synchronized by two flip-flops; the start bit is checked at
// its middle, each data bit sampled at its middle, LSB first.  A byte whose
// stop bit reads 0 is dropped (framing error, counted on ferr_o).
module fg_uart_rx #(
  parameter int DIV = 434
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       rx_i,
  output logic       valid_o,   // one cycle per received byte
  output logic [7:0] data_o,
  output logic       ferr_o     // one cycle per framing error
);
  localparam int CW = $clog2(DIV + 1);
  typedef enum logic [1:0] {S_IDLE, S_START, S_DATA, S_STOP} state_e;

  logic [1:0]    sync_q;
  state_e        state_q, state_d;
  logic [CW-1:0] cnt_q, cnt_d;
  logic [2:0]    bit_q, bit_d;
  logic [7:0]    sh_q, sh_d;
  logic          valid_d, valid_q, ferr_d, ferr_q;
  wire           rx = sync_q[1];

  always_comb begin
    state_d = state_q;
    cnt_d   = cnt_q;
    bit_d   = bit_q;
    sh_d    = sh_q;
    valid_d = 1'b0;
    ferr_d  = 1'b0;
    unique case (state_q)
      S_IDLE: if (!rx) begin
        state_d = S_START;
        cnt_d   = CW'(DIV / 2 - 1);
      end
      S_START: if (cnt_q != '0) cnt_d = cnt_q - 1'b1;
        else if (rx) state_d = S_IDLE;  // a glitch, not a start bit
        else begin
          state_d = S_DATA;
          cnt_d   = CW'(DIV - 1);
          bit_d   = '0;
        end
      S_DATA: if (cnt_q != '0) cnt_d = cnt_q - 1'b1;
        else begin
          sh_d  = {rx, sh_q[7:1]};
          cnt_d = CW'(DIV - 1);
          bit_d = bit_q + 1'b1;
          if (bit_q == 3'd7) state_d = S_STOP;
        end
      S_STOP: if (cnt_q != '0) cnt_d = cnt_q - 1'b1;
        else begin
          state_d = S_IDLE;
          valid_d = rx;
          ferr_d  = !rx;
        end
      default: state_d = S_IDLE;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      sync_q  <= 2'b11;
      state_q <= S_IDLE;
      cnt_q   <= '0;
      bit_q   <= '0;
      sh_q    <= '0;
      valid_q <= 1'b0;
      ferr_q  <= 1'b0;
    end else begin
      sync_q  <= {sync_q[0], rx_i};
      state_q <= state_d;
      cnt_q   <= cnt_d;
      bit_q   <= bit_d;
      sh_q    <= sh_d;
      valid_q <= valid_d;
      ferr_q  <= ferr_d;
    end
  end

  assign valid_o = valid_q;
  assign data_o  = sh_q;
  assign ferr_o  = ferr_q;
endmodule
