"""Each Tensor Core family pinned beside the planner's route and cuBLAS SGEMM on the held-out sample's slowest large
products after call 1 (cuBLAS over 32 us, below 0.95x): one side of 40-160 against a long side and a long k, where
the planes route was taken (its split pass writes and reads two planes of the long operand). The question: is
another family faster there, and the planes route's cost row pricing its traffic low? narrow_ab.py's measurement
(GPU time of back-to-back calls, median of rounds; residual against FP64 over cuBLAS's), its JSON lines.

    python family_probe.py OUT.jsonl
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "narrow-tiles-2026-11-26"))
import narrow_ab  # noqa: E402

narrow_ab.SHAPES = [("NT", 7297, 10333, 124), ("TT", 8664, 10097, 92), ("NN", 16294, 5899, 104),
                    ("NN", 11450, 15568, 83), ("NT", 70, 2350, 6049), ("TT", 67, 3257, 9355),
                    ("TT", 2406, 15001, 134), ("TT", 3360, 12554, 158), ("TN", 2004, 15680, 142),
                    ("NN", 13229, 53, 14746), ("TN", 46, 2747, 13204), ("NN", 40, 6687, 14718),
                    ("TN", 3400, 2855, 90), ("TN", 1073, 618, 1831)]
narrow_ab.ROUTES = {"planner": None, "planes": "planes", "fused_wgmma": "fused_wgmma", "fused_mma": "fused_mma",
                    "narrow": "fused_wgmma:narrow"}  # narrow_ab prints the narrow route; a side over 64 plans as unpinned

if __name__ == "__main__":
    narrow_ab.main(sys.argv[1])
