import gzip,csv,sys
fn=sys.argv[1]; blk=int(sys.argv[2]); thr=float(sys.argv[3])
lines=gzip.open(fn,'rt').read().splitlines()
starts=[i for i,l in enumerate(lines) if l.startswith('"Kernel Name"')]+[len(lines)]
def block(b):
    seg=lines[starts[b]:starts[b+1]]
    r=list(csv.reader(seg[1:]))
    hdr=r[0]; rows=[dict(zip(hdr,x)) for x in r[1:] if len(x)==len(hdr)]
    return seg[0],hdr,rows
if blk<0:
    for b in range(len(starts)-1):
        name,hdr,rows=block(b)
        tot=sum(int(x['Warp Stall Sampling (All Samples)'] or 0) for x in rows)
        ins=sum(int(x['Instructions Executed'] or 0) for x in rows)
        print(b,name[15:110],'samples',tot,'inst',ins,'n',len(rows))
    sys.exit()
name,hdr,rows=block(blk)
tot=sum(int(x['Warp Stall Sampling (All Samples)'] or 0) for x in rows)
print(name[:200]); print('total samples',tot,'instructions',len(rows))
stalls=[h for h in hdr if h.startswith('stall_') and 'Not Issued' not in h]
agg={s:sum(int(x[s] or 0) for x in rows) for s in stalls}
print({k:round(v/tot,3) for k,v in sorted(agg.items(),key=lambda kv:-kv[1]) if v/tot>0.01})
for i,x in enumerate(rows):
    s=int(x['Warp Stall Sampling (All Samples)'] or 0)
    if s>=tot*thr:
        det=sorted(((k[6:],int(x[k] or 0)) for k in stalls),key=lambda kv:-kv[1])[:3]
        print(f"{i:4d} {s:5d} {100*s/tot:5.1f}% {x['Instructions Executed']:>7s} {x['Source'].strip()[:64]:64s} {det}")
