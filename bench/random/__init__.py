"""Random shapes (issue 25): is ecgemm faster than cuBLAS SGEMM on every shape, not only on a list?

`python -m bench.random` measures a seeded random sample of 2-D products and batches; `--help` lists the options.
Modules: sample (the draws, the cost model, the budget rule, shards), measure (the GPU timings), run (one run,
checkpointed), report (ratios, verdicts, summary, Markdown, merging shards), plots, cli.
"""
