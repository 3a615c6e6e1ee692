import gzip,csv,sys
lines=gzip.open('/tmp/f1/all_sass.csv.gz','rt').read().splitlines()
starts=[i for i,l in enumerate(lines) if l.startswith('"Kernel Name"')]+[len(lines)]
for b in map(int,sys.argv[1:]):
    seg=lines[starts[b]:starts[b+1]]
    r=list(csv.reader(seg[1:])); hdr=r[0]
    rows=[dict(zip(hdr,x)) for x in r[1:] if len(x)==len(hdr)]
    tot=sum(int(d['Warp Stall Sampling (All Samples)'] or 0) for d in rows)
    # phases: split at markers: first LDGSTS/LDG executed, DEPBAR/BAR, HMMA first, STG first
    marks=[]
    seen=set()
    for i,d in enumerate(rows):
        s=d['Source'].strip(); ex=int(d['Instructions Executed'] or 0)
        if ex==0: continue
        op=s.split()[0] if not s.startswith('@') else s.split()[1]
        for key in ('LDGSTS','LDG','DEPBAR','BAR','HMMA','STG','LDSM','ULDC','UCGABAR','RED','ATOM','LDS','STS'):
            if op.startswith(key) and key not in seen:
                seen.add(key); marks.append((i,key))
    print(seg[0][15:100], 'tot',tot)
    cum=0; prev=0
    marks.sort()
    for i,key in marks:
        c=sum(int(d['Warp Stall Sampling (All Samples)'] or 0) for d in rows[prev:i])
        print(f"   [{prev}:{i}) {c} samples ({100*c/tot:.0f}%) -> first {key} at {i}")
        prev=i
    c=sum(int(d['Warp Stall Sampling (All Samples)'] or 0) for d in rows[prev:])
    print(f"   [{prev}:end) {c} ({100*c/tot:.0f}%)")
