"""Two bits.py files line by line: where the route (the explain text less the cost estimate, which a refit of the
cost rows moves) is the same, the digest must be the same.

    python same_bits.py NEW.txt BASE.txt
"""
import re
import sys


def main(new_path, base_path):
    same = moved = differ = 0
    for new, base in zip(open(new_path), open(base_path)):
        n, b = (re.sub(r" est=\S+", "", line).split(maxsplit=6) for line in (new, base))
        assert n[:5] == b[:5], (new, base)
        if n[6] != b[6]:
            moved += 1
            print(f"route moved: {' '.join(n[:5])}: {b[6].strip()} -> {n[6].strip()}")
        elif n[5] == b[5]:
            same += 1
        else:
            differ += 1
            print(f"BITS DIFFER on the same route: {new.strip()}")
    print(f"{new_path}: {same} the same, {differ} differ on the same route, {moved} moved")


if __name__ == "__main__":
    main(*sys.argv[1:3])
