"""``python -m docbot.cli_reflexion``: the ``reflexion`` console script without installing it."""

import sys

from docbot.cli import reflexion_main

sys.exit(reflexion_main())
