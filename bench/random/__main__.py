import sys

from bench.random.cli import main

sys.exit(main())
