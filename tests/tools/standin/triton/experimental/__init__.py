"""Stand-in `triton.experimental`."""
from triton.experimental import gluon
