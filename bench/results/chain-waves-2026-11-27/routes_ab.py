"""Moved to tools/random_ab.py (`python tools/random_ab.py compare NEW BASE`, and `python tools/device.py random-ab`
for the whole A/B). Kept so that the call scripts of this folder and of later ones run as they did:

    python routes_ab.py NEW/results.json[.gz] BASE/results.json[.gz]
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3]))
from tools.random_ab import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["compare", *sys.argv[1:3]]))
