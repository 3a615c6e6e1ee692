"""Saving bench's figures: a PNG, then re-encoded with a 256-colour palette (Pillow, which matplotlib needs), so that
a committed scatter of a thousand shapes takes ~150 KB, not ~500. Matplotlib's plots use a few colours and their
anti-aliasing; the palette keeps them (a 1:1 look) and the result directories stay small enough to ship to the GPU
with the tree.

    python -m bench.figures FILE.png [...]   # re-encode PNGs saved before this, in place
"""
import sys


def palette(path):
    """Re-encode the PNG at `path` in place with a 256-colour palette; False where that would not be smaller."""
    import os

    import numpy as np
    from PIL import Image

    with Image.open(path) as image:
        rgb = np.asarray(image.convert("RGB"))
    # The palette is the 256 most frequent colours, each other colour mapped to its nearest: a plot's lines,
    # markers and text keep their exact colours (a median cut merged a legend's thin blue line into grey), the
    # anti-aliasing shades between them, each a few pixels, move slightly.
    colours, index, counts = np.unique(rgb.reshape(-1, 3), axis=0, return_inverse=True, return_counts=True)
    table = colours[np.argsort(-counts, kind="stable")[:256]].astype(np.int32)
    nearest = ((colours[:, None, :].astype(np.int32) - table[None, :, :]) ** 2).sum(axis=2).argmin(axis=1)
    quantized = Image.fromarray(nearest[index.ravel()].reshape(rgb.shape[:2]).astype(np.uint8), mode="P")
    quantized.putpalette(table.astype(np.uint8).ravel().tolist())
    before = os.path.getsize(path)
    tmp = f"{path}.tmp.png"
    quantized.save(tmp, optimize=True)
    if os.path.getsize(tmp) >= before:
        os.remove(tmp)
        return False
    os.replace(tmp, path)
    return True


def save(fig, path, dpi):
    """fig saved to `path` as a palette PNG."""
    fig.savefig(path, dpi=dpi)
    palette(path)


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(name, "re-encoded" if palette(name) else "kept")
