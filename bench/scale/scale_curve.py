#!/usr/bin/env python3
"""The checker's scale curve (issue 22): `westphalia check` on SPI's rules over a generated family
of maps and orders of battle (make_spi_family.py), one run per member, each under the same
budget. Prints a Markdown table: wall time, peak memory, the symbolic execution's time, the
questions asked and not asked, and the findings (`unknown` ones apart).

    python3 bench/scale/scale_curve.py [--budget 300] [--hexes 500,1000,2000] [--units 50,100,250]
                                       [--westphalia build/app/westphalia] [--work /tmp/wp-scale] [--mem-gb 20]
                                       [-- extra check arguments, e.g. --checks tables -j 1]

A member whose check runs into the budget says so (`out of time`); its figures are then a floor.
The machine's load moves the times, not the counts: compare members of one run.
"""
import argparse
import os
import re
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def stat_lines(report):
    """Per check: (queries, milliseconds, not asked), from the --stats block of a human report."""
    out = {}
    for m in re.finditer(r"^  (\w+)\s+(\d+) queries\s+([\d.]+) ms(?:, (\d+) not asked)?$", report, re.M):
        out[m.group(1)] = (int(m.group(2)), float(m.group(3)), int(m.group(4) or 0))
    return out


def one(westphalia, folder, budget, extra, mem_gb):
    report = os.path.join(folder, "check.txt")
    cmd = ["/usr/bin/time", "-f", "%e %M", westphalia, "check", folder, "--upto", "freiburg", "--max-time", str(budget),
           "--stats", "-o", report] + extra
    t0 = time.time()
    def cap():  # the address space, so that a member too big for the machine fails alone
        limit = int(mem_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    p = subprocess.run(cmd, capture_output=True, text=True, preexec_fn=cap if mem_gb else None)
    wall = time.time() - t0
    if p.returncode not in (0, 1):
        if "bad_alloc" in p.stderr or "memory" in p.stderr or p.returncode < 0 or p.returncode > 128:
            return {"wall": wall, "failed": "out of memory (--mem-gb %g)" % mem_gb if mem_gb else "killed"}
        sys.exit("scale_curve: %s exited %d:\n%s" % (" ".join(cmd), p.returncode, p.stderr[-2000:]))
    last = p.stderr.strip().splitlines()[-1].split()
    peak_mb = int(last[1]) / 1024
    text = open(report).read()
    stats = stat_lines(text)
    enc = dict((k, int(n)) for n, k in re.findall(r"(\d+) ([a-z ]+?)(?:,|$)", (re.search(r"^  encoder: (.*)$", text, re.M) or [None, ""])[1]))
    summary = re.search(r"^\S+: (\d+) errors?, (\d+) warnings?", text, re.M)
    return {
        "wall": wall,
        "peak_mb": peak_mb,
        "explore_s": stats.get("explore", (0, 0, 0))[1] / 1000,
        "asked": stats.get("total", (0, 0, 0))[0],
        "not_asked": sum(v[2] for k, v in stats.items() if k != "total"),
        "errors": int(summary.group(1)) if summary else -1,
        "warnings": int(summary.group(2)) if summary else -1,
        "variables": enc.get("variables", 0),
        "forgotten": enc.get("forgotten values", 0),
        "unknown": len(re.findall(r"\[unknown\]", text)),
        "out_of_time": "out of time:" in text,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=float, default=300)
    ap.add_argument("--hexes", default="500,1000,2000")
    ap.add_argument("--units", default="50,100,250")
    ap.add_argument("--westphalia", default=os.path.join(ROOT, "build", "app", "westphalia"))
    ap.add_argument("--work", default="/tmp/wp-scale")
    ap.add_argument("--mem-gb", type=float, default=20, help="address-space cap per check (0: none)")
    ap.add_argument("extra", nargs="*", help="more arguments for `westphalia check`, after --")
    a = ap.parse_args()
    print("| hexes | units | wall s | peak MB | explore s | variables | of them forgotten values | asked | not asked | errors | warnings | unknown | |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for h in [int(x) for x in a.hexes.split(",")]:
        for u in [int(x) for x in a.units.split(",")]:
            folder = os.path.join(a.work, "spi-%d-%d" % (h, u))
            made = subprocess.run([sys.executable, os.path.join(HERE, "make_spi_family.py"), "--hexes", str(h), "--units",
                                   str(u), "--out", folder], check=True, capture_output=True, text=True).stdout.split()
            hexes, units = made[1], made[6]
            r = one(a.westphalia, folder, a.budget, a.extra, a.mem_gb)
            if "failed" in r:
                print("| %s | %s | %.1f | | | | | | | | | | %s |" % (hexes, units, r["wall"], r["failed"]), flush=True)
                continue
            print("| %s | %s | %.1f | %.0f | %.1f | %d | %d | %d | %d | %d | %d | %d | %s |" % (
                hexes, units, r["wall"], r["peak_mb"], r["explore_s"], r["variables"], r["forgotten"], r["asked"],
                r["not_asked"], r["errors"],
                r["warnings"], r["unknown"], "out of time" if r["out_of_time"] else "finished"), flush=True)


if __name__ == "__main__":
    main()
