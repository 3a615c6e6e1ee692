"""Executed instructions and warp-stall samples per opcode of one fused_mma kernel, AUTO against tf32tf32, from
call 3's ncu per-SASS counts (--page source): python breakdown.py SHAPE [SHAPE ...], run in this folder
(SHAPE as in the file names, e.g. 1073x618x1831). Opcodes are listed by how many more AUTO executes."""
import collections
import csv
import gzip
import io
import re
import sys


def rows(path):
    """(opcode, instructions executed, stall samples) per SASS instruction."""
    lines = gzip.open(path, "rt").read().split("\n")
    header = next(i for i, line in enumerate(lines) if line.startswith('"Address"'))
    for row in csv.DictReader(io.StringIO("\n".join(lines[header:]))):
        executed = row["Instructions Executed"].replace(",", "")
        if not executed.isdigit():
            continue
        samples = row["Warp Stall Sampling (All Samples)"].replace(",", "").strip()
        opcode = re.sub(r"^@!?U?P\w+\s+", "", row["Source"].strip()).split(" ")[0].split(".")[0]
        yield opcode, int(executed), int(samples or 0)


def by_opcode(path):
    executed, samples = collections.Counter(), collections.Counter()
    for opcode, n, s in rows(path):
        executed[opcode] += n
        samples[opcode] += s
    return executed, samples


def main(shapes):
    for shape in shapes:
        (et, st), (ea, sa) = by_opcode(f"src-tf32tf32-{shape}.csv.gz"), by_opcode(f"src-auto-{shape}.csv.gz")
        print(f"{shape}: instructions tf32tf32 {sum(et.values())}, auto {sum(ea.values())}; "
              f"stall samples {sum(st.values())}, {sum(sa.values())}")
        for op in sorted(set(et) | set(ea), key=lambda o: et[o] - ea[o])[:25]:
            print(f"  {op:<10} {et[op]:>10} {ea[op]:>10} {ea[op] - et[op]:>+10}   samples {st[op]:>6} {sa[op]:>6}")


if __name__ == "__main__":
    main(sys.argv[1:])
