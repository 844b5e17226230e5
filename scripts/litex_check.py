#!/usr/bin/env python3
"""LiteX interoperability of the FPGA top: litex_server
(pip `litex`) speaks UARTBone to the top at socket://127.0.0.1:PORT (the
verilated top's UART model, build/bin/fpga_sim; or a board's serial device
with --uart-port /dev/ttyUSB0), and LiteX's RemoteClient reads the ID
register through it and round-trips the scratch register.

    scripts/litex_check.py --uart-port socket://127.0.0.1:PORT [--tap N]

Prints one TAP line (`ok N - litex_remoteclient_id`) with --tap N."""
import argparse
import os
import re
import socket
import subprocess
import sys
import time

import fg_num


def regmap_value(name):
    text = open(os.path.join(os.path.dirname(__file__), "..", "fpga", "gen", "fg_regmap.h")).read()
    return int(re.search(rf"#define {name} (0x[0-9A-Fa-f]+)u", text).group(1), 16)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--uart-port", required=True)
    ap.add_argument("--uart-baudrate", default="115200")
    ap.add_argument("--tap", type=fg_num.argparse_type(fg_num.whole, "--tap", 0, 10**6), default=0)
    a = ap.parse_args()
    port = free_port()
    srv = subprocess.Popen(["litex_server", "--uart", "--uart-port", a.uart_port, "--uart-baudrate",
                            a.uart_baudrate, "--bind-ip", "127.0.0.1", "--bind-port", str(port)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    ok, why = False, ""
    try:
        from litex import RemoteClient
        deadline = time.time() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if srv.poll() is not None or time.time() > deadline:
                    raise RuntimeError("litex_server did not start: " + (srv.stdout.read() or ""))
                time.sleep(0.2)
        time.sleep(0.5)  # litex_server serves one client: let it finish with the probe
        wb = RemoteClient(host="127.0.0.1", port=port, base_address=0)
        wb.open()
        sys_base = regmap_value("FG_WIN_SYS")
        ident = wb.read(sys_base + regmap_value("FG_SYS_ID"))
        scratch = sys_base + regmap_value("FG_SYS_SCRATCH")
        wb.write(scratch, 0x600DCAFE)
        back = wb.read(scratch)
        words = wb.read(sys_base + regmap_value("FG_SYS_ID"), length=3)
        wb.close()
        want = regmap_value("FG_ID")
        print(f"# litex RemoteClient: ID 0x{ident:08x} (want 0x{want:08x}), scratch 0x{back:08x}, "
              f"burst {[hex(w) for w in words]}")
        ok = (ident == want and back == 0x600DCAFE and words[0] == want and
              words[1] == regmap_value("FG_VERSION") and words[2] == regmap_value("FG_MAP_HASH"))
        if not ok:
            why = "values differ"
    except Exception as e:  # report, do not hide
        why = f"{type(e).__name__}: {e}"
    finally:
        srv.terminate()
        try:
            srv.wait(5)
        except subprocess.TimeoutExpired:
            srv.kill()
    if a.tap:
        print(f"{'ok' if ok else 'not ok'} {a.tap} - litex_remoteclient_id{'' if ok else ' # ' + why}")
    else:
        print("litex check:", "ok" if ok else "FAILED " + why)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
