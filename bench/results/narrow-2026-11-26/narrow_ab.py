"""gemv-2026-11-25/ab.py over a shapes file whose lines may end in "# comment" (the held-out case id):

    python narrow_ab.py shapes.txt out.json PIN [PIN ...]
"""
import importlib.util
import pathlib
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("ab", HERE.parent / "gemv-2026-11-25" / "ab.py")
ab = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ab)

if __name__ == "__main__":
    lines = [line.split("#")[0].strip() for line in open(sys.argv[1])]
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(line for line in lines if line) + "\n")
    sys.argv[1] = f.name
    ab.main()
