#!/usr/bin/env bash
# The strip kernels' SASS loops (start, end, instructions, LDG, FFMA) of simt.cu in the tree at $1 (default: this
# repository), compiled for sm_90a as the library is. Needs cuobjdump and nvdisasm, which the nvcc here lacks: pip
# download nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm, unzip, and put their bin folders on PATH.
set -e
R=${1:-$(git rev-parse --show-toplevel)}
O=$(mktemp -d)
nvcc -DECGEMM_BUILDING_LIBRARY -DECGEMM_HAS_SM90A -I$R/include -I$R/libecgemm -O3 -DNDEBUG -std=c++17 \
  "--generate-code=arch=compute_90a,code=[sm_90a]" --expt-relaxed-constexpr -c $R/libecgemm/kernels/simt/simt.cu -o $O/simt.o
cuobjdump -sass $O/simt.o > $O/simt.sass
python3 - $O/simt.sass <<'PY'
import re, sys
text = open(sys.argv[1]).read()
for part in re.split(r"\n\s+Function : ", text):
    name = part.split("\n")[0]
    if "strip_kernel" not in name:
        continue
    ins = re.findall(r"/\*([0-9a-f]{4})\*/\s+([^;]*);", part)
    loops = []
    for at, op in ins:  # a loop: a backward branch and what it jumps over
        m = re.search(r"BRA (0x[0-9a-f]+)", op)
        if m and int(m.group(1), 16) < int(at, 16):
            body = [x for _, x in ins if int(m.group(1), 16) <= int(_, 16) <= int(at, 16)]
            loops.append((len(body), sum("LDG" in x for x in body), sum("FFMA" in x for x in body)))
    print("interleaved" if "ILb1E" in name else "consecutive", len(ins), "instructions; loops (instr, LDG, FFMA):", loops)
PY
rm -rf $O
