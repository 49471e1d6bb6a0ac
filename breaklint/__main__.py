import sys

from breaklint.cli import main

sys.exit(main())
