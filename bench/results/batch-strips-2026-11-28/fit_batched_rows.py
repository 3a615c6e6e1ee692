"""The batched stream and strip rows (cost_model.hpp: kSimtStreamBatched, kSimtStripsBatched): the batches of five
short-k calibrations (k <= 32, every short-k route pinned; shortk-2026-11-27 call 1, seeds 35-37, and call 1 here, seeds
38-39 with the dot tile too), each seed held out in turn and the model's pick scored against the best route timed
(base: the 2-D rows for batches, the strip tile not offered beside the dot tile; new: cost_coefficients.inc's rows as
the library is built with them, the landed ones; refit2/3/4: the batched rows, the dot row, the FP32 form's row fitted afresh), then the rows fitted on
all five (the lines landed: refit2). From the repository root, with ECGEMM_LIBRARY naming a build of this tree:

    python bench/results/batch-strips-2026-11-28/fit_batched_rows.py > fit.txt
"""
import sys, math, collections, pathlib
ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "python")]
import tools.fit_cost_model as fit
runs={s:f'bench/results/shortk-2026-11-27/call1/cal-{s}/results.json.gz' for s in (35,36,37)}
runs.update({s:f'bench/results/batch-strips-2026-11-28/call1/cal-{s}/results.json.gz' for s in (38,39)})
pts={}
for s,pth in runs.items():
    r=fit.load(pth); P=fit.Planner(r['env']); P.device.dram_gbps=0.0
    p,mm=fit.samples(r,P); pts[s]=[dict(q,id=f"{s}:{q['id']}") for q in p if q['section']=='batched']
    print(s,len(pts[s]),'mismatch',mm, collections.Counter(q['row'] for q in pts[s]).most_common())
new=fit.inc_coefs()
base=dict(new); base['simt/stream_batched']=new['simt/stream']; base['simt/strips_batched']=new['simt/strips']
def est(q,c): return q['factor']*sum(a*b for a,b in zip(c[q['row']],q['x']))
ROWS=['simt/stream_batched','simt/strips_batched','simt/dot','fused_mma32/fp32']
def refit(train,rows):
    c=dict(new)
    for row in rows:
        tp=[q for q in train if q['row']==row]
        co,med,p90=fit.fit(tp); c[row]=list(co)
    return c
def score(test,c,label,base_rows=False):
    # base: strips not offered for dot shapes -> drop strips points on cases that have dot points
    if base_rows:
        dotcases={q['id'] for q in test if q['row']=='simt/dot'}
        test=[q for q in test if not (q['id'] in dotcases and q['row']=='simt/strips_batched')]
    ch=fit.choose(test,c)
    reg=[x['pick_us']/x['best_us'] for x in ch]; xb=[x['cublas_us']/x['pick_us'] for x in ch]
    return len(ch),fit.geomean(reg),max(reg),fit.geomean(xb),sum(v>=0.95 for v in xb)
for test in runs:
    train=[q for s in pts if s!=test for q in pts[s]]
    out=[]
    for label,c,b in (('base',base,True),('new',new,False),('refit2',refit(train,ROWS[:2]),False),('refit3',refit(train,ROWS[:3]),False),('refit4',refit(train,ROWS),False)):
        n,g,w,x,ok=score(pts[test],c,label,b); out.append(f"{label}: {g:.3f}/{w:.2f} x{x:.3f} ok{ok}")
    print(test,n,' | '.join(out))

allp=[q for s in pts for q in pts[s]]
src="bench/results/shortk-2026-11-27/call1/cal-35 + cal-36 + cal-37 (stream, strips) and bench/results/batch-strips-2026-11-28/call1/cal-38 + cal-39, batches only"
for row in ROWS[:3]:
    tp=[q for q in allp if q['row']==row]
    co,med,p90=fit.fit(tp)
    print("LINE {{" + ", ".join(f"{v:.6g}" for v in co) + f"}}}},  // {row}, {len(tp)} points, {src}; median error {math.exp(med)-1:.0%}, 90th pct {math.exp(p90)-1:.0%}")

# What refit2 (the landed rows) picks on the dot tile's shapes.
c2=refit(allp,ROWS[:2])
dotcases={q['id'] for q in allp if q['row']=='simt/dot'}
ch=fit.choose([q for q in allp if q['id'] in dotcases],c2)
reg=[x['pick_us']/x['best_us'] for x in ch]
print('dot cases refit2', len(ch), 'pick/best %.3f max %.2f'%(fit.geomean(reg),max(reg)), collections.Counter((x['pick'],x['best']) for x in ch))
for x in ch:
    if x['pick_us']/x['best_us']>1.2: print('   ',x['id'],x['pick'],x['best'],round(x['pick_us'],1),round(x['best_us'],1))
