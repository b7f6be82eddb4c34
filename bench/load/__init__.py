"""Load and abuse scenarios (issue 17): ``python -m bench.load``."""
