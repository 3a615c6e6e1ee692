"""The stream tile's stores where C's columns start off a 16-byte boundary: simt's stream tile pinned, against cuBLAS
SGEMM in the same process, on the k <= 32 calibration's stream-tile misses with such columns (call 1, seeds 35-37) and
wide-side-2026-11-26's (k = 1-32), each also with n rounded up to a multiple of 4 (every column aligned: a kernel the
change leaves alone). GPU time of 20 calls captured in a CUDA graph, replayed (so that Python's time per call, about
the kernels' at 10 us, stays out), median of rounds. Run once per build (base and this tree, in turn); one JSON line a
product.

    python store_ab.py OUT.jsonl [--back-to-back]

--back-to-back: stream_ab's timing (30 calls issued back to back, no graph), as call 2 ran it.
"""
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "wide-side-2026-11-26"))
import stream_ab  # noqa: E402  (pins ECGEMM_FAMILY=simt; its operands and timing)
from stream_ab import ecgemm, gpu_us, operands, torch  # noqa: E402

SHAPES = [("TN", 3240, 8, 4017), ("TT", 950, 26, 1905), ("TN", 503, 29, 4674), ("TT", 146, 21, 11002),
          ("TN", 366, 28, 6122), ("TT", 6302, 30, 555), ("NT", 520, 6, 4439), ("NT", 1435, 23, 9215),
          ("TN", 4022, 11, 5339), ("NT", 612, 6, 2823), ("TT", 12675, 32, 199), ("TT", 12520, 30, 541),
          ("TT", 2269, 23, 1046), ("TN", 5572, 20, 165), ("NN", 12944, 16, 231), ("TN", 3861, 13, 885),
          ("TN", 3987, 29, 302), ("NN", 2675, 7, 647), ("TT", 1113, 22, 4033), ("NN", 159, 28, 9345),
          ("TN", 2756, 14, 4481), ("NN", 3950, 8, 3687), ("NT", 3506, 18, 2803), ("TT", 7913, 17, 467),
          ("NT", 849, 6, 3971), ("NT", 4447, 32, 1231), ("TN", 2929, 1, 5595), ("TN", 11106, 1, 1601),
          ("TN", 6487, 1, 7949), ("TN", 2929, 2, 5595), ("TN", 2929, 4, 5595), ("TN", 6487, 4, 7949),
          ("NT", 10967, 4, 219), ("TT", 12568, 3, 541)]


def graph_us(fn, calls=20, rounds=9):
    """GPU time of one call: `calls` of them captured in a CUDA graph, the graph replayed `rounds` times."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        fn()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(calls):
            fn()
    graph.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(rounds):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3 / calls)
    return sorted(times)[len(times) // 2]


def main(out, timer=graph_us):
    assert stream_ab.os.environ["ECGEMM_FAMILY"] == "simt"
    with open(out, "w") as f:
        for op, m, k, n0 in SHAPES:
            for n in (n0, (n0 + 3) // 4 * 4):
                a, b = operands(op, m, k, n)
                c = torch.empty(m, n, device="cuda")
                cublas = timer(lambda: torch.matmul(a, b, out=c))
                ours = timer(lambda: ecgemm.matmul(a, b, mode="tf32tf32", out=c))
                bits = ecgemm.matmul(a, b, mode="tf32tf32").double().sum().item()
                row = {"op": op, "m": m, "k": k, "n": n, "route": ecgemm.explain(a, b, mode="tf32tf32"),
                       "cublas_us": cublas, "ecgemm_us": ours, "x_cublas": cublas / ours, "checksum": bits}
                print(f"{op} {m} x {k} x {n}: cuBLAS {cublas:.1f} us, ecgemm {ours:.1f} us, x {cublas / ours:.2f}")
                f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], gpu_us if "--back-to-back" in sys.argv[2:] else graph_us)
