"""ecgemm's benchmark: speed, accuracy and energy of ecgemm and its peers on one GPU, in one run.

`python -m bench` (from the repository root) measures; `python -m bench --help` lists the options.
Modules: profiles (what is measured), inputs (seeded test matrices), methods (the methods and their promises),
timing, throughput, accuracy, energy, xla_peer/xla_worker (JAX in a subprocess), guards (validity verdicts),
report (Markdown and JSON), plots, env (versions and clocks), runner (the order of a run), cli.
`python -m bench.random`: a seeded random sample of shapes, layouts and batches against cuBLAS (issue 25).
gemmul8_peer: GEMMul8 as an optional in-process peer (tools/build_gemmul8.sh builds it; issue 26).
"""
