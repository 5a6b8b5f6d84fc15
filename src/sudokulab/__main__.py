"""``python -m sudokulab`` runs the command, for machines where the script is not on PATH."""

import sys

from .cli import main

sys.exit(main())
