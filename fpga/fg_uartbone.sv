// UARTBone bridge: LiteX's UART-to-Wishbone framing (litex/soc/cores/uart.py
// Stream2Wishbone, as litex_server / RemoteClient / wishbone-tool speak it)
// onto a Wishbone classic master.
//
// A frame: command byte (0x01 write, incrementing address; 0x02 read,
// incrementing; 0x03 / 0x04 the same with a fixed address), length byte
// (words; 0 means 256), 32-bit big-endian word address (the host's byte
// address / 4), then for a write `length` 32-bit big-endian words.  A read
// answers with `length` big-endian words.  An unknown command is dropped
// after its address.  A frame that stalls for TIMEOUT cycles (no byte in
// or out) is abandoned, so a host that died mid-frame cannot wedge the
// bridge (LiteX uses 100 ms).
module fg_uartbone #(
  parameter int TIMEOUT = 5_000_000
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // bytes from the UART receiver
  input  logic        rx_valid_i,
  output logic        rx_ready_o,
  input  logic [7:0]  rx_data_i,
  // bytes to the UART transmitter
  output logic        tx_valid_o,
  input  logic        tx_ready_i,
  output logic [7:0]  tx_data_o,
  // Wishbone classic master (word addresses, 32-bit data)
  output logic        wb_cyc_o,
  output logic        wb_stb_o,
  output logic        wb_we_o,
  output logic [31:0] wb_adr_o,
  output logic [31:0] wb_dat_o,
  input  logic [31:0] wb_dat_i,
  input  logic        wb_ack_i,
  // status
  output logic        idle_o,
  output logic        timeout_o   // one cycle per abandoned frame
);
  localparam logic [7:0] CMD_WR_INCR = 8'h01, CMD_RD_INCR = 8'h02;
  localparam logic [7:0] CMD_WR_FIX = 8'h03, CMD_RD_FIX = 8'h04;
  localparam int TW = $clog2(TIMEOUT + 1);

  typedef enum logic [2:0] {S_CMD, S_LEN, S_ADDR, S_DATA, S_WRITE, S_READ, S_SEND} state_e;

  state_e        state_q, state_d;
  logic [7:0]    cmd_q, cmd_d, len_q, len_d, words_q, words_d;
  logic [31:0]   addr_q, addr_d, data_q, data_d;
  logic [1:0]    bcnt_q, bcnt_d;
  logic          incr_q, incr_d;
  logic [TW-1:0] tmr_q, tmr_d;
  logic          tout;

  wire rx_take = rx_valid_i && rx_ready_o;
  wire tx_take = tx_valid_o && tx_ready_i;

  assign rx_ready_o = (state_q == S_CMD) || (state_q == S_LEN) || (state_q == S_ADDR) ||
                      (state_q == S_DATA);
  assign tx_valid_o = (state_q == S_SEND);
  assign tx_data_o  = data_q[31:24];
  assign wb_cyc_o   = (state_q == S_WRITE) || (state_q == S_READ);
  assign wb_stb_o   = wb_cyc_o;
  assign wb_we_o    = (state_q == S_WRITE);
  assign wb_adr_o   = addr_q;
  assign wb_dat_o   = data_q;
  assign idle_o     = (state_q == S_CMD);
  assign tout       = (state_q != S_CMD) && (tmr_q == TW'(TIMEOUT));
  assign timeout_o  = tout;

  always_comb begin
    state_d = state_q;
    cmd_d   = cmd_q;
    len_d   = len_q;
    words_d = words_q;
    addr_d  = addr_q;
    data_d  = data_q;
    bcnt_d  = bcnt_q;
    incr_d  = incr_q;
    tmr_d   = (state_q == S_CMD || rx_take || tx_take) ? '0 : tmr_q + 1'b1;
    unique case (state_q)
      S_CMD: if (rx_take) begin
        cmd_d   = rx_data_i;
        state_d = S_LEN;
      end
      S_LEN: if (rx_take) begin
        len_d   = rx_data_i;
        words_d = '0;
        bcnt_d  = '0;
        state_d = S_ADDR;
      end
      S_ADDR: if (rx_take) begin
        addr_d = {addr_q[23:0], rx_data_i};
        bcnt_d = bcnt_q + 1'b1;
        if (bcnt_q == 2'd3) begin
          if (cmd_q == CMD_WR_INCR || cmd_q == CMD_WR_FIX) begin
            incr_d  = (cmd_q == CMD_WR_INCR);
            state_d = S_DATA;
          end else if (cmd_q == CMD_RD_INCR || cmd_q == CMD_RD_FIX) begin
            incr_d  = (cmd_q == CMD_RD_INCR);
            state_d = S_READ;
          end else begin
            state_d = S_CMD;
          end
        end
      end
      S_DATA: if (rx_take) begin
        data_d = {data_q[23:0], rx_data_i};
        bcnt_d = bcnt_q + 1'b1;
        if (bcnt_q == 2'd3) state_d = S_WRITE;
      end
      S_WRITE: if (wb_ack_i) begin
        words_d = words_q + 1'b1;
        addr_d  = addr_q + 32'(incr_q);
        if (words_q == len_q - 1'b1) state_d = S_CMD;
        else state_d = S_DATA;
      end
      S_READ: if (wb_ack_i) begin
        data_d  = wb_dat_i;
        bcnt_d  = '0;
        state_d = S_SEND;
      end
      S_SEND: if (tx_take) begin
        data_d = {data_q[23:0], 8'h00};
        bcnt_d = bcnt_q + 1'b1;
        if (bcnt_q == 2'd3) begin
          words_d = words_q + 1'b1;
          addr_d  = addr_q + 32'(incr_q);
          if (words_q == len_q - 1'b1) state_d = S_CMD;
          else state_d = S_READ;
        end
      end
      default: state_d = S_CMD;
    endcase
    if (tout) state_d = S_CMD;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= S_CMD;
      cmd_q   <= '0;
      len_q   <= '0;
      words_q <= '0;
      addr_q  <= '0;
      data_q  <= '0;
      bcnt_q  <= '0;
      incr_q  <= 1'b0;
      tmr_q   <= '0;
    end else begin
      state_q <= state_d;
      cmd_q   <= cmd_d;
      len_q   <= len_d;
      words_q <= words_d;
      addr_q  <= addr_d;
      data_q  <= data_d;
      bcnt_q  <= bcnt_d;
      incr_q  <= incr_d;
      tmr_q   <= tmr_d;
    end
  end
endmodule
